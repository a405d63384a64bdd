//! Integer arithmetic on tokens of a given width, with the library's rules (backend/rtl/README.md
//! `hsir_binary`, `hsir_unary`) for division by zero, signed overflow and wide shifts.

use hsir_analysis::ops::OpKind;

use crate::program::mask;

/// `arith`'s binary integer ops that the component library implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    MaxS,
    MaxU,
    MinS,
    MinU,
}

impl BinaryOp {
    /// The integer op of the component library that `kind` is, if any.
    pub fn of(kind: OpKind) -> Option<BinaryOp> {
        Some(match kind {
            OpKind::AddI => BinaryOp::Add,
            OpKind::SubI => BinaryOp::Sub,
            OpKind::MulI => BinaryOp::Mul,
            OpKind::DivSI => BinaryOp::DivS,
            OpKind::DivUI => BinaryOp::DivU,
            OpKind::RemSI => BinaryOp::RemS,
            OpKind::RemUI => BinaryOp::RemU,
            OpKind::AndI => BinaryOp::And,
            OpKind::OrI => BinaryOp::Or,
            OpKind::XOrI => BinaryOp::Xor,
            OpKind::ShLI => BinaryOp::Shl,
            OpKind::ShRSI => BinaryOp::ShrS,
            OpKind::ShRUI => BinaryOp::ShrU,
            OpKind::MaxSI => BinaryOp::MaxS,
            OpKind::MaxUI => BinaryOp::MaxU,
            OpKind::MinSI => BinaryOp::MinS,
            OpKind::MinUI => BinaryOp::MinU,
            _ => return None,
        })
    }
}

/// `cmpi`'s predicates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Predicate {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl Predicate {
    /// By name, or by MLIR's enum number (generic form's `predicate = 2 : i64`).
    pub fn parse(text: &str) -> Option<Predicate> {
        const ALL: [(&str, Predicate); 10] = [
            ("eq", Predicate::Eq),
            ("ne", Predicate::Ne),
            ("slt", Predicate::Slt),
            ("sle", Predicate::Sle),
            ("sgt", Predicate::Sgt),
            ("sge", Predicate::Sge),
            ("ult", Predicate::Ult),
            ("ule", Predicate::Ule),
            ("ugt", Predicate::Ugt),
            ("uge", Predicate::Uge),
        ];
        if let Ok(n) = text.parse::<usize>() {
            return ALL.get(n).map(|(_, p)| *p);
        }
        ALL.iter().find(|(name, _)| *name == text).map(|(_, p)| *p)
    }
}

/// `value`'s low `width` bits read as a two's-complement number.
pub fn signed(value: u64, width: u32) -> i64 {
    if width == 0 {
        0
    } else if width >= 64 {
        value as i64
    } else {
        let shift = 64 - width;
        ((value << shift) as i64) >> shift
    }
}

/// `op(lhs, rhs)` on `width`-bit operands, masked to `width` bits.
pub fn binary(op: BinaryOp, width: u32, lhs: u64, rhs: u64) -> u64 {
    let m = mask(width);
    let (a, b) = (lhs & m, rhs & m);
    let (sa, sb) = (signed(a, width), signed(b, width));
    let out = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        // Division by zero: all ones (`divui`) or -1 (`divsi`), which are the same bits.
        BinaryOp::DivU | BinaryOp::DivS if b == 0 => m,
        BinaryOp::DivU => a / b,
        // The most negative value over -1 wraps to itself (sign-extended operands make this
        // hold for every width below 64, and `wrapping_div` at 64).
        BinaryOp::DivS => sa.wrapping_div(sb) as u64,
        BinaryOp::RemU | BinaryOp::RemS if b == 0 => a,
        BinaryOp::RemU => a % b,
        BinaryOp::RemS => sa.wrapping_rem(sb) as u64,
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Shl if b >= width as u64 => 0,
        BinaryOp::Shl => a << b,
        BinaryOp::ShrU if b >= width as u64 => 0,
        BinaryOp::ShrU => a >> b,
        BinaryOp::ShrS if b >= width as u64 => {
            if sa < 0 {
                m
            } else {
                0
            }
        }
        BinaryOp::ShrS => (sa >> b) as u64,
        BinaryOp::MaxS => sa.max(sb) as u64,
        BinaryOp::MinS => sa.min(sb) as u64,
        BinaryOp::MaxU => a.max(b),
        BinaryOp::MinU => a.min(b),
    };
    out & m
}

/// `cmpi pred, lhs, rhs` on `width`-bit operands.
pub fn compare(pred: Predicate, width: u32, lhs: u64, rhs: u64) -> bool {
    let m = mask(width);
    let (a, b) = (lhs & m, rhs & m);
    let (sa, sb) = (signed(a, width), signed(b, width));
    match pred {
        Predicate::Eq => a == b,
        Predicate::Ne => a != b,
        Predicate::Slt => sa < sb,
        Predicate::Sle => sa <= sb,
        Predicate::Sgt => sa > sb,
        Predicate::Sge => sa >= sb,
        Predicate::Ult => a < b,
        Predicate::Ule => a <= b,
        Predicate::Ugt => a > b,
        Predicate::Uge => a >= b,
    }
}

/// Conversions between widths, and Dynamatic's bitwise `not`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `extsi`, and `index_cast` (which sign-extends or truncates).
    SignExtend,
    /// `extui`, `trunci`, `bitcast`, and `index_castui` (zero-extends or truncates).
    ZeroExtend,
    Not,
}

impl UnaryOp {
    /// The width conversion or `not` that `kind` is, if any.
    pub fn of(kind: OpKind) -> Option<UnaryOp> {
        Some(match kind {
            OpKind::Not => UnaryOp::Not,
            OpKind::ExtSI | OpKind::IndexCast => UnaryOp::SignExtend,
            OpKind::ExtUI | OpKind::TruncI | OpKind::Bitcast | OpKind::IndexCastUI => {
                UnaryOp::ZeroExtend
            }
            _ => return None,
        })
    }
}

/// `op(value)` from `from` bits to `to` bits.
pub fn unary(op: UnaryOp, from: u32, to: u32, value: u64) -> u64 {
    let value = value & mask(from);
    let out = match op {
        UnaryOp::SignExtend => signed(value, from) as u64,
        UnaryOp::ZeroExtend => value,
        UnaryOp::Not => !value,
    };
    out & mask(to)
}

/// A LOOM stream's `step_op`, applied as the library's `hsir_stream` does: `/=` as `divsi`,
/// `>>=` as `shrsi`.
pub fn step(step_op: &str, width: u32, idx: u64, step: u64) -> Option<u64> {
    let op = match step_op {
        "+=" => BinaryOp::Add,
        "-=" => BinaryOp::Sub,
        "*=" => BinaryOp::Mul,
        "/=" => BinaryOp::DivS,
        "<<=" => BinaryOp::Shl,
        ">>=" => BinaryOp::ShrS,
        _ => return None,
    };
    Some(binary(op, width, idx, step))
}

/// A LOOM stream's continue condition `idx COND bound`, signed.
pub fn continues(cond: &str, width: u32, idx: u64, bound: u64) -> Option<bool> {
    let pred = match cond {
        "<" => Predicate::Slt,
        "<=" => Predicate::Sle,
        ">" => Predicate::Sgt,
        ">=" => Predicate::Sge,
        "!=" => Predicate::Ne,
        _ => return None,
    };
    Some(compare(pred, width, idx, bound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rules() {
        // 8 bits: -128 / -1 = -128, -128 % -1 = 0.
        assert_eq!(binary(BinaryOp::DivS, 8, 0x80, 0xff), 0x80);
        assert_eq!(binary(BinaryOp::RemS, 8, 0x80, 0xff), 0);
        assert_eq!(binary(BinaryOp::DivS, 64, i64::MIN as u64, u64::MAX), i64::MIN as u64);
        // By zero.
        assert_eq!(binary(BinaryOp::DivU, 8, 7, 0), 0xff);
        assert_eq!(binary(BinaryOp::DivS, 8, 7, 0), 0xff);
        assert_eq!(binary(BinaryOp::RemU, 8, 7, 0), 7);
        assert_eq!(binary(BinaryOp::RemS, 8, 0xf9, 0), 0xf9);
        // Signed division truncates toward zero.
        assert_eq!(binary(BinaryOp::DivS, 8, (-7i8) as u8 as u64, 2), (-3i8) as u8 as u64);
        assert_eq!(binary(BinaryOp::RemS, 8, (-7i8) as u8 as u64, 2), (-1i8) as u8 as u64);
    }

    #[test]
    fn shift_rules() {
        assert_eq!(binary(BinaryOp::Shl, 8, 1, 7), 0x80);
        assert_eq!(binary(BinaryOp::Shl, 8, 1, 8), 0);
        assert_eq!(binary(BinaryOp::ShrU, 8, 0x80, 9), 0);
        assert_eq!(binary(BinaryOp::ShrS, 8, 0x80, 200), 0xff);
        assert_eq!(binary(BinaryOp::ShrS, 8, 0x40, 200), 0);
        assert_eq!(binary(BinaryOp::ShrS, 8, 0x80, 1), 0xc0);
        assert_eq!(binary(BinaryOp::Shl, 64, 1, 64), 0);
    }

    #[test]
    fn comparisons_and_casts() {
        assert!(compare(Predicate::Slt, 4, 0x8, 0x7));
        assert!(!compare(Predicate::Ult, 4, 0x8, 0x7));
        assert_eq!(Predicate::parse("2"), Some(Predicate::Slt));
        assert_eq!(unary(UnaryOp::SignExtend, 4, 8, 0x8), 0xf8);
        assert_eq!(unary(UnaryOp::ZeroExtend, 4, 8, 0x8), 0x08);
        assert_eq!(unary(UnaryOp::ZeroExtend, 8, 4, 0xfe), 0xe);
        assert_eq!(unary(UnaryOp::Not, 8, 8, 0x0f), 0xf0);
        assert_eq!(binary(BinaryOp::MinS, 8, 0xff, 1), 0xff);
        assert_eq!(binary(BinaryOp::MinU, 8, 0xff, 1), 1);
    }
}
