//! The memories of a `handshake.func` and the role of every port of the interfaces that reach
//! them, decided here once for the interpreter, the netlist and the testbench, so that all three
//! name a memory and read a port the same way.
//!
//! A memory is either a memref argument of the function (reached through CIRCT's `extmemory` or
//! Dynamatic's `mem_controller`) or an internal CIRCT `memory` op. Its name is a Verilog
//! identifier: the argument's port name (`Func::arg_names`) for an argument, `mem<id>` (the op's
//! `id` attribute, or its op index when it has none) for an internal memory, made distinct from
//! the argument names and from each other with `_<n>` suffixes.
//!
//! Port layouts:
//! - `memory` / `extmemory` (after `extmemory`'s memref operand): store data and address per
//!   store port, then one address per load port; results: data per load port, a done token per
//!   store port, then a done token per load port.
//! - `mem_controller [%m : memref] %memStart (ports...) %ctrlEnd`: each parenthesised port's
//!   role comes from the op producing it, as Dynamatic lays them out: a `load`'s result is a
//!   load address, a `store`'s results #0 and #1 are a store's address and data (one store port
//!   per `store` op, numbered in order of first appearance), and any other producer gives a
//!   store-count channel (the number of stores a block will issue). Results: data per load port,
//!   in the order of the load ports, then `memEnd`. Loads and stores are those of every era
//!   (`OpKind::is_load` / `is_store`: Dynamatic 2024's `mc_load` / `mc_store` too). Dynamatic
//!   2024's `mem_controller [%m : memref] (ports...)` has no `memStart` / `ctrlEnd`; its last
//!   result, its done token, is `memEnd`.
//! - `lsq [%m : memref] (%memStart, groups..., %ctrlEnd) {groupSizes = [n0, n1, ...]}`, as
//!   Dynamatic lays it out (`LSQOp` and its port reader): after `memStart`, each group in turn
//!   is its allocation token (a control token saying the group's accesses start) followed by its
//!   `n` accesses in program order: a load's address, or a store's address then its data. An
//!   operand's role comes from the op producing it, seen through `fork`, `extsi`, `extui` and
//!   `trunci` as Dynamatic does (and through `lazy_fork` and `buffer` too): a `load` gives a load address, a `store` an address
//!   then data, anything else a group allocation. Load and store ports are numbered in operand
//!   order. Results: data per load port, then `memEnd`. An access's
//!   `handshake.mem_interface = #handshake.mem_interface<LSQ: g>` (2024: `mem_interface = ...`)
//!   must name its group. Dynamatic 2024's `lsq [%m : memref] (groups...)` has no `memStart` /
//!   `ctrlEnd`: its parenthesised operands are the groups alone, and its last result, its done
//!   token, is `memEnd`.
//! - `lsq [MC] (groups..., %ldDataFromMC) {groupSizes = [...]}`, Dynamatic's LSQ behind a
//!   `mem_controller` (`Interface::behind_controller`): no memref, no `memStart` / `ctrlEnd`
//!   (any era); its groups are laid out as above, and its last operand is the load data the
//!   controller sends back (`Port::FromController`). Results: data per load port, then the load
//!   address, store address and store data it sends the controller (`Port::ToController(0..3)`),
//!   then (Dynamatic 2024 only) its steady done token, `memEnd`. The `mem_controller` reads
//!   those three results as one load port (whose data result goes back to the LSQ) and one store
//!   port, numbered among its own in operand order (`Interface::lsq_ports`); its store counts
//!   include the LSQ's stores, as Dynamatic's do.
//!
//! Dynamatic 2024's interfaces (`mem_controller`, `lsq`) have no `memStart` / `ctrlEnd`, so
//! their done token cannot be sent once per use of the memory: it is offered whenever no access
//! the interface was told of (by a store count, by a group allocation) is still to be done
//! (`Interface::steady_done`). The era is read here and nowhere else: the interpreter, the
//! netlist and the testbench follow the roles and that flag.

use hsir_analysis::ir::{Container, Def, Item, OpData, OpId, TypeEntry, UseId, ValueId};
use hsir_analysis::ops::{Era, OpKind};
use hsir_analysis::types::Type;

use crate::program::{memref_shape, Func};

/// One memory of a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemorySpec {
    /// A Verilog identifier, distinct among the function's memories and arguments.
    pub name: String,
    /// Words.
    pub depth: u64,
    /// Bits per word.
    pub width: u32,
    pub kind: MemoryKind,
    /// The interface ops that access it, in op order (normally exactly one).
    pub interfaces: Vec<Interface>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryKind {
    /// The memref argument at this position.
    Argument(usize),
    /// An internal `memory` op.
    Internal(OpId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterfaceKind {
    /// CIRCT's internal `memory`.
    Memory,
    /// CIRCT's `extmemory`.
    ExtMemory,
    /// Dynamatic's `mem_controller`.
    MemController,
    /// Dynamatic's load-store queue, `lsq`.
    Lsq,
}

/// One access of an LSQ group: the load or store port it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Load(usize),
    Store(usize),
}

/// One memory interface op and the role of each of its operands and results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    pub op: OpId,
    pub kind: InterfaceKind,
    pub loads: usize,
    pub stores: usize,
    /// `mem_controller`'s store-count channels.
    pub store_counts: usize,
    /// One role per operand of the op, in operand order.
    pub operands: Vec<Port>,
    /// One role per result of the op, in result order.
    pub results: Vec<Port>,
    /// `lsq`: the accesses of each group, in program order.
    pub groups: Vec<Vec<Access>>,
    /// `lsq [MC]`: an LSQ whose requests go through a `mem_controller` rather than to a memref.
    pub behind_controller: bool,
    /// `mem_controller`: the load port and store port an `lsq [MC]` feeds, if one does.
    pub lsq_ports: Option<LsqPorts>,
    /// Dynamatic 2024's `mem_controller` and `lsq`: there is no `memStart` / `ctrlEnd`, and the
    /// done token (`Port::MemEnd`) is offered whenever no access the interface was told of is
    /// pending, rather than once per `ctrlEnd`.
    pub steady_done: bool,
    /// Why the ports cannot be laid out, when they cannot (an `lsq` whose operands do not match
    /// its `groupSizes`); the roles concerned are `Port::Unknown`.
    pub problem: Option<String>,
}

/// The ports of a `mem_controller` that an `lsq [MC]` feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LsqPorts {
    /// The `lsq` op.
    pub lsq: OpId,
    /// The controller's load port and store port it uses.
    pub load: usize,
    pub store: usize,
}

/// What one operand or result of a memory interface is. Numbers are port indices (load port
/// `k`, store port `k`, store-count channel `k`), from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Port {
    /// The memref operand of `extmemory` / `mem_controller` (not a channel).
    Memref,
    StoreData(usize),
    StoreAddr(usize),
    LoadAddr(usize),
    LoadData(usize),
    StoreDone(usize),
    LoadDone(usize),
    /// `mem_controller`: a token carrying the number of stores a block issues.
    StoreCount(usize),
    /// `lsq`: the token that allocates group `k`'s accesses, in program order.
    GroupAlloc(usize),
    /// `mem_controller`, `lsq`: the control token that starts the memory's use.
    MemStart,
    /// `mem_controller`: the control token saying no more store counts will come; `lsq`: no
    /// more groups will be allocated.
    CtrlEnd,
    /// `mem_controller`: the done token, once every announced store is written; `lsq`: once
    /// every allocated access has been done.
    MemEnd,
    /// `lsq [MC]`: the channel it sends its `mem_controller`: 0 a load address, 1 a store
    /// address, 2 a store's data (results).
    ToController(usize),
    /// `lsq [MC]`: the load data its `mem_controller` sends back, in the order of the addresses
    /// (its last operand).
    FromController,
    /// A port the layout does not account for (the op's counts are wrong; HS1208 says so).
    Unknown,
}

impl Interface {
    /// The operand index holding `port`.
    pub fn operand(&self, port: Port) -> Option<usize> {
        self.operands.iter().position(|&p| p == port)
    }

    /// The result index holding `port`.
    pub fn result(&self, port: Port) -> Option<usize> {
        self.results.iter().position(|&p| p == port)
    }
}

/// The memories of `func`: its memref arguments in order, then its internal memories in op
/// order, each with the interfaces that reach it. A memref argument whose shape is not static is
/// left out.
pub fn memories(func: &Func) -> Vec<MemorySpec> {
    let item = &func.item;
    let arg_names = func.arg_names();
    let args = func.args();
    let mut out: Vec<MemorySpec> = Vec::new();
    for (i, &value) in args.iter().enumerate() {
        let Some((depth, width)) = func.ty(value).and_then(memref_shape) else { continue };
        let name = arg_names.get(i).cloned().unwrap_or_else(|| format!("in{i}"));
        out.push(MemorySpec {
            name,
            depth,
            width,
            kind: MemoryKind::Argument(i),
            interfaces: Vec::new(),
        });
    }
    for (id, op) in item.ops.iter().enumerate().skip(1) {
        let id = id as OpId;
        let Some(interface) = interface(func, id) else { continue };
        match interface.kind {
            InterfaceKind::Memory => {
                let Some((depth, width)) = internal_shape(item, op) else { continue };
                let number = item
                    .attr_value(op, "id")
                    .and_then(|a| hsir_analysis::dataflow::attribute_scalar(a).parse().ok())
                    .unwrap_or(id as u64);
                let mut name = format!("mem{number}");
                let base = name.clone();
                let mut n = 1;
                while out.iter().any(|m| m.name == name) || arg_names.contains(&name) {
                    name = format!("{base}_{n}");
                    n += 1;
                }
                out.push(MemorySpec {
                    name,
                    depth,
                    width,
                    kind: MemoryKind::Internal(id),
                    interfaces: vec![interface],
                });
            }
            InterfaceKind::ExtMemory | InterfaceKind::MemController | InterfaceKind::Lsq => {
                let Some(arg) = memref_operand(func, op) else { continue };
                if let Some(memory) = out.iter_mut().find(|m| m.kind == MemoryKind::Argument(arg)) {
                    memory.interfaces.push(interface);
                }
            }
        }
    }
    out
}

/// The memory interface `op` is, with its ports; `None` for any other op.
pub fn interface(func: &Func, op: OpId) -> Option<Interface> {
    let data = &func.item.ops[op as usize];
    match OpKind::of(data)? {
        OpKind::Memory => Some(circt_interface(&func.item, data, op, InterfaceKind::Memory, 0)),
        OpKind::ExtMemory => {
            Some(circt_interface(&func.item, data, op, InterfaceKind::ExtMemory, 1))
        }
        OpKind::MemController => Some(mem_controller(func, data, op)),
        OpKind::Lsq => Some(lsq(func, data, op)),
        _ => None,
    }
}

/// The position of the memref argument an `extmemory` / `mem_controller` reaches.
pub fn memref_operand(func: &Func, op: &OpData) -> Option<usize> {
    let item = &func.item;
    let first = *item.operands(op).first()?;
    let value = item.uses[first as usize].value?;
    let Def::Arg { n, .. } = item.values[value as usize].def else { return None };
    func.args().get(n as usize).filter(|&&v| v == value).map(|_| n as usize)
}

/// `memory`'s `: memref<..>, (...) -> (...)`.
fn internal_shape(item: &Item, op: &OpData) -> Option<(u64, u32)> {
    item.types(op).iter().find_map(|entry| match *entry {
        TypeEntry::One(written) if matches!(item.ty(written.ty), Type::MemRef { .. }) => {
            memref_shape(item.ty(written.ty))
        }
        _ => None,
    })
}

fn bracket_count(item: &Item, op: &OpData, key: &str) -> usize {
    item.bracket_entry(op, key).and_then(|v| v.trim().parse().ok()).unwrap_or(0)
}

fn circt_interface(
    item: &Item,
    op: &OpData,
    id: OpId,
    kind: InterfaceKind,
    skip: usize,
) -> Interface {
    let loads = bracket_count(item, op, "ld");
    let stores = bracket_count(item, op, "st");
    let mut layout = Vec::new();
    for k in 0..stores {
        layout.push(Port::StoreData(k));
        layout.push(Port::StoreAddr(k));
    }
    layout.extend((0..loads).map(Port::LoadAddr));
    let mut operands = vec![Port::Memref; skip.min(op.operands.len())];
    for i in skip..op.operands.len() {
        operands.push(layout.get(i - skip).copied().unwrap_or(Port::Unknown));
    }
    let mut results_layout: Vec<Port> = (0..loads).map(Port::LoadData).collect();
    results_layout.extend((0..stores).map(Port::StoreDone));
    results_layout.extend((0..loads).map(Port::LoadDone));
    let results = (0..op.results.len())
        .map(|i| results_layout.get(i).copied().unwrap_or(Port::Unknown))
        .collect();
    Interface {
        op: id,
        kind,
        loads,
        stores,
        store_counts: 0,
        operands,
        results,
        groups: Vec::new(),
        behind_controller: false,
        lsq_ports: None,
        steady_done: false,
        problem: None,
    }
}

fn mem_controller(func: &Func, op: &OpData, id: OpId) -> Interface {
    let item = &func.item;
    let mut operands = Vec::with_capacity(op.operands.len());
    let mut seen_paren = false;
    let mut loads = 0;
    let mut store_ops: Vec<OpId> = Vec::new();
    let mut store_counts = 0;
    let (mut lsq_load, mut lsq_store, mut lsq_op) = (None, None, None);
    for &u in item.operands(op) {
        let use_ = &item.uses[u as usize];
        let role = match &use_.container {
            Container::Bracket => Port::Memref,
            Container::Paren => {
                seen_paren = true;
                let made = use_.value.and_then(|v| producer(func, v));
                let from_lsq = match made {
                    Some((Some(OpKind::Lsq), lsq, n)) => {
                        to_controller(func, lsq, n).map(|c| (lsq, c))
                    }
                    _ => None,
                };
                match (made, from_lsq) {
                    (_, Some((lsq, 0))) => {
                        lsq_op = Some(lsq);
                        loads += 1;
                        lsq_load = Some(loads - 1);
                        Port::LoadAddr(loads - 1)
                    }
                    (_, Some((lsq, c))) => {
                        let k = match store_ops.iter().position(|&s| s == lsq) {
                            Some(k) => k,
                            None => {
                                store_ops.push(lsq);
                                store_ops.len() - 1
                            }
                        };
                        lsq_store = Some(k);
                        if c == 1 {
                            Port::StoreAddr(k)
                        } else {
                            Port::StoreData(k)
                        }
                    }
                    (Some((Some(kind), _, _)), _) if kind.is_load() => {
                        loads += 1;
                        Port::LoadAddr(loads - 1)
                    }
                    (Some((Some(kind), store, n @ (0 | 1))), _) if kind.is_store() => {
                        let k = match store_ops.iter().position(|&s| s == store) {
                            Some(k) => k,
                            None => {
                                store_ops.push(store);
                                store_ops.len() - 1
                            }
                        };
                        if n == 0 {
                            Port::StoreAddr(k)
                        } else {
                            Port::StoreData(k)
                        }
                    }
                    _ => {
                        store_counts += 1;
                        Port::StoreCount(store_counts - 1)
                    }
                }
            }
            _ if seen_paren => Port::CtrlEnd,
            _ => Port::MemStart,
        };
        operands.push(role);
    }
    let results = (0..op.results.len())
        .map(|i| {
            if i + 1 == op.results.len() {
                Port::MemEnd
            } else if i < loads {
                Port::LoadData(i)
            } else {
                Port::Unknown
            }
        })
        .collect();
    Interface {
        op: id,
        kind: InterfaceKind::MemController,
        loads,
        stores: store_ops.len(),
        store_counts,
        operands,
        results,
        groups: Vec::new(),
        behind_controller: false,
        lsq_ports: match (lsq_op, lsq_load, lsq_store) {
            (Some(lsq), Some(load), Some(store)) => Some(LsqPorts { lsq, load, store }),
            _ => None,
        },
        steady_done: func.era == Era::Dynamatic2024,
        problem: None,
    }
}

/// Which channel to its `mem_controller` result `n` of `lsq [MC]` op `lsq` is (0 load address,
/// 1 store address, 2 store data): the three results after its load data.
fn to_controller(func: &Func, lsq: OpId, n: u32) -> Option<usize> {
    let op = &func.item.ops[lsq as usize];
    let bracket = func
        .item
        .operands(op)
        .iter()
        .any(|&u| func.item.uses[u as usize].container == Container::Bracket);
    if bracket {
        return None;
    }
    let done = usize::from(func.era == Era::Dynamatic2024);
    let first = op.results.len().checked_sub(3 + done)?;
    (n as usize).checked_sub(first).filter(|&c| c < 3)
}

/// Dynamatic's `lsq`, laid out as the module comment says.
fn lsq(func: &Func, op: &OpData, id: OpId) -> Interface {
    let item = &func.item;
    let mut iface = Interface {
        op: id,
        kind: InterfaceKind::Lsq,
        loads: 0,
        stores: 0,
        store_counts: 0,
        operands: vec![Port::Unknown; op.operands.len()],
        results: vec![Port::Unknown; op.results.len()],
        groups: Vec::new(),
        behind_controller: false,
        lsq_ports: None,
        steady_done: func.era == Era::Dynamatic2024,
        problem: None,
    };
    let container = |i: usize| &item.uses[item.operands(op)[i] as usize].container;
    let paren: Vec<usize> =
        (0..op.operands.len()).filter(|&i| *container(i) == Container::Paren).collect();
    let memref: Vec<usize> =
        (0..op.operands.len()).filter(|&i| *container(i) == Container::Bracket).collect();
    iface.behind_controller = memref.is_empty();
    for &i in &memref {
        iface.operands[i] = Port::Memref;
    }
    let Some(sizes) = crate::program::integer_list(item, op, "groupSizes") else {
        iface.problem = Some("it has no readable `groupSizes`".into());
        return iface;
    };
    // Dynamatic 2024's has no `memStart` / `ctrlEnd`: its parenthesised operands are the groups;
    // behind a controller (any era), the groups and then the load data coming back.
    let body = if iface.behind_controller {
        let Some((&back, body)) = paren.split_last() else {
            iface.problem = Some("it lacks the load data its `mem_controller` sends back".into());
            return iface;
        };
        iface.operands[back] = Port::FromController;
        body
    } else if iface.steady_done {
        &paren[..]
    } else {
        let (&start, rest) = match paren.split_first() {
            Some(split) if paren.len() >= 2 => split,
            _ => {
                iface.problem = Some("it lacks its `memStart` or `ctrlEnd` operand".into());
                return iface;
            }
        };
        let (&end, body) = rest.split_last().expect("two operands at least");
        iface.operands[start] = Port::MemStart;
        iface.operands[end] = Port::CtrlEnd;
        body
    };
    let mut at = 0;
    let mut problem = None;
    for (g, &size) in sizes.iter().enumerate() {
        let Some(&alloc) = body.get(at) else {
            problem =
                Some(format!("`groupSizes` lists {} groups, its operands hold {g}", sizes.len()));
            break;
        };
        if access_producer(func, item.operands(op)[alloc]).is_some() {
            problem = Some(format!(
                "operand #{alloc} should allocate group {g} but is a memory access (group {} has more accesses than `groupSizes` says)",
                g.saturating_sub(1)
            ));
            break;
        }
        iface.operands[alloc] = Port::GroupAlloc(g);
        at += 1;
        let mut accesses = Vec::new();
        for _ in 0..size {
            let Some(&operand) = body.get(at) else { break };
            match access_producer(func, item.operands(op)[operand]) {
                Some((access, Access::Load(_))) => {
                    if let Some(wrong) =
                        wrong_group(item, func.era, &func.item.ops[access as usize], g)
                    {
                        problem.get_or_insert(wrong);
                    }
                    iface.operands[operand] = Port::LoadAddr(iface.loads);
                    accesses.push(Access::Load(iface.loads));
                    iface.loads += 1;
                    at += 1;
                }
                Some((access, _)) => {
                    if let Some(wrong) =
                        wrong_group(item, func.era, &func.item.ops[access as usize], g)
                    {
                        problem.get_or_insert(wrong);
                    }
                    let data = body.get(at + 1).copied();
                    let same = data.and_then(|d| access_producer(func, item.operands(op)[d]));
                    if same.map(|(s, _)| s) != Some(access) {
                        problem.get_or_insert(format!(
                            "the store address at operand #{operand} is not followed by the same store's data"
                        ));
                        break;
                    }
                    iface.operands[operand] = Port::StoreAddr(iface.stores);
                    iface.operands[data.expect("checked")] = Port::StoreData(iface.stores);
                    accesses.push(Access::Store(iface.stores));
                    iface.stores += 1;
                    at += 2;
                }
                None => break,
            }
        }
        if accesses.len() as u64 != size {
            problem.get_or_insert(format!(
                "group {g} has {} access{}, `groupSizes` says {size}",
                accesses.len(),
                if accesses.len() == 1 { "" } else { "es" }
            ));
        }
        iface.groups.push(accesses);
        if problem.is_some() {
            break;
        }
    }
    if problem.is_none() && at < body.len() {
        problem = Some(format!(
            "`groupSizes` accounts for {} of its {} group and access operands",
            at,
            body.len()
        ));
    }
    // Behind a controller: three channels to it; a done token unless it is of 2025 or later.
    let to_mc = if iface.behind_controller { 3 } else { 0 };
    let done = usize::from(!iface.behind_controller || iface.steady_done);
    let expected = iface.loads + to_mc + done;
    if problem.is_none() && op.results.len() != expected {
        let after = match (to_mc, done, iface.steady_done) {
            (3, 1, _) => "the load address, store address and store data to its `mem_controller`, then its done token",
            (3, _, _) => "the load address, store address and store data to its `mem_controller`",
            (_, _, true) => "its done token",
            _ => "`memEnd`",
        };
        problem = Some(format!(
            "it has {} load{}, so {expected} results (load data, then {after}), not {}",
            iface.loads,
            if iface.loads == 1 { "" } else { "s" },
            op.results.len()
        ));
    }
    if problem.is_none() {
        for (i, role) in iface.results.iter_mut().enumerate() {
            *role = if i < iface.loads {
                Port::LoadData(i)
            } else if i < iface.loads + to_mc {
                Port::ToController(i - iface.loads)
            } else {
                Port::MemEnd
            };
        }
    }
    iface.problem = problem;
    iface
}

/// The load or store whose result `use_` reads (as `Access::Load(0)` or `Access::Store(0)`),
/// seen through the ops Dynamatic looks through when it reads an LSQ's operands (and
/// `lazy_fork` and buffers, which a buffered circuit may put there); `None` for anything else.
fn access_producer(func: &Func, use_: UseId) -> Option<(OpId, Access)> {
    let item = &func.item;
    let mut value = item.uses[use_ as usize].value?;
    for _ in 0..item.ops.len() {
        let (kind, op, _) = producer(func, value)?;
        match kind? {
            kind if kind.is_load() => return Some((op, Access::Load(0))),
            kind if kind.is_store() => return Some((op, Access::Store(0))),
            kind if kind.is_buffer() => {}
            OpKind::Fork | OpKind::LazyFork | OpKind::ExtSI | OpKind::ExtUI | OpKind::TruncI => {}
            _ => return None,
        }
        let first = *item.operands(&item.ops[op as usize]).first()?;
        value = item.uses[first as usize].value?;
    }
    None
}

/// A message when `access` says (`handshake.mem_interface = #handshake.mem_interface<LSQ: g>`,
/// 2024's `mem_interface = ...`) that it belongs to another group than `group`.
fn wrong_group(item: &Item, era: Era, access: &OpData, group: usize) -> Option<String> {
    // Dynamatic 2024 named op-attached dialect attributes by their bare mnemonic.
    let key = if era == Era::Dynamatic2024 { "mem_interface" } else { "handshake.mem_interface" };
    let attr = item.attr_value(access, key)?;
    let (_, after) = attr.split_once("LSQ")?;
    let digits: String = after
        .trim_start_matches(|c: char| c == ':' || c.is_whitespace())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let said: usize = digits.parse().ok()?;
    (said != group).then(|| {
        format!(
            "`{}` says it belongs to LSQ group {said}, but its operands put it in group {group}",
            access.short_name()
        )
    })
}

/// The kind of the op defining `value` (`None` for an op hsir does not know), the op and the
/// result index.
fn producer(func: &Func, value: ValueId) -> Option<(Option<OpKind>, OpId, u32)> {
    match func.item.values[value as usize].def {
        Def::Result { op, n } => Some((OpKind::of(&func.item.ops[op as usize]), op, n)),
        Def::Arg { .. } => None,
    }
}
