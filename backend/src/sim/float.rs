//! Floating-point arithmetic on tokens (raw bit patterns), as the library's float units compute
//! it (backend/rtl/README.md, `hsir_float_binary`, `hsir_float_unary`): Rust's `f32` / `f64`
//! arithmetic, which is IEEE-754 with round to nearest even and subnormals, with every NaN
//! result made the canonical quiet NaN; float to integer conversions are Rust's `as`
//! (truncating, saturating, NaN to 0) at the integer's width.

use crate::float::{FloatFormat, FloatOp, FloatUnit, Number};
use crate::program::mask;

/// A value of some format, exactly (f32 widens to f64 without rounding).
fn value(format: FloatFormat, bits: u64) -> f64 {
    match format {
        FloatFormat::F32 => f64::from(f32::from_bits(bits as u32)),
        FloatFormat::F64 => f64::from_bits(bits),
    }
}

fn f32_bits(x: f32) -> u64 {
    if x.is_nan() {
        FloatFormat::F32.canonical_nan()
    } else {
        u64::from(x.to_bits())
    }
}

fn f64_bits(x: f64) -> u64 {
    if x.is_nan() {
        FloatFormat::F64.canonical_nan()
    } else {
        x.to_bits()
    }
}

/// `x` rounded to `format` once (f64 to f32 with `as`, which rounds to nearest even).
fn to_format(format: FloatFormat, x: f64) -> u64 {
    match format {
        FloatFormat::F32 => f32_bits(x as f32),
        FloatFormat::F64 => f64_bits(x),
    }
}

/// `unit` on its operands' bits (`rhs` unused by one-operand ops); the result's bits.
pub fn apply(unit: &FloatUnit, lhs: u64, rhs: u64) -> u64 {
    let input = unit.input;
    let lhs = lhs & mask(input.bits());
    let rhs = rhs & mask(input.bits());
    let out = match (unit.op, input) {
        (FloatOp::Cmp(p), Number::Float(f)) => {
            let (a, b) = (value(f, lhs), value(f, rhs));
            let unordered = a.is_nan() || b.is_nan();
            u64::from(p.holds(unordered, a == b, a < b, a > b))
        }
        // Each op in its own format: f32 arithmetic rounds once, in f32.
        (FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Div, Number::Float(f)) => match f {
            FloatFormat::F32 => {
                let (a, b) = (f32::from_bits(lhs as u32), f32::from_bits(rhs as u32));
                f32_bits(match unit.op {
                    FloatOp::Add => a + b,
                    FloatOp::Sub => a - b,
                    FloatOp::Mul => a * b,
                    _ => a / b,
                })
            }
            FloatFormat::F64 => {
                let (a, b) = (f64::from_bits(lhs), f64::from_bits(rhs));
                f64_bits(match unit.op {
                    FloatOp::Add => a + b,
                    FloatOp::Sub => a - b,
                    FloatOp::Mul => a * b,
                    _ => a / b,
                })
            }
        },
        (FloatOp::Neg, Number::Float(f)) => to_format(f, -value(f, lhs)),
        // Widening is exact; narrowing f64 to f32 rounds once.
        (FloatOp::Ext | FloatOp::Trunc, Number::Float(f)) => match unit.output {
            Number::Float(to) => to_format(to, value(f, lhs)),
            Number::Int(_) => 0,
        },
        (FloatOp::SiToFp | FloatOp::UiToFp, Number::Int(width)) => {
            let signed = unit.op == FloatOp::SiToFp;
            match unit.output {
                Number::Float(FloatFormat::F32) if signed => {
                    f32_bits(super::arith::signed(lhs, width) as f32)
                }
                Number::Float(FloatFormat::F32) => f32_bits(lhs as f32),
                Number::Float(FloatFormat::F64) if signed => {
                    f64_bits(super::arith::signed(lhs, width) as f64)
                }
                Number::Float(FloatFormat::F64) => f64_bits(lhs as f64),
                Number::Int(_) => 0,
            }
        }
        (FloatOp::FpToSi | FloatOp::FpToUi, Number::Float(f)) => {
            let x = value(f, lhs);
            let width = unit.output.bits();
            if unit.op == FloatOp::FpToSi {
                // Saturating at 64 bits, then at the width: the same as saturating at once.
                let max = (mask(width) >> 1) as i64;
                (x as i64).clamp(-max - 1, max) as u64
            } else {
                (x as u64).min(mask(width))
            }
        }
        _ => 0,
    };
    out & mask(unit.output.bits())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::FloatPredicate;

    fn unit(op: FloatOp, input: Number, output: Number) -> FloatUnit {
        FloatUnit { op, input, output }
    }

    const F32: Number = Number::Float(FloatFormat::F32);
    const F64: Number = Number::Float(FloatFormat::F64);

    #[test]
    fn nans_are_canonical() {
        let add = unit(FloatOp::Add, F32, F32);
        // inf - inf, and a NaN with a payload and a sign.
        assert_eq!(apply(&add, 0x7f80_0000, 0xff80_0000), 0x7fc0_0000);
        assert_eq!(apply(&add, 0xffc0_1234, 0x3f80_0000), 0x7fc0_0000);
        let neg = unit(FloatOp::Neg, F64, F64);
        assert_eq!(apply(&neg, 0x7ff8_0000_0000_0001, 0), 0x7ff8_0000_0000_0000);
        assert_eq!(apply(&neg, 0, 0), 0x8000_0000_0000_0000);
    }

    #[test]
    fn rounding_and_subnormals() {
        let add = unit(FloatOp::Add, F32, F32);
        // 2^24 + 1 is a tie: to even, 2^24.
        assert_eq!(apply(&add, 0x4b80_0000, 0x3f80_0000), 0x4b80_0000);
        let mul = unit(FloatOp::Mul, F32, F32);
        // Half the smallest subnormal is a tie to zero; 3/4 of it rounds up.
        assert_eq!(apply(&mul, 0x0000_0001, 0x3f00_0000), 0);
        assert_eq!(apply(&mul, 0x0000_0003, 0x3f00_0000), 2);
        // -0 + -0 = -0; x - x = +0.
        assert_eq!(apply(&add, 0x8000_0000, 0x8000_0000), 0x8000_0000);
        let sub = unit(FloatOp::Sub, F32, F32);
        assert_eq!(apply(&sub, 0x4049_0fdb, 0x4049_0fdb), 0);
        let trunc = unit(FloatOp::Trunc, F64, F32);
        assert_eq!(apply(&trunc, 1e300f64.to_bits(), 0), 0x7f80_0000);
    }

    #[test]
    fn comparisons_and_conversions() {
        let cmp = |p| unit(FloatOp::Cmp(p), F32, Number::Int(1));
        let nan = 0x7fc0_0000;
        assert_eq!(apply(&cmp(FloatPredicate::Oeq), 0x8000_0000, 0), 1);
        assert_eq!(apply(&cmp(FloatPredicate::Oeq), nan, nan), 0);
        assert_eq!(apply(&cmp(FloatPredicate::Une), nan, nan), 1);
        assert_eq!(apply(&cmp(FloatPredicate::Uno), nan, 0), 1);
        assert_eq!(apply(&cmp(FloatPredicate::Olt), 0xbf80_0000, 0), 1);
        let to_i8 = unit(FloatOp::FpToSi, F32, Number::Int(8));
        assert_eq!(apply(&to_i8, 1000f32.to_bits().into(), 0), 0x7f);
        assert_eq!(apply(&to_i8, (-1000f32).to_bits().into(), 0), 0x80);
        assert_eq!(apply(&to_i8, (-2.9f32).to_bits().into(), 0), 0xfe);
        assert_eq!(apply(&to_i8, nan, 0), 0);
        let to_u16 = unit(FloatOp::FpToUi, F64, Number::Int(16));
        assert_eq!(apply(&to_u16, (-3.0f64).to_bits(), 0), 0);
        assert_eq!(apply(&to_u16, 1e9f64.to_bits(), 0), 0xffff);
        let from_i4 = unit(FloatOp::SiToFp, Number::Int(4), F32);
        assert_eq!(apply(&from_i4, 0xf, 0), u64::from((-1f32).to_bits()));
        let from_u64 = unit(FloatOp::UiToFp, Number::Int(64), F32);
        assert_eq!(apply(&from_u64, u64::MAX, 0), u64::from(1.8446744e19f32.to_bits()));
    }
}
