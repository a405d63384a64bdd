//! Float ops in the netlist: one `hsir_float_binary` or `hsir_float_unary` cell each, with the
//! op's latency from `crate::float::float_latency_in` (by the function's era); float constants as their bit patterns.

use hsir_analysis::ir::{Item, OpData};
use hsir_analysis::DiagnosticCode as Code;

use super::{pins, ChannelId, Lowering};
use crate::float::{FloatFormat, Number};

/// The bits of a float `constant`'s `value` (`1.000000e+00 : f32`, or MLIR's hex form).
pub(super) fn constant_bits(item: &Item, op: &OpData, format: FloatFormat) -> Option<u64> {
    let attr = item.attr_value(op, "value")?;
    format.literal(hsir_analysis::dataflow::attribute_scalar(attr))
}

impl Lowering<'_> {
    /// A float op (`crate::float::FLOAT_OPS`) on its operand and result channels.
    pub(super) fn float(
        &mut self,
        op: &OpData,
        base: String,
        ins: Vec<ChannelId>,
        outs: Vec<ChannelId>,
    ) {
        let unit = match crate::float::unit(self.func, op) {
            Some(Ok(unit)) => unit,
            Some(Err(why)) => {
                self.error(
                    Code::BackendUnsupportedOp,
                    op.name_range,
                    format!("the backend has no RTL for `{}` {why}", op.name),
                );
                return;
            }
            None => return,
        };
        let latency = unit.latency(self.func.era).to_string();
        let op_param = format!("\"{}\"", unit.op.library_name());
        let out = pins("out", outs, true, true);
        if unit.op.is_binary() {
            let Number::Float(format) = unit.input else { return };
            self.cell(
                "hsir_float_binary",
                base,
                &[
                    ("EW", format.exponent_bits().to_string()),
                    ("MW", format.mantissa_bits().to_string()),
                    ("OW", unit.output.bits().to_string()),
                    ("OP", op_param),
                    ("LATENCY", latency),
                ],
                true,
                vec![
                    pins("lhs", vec![ins[0]], false, true),
                    pins("rhs", vec![ins[1]], false, true),
                    out,
                ],
            );
        } else {
            self.cell(
                "hsir_float_unary",
                base,
                &[
                    ("IW", unit.input.bits().to_string()),
                    ("OW", unit.output.bits().to_string()),
                    ("IEW", unit.input.exponent_bits().to_string()),
                    ("OEW", unit.output.exponent_bits().to_string()),
                    ("OP", op_param),
                    ("LATENCY", latency),
                ],
                true,
                vec![pins("in", vec![ins[0]], false, true), out],
            );
        }
    }
}
