//! CIRCT pipeline dialect: the verifier's rules for `pipeline.scheduled` /
//! `pipeline.unscheduled` and their stages (HS4xxx).

use hsir_parser::ast::Op;

use crate::Diagnostic;

/// Checks every pipeline nested anywhere inside `item`, a top-level op (usually an
/// `hw.module`).
pub(crate) fn check_item(item: Op<'_>, acc: &mut Vec<Diagnostic>) {
    let _ = (item, acc);
}
