//! Run-time dtype dispatch: a `match` on the dtype that binds a type alias,
//! so a kernel is written once as generic code over `E`.
//!
//! Each macro names the op so a dtype the kernel cannot handle panics with
//! `"{op}: … got {dtype}"` instead of computing garbage.

/// Runs `$body` with `$E` bound to the Rust type of a float dtype.
#[macro_export]
macro_rules! with_float {
    ($op:expr, $dtype:expr, |$E:ident| $body:expr) => {
        match $dtype {
            burn_std::DType::F64 => {
                type $E = f64;
                $body
            }
            burn_std::DType::F32 => {
                type $E = f32;
                $body
            }
            burn_std::DType::F16 => {
                type $E = half::f16;
                $body
            }
            burn_std::DType::BF16 => {
                type $E = half::bf16;
                $body
            }
            other => panic!("{}: expected a float dtype, got {}", $op, other),
        }
    };
}

/// Runs `$body` with `$E` bound to the Rust type of an integer dtype.
#[macro_export]
macro_rules! with_int {
    ($op:expr, $dtype:expr, |$E:ident| $body:expr) => {
        match $dtype {
            burn_std::DType::I64 => {
                type $E = i64;
                $body
            }
            burn_std::DType::I32 => {
                type $E = i32;
                $body
            }
            burn_std::DType::I16 => {
                type $E = i16;
                $body
            }
            burn_std::DType::I8 => {
                type $E = i8;
                $body
            }
            burn_std::DType::U64 => {
                type $E = u64;
                $body
            }
            burn_std::DType::U32 => {
                type $E = u32;
                $body
            }
            burn_std::DType::U16 => {
                type $E = u16;
                $body
            }
            burn_std::DType::U8 => {
                type $E = u8;
                $body
            }
            other => panic!("{}: expected an integer dtype, got {}", $op, other),
        }
    };
}

/// Runs `$body` with `$E` bound to the Rust type of any numeric dtype.
#[macro_export]
macro_rules! with_numeric {
    ($op:expr, $dtype:expr, |$E:ident| $body:expr) => {
        match $dtype {
            burn_std::DType::F64 => {
                type $E = f64;
                $body
            }
            burn_std::DType::F32 => {
                type $E = f32;
                $body
            }
            burn_std::DType::F16 => {
                type $E = half::f16;
                $body
            }
            burn_std::DType::BF16 => {
                type $E = half::bf16;
                $body
            }
            burn_std::DType::I64 => {
                type $E = i64;
                $body
            }
            burn_std::DType::I32 => {
                type $E = i32;
                $body
            }
            burn_std::DType::I16 => {
                type $E = i16;
                $body
            }
            burn_std::DType::I8 => {
                type $E = i8;
                $body
            }
            burn_std::DType::U64 => {
                type $E = u64;
                $body
            }
            burn_std::DType::U32 => {
                type $E = u32;
                $body
            }
            burn_std::DType::U16 => {
                type $E = u16;
                $body
            }
            burn_std::DType::U8 => {
                type $E = u8;
                $body
            }
            other => panic!("{}: expected a numeric dtype, got {}", $op, other),
        }
    };
}

/// Runs `$body` with `$E` bound to an unsigned type of the dtype's element
/// size: for kernels that only move elements (copies, gathers, shape ops),
/// so they are compiled four times instead of thirteen.
#[macro_export]
macro_rules! with_size {
    ($dtype:expr, |$E:ident| $body:expr) => {
        match burn_std::DType::size(&$dtype) {
            1 => {
                type $E = u8;
                $body
            }
            2 => {
                type $E = u16;
                $body
            }
            4 => {
                type $E = u32;
                $body
            }
            8 => {
                type $E = u64;
                $body
            }
            other => unreachable!("no dtype has {other}-byte elements"),
        }
    };
}
