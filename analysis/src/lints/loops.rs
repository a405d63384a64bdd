use super::Context;
use crate::Diagnostic;

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    let _ = (cx, acc);
}
