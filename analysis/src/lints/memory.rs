//! Memory accesses and their ctrl-done tokens (HS3020-HS3039), after LOOM's memory compilation
//! rules (seed 003).
//!
//! A CIRCT-form `load` / `store` takes its address(es), a data operand and one ctrl token; its
//! memory-side results (addresses, and a store's data) feed one `memory` / `extmemory`
//! interface. The interface packs its operands stores first (data, address per store) and loads
//! after (address per load), and gives L load-data results, then S store-done tokens, then L
//! load-done tokens. The done token of an access is the interface's done result of the port
//! the access is wired to.
//!
//! The lints check that wiring, that each access's ctrl derives from the function's start token
//! or from its own memory's done tokens, that every done token reaches the returned control,
//! and that done tokens of two memories are joined only on their way to the return.
//!
//! Dynamatic's accesses (no ctrl operand; `mem_controller` / `lsq` with one end token per
//! memory) do not follow this per-access done-token model and are left alone, as is every
//! function without a load, store or memory interface.

use std::collections::{BTreeSet, HashSet, VecDeque};

use super::Context;
use crate::dataflow::{self, is_control, Node};
use crate::diagnostics::DiagnosticCode as Code;
use crate::diagnostics::{Fix, TextEdit};
use crate::ir::{self, Container, Def, OpData, OpId, ValueId};
use crate::ops::OpKind;
use crate::signatures::Style;
use crate::types::Type;
use crate::Diagnostic;
use hsir_parser::{TextRange, TextSize};

/// A `memory` / `extmemory` op.
struct Iface {
    op: OpId,
    ld: usize,
    st: usize,
    /// Operands before the ports: `extmemory`'s memref.
    offset: usize,
    /// Whether the operand count is `2 * st + ld` (HS1208 reports otherwise).
    ports_ok: bool,
    /// Whether the result count is `2 * ld + st` (HS1208 reports otherwise).
    results_ok: bool,
}

impl Iface {
    /// The kind of result `n`: load-data of load port k, store-done of store port k, or
    /// load-done of load port k.
    fn result_kind(&self, n: usize) -> Option<ResultKind> {
        if !self.results_ok {
            return None;
        }
        if n < self.ld {
            Some(ResultKind::LoadData(n))
        } else if n < self.ld + self.st {
            Some(ResultKind::StoreDone(n - self.ld))
        } else if n < 2 * self.ld + self.st {
            Some(ResultKind::LoadDone(n - self.ld - self.st))
        } else {
            None
        }
    }

    fn is_done(&self, n: usize) -> bool {
        matches!(self.result_kind(n), Some(ResultKind::StoreDone(_) | ResultKind::LoadDone(_)))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ResultKind {
    LoadData(usize),
    StoreDone(usize),
    LoadDone(usize),
}

/// A CIRCT-form `load` / `store`.
struct Access {
    op: OpId,
    is_load: bool,
    /// The number of address operands (and address results).
    naddr: usize,
    /// The data operand: from memory for a load, from the computation for a store.
    data_in: Option<ValueId>,
    ctrl: Option<ValueId>,
    /// Index into `ifaces` of the interface the access is attached to.
    iface: Option<usize>,
    /// The port (load port or store port index) it is wired to, when the wiring is right.
    port: Option<usize>,
    /// The done token of its port.
    done: Option<ValueId>,
}

/// Where a forward walk of a control token stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Sink(OpId),
    /// A channel nothing consumes.
    Unused(ValueId),
    /// Another operand of the return (a data result).
    ReturnData(OpId),
    /// An op with no results that is not a sink or the return.
    NoResults(OpId),
    /// An access or a memory interface, when the walk does not pass through accesses.
    Memory(OpId),
}

struct Walk {
    reached_return: bool,
    bad: Option<End>,
}

struct Memory<'a, 'c> {
    cx: &'a Context<'c>,
    ifaces: Vec<Iface>,
    /// Index into `ifaces` of each op, by `OpId`.
    iface_of: Vec<Option<usize>>,
    accesses: Vec<Access>,
    access_of: Vec<Option<usize>>,
    /// The function's start token: its last control-typed argument.
    start: Option<(u32, ValueId)>,
    /// The function's final `return` / `end` and the operand positions of its controls (LOOM
    /// may return one done token per memory ordering domain).
    ret: Option<(OpId, Vec<usize>)>,
    /// Whether `i1` values are the function's tokens: a function without a control argument
    /// (LOOM's `_esi` wrappers, whose ports cannot carry `none`) passes them as `i1`.
    i1_tokens: bool,
}

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    if cx.style != Style::Circt {
        return;
    }
    let memory_op =
        |k| matches!(k, OpKind::Memory | OpKind::ExtMemory | OpKind::Load | OpKind::Store);
    if !cx.kinds.any(memory_op) {
        return;
    }
    let Some(mut m) = Memory::collect(cx) else { return };
    m.attach(acc);
    m.interface_results(acc);
    m.counts(acc);
    m.ctrl_sources(acc);
    m.done_tokens(acc);
    m.cross_domain_joins(acc);
}

/// A token type: `none` / control, or `i1` where the function passes tokens as `i1`.
fn is_token(ty: &Type, i1_tokens: bool) -> bool {
    is_control(ty) || (i1_tokens && *ty == crate::signatures::int(1))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl<'a, 'c> Memory<'a, 'c> {
    fn collect(cx: &'a Context<'c>) -> Option<Memory<'a, 'c>> {
        let item = cx.item;
        let mut ifaces = Vec::new();
        let mut accesses = Vec::new();
        for (id, op) in item.ops.iter().enumerate().skip(1) {
            if op.broken {
                continue;
            }
            match OpKind::of(op) {
                Some(kind @ (OpKind::Memory | OpKind::ExtMemory)) => {
                    let get = |key: &str| {
                        cx.item.bracket_entry(op, key).and_then(|v| v.trim().parse::<usize>().ok())
                    };
                    let (Some(ld), Some(st)) = (get("ld"), get("st")) else { continue };
                    let offset = usize::from(kind == OpKind::ExtMemory);
                    ifaces.push(Iface {
                        op: id as OpId,
                        ld,
                        st,
                        offset,
                        ports_ok: op.operands.len() == offset + 2 * st + ld,
                        results_ok: op.results.len() == 2 * ld + st,
                    });
                }
                Some(kind @ (OpKind::Load | OpKind::Store)) if op.types.len() == 2 => {
                    let naddr = cx
                        .item
                        .operands(op)
                        .iter()
                        .filter(|&&u| item.uses[u as usize].container == Container::Bracket)
                        .count();
                    let value = |i: usize| {
                        cx.item.operands(op).get(i).and_then(|&u| item.uses[u as usize].value)
                    };
                    let shaped = op.operands.len() == naddr + 2 && op.results.len() == naddr + 1;
                    accesses.push(Access {
                        op: id as OpId,
                        is_load: kind == OpKind::Load,
                        naddr,
                        data_in: if shaped { value(naddr) } else { None },
                        ctrl: if shaped { value(naddr + 1) } else { None },
                        iface: None,
                        port: None,
                        done: None,
                    });
                }
                _ => {}
            }
        }
        if ifaces.is_empty() && accesses.is_empty() {
            return None;
        }
        let mut iface_of = vec![None; item.ops.len()];
        for (i, iface) in ifaces.iter().enumerate() {
            iface_of[iface.op as usize] = Some(i);
        }
        let mut access_of = vec![None; item.ops.len()];
        for (a, access) in accesses.iter().enumerate() {
            access_of[access.op as usize] = Some(a);
        }
        let entry_block = item
            .ops
            .first()
            .and_then(|f| cx.item.op_regions(f).first())
            .and_then(|&r| item.regions[r as usize].blocks.first().copied());
        let args: &[ValueId] = entry_block.map_or(&[], |b| &item.blocks[b as usize].args);
        // A function without a control argument passes its tokens as `i1` (LOOM's `_esi`
        // wrappers: ESI ports cannot carry `none`).
        let i1_tokens = !args.iter().any(|&v| cx.ty(v).is_some_and(is_control));
        let token = |ty: &Type| is_token(ty, i1_tokens);
        let start = args
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &v)| cx.ty(v).is_some_and(token))
            .map(|(n, &v)| (n as u32, v));
        let ret = entry_block.and_then(|b| {
            let op =
                *item.blocks[b as usize].ops.iter().rev().find(|&&o| {
                    OpKind::of(&item.ops[o as usize]).is_some_and(OpKind::is_terminator)
                })?;
            let operands = item.operands(&item.ops[op as usize]);
            let ctrls = (0..operands.len())
                .filter(|&i| {
                    let u = operands[i];
                    item.uses[u as usize].value.and_then(|v| cx.ty(v)).is_some_and(token)
                })
                .collect();
            Some((op, ctrls))
        });
        Some(Memory { cx, ifaces, iface_of, accesses, access_of, start, ret, i1_tokens })
    }

    /// Whether a value of `ty` is a token (a control, or LOOM's `i1` in `_esi` wrappers).
    fn is_token(&self, ty: &Type) -> bool {
        is_token(ty, self.i1_tokens)
    }

    fn op(&self, id: OpId) -> &'a OpData {
        &self.cx.item.ops[id as usize]
    }

    fn name(&self, v: ValueId) -> String {
        self.cx.item.values[v as usize].display(self.cx.item, ir::group_len(self.cx.item, v))
    }

    fn value_range(&self, v: ValueId) -> TextRange {
        self.cx.item.values[v as usize].range
    }

    /// "`extmemory` of `%a` (id 0)", naming the interface for messages.
    fn iface_label(&self, i: usize) -> String {
        let iface = &self.ifaces[i];
        let op = self.op(iface.op);
        let mut label = format!("`{}`", op.short_name());
        if iface.offset == 1 {
            if let Some(&u) = self.cx.item.operands(op).first() {
                label.push_str(&format!(
                    " of `{}`",
                    self.cx.item.str(self.cx.item.uses[u as usize].text())
                ));
            }
        }
        if let Some(id) = self.cx.item.attr_value(op, "id") {
            label.push_str(&format!(" (id {})", crate::dataflow::attribute_scalar(id)));
        }
        label
    }

    /// "load `%x`", naming the access for messages by its name and first result.
    fn access_label(&self, a: usize) -> String {
        let access = &self.accesses[a];
        let kind = self.op(access.op).short_name();
        match self.cx.item.results(self.op(access.op)).first() {
            Some(&v) => format!("{kind} `{}`", self.name(v)),
            None => kind.to_string(),
        }
    }

    fn is_buffer(&self, op: OpId) -> bool {
        dataflow::is_channel_buffer(self.cx.item, &self.cx.buffers, op)
    }

    /// The ops consuming `value`, through buffers, with the operand position of each use.
    fn consumers(&self, value: ValueId) -> Vec<(OpId, usize)> {
        let item = self.cx.item;
        let mut out = Vec::new();
        let mut stack = vec![value];
        let mut seen = HashSet::new();
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            for &u in item.value_uses(&item.values[v as usize]) {
                let op = item.uses[u as usize].op;
                let data = self.op(op);
                let position =
                    self.cx.item.operands(data).iter().position(|&x| x == u).unwrap_or(0);
                if self.is_buffer(op) {
                    stack.push(self.cx.item.results(data)[0]);
                } else {
                    out.push((op, position));
                }
            }
        }
        out
    }

    /// The value `value` is a copy of, looking upstream through buffers.
    fn source(&self, value: ValueId) -> ValueId {
        dataflow::upstream_buffers(self.cx.item, &self.cx.buffers, value).1
    }

    /// The results of an access that go to memory: a load's addresses, a store's data and
    /// addresses.
    fn memory_results(&self, a: usize) -> &'a [ValueId] {
        let access = &self.accesses[a];
        let results = self.cx.item.results(self.op(access.op));
        if access.is_load {
            results.get(1..).unwrap_or(&[])
        } else {
            results
        }
    }

    /// HS3022 / HS3023: every memory-side result of an access feeds one interface, at a port
    /// of the access's kind; a load reads its own port's data.
    fn attach(&mut self, acc: &mut Vec<Diagnostic>) {
        for a in 0..self.accesses.len() {
            let op = self.op(self.accesses[a].op);
            let label = self.access_label(a);
            let mut target: Option<usize> = None;
            let mut positions = Vec::new();
            let mut problem: Option<Diagnostic> = None;
            for &r in self.memory_results(a) {
                let consumers = self.consumers(r);
                let what = self.result_role(a, r);
                if consumers.is_empty() {
                    problem = Some(Diagnostic::new(
                        Code::AccessNotAttached,
                        op.name_range,
                        format!("the {what} `{}` of {label} feeds no memory interface; it must feed exactly one `memory` / `extmemory` port", self.name(r)),
                    ));
                    break;
                }
                for &(c, _) in &consumers {
                    let Some(i) = self.iface_of[c as usize] else {
                        problem = Some(
                            Diagnostic::new(
                                Code::AccessNotAttached,
                                op.name_range,
                                format!("the {what} `{}` of {label} feeds `{}`, which is not a memory interface; it must feed exactly one `memory` / `extmemory` port", self.name(r), self.op(c).short_name()),
                            )
                            .with_related(self.op(c).name_range, "consumed here"),
                        );
                        break;
                    };
                    match target {
                        Some(t) if t != i => {
                            problem = Some(
                                Diagnostic::new(
                                    Code::AccessNotAttached,
                                    op.name_range,
                                    format!("{label} feeds two memory interfaces, {} and {}; an access belongs to exactly one", self.iface_label(t), self.iface_label(i)),
                                )
                                .with_related(self.op(self.ifaces[t].op).name_range, "one interface")
                                .with_related(self.op(c).name_range, "the other interface"),
                            );
                            break;
                        }
                        _ => target = Some(i),
                    }
                }
                if problem.is_some() {
                    break;
                }
                if consumers.len() > 1 {
                    // Consumed several times by one interface: HS1108 reports the channel.
                    problem = Some(Diagnostic::new(
                        Code::AccessNotAttached,
                        op.name_range,
                        format!("the {what} `{}` of {label} feeds {} memory ports; it must feed exactly one", self.name(r), consumers.len()),
                    ));
                    break;
                }
                positions.push(consumers[0].1);
            }
            if let Some(d) = problem {
                acc.push(d);
                continue;
            }
            let Some(i) = target else { continue };
            self.accesses[a].iface = Some(i);
            self.wire_port(a, i, &positions, acc);
        }
    }

    fn result_role(&self, a: usize, r: ValueId) -> &'static str {
        let access = &self.accesses[a];
        let first = self.cx.item.results(self.op(access.op)).first() == Some(&r);
        if !access.is_load && first {
            "data result"
        } else {
            "address result"
        }
    }

    /// The port an attached access is wired to, from the operand positions of its memory-side
    /// results on interface `i`; reports wiring at the wrong kind of port.
    fn wire_port(&mut self, a: usize, i: usize, positions: &[usize], acc: &mut Vec<Diagnostic>) {
        let iface = &self.ifaces[i];
        if !iface.ports_ok || positions.is_empty() {
            return;
        }
        let access = &self.accesses[a];
        let op = self.op(access.op);
        let label = self.access_label(a);
        let ifl = self.iface_label(i);
        let stores_end = 2 * iface.st;
        let ports: Vec<usize> = positions.iter().map(|p| p.saturating_sub(iface.offset)).collect();
        let describe = |p: usize| {
            if p < stores_end {
                format!(
                    "the {} operand of store port {}",
                    if p.is_multiple_of(2) { "data" } else { "address" },
                    p / 2
                )
            } else {
                format!("the address operand of load port {}", p - stores_end)
            }
        };
        let port = if access.is_load {
            let p = ports[0];
            if p < stores_end {
                acc.push(
                    Diagnostic::new(
                        Code::AccessPortMismatch,
                        op.name_range,
                        format!("{label} is wired to {} of {ifl}; a load's address goes to a load port (operands after the {} store operand{})", describe(p), stores_end, plural(stores_end)),
                    )
                    .with_related(self.op(iface.op).name_range, "the memory interface"),
                );
                return;
            }
            p - stores_end
        } else {
            let (pd, pa) = (ports[0], ports.get(1).copied());
            let ok = pd < stores_end && pd.is_multiple_of(2) && pa.is_none_or(|pa| pa == pd + 1);
            if !ok {
                let addr =
                    pa.map_or(String::new(), |pa| format!(" and its address to {}", describe(pa)));
                acc.push(
                    Diagnostic::new(
                        Code::AccessPortMismatch,
                        op.name_range,
                        format!("{label} sends its data to {}{addr} of {ifl}; a store's data and address go to the data and address operands of one store port", describe(pd)),
                    )
                    .with_related(self.op(iface.op).name_range, "the memory interface"),
                );
                return;
            }
            pd / 2
        };
        let done_index = if access.is_load { iface.ld + iface.st + port } else { iface.ld + port };
        let iface_op = self.op(iface.op);
        let done = if iface.results_ok {
            self.cx.item.results(iface_op).get(done_index).copied()
        } else {
            None
        };
        // A load reads the load-data result of its own port.
        if access.is_load && iface.results_ok && access.naddr >= 1 {
            if let (Some(data), Some(&expected)) =
                (access.data_in, self.cx.item.results(iface_op).get(port))
            {
                let got = self.source(data);
                if got != expected {
                    let u = self.cx.item.operands(op)[access.naddr];
                    acc.push(
                        Diagnostic::new(
                            Code::AccessPortMismatch,
                            self.cx.item.uses[u as usize].range,
                            format!("{label} is on load port {port} of {ifl}, so its data from memory must be that port's load-data result `{}`, not `{}`", self.name(expected), self.name(got)),
                        )
                        .with_related(self.value_range(expected), format!("load-data result of load port {port}")),
                    );
                }
            }
        }
        let access = &mut self.accesses[a];
        access.port = Some(port);
        access.done = done;
    }

    /// HS3025: done results are control tokens; load-data results feed loads.
    fn interface_results(&self, acc: &mut Vec<Diagnostic>) {
        for (i, iface) in self.ifaces.iter().enumerate() {
            if !iface.results_ok {
                continue;
            }
            let op = self.op(iface.op);
            let item = self.cx.item;
            let outs = crate::signatures::function(item, item.types(op)).map(|(_, outs)| outs);
            let attached = self.accesses.iter().any(|a| a.iface == Some(i));
            for (n, &v) in self.cx.item.results(op).iter().enumerate() {
                match iface.result_kind(n) {
                    Some(kind @ (ResultKind::StoreDone(k) | ResultKind::LoadDone(k))) => {
                        let Some(ty) = self.cx.ty(v) else { continue };
                        if self.is_token(ty) {
                            continue;
                        }
                        let range = outs.and_then(|o| o.get(n)).map_or(op.name_range, |w| w.range);
                        let port = if matches!(kind, ResultKind::StoreDone(_)) {
                            "store port"
                        } else {
                            "load port"
                        };
                        acc.push(Diagnostic::new(
                            Code::MemoryResultLayout,
                            range,
                            format!("result #{n} of {} is the done token of {port} {k} and must be `none`, not `{ty}` (results are {} load-data, then {} store-done, then {} load-done)", self.iface_label(i), iface.ld, iface.st, iface.ld),
                        ));
                    }
                    Some(ResultKind::LoadData(k)) if attached => {
                        for (c, position) in self.consumers(v) {
                            let is_load_data = self.access_of[c as usize].is_some_and(|a| {
                                let access = &self.accesses[a];
                                access.is_load && position == access.naddr
                            });
                            if !is_load_data {
                                acc.push(
                                    Diagnostic::new(
                                        Code::MemoryResultLayout,
                                        self.value_range(v),
                                        format!("`{}` is the load-data result of load port {k} of {}, but feeds `{}`; it must feed the data-from-memory operand of the load on that port", self.name(v), self.iface_label(i), self.op(c).short_name()),
                                    )
                                    .with_related(self.op(c).name_range, "consumed here"),
                                );
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// HS3024: the `ld` / `st` counts of an interface with accesses attached match them.
    fn counts(&self, acc: &mut Vec<Diagnostic>) {
        for (i, iface) in self.ifaces.iter().enumerate() {
            let attached: Vec<&Access> =
                self.accesses.iter().filter(|a| a.iface == Some(i)).collect();
            if attached.is_empty() {
                continue;
            }
            let loads = attached.iter().filter(|a| a.is_load).count();
            let stores = attached.len() - loads;
            if loads == iface.ld && stores == iface.st {
                continue;
            }
            let op = self.op(iface.op);
            acc.push(Diagnostic::new(
                Code::AccessCountMismatch,
                op.name_range,
                format!(
                    "{} declares `ld = {}, st = {}` but {loads} load{} and {stores} store{} are attached to it",
                    self.iface_label(i),
                    iface.ld,
                    iface.st,
                    plural(loads),
                    plural(stores)
                ),
            ));
        }
    }

    /// The start token and the interfaces whose done tokens `value` derives from: walks the
    /// dataflow graph upstream, stopping at interfaces (a done result is a root) and at
    /// accesses (their results are data and addresses, not ordering tokens).
    fn roots(&self, value: ValueId) -> (bool, BTreeSet<usize>) {
        let item = self.cx.item;
        let graph = &self.cx.graph;
        let mut start = false;
        let mut dones = BTreeSet::new();
        let mut seen = HashSet::new();
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            let Some(node) = dataflow::producer(graph, item, v) else { continue };
            match graph.node(node) {
                Node::Arg { n, .. } => start |= self.start.is_some_and(|(s, _)| s == n),
                Node::Op(op) => {
                    if let Some(i) = self.iface_of[op as usize] {
                        let Def::Result { n, .. } = item.values[v as usize].def else { continue };
                        if self.ifaces[i].is_done(n as usize) {
                            dones.insert(i);
                        }
                    } else if self.access_of[op as usize].is_none() {
                        stack.extend(graph.edges_into(node).map(|l| l.edge.value));
                    }
                }
            }
        }
        (start, dones)
    }

    /// HS3020 / HS3021: an access's ctrl derives from the start token or its own memory's done
    /// tokens, and from no other memory's.
    fn ctrl_sources(&self, acc: &mut Vec<Diagnostic>) {
        for (a, access) in self.accesses.iter().enumerate() {
            let Some(ctrl) = access.ctrl else { continue };
            if self.cx.ty(ctrl).is_some_and(|t| !self.is_token(t)) {
                // A data value as ctrl: HS1105 reports the type.
                continue;
            }
            let op = self.op(access.op);
            let ctrl_use = self.cx.item.operands(op)[access.naddr + 1];
            let range = self.cx.item.uses[ctrl_use as usize].range;
            let label = self.access_label(a);
            let (start, dones) = self.roots(ctrl);
            let own = access.iface;
            let others: Vec<usize> = dones.iter().copied().filter(|&i| Some(i) != own).collect();
            let from_own =
                own.is_some_and(|i| dones.contains(&i)) || (own.is_none() && !dones.is_empty());
            if own.is_some() && !others.is_empty() {
                let list: Vec<String> = others.iter().map(|&i| self.iface_label(i)).collect();
                let mut d = Diagnostic::new(
                    Code::AccessCtrlMultiMem,
                    range,
                    format!(
                        "CTRL_MULTI_MEM: the ctrl `{}` of {label}, an access of {}, depends on done tokens of {}; each memory's ctrl-done network must stay independent",
                        self.cx.item.str(self.cx.item.uses[ctrl_use as usize].text()),
                        self.iface_label(own.unwrap_or_default()),
                        list.join(" and ")
                    ),
                );
                for &i in &others {
                    d = d.with_related(
                        self.op(self.ifaces[i].op).name_range,
                        "the other memory interface",
                    );
                }
                acc.push(d);
            } else if !start && !from_own {
                let start_text = match self.start {
                    Some((_, v)) => format!("the start token `{}`", self.name(v)),
                    None => "a start token (the function has no `none` argument)".to_string(),
                };
                let ctrl_text = self.cx.item.str(self.cx.item.uses[ctrl_use as usize].text());
                let message = match own {
                    Some(i) => format!(
                        "the ctrl `{ctrl_text}` of {label} derives neither from {start_text} nor from done tokens of {}, its memory",
                        self.iface_label(i)
                    ),
                    None => format!("the ctrl `{ctrl_text}` of {label} does not derive from {start_text}"),
                };
                let mut d = Diagnostic::new(Code::AccessCtrlSource, range, message);
                if let Some((_, v)) = self.start {
                    d = d.with_related(self.value_range(v), "the start token");
                }
                acc.push(d);
            }
        }
    }

    /// Follows a control token downstream. Through accesses (when `through_accesses`) a token
    /// goes on as the access's done token (an access completes after all its operands).
    fn walk(&self, from: ValueId, through_accesses: bool) -> Walk {
        let item = self.cx.item;
        let mut walk = Walk { reached_return: false, bad: None };
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([from]);
        let bad = |walk: &mut Walk, end: End| {
            if walk.bad.is_none() {
                walk.bad = Some(end);
            }
        };
        while let Some(v) = queue.pop_front() {
            if !seen.insert(v) {
                continue;
            }
            let uses = item.value_uses(&item.values[v as usize]);
            if uses.is_empty() {
                bad(&mut walk, End::Unused(v));
            }
            for &u in uses {
                let c = item.uses[u as usize].op;
                let op = self.op(c);
                let position = self.cx.item.operands(op).iter().position(|&x| x == u);
                if let Some((r, ctrls)) = &self.ret {
                    if c == *r {
                        if position.is_some_and(|p| ctrls.contains(&p)) {
                            walk.reached_return = true;
                        } else {
                            bad(&mut walk, End::ReturnData(c));
                        }
                        continue;
                    }
                }
                if OpKind::of(op) == Some(OpKind::Sink) {
                    bad(&mut walk, End::Sink(c));
                } else if let Some(a) = self.access_of[c as usize] {
                    if !through_accesses {
                        bad(&mut walk, End::Memory(c));
                    } else if let Some(done) = self.accesses[a].done {
                        queue.push_back(done);
                    }
                } else if self.iface_of[c as usize].is_some() {
                    if !through_accesses {
                        bad(&mut walk, End::Memory(c));
                    }
                } else if op.results.is_empty() {
                    bad(&mut walk, End::NoResults(c));
                } else {
                    queue.extend(self.cx.item.results(op).iter().copied());
                }
            }
        }
        walk
    }

    fn describe_end(&self, end: End) -> (String, TextRange) {
        match end {
            End::Sink(op) => ("a `sink`".into(), self.op(op).name_range),
            End::Unused(v) => {
                (format!("`{}`, which nothing consumes", self.name(v)), self.value_range(v))
            }
            End::ReturnData(op) => (
                format!("a non-control operand of `{}`", self.op(op).short_name()),
                self.op(op).name_range,
            ),
            End::NoResults(op) => {
                (format!("`{}`", self.op(op).short_name()), self.op(op).name_range)
            }
            End::Memory(op) => {
                (format!("the memory op `{}`", self.op(op).short_name()), self.op(op).name_range)
            }
        }
    }

    /// HS3026 / HS3027: every access's done token is consumed and reaches the returned control
    /// on every path.
    fn done_tokens(&self, acc: &mut Vec<Diagnostic>) {
        let ret_ctrl = self.ret.as_ref().and_then(|(op, ctrls)| Some((*op, *ctrls.last()?)));
        for (a, access) in self.accesses.iter().enumerate() {
            let Some(done) = access.done else { continue };
            if self.cx.ty(done).is_some_and(|t| !self.is_token(t)) {
                // HS3025 reports the done result typed as data.
                continue;
            }
            let label = self.access_label(a);
            let consumers = self.consumers(done);
            if consumers.is_empty() {
                // HS1107 reports the channel nothing consumes.
                continue;
            }
            if let Some(&(sink, _)) =
                consumers.iter().find(|(c, _)| OpKind::of(self.op(*c)) == Some(OpKind::Sink))
            {
                let mut d = Diagnostic::new(
                        Code::DoneTokenSunk,
                        self.op(sink).name_range,
                        format!("the done token `{}` of {label} is discarded; an access's completion must be waited for (joined into the next ctrl or the returned control)", self.name(done)),
                    )
                    .with_related(self.value_range(done), "the done token")
                    .with_related(self.op(access.op).name_range, format!("the {}", self.op(access.op).short_name()));
                if let Some(fix) = self.join_into_return(sink, done) {
                    d.fixes.push(fix);
                }
                acc.push(d);
                continue;
            }
            let (Some(_), Some((ret, ctrl))) = (self.start, ret_ctrl) else { continue };
            let walk = self.walk(done, true);
            let (problem, range) = match walk.bad {
                Some(end) => {
                    let (what, range) = self.describe_end(end);
                    (format!("can end in {what}"), Some(range))
                }
                None if !walk.reached_return => ("never reaches it".to_string(), None),
                None => continue,
            };
            let ret_op = self.op(ret);
            let ctrl_text = self
                .cx
                .item
                .str(self.cx.item.uses[self.cx.item.operands(ret_op)[ctrl] as usize].text());
            let mut d = Diagnostic::new(
                Code::DoneNotCompleted,
                self.value_range(done),
                format!(
                    "the done token `{}` of {label} must reach the returned control `{ctrl_text}` on every path, but {problem}",
                    self.name(done)
                ),
            )
            .with_related(self.op(access.op).name_range, "the access");
            if let Some(range) = range {
                d = d.with_related(range, "the token ends here");
            }
            acc.push(d);
        }
    }

    /// The quick fix of HS3026: delete the `sink` and join the token it took into the returned
    /// control, on a new line before the return.
    fn join_into_return(&self, sink: OpId, done: ValueId) -> Option<Fix> {
        let item = self.cx.item;
        let text = self.cx.text;
        let (ret, ctrls) = self.ret.as_ref()?;
        let (ret, ctrl) = (*ret, *ctrls.last()?);
        let sink_op = self.op(sink);
        let sunk = &item.uses[*self.cx.item.operands(sink_op).first()? as usize];
        let ret_op = self.op(ret);
        let ctrl_use = &item.uses[self.cx.item.operands(ret_op)[ctrl] as usize];
        let ctrl_ty = self.cx.ty(ctrl_use.value?)?;
        let sunk_ty = self.cx.ty(sunk.value?)?;
        // The sink's line, when the sink is alone on it.
        let (start, end) = (usize::from(sink_op.range.start()), usize::from(sink_op.range.end()));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        if !text[line_start..start].trim().is_empty() || !text[end..line_end].trim().is_empty() {
            return None;
        }
        let ret_start = usize::from(ret_op.range.start());
        let ret_line = text[..ret_start].rfind('\n').map_or(0, |i| i + 1);
        let indent = &text[ret_line..ret_start];
        if !indent.trim().is_empty() {
            return None;
        }
        let base = format!("{}_joined", item.str(item.values[done as usize].name()));
        let taken = |name: &str| item.values.iter().any(|v| self.cx.item.str(v.name()) == name);
        let mut name = base.clone();
        let mut n = 1;
        while taken(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        let at = |offset: usize| TextSize::from(offset as u32);
        Some(Fix {
            label: format!("Join `{}` into the returned control", item.str(sunk.text())),
            edits: vec![
                TextEdit {
                    range: TextRange::new(at(line_start), at(line_end)),
                    new_text: String::new(),
                },
                TextEdit {
                    range: TextRange::empty(at(ret_line)),
                    new_text: format!(
                        "{indent}{name} = join {}, {} : {sunk_ty}, {ctrl_ty}\n",
                        item.str(sunk.text()),
                        item.str(ctrl_use.text())
                    ),
                },
                TextEdit { range: ctrl_use.range, new_text: name },
            ],
        })
    }

    /// HS3028: a join that first mixes done tokens of two interfaces feeds only the returned
    /// control.
    fn cross_domain_joins(&self, acc: &mut Vec<Diagnostic>) {
        if self.ifaces.len() < 2 {
            return;
        }
        let item = self.cx.item;
        for op in item.ops.iter().skip(1) {
            if OpKind::of(op) != Some(OpKind::Join) || op.results.len() != 1 {
                continue;
            }
            let mut all = BTreeSet::new();
            let mut mixed_already = false;
            for &u in self.cx.item.operands(op) {
                let Some(v) = item.uses[u as usize].value else { continue };
                let (_, dones) = self.roots(v);
                mixed_already |= dones.len() > 1;
                all.extend(dones);
            }
            if all.len() < 2 || mixed_already {
                continue;
            }
            let walk = self.walk(self.cx.item.results(op)[0], false);
            if walk.bad.is_none() && walk.reached_return {
                continue;
            }
            let names: Vec<String> = all.iter().map(|&i| self.iface_label(i)).collect();
            let tail = match walk.bad {
                Some(end) => format!("it also feeds {}", self.describe_end(end).0),
                None => "it never reaches the returned control".to_string(),
            };
            let mut d = Diagnostic::new(
                Code::CrossDomainJoin,
                op.name_range,
                format!(
                    "this join combines done tokens of {}, but {tail}; independent memories' ctrl-done networks should only be joined into the returned control",
                    names.join(" and ")
                ),
            );
            for &i in &all {
                d = d.with_related(
                    self.op(self.ifaces[i].op).name_range,
                    format!("done tokens of {} come from here", self.iface_label(i)),
                );
            }
            if let Some(end) = walk.bad {
                d = d.with_related(self.describe_end(end).1, "the joined token goes here");
            }
            acc.push(d);
        }
    }
}
