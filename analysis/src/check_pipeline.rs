//! CIRCT pipeline dialect: the verifier's rules for `pipeline.scheduled` /
//! `pipeline.unscheduled` and their stages (HS4xxx).
//!
//! A scheduled pipeline is one region whose blocks are stages. The entry block is stage 0; each
//! stage ends in `pipeline.stage ^next regs(...) pass(...)` or `pipeline.return`, and following
//! the `pipeline.stage` targets from the entry block gives the stage order. Every check that
//! talks about "earlier" and "later" uses that order, never the order of the blocks in the text.
//!
//! A scheduled pipeline is *register-materialized* exactly when CIRCT's
//! `ScheduledPipelineOp::isMaterialized` says so: some non-entry stage block has more than one
//! argument, that is, a data argument besides its enable. Then values cross stages only as block
//! arguments and `pipeline.src` is an error. Otherwise a value from an earlier stage is read
//! through `pipeline.src`; a pipeline with no `pipeline.src` at all that uses values across
//! stages directly is the rationale's older implicit-register form, accepted with a warning.
//! Constants and values defined outside the pipeline may be used in any stage: the region is not
//! isolated, and CIRCT treats outside values as external inputs that are never registered.

use std::collections::HashMap;

use hsir_parser::ast::{AstNode, Block, BlockArg, BlockLabel, Op, Operand, TypeList};
use hsir_parser::{SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

use crate::ops::{Dialect, OpKind};
use crate::{Diagnostic, DiagnosticCode};

/// A table op as the rules match it and as messages name it (`pipeline.stage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Named(OpKind);

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.key())
    }
}

const SCHEDULED: Named = Named(OpKind::PipelineScheduled);
const UNSCHEDULED: Named = Named(OpKind::PipelineUnscheduled);
const STAGE: Named = Named(OpKind::PipelineStage);
const SOURCE: Named = Named(OpKind::PipelineSrc);
const RETURN: Named = Named(OpKind::PipelineReturn);
const LATENCY: Named = Named(OpKind::PipelineLatency);
const LATENCY_RETURN: Named = Named(OpKind::PipelineLatencyReturn);

/// The table op `op` is, by its name in any spelling.
fn named(op: Op<'_>) -> Option<Named> {
    op.name().and_then(OpKind::from_name).map(Named)
}

/// CIRCT ops of other dialects with the `ConstantLike` trait that appear in pipelines (with
/// `arith.constant`, `is_constant`). The rationale exempts constants from the stage rules so
/// that canonicalization can move them freely.
const OTHER_CONSTANT_OPS: &[&str] = &[
    "hw.constant",
    "hw.aggregate_constant",
    "hw.enum.constant",
    "hw.param.value",
    "hwarith.constant",
    "seq.const_clock",
    "llhd.constant_time",
    "calyx.constant",
    "firrtl.constant",
    "firrtl.specialconstant",
    "firrtl.aggregateconstant",
    "moore.constant",
    "ltl.boolean_constant",
];

/// Checks every pipeline nested anywhere inside `item`, a top-level op (usually an
/// `hw.module`).
pub(crate) fn check_item(item: Op<'_>, acc: &mut Vec<Diagnostic>) {
    // Most items hold no pipeline op, and one scan of the text is cheaper than a walk of the
    // tree (every pipeline op's name, generic form included, has this in it).
    if !item.syntax().text().contains(Dialect::Pipeline.prefix()) {
        return;
    }
    for op in item.syntax().descendants().filter_map(Op::cast) {
        match named(op) {
            Some(SCHEDULED) => check_pipeline(op, Phase::Scheduled, acc),
            Some(UNSCHEDULED) => check_pipeline(op, Phase::Unscheduled, acc),
            Some(STAGE | SOURCE | RETURN | LATENCY | LATENCY_RETURN) => check_pipeline_op(op, acc),
            _ => {}
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Unscheduled,
    Scheduled,
}

// ---- ops on their own --------------------------------------------------------------------

/// The rules an op of the dialect obeys wherever it is: its parent, the older syntax, and the
/// shape of `pipeline.latency`.
fn check_pipeline_op(op: Op<'_>, acc: &mut Vec<Diagnostic>) {
    let (Some(name), Some(kind)) = (op.name(), named(op)) else { return };
    let parent = parent_op(op);
    let parent_name = parent.and_then(|p| p.name());
    let parent_kind = parent.and_then(named);
    let allowed: &[Named] = match kind {
        STAGE | SOURCE => &[SCHEDULED],
        LATENCY_RETURN => &[LATENCY],
        _ => &[SCHEDULED, UNSCHEDULED],
    };
    if !parent_kind.is_some_and(|p| allowed.contains(&p)) {
        let message = if parent_kind == Some(UNSCHEDULED) {
            format!(
                "`{name}` in a `{UNSCHEDULED}`: an unscheduled pipeline is one block without \
                 stages, so nothing ends or crosses a stage yet"
            )
        } else {
            let allowed = allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>();
            let mut message =
                format!("`{name}` must be directly inside a {}", allowed.join(" or "));
            if let Some(parent) = parent_name {
                message.push_str(&format!(", not a `{parent}`"));
            }
            message
        };
        acc.push(Diagnostic::new(DiagnosticCode::PipelineOpMisplaced, name_range(op), message));
    }

    match kind {
        STAGE => {
            if let Some((keyword, range)) = legacy_clause(op, &["enable"]) {
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineLegacyForm,
                    range,
                    format!(
                        "`{keyword}` on `{STAGE}` is the older syntax: today the target stage \
                         receives its enable as its last block argument, so drop the clause"
                    ),
                ));
            }
        }
        RETURN => {
            if let Some((keyword, range)) = legacy_clause(op, &["valid", "enable"]) {
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineLegacyForm,
                    range,
                    format!(
                        "`{keyword}` on `{RETURN}` is the older syntax: today the pipeline's last \
                         result, `done`, is the valid signal, so drop the clause"
                    ),
                ));
            }
        }
        LATENCY => check_latency(op, parent_kind == Some(SCHEDULED), acc),
        LATENCY_RETURN => {
            if let Some(latency) = parent.filter(|&p| named(p) == Some(LATENCY)) {
                if let Some((types, range)) = latency_result_types(latency) {
                    let expected: Vec<Expected> = types
                        .into_iter()
                        .enumerate()
                        .map(|(i, (ty, range))| Expected {
                            ty: Some(ty),
                            range,
                            what: format!("result {i} of `{LATENCY}`"),
                        })
                        .collect();
                    let declared = Declared {
                        range,
                        what: format!(
                            "its `{LATENCY}` declares {}",
                            plural(expected.len(), "result")
                        ),
                    };
                    check_returned(op, &expected, &declared, acc);
                }
            }
        }
        _ => {}
    }
}

/// `pipeline.latency N -> (T, ...)`: at least one cycle, and (in a scheduled pipeline, where
/// the results are what the stages wait for) at least one result.
fn check_latency(op: Op<'_>, in_scheduled: bool, acc: &mut Vec<Diagnostic>) {
    if let Some(token) = latency_token(op) {
        if token.text().parse::<u64>().is_ok_and(|n| n < 1) {
            acc.push(Diagnostic::new(
                DiagnosticCode::PipelineLatencyMalformed,
                token.text_range(),
                format!(
                    "`{LATENCY} {}` delays by no cycles: a latency is at least 1",
                    token.text()
                ),
            ));
        }
    }
    if in_scheduled {
        if let Some((types, _)) = latency_result_types(op) {
            if types.is_empty() {
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineLatencyMalformed,
                    name_range(op),
                    format!(
                        "`{LATENCY}` without results: in a scheduled pipeline it must delay at \
                         least one value"
                    ),
                ));
            }
        }
    }
}

// ---- one pipeline ------------------------------------------------------------------------

fn check_pipeline(op: Op<'_>, phase: Phase, acc: &mut Vec<Diagnostic>) {
    let legacy = is_legacy_header(op);
    if legacy {
        acc.push(Diagnostic::new(
            DiagnosticCode::PipelineLegacyForm,
            name_range(op),
            format!(
                "`{}` is written in the rationale's older form (`(%a) clock %clk : (T) -> T`); \
                 the current form is `(%a0 : T = %a) clock(%clk) go(%go) entryEn(%s0_enable) -> \
                 (out: T)`, so only its block structure is checked",
                op.name().map_or_else(|| SCHEDULED.to_string(), str::to_string)
            ),
        ));
    }
    let Some(region) = op.regions().into_iter().next() else { return };
    let blocks: Vec<Block<'_>> = region.blocks().collect();
    if blocks.is_empty() {
        return;
    }
    if !legacy {
        check_outputs(op, &blocks, acc);
    }
    match phase {
        Phase::Unscheduled => {
            check_terminators(&blocks[..1], phase, op, acc);
            if let Some(extra) = blocks.get(1) {
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineOpMisplaced,
                    block_anchor(*extra),
                    format!(
                        "`{UNSCHEDULED}` has {} blocks, but an unscheduled pipeline is a single \
                         block: stages only exist once it is scheduled",
                        blocks.len()
                    ),
                ));
            }
        }
        Phase::Scheduled => check_scheduled(op, &blocks, legacy, acc),
    }
}

fn check_scheduled(op: Op<'_>, blocks: &[Block<'_>], legacy: bool, acc: &mut Vec<Diagnostic>) {
    let labels = block_labels(blocks);
    let terminated = check_terminators(blocks, Phase::Scheduled, op, acc);
    if !legacy {
        let enables = check_enables(blocks, acc);
        check_stage_arguments(blocks, &labels, &enables, acc);
        check_stallability(op, blocks, acc);
    }
    if !terminated {
        return;
    }
    let Some(stages) = stage_chain(blocks, &labels, acc) else { return };
    if !legacy {
        check_values(op, blocks, &labels, &stages, acc);
    }
}

/// HS4001: every block ends in a terminator of the dialect, and only there. Returns whether
/// all blocks are properly terminated.
fn check_terminators(
    blocks: &[Block<'_>],
    phase: Phase,
    pipeline: Op<'_>,
    acc: &mut Vec<Diagnostic>,
) -> bool {
    let allowed: &[Named] = match phase {
        Phase::Scheduled => &[STAGE, RETURN],
        Phase::Unscheduled => &[RETURN],
    };
    let expected = match phase {
        Phase::Scheduled => format!("`{STAGE}` or `{RETURN}`"),
        Phase::Unscheduled => format!("`{RETURN}`"),
    };
    let mut ok = true;
    for (index, block) in blocks.iter().enumerate() {
        let ops: Vec<Op<'_>> = block.ops().collect();
        let what = match phase {
            Phase::Unscheduled => "the pipeline body".to_string(),
            Phase::Scheduled => block_description(*block, index),
        };
        for inner in ops.iter().take(ops.len().saturating_sub(1)) {
            if let (Some(name), Some(STAGE | RETURN)) = (inner.name(), named(*inner)) {
                ok = false;
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineStageNoTerminator,
                    name_range(*inner),
                    format!("`{name}` ends {what}, so it must be its last op"),
                ));
            }
        }
        let last = ops.last().copied();
        match (last.and_then(|o| o.name()), last.and_then(named)) {
            (Some(_), Some(kind)) if allowed.contains(&kind) => {}
            // A `pipeline.stage` in an unscheduled pipeline is reported as misplaced.
            (Some(_), Some(STAGE)) => ok = false,
            (Some(name), _) => {
                ok = false;
                let range = last.map_or_else(|| block_anchor(*block), name_range);
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineStageNoTerminator,
                    range,
                    format!("{what} ends in `{name}`, not in {expected}"),
                ));
            }
            (None, _) => {
                ok = false;
                let range = if index == 0 && block.label().is_none() {
                    name_range(pipeline)
                } else {
                    block_anchor(*block)
                };
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineStageNoTerminator,
                    range,
                    format!("{what} has no terminator: it must end in {expected}"),
                ));
            }
        }
    }
    ok
}

/// The stage order: `position[block]` is the block's place on the chain from the entry stage,
/// `None` for blocks the chain never reaches.
struct Stages {
    position: Vec<Option<usize>>,
}

/// HS4002 / HS4003: follows the `pipeline.stage` targets from the entry block. `None` when the
/// chain is broken (unknown target, cycle); then stage distances mean nothing.
fn stage_chain(
    blocks: &[Block<'_>],
    labels: &HashMap<&str, usize>,
    acc: &mut Vec<Diagnostic>,
) -> Option<Stages> {
    let mut position: Vec<Option<usize>> = vec![None; blocks.len()];
    let mut current = 0;
    let mut length = 0;
    loop {
        position[current] = Some(length);
        length += 1;
        let Some(terminator) = blocks[current].ops().last() else { break };
        if named(terminator) != Some(STAGE) {
            break;
        }
        let target = successor(terminator)?;
        let Some(&next) = labels.get(target.text()) else {
            acc.push(Diagnostic::new(
                DiagnosticCode::PipelineStageChain,
                target.text_range(),
                format!("`{}` is not a stage block of this pipeline", target.text()),
            ));
            return None;
        };
        if let Some(earlier) = position[next] {
            let mut diagnostic = Diagnostic::new(
                DiagnosticCode::PipelineStageChain,
                target.text_range(),
                format!(
                    "`{STAGE}` goes back to `{}`, stage {earlier}: the stages form a cycle",
                    target.text()
                ),
            );
            if let Some(label) = blocks[next].label().and_then(|l| l.name()) {
                diagnostic = diagnostic
                    .with_related(label.text_range(), format!("`{}` starts here", label.text()));
            }
            acc.push(diagnostic);
            return None;
        }
        current = next;
    }
    for (index, block) in blocks.iter().enumerate() {
        if position[index].is_none() {
            acc.push(Diagnostic::new(
                DiagnosticCode::PipelineStageUnreachable,
                block_anchor(*block),
                format!(
                    "{} is never reached: no `{STAGE}` on the chain from the entry stage goes \
                     to it, so its ops never become hardware",
                    block_description(*block, index)
                ),
            ));
        }
    }
    Some(Stages { position })
}

/// HS4004: the last argument of every non-entry stage is its `i1` enable. Returns, per block,
/// whether that holds (the entry block's enable is `entryEn(...)`, so it always does).
fn check_enables(blocks: &[Block<'_>], acc: &mut Vec<Diagnostic>) -> Vec<bool> {
    let mut enables = vec![true; blocks.len()];
    for (index, block) in blocks.iter().enumerate().skip(1) {
        let Some(label) = block.label() else { continue };
        let Some(args) = readable_args(label) else { continue };
        let name = label.name().map_or("this stage", |n| n.text());
        match args.last() {
            None => {
                enables[index] = false;
                acc.push(Diagnostic::new(
                    DiagnosticCode::PipelineStageEnableMissing,
                    block_anchor(*block),
                    format!(
                        "stage `{name}` has no arguments, but its last argument must be the `i1` \
                         stage enable"
                    ),
                ));
            }
            Some(arg) => {
                let Some(ty) = arg.ty() else { continue };
                let ty = normalized(ty.syntax().text());
                if ty != "i1" {
                    enables[index] = false;
                    let arg_name = arg.name().map_or("?", |n| n.text());
                    acc.push(Diagnostic::new(
                        DiagnosticCode::PipelineStageEnableMissing,
                        arg.syntax().text_range(),
                        format!(
                            "the last argument of stage `{name}`, `{arg_name}`, is `{ty}`, but it \
                             must be the `i1` stage enable"
                        ),
                    ));
                }
            }
        }
    }
    enables
}

/// HS4008: the values a `pipeline.stage` sends (`regs`, then `pass`) are the target block's
/// arguments before its enable, in number and type.
fn check_stage_arguments(
    blocks: &[Block<'_>],
    labels: &HashMap<&str, usize>,
    enables: &[bool],
    acc: &mut Vec<Diagnostic>,
) {
    for block in blocks {
        let Some(stage) = block.ops().last().filter(|&o| named(o) == Some(STAGE)) else { continue };
        let Some(target) = successor(stage) else { continue };
        let Some(&index) = labels.get(target.text()) else { continue };
        if !enables[index] {
            continue;
        }
        let Some(label) = blocks[index].label() else { continue };
        let Some(mut args) = readable_args(label) else { continue };
        args.pop();
        let registers = stage_entries(stage, "regs");
        let passed = stage_entries(stage, "pass");
        let sent = registers.len() + passed.len();
        let target_name = target.text();
        let label_range = label.name().map_or(label.syntax().text_range(), |n| n.text_range());
        if sent != args.len() {
            acc.push(
                Diagnostic::new(
                    DiagnosticCode::PipelineStageArgsMismatch,
                    name_range(stage),
                    format!(
                        "`{STAGE}` sends {} ({} in `regs`, {} in `pass`) to `{target_name}`, \
                         which takes {} besides its enable",
                        plural(sent, "value"),
                        registers.len(),
                        passed.len(),
                        plural(args.len(), "argument"),
                    ),
                )
                .with_related(label_range, format!("`{target_name}` declared here")),
            );
            continue;
        }
        let entries =
            registers.iter().enumerate().map(|(i, e)| (format!("register {i}"), e)).chain(
                passed.iter().enumerate().map(|(i, e)| (format!("pass-through value {i}"), e)),
            );
        for (position, ((what, entry), arg)) in entries.zip(&args).enumerate() {
            let (Some(sent_ty), Some(arg_ty)) = (entry.ty, arg.ty()) else { continue };
            let (sent_text, arg_text) =
                (normalized(sent_ty.text()), normalized(arg_ty.syntax().text()));
            if sent_text != arg_text {
                let arg_name = arg.name().map_or("?", |n| n.text());
                acc.push(
                    Diagnostic::new(
                        DiagnosticCode::PipelineStageArgsMismatch,
                        sent_ty.text_range(),
                        format!(
                            "{what} of `{STAGE}` is `{sent_text}`, but argument {position} of \
                             `{target_name}`, `{arg_name}`, is `{arg_text}`"
                        ),
                    )
                    .with_related(arg.syntax().text_range(), format!("`{arg_name}` declared here")),
                );
            }
        }
    }
}

/// HS4007: `stallability = [...]` needs a stall signal and one boolean per stage that ends in
/// registers, that is, every stage but the last.
fn check_stallability(op: Op<'_>, blocks: &[Block<'_>], acc: &mut Vec<Diagnostic>) {
    let Some(entry) = op.attributes().into_iter().find(|e| e.key() == Some("stallability")) else {
        return;
    };
    let range = entry.syntax().text_range();
    if !op.keyword_groups().any(|g| g.keyword() == Some("stall")) {
        acc.push(Diagnostic::new(
            DiagnosticCode::PipelineStallability,
            range,
            "`stallability` without a `stall(%s)` signal: no stage can stall, so there is nothing \
             to mark",
        ));
        return;
    }
    let array = entry
        .value()
        .and_then(|v| v.syntax().children().find(|n| n.kind() == SyntaxKind::ARRAY_ATTR));
    let Some(array) = array else {
        acc.push(Diagnostic::new(
            DiagnosticCode::PipelineStallability,
            range,
            "`stallability` must be an array of `true` / `false`, one per stage",
        ));
        return;
    };
    let elements: Vec<SyntaxNode<'_>> =
        array.children().filter(|n| n.kind() == SyntaxKind::ATTR).collect();
    for element in &elements {
        let text = element.text().trim();
        if !matches!(text, "true" | "false") {
            acc.push(Diagnostic::new(
                DiagnosticCode::PipelineStallability,
                element.text_range(),
                format!("`stallability` entry `{text}` is not `true` or `false`"),
            ));
        }
    }
    let stages = blocks.len() - 1;
    if elements.len() != stages {
        acc.push(Diagnostic::new(
            DiagnosticCode::PipelineStallability,
            range,
            format!(
                "`stallability` has {}, but the pipeline has {} that end in registers (every \
                 stage but the last)",
                plural(elements.len(), "entry"),
                plural(stages, "stage"),
            ),
        ));
    }
}

/// HS4009: every `pipeline.return` matches the output list, and the results bound to the
/// pipeline are its outputs plus `done`.
fn check_outputs(op: Op<'_>, blocks: &[Block<'_>], acc: &mut Vec<Diagnostic>) {
    let Some(list) = op.syntax().children().find(|n| n.kind() == SyntaxKind::PIPELINE_OUTPUT_LIST)
    else {
        return;
    };
    let outputs = op.pipeline_outputs();
    let expected: Vec<Expected> = outputs
        .iter()
        .enumerate()
        .map(|(i, output)| Expected {
            ty: output.ty().map(|t| normalized(t.syntax().text())),
            range: output.syntax().text_range(),
            what: match output.name() {
                Some(name) => format!("output `{}`", name.text()),
                None => format!("output {i}"),
            },
        })
        .collect();
    let declared = Declared {
        range: list.text_range(),
        what: format!("the pipeline declares {}", plural(expected.len(), "output")),
    };
    for block in blocks {
        for ret in block.ops().filter(|&o| named(o) == Some(RETURN)) {
            check_returned(ret, &expected, &declared, acc);
        }
    }
    let bound: u32 = op.results().map(|r| r.count()).sum();
    let needed = expected.len() + 1;
    if bound != 0 && bound as usize != needed {
        let range = op
            .syntax()
            .children()
            .find(|n| n.kind() == SyntaxKind::RESULT_LIST)
            .map_or_else(|| name_range(op), |n| n.text_range());
        acc.push(Diagnostic::new(
            DiagnosticCode::PipelineReturnMismatch,
            range,
            format!(
                "`{}` has {} ({} and `done`), but {bound} {} bound here",
                op.name().map_or_else(|| SCHEDULED.to_string(), str::to_string),
                plural(needed, "result"),
                plural(expected.len(), "output"),
                if bound == 1 { "is" } else { "are" },
            ),
        ));
    }
}

/// A declared result a return must match.
struct Expected {
    ty: Option<String>,
    range: TextRange,
    /// `output `out`` or `result 0 of `pipeline.latency``.
    what: String,
}

/// Where the results are declared, and how many.
struct Declared {
    range: TextRange,
    what: String,
}

fn check_returned(
    ret: Op<'_>,
    expected: &[Expected],
    declared: &Declared,
    acc: &mut Vec<Diagnostic>,
) {
    let name = ret.name().map_or_else(|| RETURN.to_string(), str::to_string);
    let values = returned_values(ret);
    if values.len() != expected.len() {
        acc.push(
            Diagnostic::new(
                DiagnosticCode::PipelineReturnMismatch,
                name_range(ret),
                format!(
                    "`{name}` returns {}, but {}",
                    plural(values.len(), "value"),
                    declared.what
                ),
            )
            .with_related(declared.range, "declared here"),
        );
        return;
    }
    let types: Vec<SyntaxNode<'_>> = ret.type_lists().flat_map(|l| l.types()).collect();
    if types.len() != values.len() {
        return;
    }
    for (index, (ty, expected)) in types.iter().zip(expected).enumerate() {
        let Some(expected_ty) = &expected.ty else { continue };
        let ty_text = normalized(ty.text());
        if &ty_text != expected_ty {
            acc.push(
                Diagnostic::new(
                    DiagnosticCode::PipelineReturnMismatch,
                    ty.text_range(),
                    format!(
                        "`{name}` value {index} is `{ty_text}`, but {} is `{expected_ty}`",
                        expected.what
                    ),
                )
                .with_related(expected.range, format!("{} declared here", expected.what)),
            );
        }
    }
}

// ---- values across stages ----------------------------------------------------------------

/// A value defined in the pipeline: a pipeline input, a block argument or an op result.
#[derive(Clone, Copy)]
struct Def<'t> {
    name: SyntaxToken<'t>,
    /// The stage block (index in the region) the value belongs to; values of nested regions
    /// belong to the stage that holds them.
    block: usize,
    op: Option<Op<'t>>,
}

/// A use of a pipeline value by an op in (or nested in) a stage.
struct Use<'t> {
    operand: Operand<'t>,
    user: Op<'t>,
    block: usize,
    def: usize,
    /// The operand is in the `pass(...)` of a `pipeline.stage`: forwarded, not registered.
    passed: bool,
}

/// The definitions in scope, innermost region last. MLIR resolves a name to the definition in
/// the innermost enclosing region; a name not defined in the pipeline comes from outside it.
struct Values<'t> {
    defs: Vec<Def<'t>>,
    scopes: Vec<HashMap<&'t str, usize>>,
}

impl<'t> Values<'t> {
    fn define(&mut self, name: SyntaxToken<'t>, block: usize, op: Option<Op<'t>>) -> usize {
        let index = self.defs.len();
        self.defs.push(Def { name, block, op });
        if let Some(scope) = self.scopes.last_mut() {
            scope.entry(base_name(name.text())).or_insert(index);
        }
        index
    }

    fn resolve(&self, text: &str) -> Option<usize> {
        let name = base_name(text);
        self.scopes.iter().rev().find_map(|scope| scope.get(name).copied())
    }

    /// Defines the pipeline's inner inputs and its entry enable, which belong to the entry
    /// stage (`block` for a nested pipeline).
    fn define_pipeline_arguments(&mut self, pipeline: Op<'t>, block: usize) {
        for input in pipeline.pipeline_inputs() {
            if let Some(inner) = input.inner() {
                self.define(inner, block, None);
            }
        }
        if let Some(enable) = entry_enable(pipeline) {
            self.define(enable, block, None);
        }
    }

    /// Defines the block arguments and op results of `blocks`, all in stage `stage(index)`.
    /// Returns each block's argument definitions.
    fn define_blocks(
        &mut self,
        blocks: &[Block<'t>],
        stage: impl Fn(usize) -> usize,
    ) -> Vec<Vec<usize>> {
        let mut arguments = Vec::with_capacity(blocks.len());
        for (index, block) in blocks.iter().enumerate() {
            let mut block_arguments = Vec::new();
            if let Some(label) = block.label() {
                for arg in label.args() {
                    if let Some(name) = arg.name() {
                        block_arguments.push(self.define(name, stage(index), None));
                    }
                }
            }
            for op in block.ops() {
                for result in op.results() {
                    if let Some(name) = result.name() {
                        self.define(name, stage(index), Some(op));
                    }
                }
            }
            arguments.push(block_arguments);
        }
        arguments
    }

    /// Records the uses of pipeline values by `op` and the ops nested in it, all in stage
    /// `block`.
    fn collect_uses(&mut self, op: Op<'t>, block: usize, out: &mut Vec<Use<'t>>) {
        let is_pipeline = matches!(named(op), Some(SCHEDULED | UNSCHEDULED));
        for operand in op.operands() {
            let group = operand.syntax().parent().filter(|p| p.kind() == SyntaxKind::KEYWORD_GROUP);
            let keyword =
                group.and_then(|g| g.child_tokens().find(|t| t.kind() == SyntaxKind::IDENT));
            let keyword = keyword.map(|k| k.text());
            // A nested pipeline's `entryEn(%x)` defines `%x`; it uses nothing.
            if is_pipeline && keyword == Some("entryEn") {
                continue;
            }
            let Some(value) = operand.value() else { continue };
            let Some(def) = self.resolve(value.text()) else { continue };
            let passed = named(op) == Some(STAGE) && keyword == Some("pass");
            out.push(Use { operand, user: op, block, def, passed });
        }
        for region in op.regions() {
            self.scopes.push(HashMap::new());
            if is_pipeline {
                self.define_pipeline_arguments(op, block);
            }
            let blocks: Vec<Block<'t>> = region.blocks().collect();
            self.define_blocks(&blocks, |_| block);
            for inner in blocks.iter().flat_map(|b| b.ops()) {
                self.collect_uses(inner, block, out);
            }
            self.scopes.pop();
        }
    }
}

/// When a multi-cycle value becomes usable: the stage position from which on it may be used
/// other than by `pass(...)`, and the `pipeline.latency` that produced it.
#[derive(Clone, Copy)]
struct Ready<'t> {
    position: usize,
    latency: Op<'t>,
    cycles: usize,
    defined_at: usize,
}

/// HS4005 (`pipeline.src` when materialized), HS4006, HS4010 and the implicit-register form of
/// HS4012: which stage may use which value.
fn check_values(
    pipeline: Op<'_>,
    blocks: &[Block<'_>],
    labels: &HashMap<&str, usize>,
    stages: &Stages,
    acc: &mut Vec<Diagnostic>,
) {
    let mut values = Values { defs: Vec::new(), scopes: vec![HashMap::new()] };
    values.define_pipeline_arguments(pipeline, 0);
    let arguments = values.define_blocks(blocks, |index| index);
    let mut uses = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        for op in block.ops() {
            values.collect_uses(op, index, &mut uses);
        }
    }

    // The first non-entry block with a data argument makes the pipeline register-materialized.
    let materialized_by =
        blocks.iter().skip(1).find(|b| b.label().is_some_and(|l| l.args().len() > 1)).copied();
    let sources: Vec<Op<'_>> =
        blocks.iter().flat_map(|b| b.ops()).filter(|&o| named(o) == Some(SOURCE)).collect();
    if let Some(by) = materialized_by {
        for source in &sources {
            let mut diagnostic = Diagnostic::new(
                DiagnosticCode::PipelineOpMisplaced,
                name_range(*source),
                format!(
                    "`{SOURCE}` in a register-materialized pipeline: values cross stages as \
                     block arguments here, through `regs(...)` and `pass(...)`"
                ),
            );
            if let Some(label) = by.label() {
                let name = label.name().map_or("this stage", |n| n.text());
                diagnostic = diagnostic.with_related(
                    label.syntax().text_range(),
                    format!("`{name}` takes data arguments, so the pipeline is materialized"),
                );
            }
            acc.push(diagnostic);
        }
    }

    let context = UseContext {
        values: &values,
        blocks,
        stages,
        ready: ready_positions(&values, blocks, labels, stages, &arguments),
        materialized: materialized_by.is_some(),
        has_sources: !sources.is_empty(),
    };
    // One report per op and value: `comb.add %0, %0` has one problem, not two.
    let mut reported: Vec<(TextRange, usize)> = Vec::new();
    for use_ in &uses {
        let key = (use_.user.syntax().text_range(), use_.def);
        if reported.contains(&key) {
            continue;
        }
        if let Some(diagnostic) = context.check(use_) {
            reported.push(key);
            acc.push(diagnostic);
        }
    }
}

/// What deciding about one use needs to know about the pipeline.
struct UseContext<'a, 't> {
    values: &'a Values<'t>,
    blocks: &'a [Block<'t>],
    stages: &'a Stages,
    ready: Vec<Option<Ready<'t>>>,
    materialized: bool,
    has_sources: bool,
}

impl UseContext<'_, '_> {
    /// "the entry stage" or "stage 2 (`^bb2`)", by position on the chain.
    fn describe(&self, block: usize) -> String {
        let position = self.stages.position[block].unwrap_or(0);
        match self.blocks[block].label().and_then(|l| l.name()) {
            _ if position == 0 => "the entry stage".to_string(),
            Some(name) => format!("stage {position} (`{}`)", name.text()),
            None => format!("stage {position}"),
        }
    }

    fn check(&self, use_: &Use<'_>) -> Option<Diagnostic> {
        let def = self.values.defs[use_.def];
        let def_position = self.stages.position[def.block]?;
        let use_position = self.stages.position[use_.block]?;
        let value = use_.operand.value().map_or("?", |v| v.text());
        let range = use_.operand.syntax().text_range();
        let (used_in, defined_in) = (self.describe(use_.block), self.describe(def.block));
        if let Some(ready) = self.ready[use_.def] {
            if !use_.passed && use_position < ready.position {
                let how = if def.op.is_some_and(|o| named(o) == Some(LATENCY)) {
                    "it is"
                } else {
                    "it carries (through `pass`)"
                };
                let latency_block = ready_block(self.stages, ready.defined_at);
                return Some(
                    Diagnostic::new(
                        DiagnosticCode::PipelineLatencyEarlyUse,
                        range,
                        format!(
                            "`{value}` is used in {used_in}, but {how} the result of `{LATENCY} \
                             {}` in {}, ready {} later, in stage {}",
                            ready.cycles,
                            self.describe(latency_block),
                            plural(ready.cycles, "stage"),
                            ready.position,
                        ),
                    )
                    .with_related(
                        name_range(ready.latency),
                        format!("`{LATENCY} {}` here", ready.cycles),
                    ),
                );
            }
        }
        if def_position == use_position {
            return None;
        }
        let defined_here = format!("`{}` defined here, in {defined_in}", def.name.text());
        // A later stage's value does not dominate the use, constant or not; constants from
        // earlier stages may be used anywhere.
        let (code, message) = if def_position > use_position {
            (
                DiagnosticCode::PipelineCrossStageUse,
                format!(
                    "`{value}` is used in {used_in}, but defined in {defined_in}, a later stage"
                ),
            )
        } else if def.op.is_some_and(is_constant) {
            return None;
        } else if named(use_.user) == Some(SOURCE) {
            // `pipeline.src` is how a value crosses stages before materialization; when the
            // pipeline is materialized, the op itself is the error.
            return None;
        } else if self.materialized {
            (
                DiagnosticCode::PipelineCrossStageUse,
                format!(
                    "`{value}` is defined in {defined_in} and used in {used_in}; in a \
                     register-materialized pipeline it must arrive as a block argument, through \
                     `regs(...)` or `pass(...)` of each `{STAGE}` in between"
                ),
            )
        } else if self.has_sources {
            (
                DiagnosticCode::PipelineCrossStageUse,
                format!(
                    "`{value}` is defined in {defined_in} and used directly in {used_in}; read it \
                     there through `{SOURCE}`"
                ),
            )
        } else {
            (
                DiagnosticCode::PipelineLegacyForm,
                format!(
                    "`{value}` is defined in {defined_in} and used directly in {used_in}: the \
                     rationale's older implicit-register form, which current CIRCT rejects; read \
                     it there through `{SOURCE}`"
                ),
            )
        };
        Some(
            Diagnostic::new(code, range, message).with_related(def.name.text_range(), defined_here),
        )
    }
}

/// The block at chain position `position`.
fn ready_block(stages: &Stages, position: usize) -> usize {
    stages.position.iter().position(|p| *p == Some(position)).unwrap_or(0)
}

/// For every definition that is (or carries, through `pass(...)`) a `pipeline.latency` result,
/// when it becomes ready.
fn ready_positions<'t>(
    values: &Values<'t>,
    blocks: &[Block<'t>],
    labels: &HashMap<&str, usize>,
    stages: &Stages,
    arguments: &[Vec<usize>],
) -> Vec<Option<Ready<'t>>> {
    let mut ready: Vec<Option<Ready<'t>>> = vec![None; values.defs.len()];
    for (index, def) in values.defs.iter().enumerate() {
        let Some(latency) = def.op.filter(|&o| named(o) == Some(LATENCY)) else { continue };
        let Some(cycles) = latency_token(latency).and_then(|t| t.text().parse::<usize>().ok())
        else {
            continue;
        };
        let Some(position) = stages.position[def.block] else { continue };
        ready[index] = Some(Ready {
            position: position.saturating_add(cycles),
            latency,
            cycles,
            defined_at: position,
        });
    }
    // Follow `pass(...)` along the chain: the target argument carries the same value, ready
    // at the same stage.
    let mut order: Vec<usize> =
        (0..blocks.len()).filter(|&b| stages.position[b].is_some()).collect();
    order.sort_by_key(|&b| stages.position[b]);
    for block in order {
        let Some(stage) = blocks[block].ops().last().filter(|&o| named(o) == Some(STAGE)) else {
            continue;
        };
        let Some(target) = successor(stage).and_then(|t| labels.get(t.text()).copied()) else {
            continue;
        };
        let Some(target_position) = stages.position[target] else { continue };
        let registers = stage_entries(stage, "regs").len();
        for (index, entry) in stage_entries(stage, "pass").iter().enumerate() {
            let Some(value) = entry.value.value() else { continue };
            let Some(def) = values.scopes.first().and_then(|s| s.get(base_name(value.text())))
            else {
                continue;
            };
            let Some(carried) = ready[*def].filter(|r| r.position > target_position) else {
                continue;
            };
            if let Some(&argument) = arguments[target].get(registers + index) {
                ready[argument] = Some(carried);
            }
        }
    }
    ready
}

// ---- syntax helpers ----------------------------------------------------------------------

/// One entry of `regs(...)` / `pass(...)`: `"name" = %v : T gated by [...]`.
struct StageEntry<'t> {
    value: Operand<'t>,
    ty: Option<SyntaxNode<'t>>,
}

fn stage_entries<'t>(stage: Op<'t>, keyword: &str) -> Vec<StageEntry<'t>> {
    let mut entries = Vec::new();
    for group in stage.keyword_groups().filter(|g| g.keyword() == Some(keyword)) {
        let mut value = None;
        let mut ty = None;
        for element in group.syntax().children_with_tokens() {
            match element {
                SyntaxElement::Token(token) if token.kind() == SyntaxKind::COMMA => {
                    if let Some(value) = value.take() {
                        entries.push(StageEntry { value, ty: ty.take() });
                    }
                    ty = None;
                }
                SyntaxElement::Node(node) if node.kind() == SyntaxKind::OPERAND => {
                    value = value.or_else(|| Operand::cast(node));
                }
                SyntaxElement::Node(node) if node.kind() == SyntaxKind::TYPE_LIST => {
                    ty = ty.or_else(|| TypeList::cast(node).and_then(|l| l.types().next()));
                }
                _ => {}
            }
        }
        if let Some(value) = value {
            entries.push(StageEntry { value, ty });
        }
    }
    entries
}

/// The operands a return returns: those before an older-syntax `valid %v` clause.
fn returned_values<'t>(ret: Op<'t>) -> Vec<SyntaxNode<'t>> {
    let mut values = Vec::new();
    for element in ret.syntax().children_with_tokens() {
        match element {
            SyntaxElement::Token(token) if token.kind() == SyntaxKind::IDENT => break,
            SyntaxElement::Node(node) if node.kind() == SyntaxKind::OPERAND => values.push(node),
            _ => {}
        }
    }
    values
}

/// The `-> (T, ...)` of a `pipeline.latency`: each type as normalized text with its range,
/// and the range of the whole list.
fn latency_result_types(latency: Op<'_>) -> Option<(Vec<(String, TextRange)>, TextRange)> {
    let mut after_arrow = false;
    let mut group = None;
    for element in latency.syntax().children_with_tokens() {
        match element {
            SyntaxElement::Token(token) if token.kind() == SyntaxKind::ARROW => after_arrow = true,
            SyntaxElement::Node(node) if after_arrow && node.kind() == SyntaxKind::PAREN_GROUP => {
                group = Some(node);
                break;
            }
            _ => {}
        }
    }
    let group = group?;
    let text = group.tree().text();
    let mut types = Vec::new();
    let mut current: Option<TextRange> = None;
    let mut flush = |current: &mut Option<TextRange>| {
        if let Some(range) = current.take() {
            types.push((normalized(&text[range]), range));
        }
    };
    for element in group.children_with_tokens() {
        match element.kind() {
            SyntaxKind::L_PAREN | SyntaxKind::R_PAREN => {}
            SyntaxKind::COMMA => flush(&mut current),
            kind if kind.is_trivia() => {}
            _ => {
                let range = element.text_range();
                current = Some(current.map_or(range, |c| c.cover(range)));
            }
        }
    }
    flush(&mut current);
    Some((types, group.text_range()))
}

/// The `N` of `pipeline.latency N`.
fn latency_token(latency: Op<'_>) -> Option<SyntaxToken<'_>> {
    latency.syntax().child_tokens().find(|t| t.kind() == SyntaxKind::INT)
}

/// The `%x` of a pipeline's `entryEn(%x)`.
fn entry_enable(pipeline: Op<'_>) -> Option<SyntaxToken<'_>> {
    let group = pipeline.keyword_groups().find(|g| g.keyword() == Some("entryEn"))?;
    group.syntax().children().find_map(Operand::cast)?.value()
}

/// The older form: operands without `%inner : T =`, a bare `clock %clk`, or a function type.
fn is_legacy_header(op: Op<'_>) -> bool {
    let node = op.syntax();
    if node.children().any(|n| n.kind() == SyntaxKind::PIPELINE_INPUT_LIST) {
        return false;
    }
    let bare_keyword = node
        .child_tokens()
        .any(|t| t.kind() == SyntaxKind::IDENT && matches!(t.text(), "clock" | "reset" | "stall"));
    let function_type = op
        .type_lists()
        .any(|l| l.syntax().descendants().any(|n| n.kind() == SyntaxKind::FUNCTION_TYPE));
    bare_keyword || function_type
}

/// The range of an older-syntax clause (`enable %go`, `valid %v`) written on `op`.
fn legacy_clause<'t>(op: Op<'t>, keywords: &[&str]) -> Option<(&'t str, TextRange)> {
    let keyword = op
        .syntax()
        .child_tokens()
        .find(|t| t.kind() == SyntaxKind::IDENT && keywords.contains(&t.text()))?;
    let operand = op
        .syntax()
        .children()
        .filter(|n| n.kind() == SyntaxKind::OPERAND)
        .find(|n| n.text_range().start() > keyword.text_range().start());
    let range =
        operand.map_or(keyword.text_range(), |o| keyword.text_range().cover(o.text_range()));
    Some((keyword.text(), range))
}

/// Labels of the region's blocks; the first block with a name wins.
fn block_labels<'t>(blocks: &[Block<'t>]) -> HashMap<&'t str, usize> {
    let mut labels = HashMap::new();
    for (index, block) in blocks.iter().enumerate() {
        if let Some(name) = block.label().and_then(|l| l.name()) {
            labels.entry(name.text()).or_insert(index);
        }
    }
    labels
}

/// The block arguments, or `None` when the list holds something that is not an argument (the
/// parser recovered from an error there).
fn readable_args<'t>(label: BlockLabel<'t>) -> Option<Vec<BlockArg<'t>>> {
    let list = label.syntax().children().find(|n| n.kind() == SyntaxKind::BLOCK_ARG_LIST);
    if let Some(list) = list {
        if list.children().any(|n| n.kind() != SyntaxKind::BLOCK_ARG) {
            return None;
        }
    }
    Some(label.args())
}

fn successor(stage: Op<'_>) -> Option<SyntaxToken<'_>> {
    let node = stage.syntax().children().find(|n| n.kind() == SyntaxKind::SUCCESSOR)?;
    node.child_tokens().find(|t| t.kind() == SyntaxKind::CARET_ID)
}

fn parent_op(op: Op<'_>) -> Option<Op<'_>> {
    op.syntax().ancestors().skip(1).find_map(Op::cast)
}

fn is_constant(op: Op<'_>) -> bool {
    named(op) == Some(Named(OpKind::ArithConstant))
        || op.name().is_some_and(|name| OTHER_CONSTANT_OPS.contains(&name))
}

/// "the entry stage" or "stage block `^bb1`", by position in the text.
fn block_description(block: Block<'_>, index: usize) -> String {
    match block.label().and_then(|l| l.name()) {
        _ if index == 0 => "the entry stage".to_string(),
        Some(name) => format!("stage block `{}`", name.text()),
        None => format!("stage block {index}"),
    }
}

/// Where to point at a block: its label's name, else its first op, else the block.
fn block_anchor(block: Block<'_>) -> TextRange {
    if let Some(name) = block.label().and_then(|l| l.name()) {
        return name.text_range();
    }
    block.ops().next().map_or(block.syntax().text_range(), name_range)
}

fn name_range(op: Op<'_>) -> TextRange {
    op.name_node().map_or(op.syntax().text_range(), |n| n.text_range())
}

/// `%x#1` names the same op as `%x`.
fn base_name(text: &str) -> &str {
    text.split('#').next().unwrap_or(text)
}

/// Type text without whitespace, for comparison.
fn normalized(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn plural(count: usize, noun: &str) -> String {
    match (count, noun) {
        (1, _) => format!("1 {noun}"),
        (_, "entry") => format!("{count} entries"),
        _ => format!("{count} {noun}s"),
    }
}
