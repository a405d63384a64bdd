//! Type well-formedness: every type written in the file, checked by Dynamatic's rules for
//! channel and control types (`types::lower` finds the problems; this names them).

use hsir_parser::{SyntaxKind, SyntaxNode, SyntaxTree, TextRange};

use crate::types::{self, SignalRole, TypeProblem, TypeProblemKind};
use crate::{Diagnostic, DiagnosticCode};

/// Checks the types written in an op, given as the preorder positions in `tree` of its `TYPE`
/// nodes that have nodes below them (`ir::lower_noting_types` notes them), in preorder. Only
/// channel and control parameters have problems, and they are nodes below the type: a type
/// without any (`i32`, `none`, `!t`) has none.
pub(crate) fn type_diagnostics_of(tree: &SyntaxTree, typed: &[u32], acc: &mut Vec<Diagnostic>) {
    let mut problems = Vec::new();
    for node in typed.iter().filter_map(|&i| tree.node_at(i)) {
        check(node, &mut problems);
    }
    acc.extend(problems.into_iter().map(diagnostic));
}

/// Checks every type written in `root` outside the `covered` op ranges (sorted).
pub(crate) fn type_diagnostics_outside(
    root: SyntaxNode<'_>,
    covered: &[TextRange],
    acc: &mut Vec<Diagnostic>,
) {
    let mut problems = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == SyntaxKind::OP
            && covered
                .binary_search_by_key(&(node.text_range().start(), node.text_range().end()), |r| {
                    (r.start(), r.end())
                })
                .is_ok()
        {
            continue;
        }
        if node.kind() == SyntaxKind::TYPE {
            check(node, &mut problems);
        }
        stack.extend(node.children());
    }
    acc.extend(problems.into_iter().map(diagnostic));
}

fn check(node: SyntaxNode<'_>, problems: &mut Vec<TypeProblem>) {
    // Data and extra-signal types are checked with the type that holds them; the
    // parameters of other parameterised types (`memref<4xi32>`) are not Handshake's.
    let nested = node
        .parent()
        .is_some_and(|p| matches!(p.kind(), SyntaxKind::CHANNEL_PARAMS | SyntaxKind::EXTRA_SIGNAL));
    if !nested {
        types::lower(node, problems);
    }
}

fn diagnostic(problem: TypeProblem) -> Diagnostic {
    let TypeProblem { range, kind } = problem;
    match kind {
        TypeProblemKind::NotIntOrFloat { what, ty } => {
            let what = match what {
                SignalRole::Data => "channel data type",
                SignalRole::Extra => "extra signal type",
            };
            Diagnostic::new(
                DiagnosticCode::SignalNotIntOrFloat,
                range,
                format!("{what} `{ty}` is not an integer or a float"),
            )
        }
        TypeProblemKind::ZeroWidth { ty } => Diagnostic::new(
            DiagnosticCode::ZeroWidthData,
            range,
            format!("channel data type `{ty}` has zero width"),
        ),
        TypeProblemKind::DuplicateName { name, first } => Diagnostic::new(
            DiagnosticCode::DuplicateSignalName,
            range,
            format!("extra signal name `{name}` is used twice in one type"),
        )
        .with_related(first, format!("`{name}` first named here")),
        TypeProblemKind::BadName { name } => Diagnostic::new(
            DiagnosticCode::BadSignalName,
            range,
            format!("extra signal name `{name}` may contain only letters, digits and `_`"),
        ),
        TypeProblemKind::ReservedName { name } => Diagnostic::new(
            DiagnosticCode::ReservedSignalName,
            range,
            format!("extra signal name `{name}` is reserved for the channel's own handshake wire"),
        ),
    }
}
