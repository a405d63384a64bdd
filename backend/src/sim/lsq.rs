//! Dynamatic's load-store queue (`lsq`) in the interpreter, as a queue run strictly in program
//! order. `hsir_lsq` (`rtl/README.md`), like Dynamatic's LSQ, lets accesses overtake each other
//! when their addresses allow and forwards store data to loads; every load still sees exactly
//! the stores before it in program order, so the results are these, and only timing differs.
//!
//! A group's allocation token appends the group's accesses, in program order, to the queue. A
//! port takes tokens (addresses, store data) while it holds fewer than its accesses in the queue,
//! and keeps them in order. Only the oldest access in the queue runs, once its port holds what it
//! needs: a load reads the memory and sends the word on its data result, a store writes. So every
//! load reads what all earlier stores left. `memEnd` comes once `memStart` and `ctrlEnd` have
//! arrived and the queue is empty. Dynamatic 2024's `lsq` has neither (`Interface::steady_done`):
//! its done token is offered while the queue is empty and no allocation token waits, and taken
//! back when one arrives, as a 2024 `mem_controller`'s is (and as `hsir_lsq`'s `mem_end` drops
//! while a group token is valid).
//!
//! Allocation is a deferred step, like a merge's choice: when allocation tokens of several groups
//! wait at once, the oldest is taken and the run records a race (HS5007), since their order then
//! depends on timing (the RTL takes tokens valid in the same cycle in group-number order).
//! Dynamatic's circuits derive each group's token from the control flow, in program order, so
//! this does not happen in them. The end is deferred too, and comes only when no allocation
//! token waits.
//!
//! Behind a `mem_controller` (`lsq [MC]`) the queue owns no memory: its oldest access runs by
//! sending the controller a load address, or a store address and data, and the load data the
//! controller sends back, in the order of the addresses, goes out on the data result of the load
//! port that asked (`Controller`). The controller serves the LSQ's load and store port in the
//! order the LSQ sent them (`MemoryNode::lsq`), so every load still sees exactly the stores before
//! it. Such an LSQ has no `memStart` / `ctrlEnd`; Dynamatic 2024's has a steady done token, later
//! ones none (the controller's `memEnd` counts the LSQ's stores).

use std::collections::VecDeque;

use hsir_analysis::ir::OpId;
use hsir_analysis::ops::OpKind;

use super::build::Memory;
use super::node::{join, Clock, Event, Io};
use super::SimError;
use crate::memories::{self, Access, Port};
use crate::program::Func;

/// Parts of the node's steps (each part's steps are ordered one after another).
const ALLOCATE: usize = 0;
const RUN: usize = 1;
const TAKE: usize = 2;
const RETURN: usize = 3;

/// An `lsq [MC]`'s channels to and from its `mem_controller`, and its loads waiting for data.
#[derive(Debug)]
struct Controller {
    /// Outputs: load address, store address, store data.
    load_addr_out: usize,
    store_addr_out: usize,
    store_data_out: usize,
    /// Input: the load data coming back.
    load_data_in: usize,
    /// The load ports whose addresses went to the controller and whose data has not come back,
    /// oldest first.
    waiting: VecDeque<usize>,
}

#[derive(Debug)]
pub(crate) struct Lsq {
    /// Index of the memory it reaches (`None` behind a `mem_controller`).
    pub memory: Option<usize>,
    /// Behind a `mem_controller`: the channels to it.
    controller: Option<Controller>,
    /// Each group's accesses, in program order.
    groups: Vec<Vec<Access>>,
    /// Positions among the node's inputs: each group's allocation token, each load port's
    /// address, each store port's address and data, `memStart`, `ctrlEnd` (both `None` for
    /// Dynamatic 2024's, whose done token is steady).
    alloc_in: Vec<usize>,
    load_addr_in: Vec<usize>,
    store_addr_in: Vec<usize>,
    store_data_in: Vec<usize>,
    start_in: Option<usize>,
    end_in: Option<usize>,
    /// Positions among the node's outputs: each load port's data, `memEnd` (none behind a
    /// Dynamatic 2025 or later `mem_controller`).
    load_data_out: Vec<usize>,
    end_out: Option<usize>,
    /// The clock component counting the queue's accesses.
    component: usize,
    /// Allocated accesses not yet done, oldest first, each with its allocation's clock.
    queue: VecDeque<(Access, Clock)>,
    /// Per load port: its accesses in the queue, and the addresses it holds, oldest first.
    load_queued: Vec<usize>,
    load_addrs: Vec<VecDeque<(u64, Clock)>>,
    /// Per store port: its accesses in the queue, and the addresses and data it holds.
    store_queued: Vec<usize>,
    store_addrs: Vec<VecDeque<(u64, Clock)>>,
    store_datas: Vec<VecDeque<(u64, Clock)>>,
}

impl Lsq {
    /// The node of `lsq` op `id`, on memory `memory` (`None` when its memref has no static
    /// shape).
    pub(super) fn new(
        func: &Func,
        id: OpId,
        memory: Option<usize>,
        component: usize,
    ) -> Result<Lsq, SimError> {
        let op = &func.item.ops[id as usize];
        let unsupported = |reason: String| SimError::Unsupported {
            func: func.name.clone(),
            op: op.name.to_string(),
            range: op.name_range,
            reason,
        };
        let Some(iface) = memories::interface(func, id) else {
            return Err(unsupported("it is not a memory interface".into()));
        };
        if let Some(problem) = &iface.problem {
            return Err(SimError::Malformed {
                func: func.name.clone(),
                range: op.name_range,
                message: format!("the ports of `{}` cannot be read: {problem}", op.short_name()),
            });
        }
        if memory.is_none() && !iface.behind_controller {
            return Err(unsupported("its memory has no static one-dimensional shape".into()));
        }
        // Inputs are the operands without the memref, in order.
        let input = |port: Port| -> usize {
            let position = iface.operand(port).expect("a laid-out LSQ has every port");
            iface.operands[..position].iter().filter(|p| **p != Port::Memref).count()
        };
        let completion = |port: Port| iface.operand(port).is_some().then(|| input(port));
        let output = |port: Port| iface.result(port).expect("a laid-out LSQ has every result");
        let controller = iface.behind_controller.then(|| Controller {
            load_addr_out: output(Port::ToController(0)),
            store_addr_out: output(Port::ToController(1)),
            store_data_out: output(Port::ToController(2)),
            load_data_in: input(Port::FromController),
            waiting: VecDeque::new(),
        });
        let (loads, stores) = (iface.loads, iface.stores);
        Ok(Lsq {
            memory,
            alloc_in: (0..iface.groups.len()).map(|g| input(Port::GroupAlloc(g))).collect(),
            load_addr_in: (0..loads).map(|k| input(Port::LoadAddr(k))).collect(),
            store_addr_in: (0..stores).map(|k| input(Port::StoreAddr(k))).collect(),
            store_data_in: (0..stores).map(|k| input(Port::StoreData(k))).collect(),
            start_in: completion(Port::MemStart),
            end_in: completion(Port::CtrlEnd),
            load_data_out: (0..loads).map(|k| output(Port::LoadData(k))).collect(),
            end_out: iface.result(Port::MemEnd),
            controller,
            groups: iface.groups,
            component,
            queue: VecDeque::new(),
            load_queued: vec![0; loads],
            load_addrs: vec![VecDeque::new(); loads],
            store_queued: vec![0; stores],
            store_addrs: vec![VecDeque::new(); stores],
            store_datas: vec![VecDeque::new(); stores],
        })
    }

    /// The output of a done token offered while the queue is idle (Dynamatic 2024's), if it is
    /// one.
    pub(super) fn steady_done(&self) -> Option<usize> {
        self.end_out.filter(|_| self.steady())
    }

    fn steady(&self) -> bool {
        self.start_in.is_none() && self.end_in.is_none() && self.end_out.is_some()
    }

    /// Whether a group is allocated or waits to be, or a load waits for its data.
    fn busy(&self, io: &Io<'_>) -> bool {
        !self.queue.is_empty()
            || self.alloc_in.iter().any(|&i| io.has(i))
            || self.controller.as_ref().is_some_and(|c| !c.waiting.is_empty())
    }

    /// One order-independent step: a steady done token is taken back while the queue is busy,
    /// else a port takes a token, else the oldest access runs.
    pub(super) fn step(
        &mut self,
        io: &mut Io<'_>,
        memory: Option<&mut Memory>,
    ) -> Option<Option<Event>> {
        if let Some(end) = self.steady_done() {
            if io.offered(end) && self.busy(io) {
                io.part = ALLOCATE;
                io.retract(end);
                return Some(None);
            }
        }
        if let Some(c) = &mut self.controller {
            if !c.waiting.is_empty() && io.has(c.load_data_in) {
                io.part = RETURN;
                let k = c.waiting.pop_front().expect("checked");
                let value = io.pop(c.load_data_in);
                io.push(self.load_data_out[k], value);
                return Some(None);
            }
        }
        for k in 0..self.load_addr_in.len() {
            if take(io, self.load_addr_in[k], self.load_queued[k], &mut self.load_addrs[k]) {
                return Some(None);
            }
        }
        for k in 0..self.store_addr_in.len() {
            if take(io, self.store_addr_in[k], self.store_queued[k], &mut self.store_addrs[k])
                || take(io, self.store_data_in[k], self.store_queued[k], &mut self.store_datas[k])
            {
                return Some(None);
            }
        }
        let (access, _) = self.queue.front()?;
        let ready = match *access {
            Access::Load(k) => !self.load_addrs[k].is_empty(),
            Access::Store(k) => !self.store_addrs[k].is_empty() && !self.store_datas[k].is_empty(),
        };
        if !ready {
            return None;
        }
        let (access, allocated) = self.queue.pop_front().expect("checked");
        io.part = RUN;
        join(&mut io.clock, &allocated);
        let operand = |held: &mut VecDeque<(u64, Clock)>, io: &mut Io<'_>| {
            let (value, clock) = held.pop_front().expect("checked");
            join(&mut io.clock, &clock);
            value
        };
        if let Some(c) = &mut self.controller {
            // The controller does the access, in the order they are sent.
            match access {
                Access::Load(k) => {
                    let address = operand(&mut self.load_addrs[k], io);
                    self.load_queued[k] -= 1;
                    io.push(c.load_addr_out, address);
                    c.waiting.push_back(k);
                }
                Access::Store(k) => {
                    let address = operand(&mut self.store_addrs[k], io);
                    let data = operand(&mut self.store_datas[k], io);
                    self.store_queued[k] -= 1;
                    io.push(c.store_addr_out, address);
                    io.push(c.store_data_out, data);
                }
            }
            return Some(None);
        }
        let Some(memory) = memory else {
            // Built with a memory unless behind a controller.
            return None;
        };
        let race = match access {
            Access::Load(k) => {
                let address = operand(&mut self.load_addrs[k], io);
                self.load_queued[k] -= 1;
                let tick = io.tick(self.component);
                let (value, race) = memory.load(address, &io.clock, (self.component, tick));
                io.push(self.load_data_out[k], value);
                race
            }
            Access::Store(k) => {
                let address = operand(&mut self.store_addrs[k], io);
                let data = operand(&mut self.store_datas[k], io);
                self.store_queued[k] -= 1;
                let tick = io.tick(self.component);
                memory.store(address, data, &io.clock, (self.component, tick))
            }
        };
        Some(race)
    }

    /// One deferred step: allocate the group whose token is oldest, else end.
    pub(super) fn deferred(&mut self, io: &mut Io<'_>) -> Option<Option<Event>> {
        io.part = ALLOCATE;
        let holding: Vec<usize> =
            (0..self.alloc_in.len()).filter(|&g| io.has(self.alloc_in[g])).collect();
        if let Some(&g) = holding.iter().min_by_key(|&&g| io.head_seq(self.alloc_in[g])) {
            io.pop(self.alloc_in[g]);
            let clock = io.settle().clone();
            for &access in &self.groups[g] {
                match access {
                    Access::Load(k) => self.load_queued[k] += 1,
                    Access::Store(k) => self.store_queued[k] += 1,
                }
                self.queue.push_back((access, clock.clone()));
            }
            let event = (holding.len() > 1).then(|| {
                let mut groups = holding.clone();
                // The allocated group first.
                groups.retain(|&h| h != g);
                groups.insert(0, g);
                Event::Allocation { groups }
            });
            return Some(event);
        }
        let end_out = self.end_out?;
        let inputs = [self.start_in, self.end_in];
        let done = if self.steady() {
            !self.busy(io) && !io.offered(end_out)
        } else {
            self.queue.is_empty() && inputs.iter().flatten().all(|&i| io.has(i))
        };
        done.then(|| {
            for i in inputs.into_iter().flatten() {
                io.pop(i);
            }
            io.push(end_out, 0);
            None
        })
    }

    /// What is left inside at quiescence, if anything: "still has 2 accesses ...".
    pub(crate) fn held(&self) -> Option<String> {
        if let Some(c) = self.controller.as_ref().filter(|c| !c.waiting.is_empty()) {
            let n = c.waiting.len();
            return Some(format!(
                "still waits for the data of {n} load{} from its `{}`",
                if n == 1 { "" } else { "s" },
                OpKind::MemController.key()
            ));
        }
        let (oldest, _) = self.queue.front()?;
        let n = self.queue.len();
        let waits = match *oldest {
            Access::Load(k) => format!("the oldest, on load port {k}, waits for its address"),
            Access::Store(k) if self.store_addrs[k].is_empty() => {
                format!("the oldest, on store port {k}, waits for its address")
            }
            Access::Store(k) => format!("the oldest, on store port {k}, waits for its data"),
        };
        Some(format!(
            "still has {n} allocated access{} it never ran: {waits}",
            if n == 1 { "" } else { "es" }
        ))
    }
}

/// A port takes the token on input `i` if it holds fewer than its `queued` accesses.
fn take(io: &mut Io<'_>, i: usize, queued: usize, held: &mut VecDeque<(u64, Clock)>) -> bool {
    if held.len() >= queued || !io.has(i) {
        return false;
    }
    io.part = TAKE;
    let token = io.channels[io.inputs[i]].tokens.pop_front().expect("checked");
    held.push_back((token.value, token.clock));
    true
}
