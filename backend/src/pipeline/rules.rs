//! The rules a read design must satisfy before either side runs it that are the backend's own:
//! widths that agree, one clock (HS5001, HS5003), and no combinational loop (HS2020, which the
//! analysis checks only in `handshake.func`s). CIRCT's pipeline rules (values read where and
//! when they exist, stallability, returns: HS4xxx) are the analysis's (`check_pipeline.rs`);
//! `design::read` refuses a module with errors before these run.

use std::collections::HashMap;

use hsir_analysis::ir::{OpId, ValueId};
use hsir_analysis::DiagnosticCode;

use super::design::{Design, Exit, Kind, Origin, Place};
use crate::program::HwModule;

/// A problem found: the op to point at, its code and its message.
pub(super) type Problem = (OpId, DiagnosticCode, String);

/// Width agreement and stage rules, once every value's width and place is known.
pub(super) fn validate(design: &Design, module: &HwModule) -> Vec<Problem> {
    let mut problems: Vec<Problem> = Vec::new();
    let width = |v: ValueId| design.width[v as usize];
    let name = |v: ValueId| design.value_name(v).to_string();
    let expect = |problems: &mut Vec<Problem>, op: OpId, v: ValueId, w: u32, what: &str| {
        if width(v) != w {
            problems.push((
                op,
                DiagnosticCode::BackendUnsupportedType,
                format!("{what} `{}` is {} bits where {w} are expected", name(v), width(v)),
            ));
        }
    };
    for node in &design.nodes {
        let op = node.op;
        let out = node.results.first().map_or(0, |&r| width(r));
        match &node.kind {
            Kind::Constant(_) | Kind::Latency { .. } => {}
            Kind::Binary(_) | Kind::Source => {
                for &v in &node.operands {
                    expect(&mut problems, op, v, out, "operand");
                }
            }
            Kind::Compare(_) => {
                let w = width(node.operands[0]);
                expect(&mut problems, op, node.operands[1], w, "operand");
            }
            Kind::Mux => {
                expect(&mut problems, op, node.operands[0], 1, "condition");
                expect(&mut problems, op, node.operands[1], out, "operand");
                expect(&mut problems, op, node.operands[2], out, "operand");
            }
            Kind::Concat => {
                let total: u32 = node.operands.iter().map(|&v| width(v)).sum();
                if total != out {
                    problems.push((
                        op,
                        DiagnosticCode::BackendUnsupportedType,
                        format!("`comb.concat` of {total} bits declares {out}"),
                    ));
                }
            }
            Kind::Extract { low } => {
                let w = width(node.operands[0]);
                let end = u64::from(*low) + u64::from(out);
                if end > u64::from(w) {
                    problems.push((
                        op,
                        DiagnosticCode::BackendUnsupportedType,
                        format!("`comb.extract` reads bits {low}..{end} of a {w}-bit value"),
                    ));
                }
            }
            Kind::Replicate => {
                let w = width(node.operands[0]);
                if w == 0 || out % w != 0 {
                    problems.push((
                        op,
                        DiagnosticCode::BackendUnsupportedType,
                        format!("`comb.replicate` makes {out} bits from {w}"),
                    ));
                }
            }
            Kind::Parity => {}
            Kind::Extend { .. } | Kind::Truncate => {
                let w = width(node.operands[0]);
                let ok = match node.kind {
                    Kind::Truncate => w > out,
                    _ => w < out,
                };
                if !ok {
                    problems.push((
                        op,
                        DiagnosticCode::BackendUnsupportedType,
                        format!("a {w}-bit operand cannot become {out} bits this way"),
                    ));
                }
            }
            Kind::CompReg { enable, reset } => {
                expect(&mut problems, op, node.operands[0], out, "input");
                if Some(node.operands[1]) != design.clock {
                    problems.push((
                        op,
                        DiagnosticCode::BackendUnsupportedOp,
                        format!(
                            "`{}` is clocked by `{}`; the pipeline backend clocks every register \
                             by the module's `!seq.clock` port",
                            module.item.ops[op as usize].name,
                            name(node.operands[1])
                        ),
                    ));
                }
                if let Some(e) = enable {
                    expect(&mut problems, op, *e, 1, "clock enable");
                }
                if let Some((r, value)) = reset {
                    expect(&mut problems, op, *r, 1, "reset");
                    expect(&mut problems, op, *value, out, "reset value");
                }
            }
        }
    }
    for pipeline in &design.pipelines {
        let op = pipeline.op;
        if Some(pipeline.clock) != design.clock {
            problems.push((
                op,
                DiagnosticCode::BackendUnsupportedOp,
                format!(
                    "the pipeline is clocked by `{}`; the pipeline backend clocks every \
                     register by the module's `!seq.clock` port",
                    name(pipeline.clock)
                ),
            ));
        }
        expect(&mut problems, op, pipeline.go, 1, "go");
        if let Some(s) = pipeline.stall {
            expect(&mut problems, op, s, 1, "stall");
        }
        if let Some(r) = pipeline.reset {
            expect(&mut problems, op, r, 1, "reset");
        }
        for &(inner, outer) in &pipeline.inputs {
            expect(&mut problems, op, outer, width(inner), "input");
        }
        // Where and when each value is read (HS4006, HS4010), stallability (HS4007) and what
        // `pipeline.return` returns (HS4009) are CIRCT's rules, checked by the analysis; only the
        // widths are the backend's to check here.
        for (s, stage) in pipeline.stages.iter().enumerate() {
            match &stage.exit {
                Exit::Return(values) => {
                    for (&v, &r) in values.iter().zip(&pipeline.results) {
                        expect(&mut problems, op, v, width(r), "returned value");
                    }
                }
                Exit::Next { regs, pass } => {
                    let next = &pipeline.stages[s + 1];
                    for (carry, &arg) in regs.iter().chain(pass).zip(&next.args) {
                        expect(&mut problems, op, carry.value, width(arg), "carried value");
                    }
                }
            }
        }
    }
    let top = 0;
    for (port, &v) in design.output_ports().zip(&design.outputs) {
        if width(v) != port.width {
            problems.push((
                top,
                DiagnosticCode::BackendUnsupportedType,
                format!(
                    "output `{}` is {} bits, but `{}` is {}",
                    port.name,
                    port.width,
                    name(v),
                    width(v)
                ),
            ));
        }
    }
    if design.outputs.len() != design.output_ports().count() {
        problems.push((
            top,
            DiagnosticCode::BackendUnsupportedOp,
            format!(
                "`hw.output` returns {} values for {} output ports",
                design.outputs.len(),
                design.output_ports().count()
            ),
        ));
    }
    for node in &design.nodes {
        let has_clock = node.operands.iter().any(|&v| Some(v) == design.clock);
        let clock_ok = matches!(node.kind, Kind::CompReg { .. })
            && node.operands.iter().skip(2).all(|&v| Some(v) != design.clock);
        if has_clock && !clock_ok {
            problems.push((
                node.op,
                DiagnosticCode::BackendUnsupportedType,
                "the clock is read as data; the pipeline backend only clocks registers with it"
                    .to_string(),
            ));
        }
    }
    problems
}

/// HS2020: a value that depends on itself without a register in between.
pub(super) fn check_loops(design: &Design) -> Vec<Problem> {
    let values = design.width.len();
    let readies: Vec<HashMap<ValueId, usize>> =
        (0..design.pipelines.len()).map(|p| design.ready(p)).collect();
    // 0 = not visited, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; values];
    for start in 0..values {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(ValueId, Vec<ValueId>)> =
            vec![(start as ValueId, comb_inputs(design, &readies, start as ValueId))];
        state[start] = 1;
        while let Some((v, deps)) = stack.last_mut() {
            let v = *v;
            match deps.pop() {
                Some(d) => match state[d as usize] {
                    0 => {
                        state[d as usize] = 1;
                        let next = comb_inputs(design, &readies, d);
                        stack.push((d, next));
                    }
                    1 => {
                        let op = match design.origin[d as usize] {
                            Origin::Node { node, .. } => design.nodes[node].op,
                            Origin::PipelineResult { pipeline, .. }
                            | Origin::InnerInput { pipeline, .. }
                            | Origin::StageArg { pipeline, .. } => design.pipelines[pipeline].op,
                            _ => 0,
                        };
                        let message = format!(
                            "`{}` depends on itself through combinational logic",
                            design.value_name(d)
                        );
                        return vec![(op, DiagnosticCode::CombinationalLoop, message)];
                    }
                    _ => {}
                },
                None => {
                    state[v as usize] = 2;
                    stack.pop();
                }
            }
        }
    }
    Vec::new()
}

/// The values `value` reads in the same cycle (no register in between).
fn comb_inputs(
    design: &Design,
    readies: &[HashMap<ValueId, usize>],
    value: ValueId,
) -> Vec<ValueId> {
    let at = |v: ValueId, place: Place| -> Option<ValueId> {
        // A read from an earlier stage goes through registers.
        match (design.place[v as usize], place) {
            (Place::Stage { stage: d, .. }, Place::Stage { stage: s, .. }) if d < s => None,
            _ => Some(v),
        }
    };
    match design.origin[value as usize] {
        Origin::Input(_) | Origin::Unknown | Origin::StageEnable { .. } => Vec::new(),
        Origin::Node { node, index } => {
            let node = &design.nodes[node];
            match &node.kind {
                Kind::CompReg { .. } | Kind::Constant(_) => Vec::new(),
                Kind::Latency { returned, .. } => {
                    returned.get(index).copied().into_iter().collect()
                }
                _ => node.operands.iter().filter_map(|&v| at(v, node.place)).collect(),
            }
        }
        Origin::InnerInput { pipeline, index } => vec![design.pipelines[pipeline].inputs[index].1],
        Origin::EntryEnable { pipeline } => vec![design.pipelines[pipeline].go],
        Origin::PipelineResult { pipeline, index } => {
            let p = &design.pipelines[pipeline];
            let last = p.stages.len() - 1;
            if index < p.outputs() {
                match &p.stages[last].exit {
                    Exit::Return(values) => values
                        .get(index)
                        .and_then(|&v| at(v, Place::Stage { pipeline, stage: last }))
                        .into_iter()
                        .collect(),
                    Exit::Next { .. } => Vec::new(),
                }
            } else {
                // `done` is the last stage's valid: its enable register, or `go` for a single
                // stage, gated by the stall signal.
                let mut deps: Vec<ValueId> = p.stall.into_iter().collect();
                if last == 0 {
                    deps.push(p.go);
                }
                deps
            }
        }
        Origin::StageArg { pipeline, stage, index } => {
            let p = &design.pipelines[pipeline];
            let Exit::Next { regs, pass } = &p.stages[stage - 1].exit else { return Vec::new() };
            if index < regs.len() {
                return Vec::new();
            }
            let Some(carry) = pass.get(index - regs.len()) else { return Vec::new() };
            if readies[pipeline].get(&carry.value).is_some_and(|&r| r >= stage) {
                // Still on its way: carried in a register.
                Vec::new()
            } else {
                at(carry.value, Place::Stage { pipeline, stage: stage - 1 }).into_iter().collect()
            }
        }
    }
}
