//! Small value types shared by the ops: points, sizes, border handling.

/// A 2D point in pixel coordinates; the origin is the top-left corner,
/// `x` grows to the right and `y` downwards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point {
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
}

impl Point {
    /// The point `(x, y)`.
    pub fn new(x: usize, y: usize) -> Self {
        Self { x, y }
    }
}

/// A 2D size in pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Size {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
}

impl Size {
    /// The size `width × height`.
    pub fn new(width: usize, height: usize) -> Self {
        Self { width, height }
    }
}

/// How pixels outside the image are made up, OpenCV's names and meaning
/// (`|` marks the image edge, the image is `abcdefgh`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BorderType {
    /// `iiii|abcdefgh|iiii` for a given value `i`. With no value, morphology
    /// picks the one that never wins (`+max` for erosion, `-max` for
    /// dilation) and filters use 0.
    #[default]
    Constant,
    /// `aaaa|abcdefgh|hhhh`.
    Replicate,
    /// `dcba|abcdefgh|hgfe` (SciPy's `reflect`).
    Reflect,
    /// `edcb|abcdefgh|gfed` (SciPy's `mirror`, OpenCV's default).
    Reflect101,
    /// `efgh|abcdefgh|abcd`.
    Wrap,
}

/// Where the pixel at `i` (possibly outside `0..n`) is read from, or `None`
/// for a constant border. `n > 0`.
///
/// The reflections are periodic, so a border wider than the image still
/// resolves (SciPy's behaviour; OpenCV refuses some of these cases).
#[inline]
pub(crate) fn border_index(i: isize, n: usize, border: BorderType) -> Option<usize> {
    let n = n as isize;
    if (0..n).contains(&i) {
        return Some(i as usize);
    }
    let j = match border {
        BorderType::Constant => return None,
        BorderType::Replicate => i.clamp(0, n - 1),
        BorderType::Wrap => i.rem_euclid(n),
        BorderType::Reflect => {
            // Period 2n: 0..n forwards, n..2n backwards.
            let m = i.rem_euclid(2 * n);
            if m < n { m } else { 2 * n - 1 - m }
        }
        BorderType::Reflect101 => {
            if n == 1 {
                0
            } else {
                // Period 2n - 2, the edge pixels not repeated.
                let m = i.rem_euclid(2 * n - 2);
                if m < n { m } else { 2 * n - 2 - m }
            }
        }
    };
    Some(j as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(border: BorderType) -> Vec<Option<usize>> {
        (-3..7).map(|i| border_index(i, 4, border)).collect()
    }

    #[test]
    fn border_maps_match_opencv_tables() {
        let s = |v: &[usize]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert_eq!(
            row(BorderType::Replicate),
            s(&[0, 0, 0, 0, 1, 2, 3, 3, 3, 3])
        );
        assert_eq!(row(BorderType::Reflect), s(&[2, 1, 0, 0, 1, 2, 3, 3, 2, 1]));
        assert_eq!(
            row(BorderType::Reflect101),
            s(&[3, 2, 1, 0, 1, 2, 3, 2, 1, 0])
        );
        assert_eq!(row(BorderType::Wrap), s(&[1, 2, 3, 0, 1, 2, 3, 0, 1, 2]));
        assert_eq!(row(BorderType::Constant)[0], None);
    }
}
