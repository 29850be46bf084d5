//! The OCP minifloats (E4M3, E5M2, E2M1) and the narrow scale types,
//! converted from `f32` by round-to-nearest-even with saturation.

/// One minifloat format.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MiniFloat {
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    /// The code of the largest finite magnitude.
    max_code: u8,
    /// The code of NaN, where the format has one.
    nan_code: Option<u8>,
    /// Whether an exponent field of all ones is reserved (IEEE-style E5M2).
    ieee_specials: bool,
}

/// E4M3 without infinities: max 448, NaN is `S.1111.111`.
pub(crate) const E4M3: MiniFloat = MiniFloat {
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    max_code: 0x7E,
    nan_code: Some(0x7F),
    ieee_specials: false,
};

/// E5M2 with IEEE infinities and NaNs: max 57344.
pub(crate) const E5M2: MiniFloat = MiniFloat {
    exp_bits: 5,
    man_bits: 2,
    bias: 15,
    max_code: 0x7B,
    nan_code: Some(0x7E),
    ieee_specials: true,
};

/// E2M1: {0, 0.5, 1, 1.5, 2, 3, 4, 6} and their negatives, no NaN.
pub(crate) const E2M1: MiniFloat = MiniFloat {
    exp_bits: 2,
    man_bits: 1,
    bias: 1,
    max_code: 0x7,
    nan_code: None,
    ieee_specials: false,
};

/// `2^k` for `k` in f32's normal range.
fn pow2(k: i32) -> f32 {
    f32::from_bits(((k + 127) as u32) << 23)
}

impl MiniFloat {
    fn sign_shift(&self) -> u32 {
        self.exp_bits + self.man_bits
    }

    /// The value of a (magnitude) code.
    fn magnitude(&self, code: u8) -> f32 {
        let man_mask = (1u32 << self.man_bits) - 1;
        let exp = (code as u32 >> self.man_bits) & ((1 << self.exp_bits) - 1);
        let man = code as u32 & man_mask;
        if self.ieee_specials && exp == (1 << self.exp_bits) - 1 {
            return if man == 0 { f32::INFINITY } else { f32::NAN };
        }
        if Some(code) == self.nan_code {
            return f32::NAN;
        }
        if exp == 0 {
            man as f32 * pow2(1 - self.bias - self.man_bits as i32)
        } else {
            (1.0 + man as f32 / (1u32 << self.man_bits) as f32) * pow2(exp as i32 - self.bias)
        }
    }

    /// The value of a code.
    pub(crate) fn decode(&self, code: u8) -> f32 {
        let sign = (code >> self.sign_shift()) & 1;
        let magnitude_code = code & ((1u8 << self.sign_shift()) - 1);
        let v = self.magnitude(magnitude_code);
        if sign == 1 { -v } else { v }
    }

    /// The largest finite value.
    pub(crate) fn max(&self) -> f32 {
        self.magnitude(self.max_code)
    }

    /// The nearest code (ties to an even mantissa); magnitudes beyond the
    /// largest finite value saturate to it; NaN maps to the format's NaN
    /// (to zero for E2M1, which has none).
    pub(crate) fn encode(&self, x: f32) -> u8 {
        if x.is_nan() {
            return self.nan_code.unwrap_or(0);
        }
        let sign = if x.is_sign_negative() {
            1u8 << self.sign_shift()
        } else {
            0
        };
        sign | self.encode_magnitude(x.abs(), Rounding::Nearest)
    }

    /// The smallest code whose value is at least `a` (`a ≥ 0`), saturating.
    pub(crate) fn encode_up(&self, a: f32) -> u8 {
        self.encode_magnitude(a, Rounding::Up)
    }

    fn encode_magnitude(&self, a: f32, rounding: Rounding) -> u8 {
        if a.is_nan() || a >= self.max() {
            return self.max_code;
        }
        let m = self.man_bits as i32;
        let min_normal_exp = 1 - self.bias;
        let round = |v: f32| match rounding {
            Rounding::Nearest => libm::rintf(v),
            Rounding::Up => libm::ceilf(v),
        };
        if a < pow2(min_normal_exp) {
            // Subnormal: steps of 2^(1 - bias - m); a result of 2^m is the
            // smallest normal, whose code is the same integer.
            let q = round(a / pow2(min_normal_exp - m));
            return q as u8;
        }
        let e = ((a.to_bits() >> 23) & 0xff) as i32 - 127;
        let mut mantissa = round(a / pow2(e - m)) as u32;
        let mut exp = e;
        if mantissa == 1 << (m + 1) {
            mantissa = 1 << m;
            exp += 1;
        }
        let code = (((exp + self.bias) as u32) << m) | (mantissa - (1 << m));
        (code as u8).min(self.max_code)
    }
}

#[derive(Clone, Copy)]
enum Rounding {
    Nearest,
    Up,
}

/// A UE8M0 code at least `a`: the next power of two up, exponent biased by
/// 127, kept within 2^-127..=2^127.
pub(crate) fn ue8m0_encode_up(a: f32) -> u8 {
    if a.is_nan() || a <= 0.0 {
        return 0;
    }
    let bits = a.to_bits();
    let mut e = ((bits >> 23) & 0xff) as i32 - 127;
    if bits & 0x7f_ffff != 0 {
        e += 1;
    }
    (e.clamp(-127, 127) + 127) as u8
}

/// The value of a UE8M0 code.
pub(crate) fn ue8m0_decode(code: u8) -> f32 {
    let e = code as i32 - 127;
    if e == -127 {
        // 2^-127 is subnormal in f32.
        pow2(-126) * 0.5
    } else {
        pow2(e)
    }
}
