//! What a finished run says: results, memories, and the readable account of what was left
//! behind and what raced.

use std::collections::BTreeMap;

use hsir_analysis::ir::{group_len, OpData, OpId, ValueId};
use hsir_analysis::ops::OpKind;

use super::build::{Network, RaceRecord};
use super::node::{Event, Kind};
use super::{Ending, Held, Leftover, Outcome, Race};
use crate::memories::{self, Port};
use crate::program::{Func, Program};

pub(crate) fn outcome(program: &Program, net: Network, firings: u64) -> Outcome {
    let func_of = |ctx: usize| &program.funcs[net.contexts[ctx].func];
    let restarted = (0..net.nodes.len()).any(|n| net.restarting(n));
    let ending = if restarted { Ending::End } else { Ending::Quiescence };
    let awaiting = if restarted { net.awaiting_restart() } else { Vec::new() };
    let mut leftovers = Vec::new();
    for (c, channel) in net.channels.iter().enumerate() {
        if channel.tokens.is_empty()
            || channel.infinite
            || awaiting.get(c).copied().unwrap_or(false)
        {
            continue;
        }
        let count = channel.tokens.len();
        let tokens: Vec<u64> = channel.tokens.iter().map(|t| t.value).collect();
        let plural = if count == 1 { "" } else { "s" };
        let leftover = match channel.reader {
            Some((ctx, op, operand)) => {
                let func = func_of(ctx);
                let data = &func.item.ops[op as usize];
                let use_ = &func.item.uses[func.item.operands(data)[operand] as usize];
                let value = use_.value.unwrap_or(channel.origin.1);
                Leftover {
                    site: net.contexts[ctx].site.clone(),
                    value,
                    count,
                    consumer: Some((op, operand)),
                    message: format!(
                        "{}{count} token{plural} left on the {} of `{}` (`{}`)",
                        net.contexts[ctx].prefix,
                        operand_role(func, data, op, operand),
                        op_name(data),
                        func.item.str(use_.text())
                    ),
                    range: use_.range,
                    tokens,
                }
            }
            None => {
                let (ctx, value) = channel.origin;
                let func = func_of(ctx);
                Leftover {
                    site: net.contexts[ctx].site.clone(),
                    value,
                    count,
                    consumer: None,
                    message: format!(
                        "{}{count} token{plural} left on `{}`, which nothing consumes",
                        net.contexts[ctx].prefix,
                        value_text(func, value)
                    ),
                    range: func.item.values[value as usize].range,
                    tokens,
                }
            }
        };
        leftovers.push(leftover);
    }
    let mut held = Vec::new();
    for node in &net.nodes {
        let func = func_of(node.ctx);
        let data = &func.item.ops[node.op as usize];
        let what = format!("`{}`{}", op_name(data), op_label(func, data));
        let message = match &node.kind {
            Kind::Gate { held: Some(v) } => {
                format!("{what} still holds the value {v}, for a condition that never came")
            }
            Kind::Carry { running: true } => {
                // The roles of its condition and carried-value operands, as the table names them.
                let role = |i: usize| operand_role(func, data, node.op, i);
                format!(
                    "{what} is still inside a loop: it waits for its {} (and, when it is true, its {})",
                    role(0),
                    role(2)
                )
            }
            Kind::Invariant { kept: Some(v) } => {
                format!("{what} still repeats the value {v}: its loop never saw a false condition")
            }
            Kind::Stream(s) if s.state.is_some() => format!("{what} is still inside a loop"),
            Kind::Lsq(lsq) => match lsq.held() {
                Some(message) => format!("{what} {message}"),
                None => continue,
            },
            Kind::Memory(m) => match &m.completion {
                Some(c) if c.pending > 0 => format!(
                    "{what} was told of {} store{} it never received",
                    c.pending,
                    if c.pending == 1 { "" } else { "s" }
                ),
                Some(c) if c.pending < 0 => format!(
                    "{what} received {} store{} more than its store counts announced",
                    -c.pending,
                    if c.pending == -1 { "" } else { "s" }
                ),
                _ => continue,
            },
            _ => continue,
        };
        held.push(Held {
            site: net.contexts[node.ctx].site.clone(),
            op: node.op,
            message: format!("{}{message}", net.contexts[node.ctx].prefix),
            range: data.name_range,
        });
    }
    let races = net.races.iter().map(|record| race(program, &net, record)).collect();
    let memories: BTreeMap<String, Vec<u64>> =
        net.memories.into_iter().map(|m| (m.name, m.words)).collect();
    Outcome { results: net.results, memories, leftovers, held, races, firings, ending }
}

fn race(program: &Program, net: &Network, record: &RaceRecord) -> Race {
    let node = &net.nodes[record.node];
    let context = &net.contexts[node.ctx];
    let func = &program.funcs[context.func];
    let data = &func.item.ops[node.op as usize];
    let what = format!("`{}`{}", op_name(data), op_label(func, data));
    let message = match &record.first {
        Event::Merge { inputs } => {
            let list: Vec<String> = inputs.iter().map(|i| i.to_string()).collect();
            format!(
                "{what}: the tokens of inputs {} are not ordered by the circuit: which passes first depends on timing",
                list.join(" and ")
            )
        }
        Event::Memory { address, stores: true } => format!(
            "{what}: two stores to address {address} are not ordered by the circuit: the word left depends on timing"
        ),
        Event::Allocation { groups } => {
            let list: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
            format!(
                "{what}: the allocation tokens of groups {} are not ordered by the circuit: the order of their accesses depends on timing",
                list.join(" and ")
            )
        }
        Event::Memory { address, stores: false } => format!(
            "{what}: a load and a store of address {address} are not ordered by the circuit: what the load reads depends on timing"
        ),
    };
    Race {
        site: context.site.clone(),
        op: node.op,
        kind: record.kind(),
        count: record.count,
        message: format!("{}{message}", context.prefix),
        range: data.name_range,
    }
}

/// The op's name for messages: without `handshake.`.
fn op_name(op: &OpData) -> &str {
    op.short_name()
}

/// ` (`%x`)`: the op's first result, when it has one.
fn op_label(func: &Func, op: &OpData) -> String {
    match func.item.results(op).first() {
        Some(&v) => format!(" (`{}`)", value_text(func, v)),
        None => String::new(),
    }
}

fn value_text(func: &Func, value: ValueId) -> String {
    func.item.values[value as usize].display(&func.item, group_len(&func.item, value))
}

/// What operand `i` of `op` is, in words, as the op table's layout in the function's era names
/// it ("control", "condition", "input 1", "carried value"); for a memory interface, the port
/// `memories` reads it as ("store data 0", "load address 1").
pub(crate) fn operand_role(func: &Func, op: &OpData, id: OpId, i: usize) -> String {
    let n = op.operands.len();
    let numbered = |what: &str, k: usize| format!("{what} {k}");
    let Some(kind) = OpKind::of(op) else { return numbered("operand", i) };
    if kind.is_interface() || kind.is_memory() {
        // The table lists an interface's ports as one variadic group; `memories` tells them
        // apart.
        return match memories::interface(func, id).and_then(|f| f.operands.get(i).copied()) {
            Some(Port::StoreData(k)) => numbered("store data", k),
            Some(Port::StoreAddr(k)) => numbered("store address", k),
            Some(Port::LoadAddr(k)) => numbered("load address", k),
            Some(Port::StoreCount(k)) => numbered("store count", k),
            Some(Port::GroupAlloc(k)) => numbered("allocation of group", k),
            Some(Port::MemStart) => "memStart".to_string(),
            Some(Port::CtrlEnd) => "ctrlEnd".to_string(),
            _ => numbered("operand", i),
        };
    }
    let layout = kind.def().layout(func.era);
    if kind.is_terminator() && layout.operands.len() == 2 {
        // Dynamatic 2024's `end`: the function's results, then the memories' done tokens.
        let returned = func.terminator_results(op);
        let (port, k, of) =
            if i < returned { (0, i, returned) } else { (1, i - returned, n - returned) };
        let role = layout.operands[port].role;
        return if of > 1 { numbered(role, k) } else { role.to_string() };
    }
    kind.operand_label(func.era, i, n).unwrap_or_else(|| numbered("operand", i))
}
