//! What the backend knows of floating-point ops, for the netlist and the interpreter alike: the
//! ops hsir implements (Dynamatic's and `arith`'s spellings), the formats (f32, f64), arith's 16
//! predicates, how an op's operands and result are typed, and each op's latency in cycles
//! (`float_latency`, the one table of them).
//!
//! Semantics (the library's `hsir_float_binary` / `hsir_float_unary` and `sim::float` agree,
//! checked bit for bit by `tests/float_cores.rs`): IEEE-754 binary32 / binary64, round to
//! nearest even, subnormals kept, and every NaN result is the canonical quiet NaN. Float to
//! integer conversions round toward zero and saturate, and a NaN gives 0 (Rust's `as`).

use hsir_analysis::ir::{OpData, ValueId};
use hsir_analysis::ops::{Era, OpKind};
use hsir_analysis::signatures::Style;
use hsir_analysis::types::Type;

use crate::program::Func;

/// The float formats hsir's units implement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatFormat {
    F32,
    F64,
}

impl FloatFormat {
    /// `f32` and `f64`; `None` for other float types (`f16`, `bf16`, ...).
    pub fn from_name(name: &str) -> Option<FloatFormat> {
        match name {
            "f32" => Some(FloatFormat::F32),
            "f64" => Some(FloatFormat::F64),
            _ => None,
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            FloatFormat::F32 => 32,
            FloatFormat::F64 => 64,
        }
    }

    pub fn exponent_bits(self) -> u32 {
        match self {
            FloatFormat::F32 => 8,
            FloatFormat::F64 => 11,
        }
    }

    pub fn mantissa_bits(self) -> u32 {
        self.bits() - 1 - self.exponent_bits()
    }

    /// The quiet NaN every NaN result is: sign 0, exponent all ones, the mantissa's top bit.
    pub fn canonical_nan(self) -> u64 {
        match self {
            FloatFormat::F32 => 0x7fc0_0000,
            FloatFormat::F64 => 0x7ff8_0000_0000_0000,
        }
    }

    /// The bits of a literal of this format: MLIR's hexadecimal form (`0x3F800000`) is the bit
    /// pattern itself; anything else is read as a decimal number and rounded to nearest even
    /// (`1.000000e+00`, `-2.5`, `inf`).
    pub fn literal(self, text: &str) -> Option<u64> {
        let text = text.trim();
        if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            let bits = u64::from_str_radix(hex, 16).ok()?;
            return (bits <= crate::program::mask(self.bits())).then_some(bits);
        }
        match self {
            FloatFormat::F32 => text.parse::<f32>().ok().map(|x| u64::from(x.to_bits())),
            FloatFormat::F64 => text.parse::<f64>().ok().map(f64::to_bits),
        }
    }
}

impl std::fmt::Display for FloatFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "f{}", self.bits())
    }
}

/// arith's `cmpf` predicates, in the order of MLIR's enum (`predicate = 3` is `oge`). `o`:
/// ordered (false when an operand is a NaN), `u`: unordered (true when one is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatPredicate {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

impl FloatPredicate {
    pub const ALL: [FloatPredicate; 16] = [
        FloatPredicate::False,
        FloatPredicate::Oeq,
        FloatPredicate::Ogt,
        FloatPredicate::Oge,
        FloatPredicate::Olt,
        FloatPredicate::Ole,
        FloatPredicate::One,
        FloatPredicate::Ord,
        FloatPredicate::Ueq,
        FloatPredicate::Ugt,
        FloatPredicate::Uge,
        FloatPredicate::Ult,
        FloatPredicate::Ule,
        FloatPredicate::Une,
        FloatPredicate::Uno,
        FloatPredicate::True,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FloatPredicate::False => "false",
            FloatPredicate::Oeq => "oeq",
            FloatPredicate::Ogt => "ogt",
            FloatPredicate::Oge => "oge",
            FloatPredicate::Olt => "olt",
            FloatPredicate::Ole => "ole",
            FloatPredicate::One => "one",
            FloatPredicate::Ord => "ord",
            FloatPredicate::Ueq => "ueq",
            FloatPredicate::Ugt => "ugt",
            FloatPredicate::Uge => "uge",
            FloatPredicate::Ult => "ult",
            FloatPredicate::Ule => "ule",
            FloatPredicate::Une => "une",
            FloatPredicate::Uno => "uno",
            FloatPredicate::True => "true",
        }
    }

    /// By name, or by MLIR's enum number (the generic form's `predicate = 3 : i64`).
    pub fn parse(text: &str) -> Option<FloatPredicate> {
        if let Ok(n) = text.parse::<usize>() {
            return FloatPredicate::ALL.get(n).copied();
        }
        FloatPredicate::ALL.iter().copied().find(|p| p.name() == text)
    }

    /// The predicate from what an op says: unordered, equal, less and greater (exactly one of
    /// the last three holds when the operands are ordered).
    pub fn holds(self, unordered: bool, equal: bool, less: bool, greater: bool) -> bool {
        match self {
            FloatPredicate::False => false,
            FloatPredicate::Oeq => equal,
            FloatPredicate::Ogt => greater,
            FloatPredicate::Oge => greater || equal,
            FloatPredicate::Olt => less,
            FloatPredicate::Ole => less || equal,
            FloatPredicate::One => less || greater,
            FloatPredicate::Ord => !unordered,
            FloatPredicate::Ueq => unordered || equal,
            FloatPredicate::Ugt => unordered || greater,
            FloatPredicate::Uge => unordered || greater || equal,
            FloatPredicate::Ult => unordered || less,
            FloatPredicate::Ule => unordered || less || equal,
            FloatPredicate::Une => unordered || less || greater,
            FloatPredicate::Uno => unordered,
            FloatPredicate::True => true,
        }
    }
}

/// The float ops hsir implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Cmp(FloatPredicate),
    Neg,
    /// Float to a wider float (`extf`) or a narrower one (`truncf`).
    Ext,
    Trunc,
    SiToFp,
    UiToFp,
    FpToSi,
    FpToUi,
}

/// The ops of the table `FloatOp` covers, in table order (Dynamatic writes `addf`, CIRCT
/// `arith.addf`; both are `OpKind::AddF`).
pub fn float_ops() -> impl Iterator<Item = OpKind> {
    OpKind::all().filter(|&kind| is_float_op(kind))
}

/// Whether `kind` is one of the ops `FloatOp` covers.
pub fn is_float_op(kind: OpKind) -> bool {
    FloatOp::of(kind, FloatPredicate::False).is_some()
}

impl FloatOp {
    /// The float op `kind` is, a `cmpf` comparing by `predicate`; `None` for the ops hsir has no
    /// float unit for (`remf`, `maximumf`, `absf`, ...) and for every other op.
    pub fn of(kind: OpKind, predicate: FloatPredicate) -> Option<FloatOp> {
        Some(match kind {
            OpKind::AddF => FloatOp::Add,
            OpKind::SubF => FloatOp::Sub,
            OpKind::MulF => FloatOp::Mul,
            OpKind::DivF => FloatOp::Div,
            OpKind::CmpF => FloatOp::Cmp(predicate),
            OpKind::NegF => FloatOp::Neg,
            OpKind::ExtF => FloatOp::Ext,
            OpKind::TruncF => FloatOp::Trunc,
            OpKind::SIToFP => FloatOp::SiToFp,
            OpKind::UIToFP => FloatOp::UiToFp,
            OpKind::FPToSI => FloatOp::FpToSi,
            OpKind::FPToUI => FloatOp::FpToUi,
            _ => return None,
        })
    }

    /// The op of the table it is.
    pub fn kind(self) -> OpKind {
        match self {
            FloatOp::Add => OpKind::AddF,
            FloatOp::Sub => OpKind::SubF,
            FloatOp::Mul => OpKind::MulF,
            FloatOp::Div => OpKind::DivF,
            FloatOp::Cmp(_) => OpKind::CmpF,
            FloatOp::Neg => OpKind::NegF,
            FloatOp::Ext => OpKind::ExtF,
            FloatOp::Trunc => OpKind::TruncF,
            FloatOp::SiToFp => OpKind::SIToFP,
            FloatOp::UiToFp => OpKind::UIToFP,
            FloatOp::FpToSi => OpKind::FPToSI,
            FloatOp::FpToUi => OpKind::FPToUI,
        }
    }

    /// The op's name in the library's `OP` parameter: its key (`addf`, `sitofp`), or for a
    /// comparison the key and the predicate (`cmpf_oge`).
    pub fn library_name(self) -> String {
        match self {
            FloatOp::Cmp(p) => format!("{}_{}", self.kind().key(), p.name()),
            other => other.mnemonic().to_string(),
        }
    }

    /// The op's mnemonic, its key in the op table, as Dynamatic's timing data names it.
    pub fn mnemonic(self) -> &'static str {
        self.kind().key()
    }

    pub fn is_binary(self) -> bool {
        matches!(self, FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Div | FloatOp::Cmp(_))
    }
}

/// What a value of a float op is: a float of a format, or an integer of a width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Number {
    Float(FloatFormat),
    Int(u32),
}

impl Number {
    pub fn bits(self) -> u32 {
        match self {
            Number::Float(f) => f.bits(),
            Number::Int(w) => w,
        }
    }

    /// The exponent bits the library's parameters give this side (0 for an integer).
    pub fn exponent_bits(self) -> u32 {
        match self {
            Number::Float(f) => f.exponent_bits(),
            Number::Int(_) => 0,
        }
    }
}

/// One float op, typed: what the netlist instantiates and the interpreter runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatUnit {
    pub op: FloatOp,
    /// The operand type (both operands' for binary ops).
    pub input: Number,
    pub output: Number,
}

impl FloatUnit {
    /// Cycles from operands to result in the RTL of a function written in `era`
    /// (`float_latency_in`).
    pub fn latency(&self, era: Era) -> u32 {
        float_latency_in(self.op.kind(), self.input.bits(), era)
    }
}

/// The float op `op` of `func`, typed, or why hsir has no unit for it. `None` when the op is not
/// one of `float_ops`.
pub fn unit(func: &Func, op: &OpData) -> Option<Result<FloatUnit, String>> {
    let kind = OpKind::of(op).filter(|&k| is_float_op(k))?;
    Some(typed_unit(func, op, kind))
}

fn typed_unit(func: &Func, op: &OpData, kind: OpKind) -> Result<FloatUnit, String> {
    let operand = |i: usize| {
        func.item
            .operands(op)
            .get(i)
            .and_then(|&u| func.item.uses[u as usize].value)
            .map(|v| number(func, v))
    };
    let result = func.item.results(op).first().map(|&v| number(func, v));
    let (Some(Ok(input)), Some(Ok(output))) = (operand(0), result.clone()) else {
        let problem = operand(0)
            .into_iter()
            .chain(result)
            .find_map(Result::err)
            .unwrap_or_else(|| "with operands or a result missing".to_string());
        return Err(problem);
    };
    // Every op has a float unit here; a comparison's predicate is read below.
    let Some(unit_op) = FloatOp::of(kind, FloatPredicate::False) else {
        return Err("that hsir has no float unit for".to_string());
    };
    if unit_op.is_binary() {
        match operand(1) {
            Some(Ok(rhs)) if rhs == input => {}
            Some(Err(problem)) => return Err(problem),
            _ => return Err("on operands of different types".to_string()),
        }
    }
    let float_in = matches!(input, Number::Float(_));
    let float_out = matches!(output, Number::Float(_));
    let fits = |w: u32| (2..=64).contains(&w);
    let kind = match unit_op {
        FloatOp::Cmp(_) => {
            let text = func
                .item
                .words(op)
                .first()
                .map(|&w| func.item.str(w).to_string())
                .or_else(|| {
                    func.item
                        .attr_value(op, "predicate")
                        .map(|a| hsir_analysis::dataflow::attribute_scalar(a).to_string())
                })
                .unwrap_or_default();
            FloatOp::Cmp(
                FloatPredicate::parse(&text)
                    .ok_or_else(|| format!("with an unknown predicate `{text}`"))?,
            )
        }
        other => other,
    };
    let ok = match kind {
        FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Div | FloatOp::Neg => {
            float_in && output == input
        }
        FloatOp::Cmp(_) => float_in && output == Number::Int(1),
        FloatOp::Ext => float_in && float_out && output.bits() > input.bits(),
        FloatOp::Trunc => float_in && float_out && output.bits() < input.bits(),
        FloatOp::SiToFp | FloatOp::UiToFp => !float_in && float_out,
        FloatOp::FpToSi | FloatOp::FpToUi => float_in && !float_out && fits(output.bits()),
    };
    if !ok {
        let shown = |n: Number| match n {
            Number::Float(f) => f.to_string(),
            Number::Int(w) => format!("i{w}"),
        };
        return Err(format!("from {} to {}", shown(input), shown(output)));
    }
    Ok(FloatUnit { op: kind, input, output })
}

/// The data type of a value, as a float op reads it: `f32`, `f64` or an integer, on a channel
/// without extra signals.
fn number(func: &Func, value: ValueId) -> Result<Number, String> {
    let Some(ty) = func.ty(value) else { return Err("on a value of unknown type".to_string()) };
    let data = match ty.as_channel(func.style == Style::Circt) {
        Some(Type::Channel { data, extras }) => {
            if !extras.is_empty() {
                return Err(format!("on `{ty}`, a channel with extra signals"));
            }
            *data
        }
        Some(_) => return Err(format!("on `{ty}`, which carries no number")),
        None => ty.clone(),
    };
    match &data {
        Type::Float { name, .. } => FloatFormat::from_name(name)
            .map(Number::Float)
            .ok_or_else(|| format!("on `{name}` (hsir's float units are f32 and f64)")),
        Type::Int { width, .. } => Ok(Number::Int(*width)),
        Type::Index => Ok(Number::Int(crate::program::INDEX_WIDTH)),
        other => Err(format!("on `{other}`, which is not a number")),
    }
}

/// The float format of a value's data, when it is `f32` or `f64`.
pub fn format_of(func: &Func, value: ValueId) -> Option<FloatFormat> {
    match number(func, value) {
        Ok(Number::Float(f)) => Some(f),
        _ => None,
    }
}

/// The latency in cycles of the op `kind` (a float op) whose first operand has `width` bits, as
/// the netlist instantiates it.
///
/// It is read from the built-in timing model (`backend/data/timing.txt`) at Dynamatic's default
/// period, so buffer placement and the RTL count the same cycles: the row of the smallest
/// characterised width at least `width`, in it the implementation with the largest internal
/// delay within the period, or the fastest when none fits. That gives addf / subf 6 (f32) and
/// 12 (f64), mulf 2 and 6, divf 15 and 63, cmpf 0 and 1, conversions between integers and
/// floats 5, and 0 for negf, extf, truncf and any op the model does not know.
///
/// IR written in Dynamatic's 2024 or 2025 syntax came from a Dynamatic whose float units had one
/// implementation each, with fixed latencies (the model's `NAME.2025` sections: addf / subf 9
/// and 12, mulf 4, divf 29 and 36); those are taken for it, so that a circuit runs the cycles
/// Dynamatic's own RTL ran.
pub fn float_latency_in(kind: OpKind, width: u32, era: Era) -> u32 {
    let model = crate::buffers::timing::TimingModel::builtin();
    if let Some(key) = era_section(kind, era) {
        if let Some(timing) =
            model.op_at_period(&key, width, crate::buffers::timing::DEFAULT_PERIOD)
        {
            return timing.latency;
        }
    }
    float_latency(kind, width)
}

/// The timing model's section for a float op of an earlier era, when its units differed from
/// today's: Dynamatic's units had fixed latencies until mid-2025, the model's `NAME.2025`
/// sections. `None`: the op's own section. Buffer placement asks the same section, so it counts
/// the cycles the RTL has.
pub fn era_section(kind: OpKind, era: Era) -> Option<String> {
    (is_float_op(kind) && matches!(era, Era::Dynamatic2024 | Era::Dynamatic2025))
        .then(|| format!("{}.2025", kind.key()))
}

/// Cycles of `kind` at `width` bits in Dynamatic's current RTL: the built-in timing model's
/// latency at its default period.
pub fn float_latency(kind: OpKind, width: u32) -> u32 {
    let model = crate::buffers::timing::TimingModel::builtin();
    model
        .op_at_period(kind.key(), width, crate::buffers::timing::DEFAULT_PERIOD)
        .map_or(0, |timing| timing.latency)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latencies_are_dynamatics_at_its_default_period() {
        let table: Vec<(OpKind, u32, u32)> =
            float_ops().flat_map(|op| [32, 64].map(|w| (op, w, float_latency(op, w)))).collect();
        let expected = [
            (OpKind::AddF, 6, 12),
            (OpKind::SubF, 6, 12),
            (OpKind::MulF, 2, 6),
            (OpKind::DivF, 15, 63),
            (OpKind::CmpF, 0, 1),
            (OpKind::NegF, 0, 0),
            (OpKind::ExtF, 0, 0),
            (OpKind::TruncF, 0, 0),
            (OpKind::SIToFP, 5, 5),
            (OpKind::UIToFP, 5, 5),
            (OpKind::FPToSI, 5, 5),
            (OpKind::FPToUI, 5, 5),
        ];
        assert_eq!(table.len(), 2 * expected.len(), "{table:?}");
        for (op, l32, l64) in expected {
            assert!(table.contains(&(op, 32, l32)), "{op:?} f32: {table:?}");
            assert!(table.contains(&(op, 64, l64)), "{op:?} f64: {table:?}");
        }
        assert_eq!(float_latency(OpKind::AddI, 32), 0);
        let era2025 = [(OpKind::AddF, 32, 9), (OpKind::AddF, 64, 12), (OpKind::MulF, 32, 4)];
        for (kind, width, cycles) in era2025 {
            assert_eq!(float_latency_in(kind, width, Era::Dynamatic2025), cycles);
            assert_eq!(
                float_latency_in(kind, width, Era::Dynamatic2026),
                float_latency(kind, width)
            );
        }
        assert_eq!(float_latency_in(OpKind::SIToFP, 32, Era::Dynamatic2025), 5);
        // Narrower operands take the smallest characterised row above them.
        assert_eq!(float_latency(OpKind::SIToFP, 16), 5);
    }

    #[test]
    fn predicates_and_literals() {
        assert_eq!(FloatPredicate::parse("3"), Some(FloatPredicate::Oge));
        assert_eq!(FloatPredicate::parse("une"), Some(FloatPredicate::Une));
        assert_eq!(FloatPredicate::parse("16"), None);
        assert_eq!(FloatFormat::F32.literal("1.000000e+00"), Some(0x3f80_0000));
        assert_eq!(FloatFormat::F32.literal("0x7F800000"), Some(0x7f80_0000));
        assert_eq!(FloatFormat::F32.literal("0x1FFFFFFFF"), None);
        assert_eq!(FloatFormat::F64.literal("-2.5"), Some((-2.5f64).to_bits()));
        assert_eq!(FloatFormat::F32.literal("one"), None);
    }
}
