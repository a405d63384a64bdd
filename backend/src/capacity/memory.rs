//! Memories, memory interfaces and load-store queues in the cycle-level model, each as the
//! library module the netlist instantiates for it (`rtl/README.md`), register for register:
//!
//! - `mem_controller` and `extmemory` on a memref argument: `hsir_ext_memory` in front of the
//!   testbench's BRAM (one read port whose word is registered: valid the cycle after the grant;
//!   one write port; the lowest-numbered requesting port of each kind is granted), with
//!   `hsir_mc_control`'s store counter for a `mem_controller`'s done token;
//! - CIRCT's internal `memory`: `hsir_memory` (every port served each cycle, words registered);
//! - `lsq` and `lsq [MC]`: `hsir_lsq`'s one queue of `netlist::lsq::depth` entries with its
//!   ordering rules (a load waits for every older store's address and takes the youngest older
//!   same-address store's data, else reads memory; stores write in order once no older load at
//!   their address, or with an unknown one, is still to read), its allocation rule (room for
//!   every group at once), one retirement a cycle, and behind a controller its channels to it and
//!   the controller's store-done token.
//!
//! Memory contents are the run's inputs (`sim::Inputs::memories`; internal memories start at 0),
//! so data-dependent control flow takes the path the RTL takes.

use std::collections::VecDeque;

use hsir_analysis::ir::{OpData, OpId};

use super::{BuildError, Chan, Kind, Net, Node};
use crate::memories::{self, Access, InterfaceKind, MemoryKind, Port as Role};

fn valid(c: &[Chan], ch: Option<usize>) -> bool {
    ch.is_some_and(|ch| c[ch].valid)
}

fn data(c: &[Chan], ch: Option<usize>) -> u64 {
    ch.map_or(0, |ch| c[ch].data)
}

/// An output port's ready; a port the netlist ties off always takes.
fn ready(c: &[Chan], ch: Option<usize>) -> bool {
    ch.is_none_or(|ch| c[ch].ready)
}

/// The words of a memory and the registered word of its read port (the testbench's BRAM, or
/// `hsir_memory`'s array): addresses at or beyond the depth read 0 and write nothing.
#[derive(Debug, Clone)]
pub(super) struct Bram {
    words: Vec<u64>,
    load_data: u64,
}

impl Bram {
    fn new(depth: u64, init: Option<&Vec<u64>>, width: u32) -> Bram {
        let mut words = vec![0; depth as usize];
        if let Some(init) = init {
            for (w, &v) in words.iter_mut().zip(init) {
                *w = v & crate::program::mask(width);
            }
        }
        Bram { words, load_data: 0 }
    }

    fn read(&self, addr: u64) -> u64 {
        usize::try_from(addr).ok().and_then(|a| self.words.get(a)).copied().unwrap_or(0)
    }

    fn write(&mut self, addr: u64, value: u64) {
        if let Some(w) = usize::try_from(addr).ok().and_then(|a| self.words.get_mut(a)) {
            *w = value;
        }
    }
}

/// A store port: its channels (the done token `None` when the netlist ties it off) and the
/// registers of `hsir_ext_memory` / `hsir_memory`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StPort {
    data: Option<usize>,
    addr: Option<usize>,
    done: Option<usize>,
    d_held: bool,
    a_held: bool,
    pending: bool,
    d_reg: u64,
    a_reg: u64,
}

/// A load port: its channels and registers.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LdPort {
    addr: Option<usize>,
    data: Option<usize>,
    done: Option<usize>,
    a_held: bool,
    a_reg: u64,
    /// Granted last cycle: the BRAM's word is this port's (`hsir_ext_memory`).
    flight: bool,
    d_pend: bool,
    d_reg: u64,
    t_done: bool,
}

/// `hsir_mc_control`: a `mem_controller`'s store counter and done token.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Control {
    /// `None`: Dynamatic 2024's steady done token (start and end always there).
    start: Option<usize>,
    end: Option<usize>,
    counts: Vec<usize>,
    mem_end: Option<usize>,
    count: i64,
}

/// A memory interface with its memory.
#[derive(Debug, Clone)]
pub(super) struct Mem {
    /// `hsir_memory` (every port served in its cycle) rather than `hsir_ext_memory`.
    internal: bool,
    st: Vec<StPort>,
    ld: Vec<LdPort>,
    bram: Bram,
    control: Option<Control>,
}

/// What a memory's wires are in this cycle, from its registers and its inputs.
struct MemComb {
    st_free: Vec<bool>,
    st_req: Vec<bool>,
    st_grant: Option<usize>,
    ld_ready: Vec<bool>,
    ld_take: Vec<bool>,
    ld_grant: Option<usize>,
    store_en: bool,
    mem_end: bool,
}

impl StPort {
    fn free(&self, c: &[Chan]) -> bool {
        !self.pending || ready(c, self.done)
    }
    fn word(&self, c: &[Chan]) -> u64 {
        if self.d_held {
            self.d_reg
        } else {
            data(c, self.data)
        }
    }
    fn address(&self, c: &[Chan]) -> u64 {
        if self.a_held {
            self.a_reg
        } else {
            data(c, self.addr)
        }
    }
}

impl Mem {
    fn comb(&self, c: &[Chan]) -> MemComb {
        let st_free: Vec<bool> = self.st.iter().map(|p| p.free(c)).collect();
        let st_req: Vec<bool> = self
            .st
            .iter()
            .zip(&st_free)
            .map(|(p, &free)| {
                (p.d_held || valid(c, p.data)) && (p.a_held || valid(c, p.addr)) && free
            })
            .collect();
        let st_grant = if self.internal { None } else { st_req.iter().position(|&r| r) };
        let mut ld_ready = Vec::new();
        let mut ld_take = Vec::new();
        let mut ld_req = Vec::new();
        for p in &self.ld {
            let r = if self.internal {
                (!p.d_pend || ready(c, p.data)) && (!p.t_done || ready(c, p.done))
            } else {
                let d_out = p.flight || p.d_pend;
                let t_out = p.flight || p.t_done;
                !p.a_held && (!d_out || ready(c, p.data)) && (!t_out || ready(c, p.done))
            };
            let take = valid(c, p.addr) && r;
            ld_ready.push(r);
            ld_take.push(take);
            ld_req.push(p.a_held || take);
        }
        let ld_grant = if self.internal { None } else { ld_req.iter().position(|&r| r) };
        let store_en = st_req.iter().any(|&r| r);
        let mem_end = self.control.as_ref().is_some_and(|k| {
            let changing = store_en || k.counts.iter().any(|&ch| c[ch].valid && c[ch].data != 0);
            (k.start.is_none() || valid(c, k.start))
                && (k.end.is_none() || valid(c, k.end))
                && !changing
                && k.count == 0
        });
        MemComb { st_free, st_req, st_grant, ld_ready, ld_take, ld_grant, store_en, mem_end }
    }

    pub(super) fn eval(
        &self,
        c: &[Chan],
        outs: &mut Vec<(usize, bool, u64)>,
        readies: &mut Vec<(usize, bool)>,
    ) {
        let m = self.comb(c);
        for (s, p) in self.st.iter().enumerate() {
            if let Some(ch) = p.data {
                readies.push((ch, !p.d_held && m.st_free[s]));
            }
            if let Some(ch) = p.addr {
                readies.push((ch, !p.a_held && m.st_free[s]));
            }
            if let Some(ch) = p.done {
                outs.push((ch, p.pending, 0));
            }
        }
        for (l, p) in self.ld.iter().enumerate() {
            if let Some(ch) = p.addr {
                readies.push((ch, m.ld_ready[l]));
            }
            let (d_valid, d_word, t_valid) = if self.internal {
                (p.d_pend, p.d_reg, p.t_done)
            } else {
                (
                    p.flight || p.d_pend,
                    if p.d_pend { p.d_reg } else { self.bram.load_data },
                    p.flight || p.t_done,
                )
            };
            if let Some(ch) = p.data {
                outs.push((ch, d_valid, d_word));
            }
            if let Some(ch) = p.done {
                outs.push((ch, t_valid, 0));
            }
        }
        if let Some(k) = &self.control {
            for &ch in &k.counts {
                readies.push((ch, true));
            }
            let fire = m.mem_end && ready(c, k.mem_end);
            for ch in [k.start, k.end].into_iter().flatten() {
                readies.push((ch, fire));
            }
            if let Some(ch) = k.mem_end {
                outs.push((ch, m.mem_end, 0));
            }
        }
    }

    /// The clock edge; whether a register changed.
    pub(super) fn clock(&mut self, c: &[Chan]) -> bool {
        let m = self.comb(c);
        let before = (self.st.clone(), self.ld.clone(), self.bram.load_data, self.control.clone());
        // Reads first (a load sees the words before this edge's writes).
        let mut writes: Vec<(u64, u64)> = Vec::new();
        for (s, p) in self.st.iter_mut().enumerate() {
            let go = if self.internal { m.st_req[s] } else { m.st_grant == Some(s) };
            if go {
                writes.push((p.address(c), p.word(c)));
                p.d_held = false;
                p.a_held = false;
                p.pending = true;
            } else {
                let free = m.st_free[s];
                if valid(c, p.data) && !p.d_held && free {
                    p.d_held = true;
                    p.d_reg = data(c, p.data);
                }
                if valid(c, p.addr) && !p.a_held && free {
                    p.a_held = true;
                    p.a_reg = data(c, p.addr);
                }
                if ready(c, p.done) {
                    p.pending = false;
                }
            }
        }
        if self.internal {
            for (l, p) in self.ld.iter_mut().enumerate() {
                if m.ld_take[l] {
                    p.d_pend = true;
                    p.t_done = true;
                    p.d_reg = self.bram.read(data(c, p.addr));
                } else {
                    if ready(c, p.data) {
                        p.d_pend = false;
                    }
                    if ready(c, p.done) {
                        p.t_done = false;
                    }
                }
            }
        } else {
            let word = self.bram.load_data;
            let mut read = None;
            for (l, p) in self.ld.iter_mut().enumerate() {
                let go = m.ld_grant == Some(l);
                let take = m.ld_take[l];
                let addr = if p.a_held { p.a_reg } else { data(c, p.addr) };
                if go {
                    read = Some(addr);
                }
                let d_out = p.flight || p.d_pend;
                let t_out = p.flight || p.t_done;
                if take && !go {
                    p.a_reg = data(c, p.addr);
                }
                if p.flight && !ready(c, p.data) {
                    p.d_reg = word;
                }
                p.a_held = (p.a_held || take) && !go;
                p.flight = go;
                p.d_pend = d_out && !ready(c, p.data);
                p.t_done = t_out && !ready(c, p.done);
            }
            if let Some(addr) = read {
                self.bram.load_data = self.bram.read(addr);
            }
        }
        // The lowest-numbered port's write lands last.
        let wrote = !writes.is_empty();
        for &(addr, value) in writes.iter().rev() {
            self.bram.write(addr, value);
        }
        if let Some(k) = &mut self.control {
            let added: i64 =
                k.counts.iter().filter(|&&ch| c[ch].valid).map(|&ch| c[ch].data as i64).sum();
            k.count += added - i64::from(m.store_en);
        }
        wrote
            || before
                != (self.st.clone(), self.ld.clone(), self.bram.load_data, self.control.clone())
    }
}

// ---- the load-store queue ---------------------------------------------------------------------

/// One access of `hsir_lsq`'s queue.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    /// Allocation number: the queue holds `head..head + len`.
    seq: u64,
    store: bool,
    port: usize,
    av: bool,
    addr: u64,
    dv: bool,
    data: u64,
    iss: bool,
    out: bool,
}

/// The channels of `lsq [MC]` to and from its controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ToMc {
    ld_addr: usize,
    st_addr: usize,
    st_data: usize,
    ld_data: usize,
    st_done: usize,
}

#[derive(Debug, Clone)]
pub(super) struct Lsq {
    groups: Vec<Vec<Access>>,
    depth: usize,
    accesses: usize,
    group: Vec<usize>,
    ld_addr: Vec<usize>,
    ld_data: Vec<usize>,
    st_addr: Vec<usize>,
    st_data: Vec<usize>,
    start: Option<usize>,
    end: Option<usize>,
    mem_end: Option<usize>,
    mc: Option<ToMc>,
    /// The memref's words, without a controller.
    bram: Option<Bram>,
    q: VecDeque<Entry>,
    next_seq: u64,
    /// A load read memory last edge: the BRAM's word is this entry's.
    rd: Option<u64>,
    lt_q: VecDeque<u64>,
    st_q: VecDeque<u64>,
    sa_sent: bool,
    sd_sent: bool,
    start_held: bool,
    end_held: bool,
}

/// `hsir_lsq`'s combinational decisions, from its registers (queue positions, oldest first).
struct LsqComb {
    la: Vec<Option<usize>>,
    sa: Vec<Option<usize>>,
    out: Vec<Option<usize>>,
    fwd: Vec<(usize, usize)>,
    rd: Option<usize>,
    wr: Option<usize>,
    retire: bool,
    fits: bool,
}

impl Lsq {
    /// Entries held, for the deadlock report.
    pub(super) fn held(&self) -> usize {
        self.q.len()
    }

    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    fn comb(&self) -> LsqComb {
        let behind = self.mc.is_some();
        let q = &self.q;
        let oldest = |f: &dyn Fn(&Entry) -> bool| q.iter().position(f);
        let la = (0..self.ld_addr.len())
            .map(|p| oldest(&|e: &Entry| !e.store && e.port == p && !e.av))
            .collect();
        let sa = (0..self.st_addr.len())
            .map(|p| oldest(&|e: &Entry| e.store && e.port == p && !e.av))
            .collect();
        let out = (0..self.ld_data.len())
            .map(|p| oldest(&|e: &Entry| !e.store && e.port == p && !e.out))
            .collect();
        let mut fwd = Vec::new();
        let mut rd = None;
        let mut wr = None;
        let mut st_first = true;
        for (r, e) in q.iter().enumerate() {
            if !e.store && e.av && !e.iss {
                let mut blocked = false;
                let mut matched = None;
                for (r2, s) in q.iter().enumerate().take(r) {
                    if s.store {
                        if !s.av {
                            blocked = true;
                        } else if s.addr == e.addr {
                            matched = Some(r2);
                        }
                    }
                }
                match matched {
                    Some(src) if !blocked && q[src].dv => fwd.push((r, src)),
                    None if !blocked && rd.is_none() => rd = Some(r),
                    _ => {}
                }
            }
            if e.store && !e.iss {
                if st_first && e.av && e.dv {
                    let blocked = q.iter().take(r).any(|l| {
                        !l.store
                            && !(if behind { l.dv } else { l.iss })
                            && (!l.av || l.addr == e.addr)
                    });
                    if !blocked {
                        wr = Some(r);
                    }
                }
                st_first = false;
            }
        }
        let retire = q.front().is_some_and(|e| if e.store && !behind { e.iss } else { e.out });
        let fits = q.len() + self.accesses <= self.depth;
        LsqComb { la, sa, out, fwd, rd, wr, retire, fits }
    }

    fn mem_end_valid(&self, c: &[Chan]) -> bool {
        let start = self.start_held || self.start.is_none();
        let end = self.end_held || self.end.is_none();
        start && end && self.q.is_empty() && !self.group.iter().any(|&g| c[g].valid)
    }

    pub(super) fn eval(
        &self,
        c: &[Chan],
        outs: &mut Vec<(usize, bool, u64)>,
        readies: &mut Vec<(usize, bool)>,
    ) {
        let k = self.comb();
        for &g in &self.group {
            readies.push((g, k.fits));
        }
        for (p, &ch) in self.ld_addr.iter().enumerate() {
            readies.push((ch, k.la[p].is_some()));
        }
        for (p, (&a, &d)) in self.st_addr.iter().zip(&self.st_data).enumerate() {
            let free = k.sa[p].is_some();
            readies.push((a, free && c[d].valid));
            readies.push((d, free && c[a].valid));
        }
        for (p, &ch) in self.ld_data.iter().enumerate() {
            let e = k.out[p].map(|r| &self.q[r]);
            outs.push((ch, e.is_some_and(|e| e.dv), e.map_or(0, |e| e.data)));
        }
        if let Some(ch) = self.start {
            readies.push((ch, !self.start_held));
        }
        if let Some(ch) = self.end {
            readies.push((ch, !self.end_held));
        }
        if let Some(ch) = self.mem_end {
            outs.push((ch, self.mem_end_valid(c), 0));
        }
        if let Some(mc) = self.mc {
            let rd = k.rd.map(|r| &self.q[r]);
            outs.push((mc.ld_addr, rd.is_some(), rd.map_or(0, |e| e.addr)));
            let wr = k.wr.map(|r| &self.q[r]);
            outs.push((mc.st_addr, wr.is_some() && !self.sa_sent, wr.map_or(0, |e| e.addr)));
            outs.push((mc.st_data, wr.is_some() && !self.sd_sent, wr.map_or(0, |e| e.data)));
            readies.push((mc.ld_data, true));
            readies.push((mc.st_done, true));
        }
    }

    pub(super) fn clock(&mut self, c: &[Chan]) -> bool {
        let k = self.comb();
        let before = (
            self.q.clone(),
            self.rd,
            self.lt_q.clone(),
            self.st_q.clone(),
            [self.sa_sent, self.sd_sent, self.start_held, self.end_held],
            self.bram.as_ref().map(|b| b.load_data),
        );
        let mut wrote = false;
        let head = self.q.front().map_or(self.next_seq, |e| e.seq);
        let at = |seq: u64| (seq.wrapping_sub(head)) as usize;
        // Values of this edge, from this cycle's wires and registers.
        let word = self.bram.as_ref().map_or(0, |b| b.load_data);
        for (p, &ch) in self.ld_addr.iter().enumerate() {
            if let (true, Some(r)) = (c[ch].valid, k.la[p]) {
                self.q[r].av = true;
                self.q[r].addr = c[ch].data;
            }
        }
        for (p, (&a, &d)) in self.st_addr.iter().zip(&self.st_data).enumerate() {
            if let (true, true, Some(r)) = (c[a].valid, c[d].valid, k.sa[p]) {
                let e = &mut self.q[r];
                e.av = true;
                e.addr = c[a].data;
                e.dv = true;
                e.data = c[d].data;
            }
        }
        let fwd: Vec<(usize, u64)> = k.fwd.iter().map(|&(r, src)| (r, self.q[src].data)).collect();
        for (r, value) in fwd {
            let e = &mut self.q[r];
            e.iss = true;
            e.dv = true;
            e.data = value;
        }
        match self.mc {
            None => {
                if let Some(seq) = self.rd.take() {
                    let r = at(seq);
                    if let Some(e) = self.q.get_mut(r) {
                        e.dv = true;
                        e.data = word;
                    }
                }
                if let Some(r) = k.rd {
                    self.q[r].iss = true;
                    self.rd = Some(self.q[r].seq);
                    let addr = self.q[r].addr;
                    if let Some(b) = &mut self.bram {
                        b.load_data = b.read(addr);
                    }
                }
                if let Some(r) = k.wr {
                    self.q[r].iss = true;
                    let (addr, value) = (self.q[r].addr, self.q[r].data);
                    if let Some(b) = &mut self.bram {
                        b.write(addr, value);
                        wrote = true;
                    }
                }
            }
            Some(mc) => {
                if let Some(r) = k.rd {
                    if c[mc.ld_addr].ready {
                        self.q[r].iss = true;
                        self.lt_q.push_back(self.q[r].seq);
                    }
                }
                if c[mc.ld_data].valid {
                    if let Some(seq) = self.lt_q.pop_front() {
                        if let Some(e) = self.q.get_mut(at(seq)) {
                            e.dv = true;
                            e.data = c[mc.ld_data].data;
                        }
                    }
                }
                if let Some(r) = k.wr {
                    let a = self.sa_sent || c[mc.st_addr].ready;
                    let d = self.sd_sent || c[mc.st_data].ready;
                    if a && d {
                        self.sa_sent = false;
                        self.sd_sent = false;
                        self.q[r].iss = true;
                        self.st_q.push_back(self.q[r].seq);
                    } else {
                        self.sa_sent = a;
                        self.sd_sent = d;
                    }
                }
                if c[mc.st_done].valid {
                    if let Some(seq) = self.st_q.pop_front() {
                        if let Some(e) = self.q.get_mut(at(seq)) {
                            e.out = true;
                        }
                    }
                }
            }
        }
        for (p, &ch) in self.ld_data.iter().enumerate() {
            if let (true, Some(r)) = (c[ch].valid && c[ch].ready, k.out[p]) {
                self.q[r].out = true;
            }
        }
        if self.mem_end.is_none_or(|ch| c[ch].ready) && self.mem_end_valid(c) {
            self.start_held = false;
            self.end_held = false;
        } else {
            self.start_held |= valid(c, self.start);
            self.end_held |= valid(c, self.end);
        }
        if k.retire {
            self.q.pop_front();
        }
        if k.fits {
            for (g, accesses) in self.groups.iter().enumerate() {
                if !c[self.group[g]].valid {
                    continue;
                }
                for a in accesses {
                    let (store, port) = match *a {
                        Access::Load(p) => (false, p),
                        Access::Store(p) => (true, p),
                    };
                    self.q.push_back(Entry {
                        seq: self.next_seq,
                        store,
                        port,
                        av: false,
                        addr: 0,
                        dv: false,
                        data: 0,
                        iss: false,
                        out: false,
                    });
                    self.next_seq += 1;
                }
            }
        }
        wrote
            || before
                != (
                    self.q.clone(),
                    self.rd,
                    self.lt_q.clone(),
                    self.st_q.clone(),
                    [self.sa_sent, self.sd_sent, self.start_held, self.end_held],
                    self.bram.as_ref().map(|b| b.load_data),
                )
    }
}

// ---- building ---------------------------------------------------------------------------------

impl Net {
    /// The store-done channel from a `mem_controller` to `lsq [MC]` op `lsq` (not a value of the
    /// IR: named after the LSQ's first result), made by whichever of the two is built first.
    fn controller_done(&mut self, func: &crate::program::Func, lsq: OpId) -> usize {
        if let Some(&(_, ch)) = self.controller_done.iter().find(|(l, _)| *l == lsq) {
            return ch;
        }
        let value = func.item.results(&func.item.ops[lsq as usize]).first().copied().unwrap_or(0);
        self.chans.push(Chan::idle(value, None));
        let ch = self.chans.len() - 1;
        self.controller_done.push((lsq, ch));
        ch
    }

    /// `memory`, `extmemory` or `mem_controller`, as `netlist.rs`'s `memory` lowers it.
    pub(super) fn memory(
        &mut self,
        func: &crate::program::Func,
        inputs: &crate::sim::Inputs,
        id: OpId,
        op: &OpData,
        ins: Vec<usize>,
        outs: Vec<usize>,
    ) -> Result<(), BuildError> {
        let refuse = |why: &str| Err((op.name_range, format!("`{}` {why}", op.name)));
        let Some(iface) = memories::interface(func, id) else {
            return refuse("is not a memory interface the model can read");
        };
        let Some(spec) =
            memories::memories(func).into_iter().find(|m| m.interfaces.iter().any(|i| i.op == id))
        else {
            return refuse("reaches a memory the model cannot size");
        };
        if iface.operands.contains(&Role::Unknown) || iface.results.contains(&Role::Unknown) {
            return refuse("has ports the model cannot tell apart");
        }
        let operand = |role: Role| iface.operand(role).and_then(|i| ins.get(i).copied());
        let result = |role: Role| iface.result(role).and_then(|i| outs.get(i).copied());
        let dynamatic = iface.kind == InterfaceKind::MemController;
        let mut st = Vec::new();
        for k in 0..iface.stores {
            let done = if dynamatic {
                match iface.lsq_ports {
                    Some(p) if p.store == k => Some(self.controller_done(func, p.lsq)),
                    _ => None,
                }
            } else {
                result(Role::StoreDone(k))
            };
            st.push(StPort {
                data: operand(Role::StoreData(k)),
                addr: operand(Role::StoreAddr(k)),
                done,
                d_held: false,
                a_held: false,
                pending: false,
                d_reg: 0,
                a_reg: 0,
            });
        }
        let ld = (0..iface.loads)
            .map(|k| LdPort {
                addr: operand(Role::LoadAddr(k)),
                data: result(Role::LoadData(k)),
                done: if dynamatic { None } else { result(Role::LoadDone(k)) },
                a_held: false,
                a_reg: 0,
                flight: false,
                d_pend: false,
                d_reg: 0,
                t_done: false,
            })
            .collect();
        let (internal, init) = match spec.kind {
            MemoryKind::Internal(_) => (true, None),
            MemoryKind::Argument(_) => (false, inputs.memories.get(&spec.name)),
        };
        let control = if dynamatic {
            let (start, end) = if iface.steady_done {
                (None, None)
            } else {
                match (operand(Role::MemStart), operand(Role::CtrlEnd)) {
                    (Some(s), Some(e)) => (Some(s), Some(e)),
                    _ => return refuse("has no start and end tokens"),
                }
            };
            let counts: Option<Vec<usize>> =
                (0..iface.store_counts).map(|k| operand(Role::StoreCount(k))).collect();
            let Some(counts) = counts else { return refuse("has a store count without a channel") };
            Some(Control { start, end, counts, mem_end: result(Role::MemEnd), count: 0 })
        } else {
            None
        };
        let mem = Mem { internal, st, ld, bram: Bram::new(spec.depth, init, spec.width), control };
        let mut node_ins = ins;
        let mut node_outs = outs;
        for p in &mem.st {
            // The store-done channel to an `lsq [MC]` is this node's output.
            if let Some(ch) = p.done {
                if !node_outs.contains(&ch) {
                    node_outs.push(ch);
                }
            }
        }
        node_ins.retain(|&ch| ch != usize::MAX);
        self.nodes.push(Node::new(Kind::Mem(Box::new(mem)), Some(id), node_ins, node_outs));
        Ok(())
    }

    /// `lsq` or `lsq [MC]`, as `netlist/lsq.rs` lowers it.
    pub(super) fn lsq(
        &mut self,
        func: &crate::program::Func,
        inputs: &crate::sim::Inputs,
        id: OpId,
        op: &OpData,
        ins: Vec<usize>,
        outs: Vec<usize>,
    ) -> Result<(), BuildError> {
        let refuse = |why: String| Err((op.name_range, format!("`{}` {why}", op.name)));
        let Some(iface) = memories::interface(func, id) else {
            return refuse("is not a memory interface the model can read".into());
        };
        if let Some(problem) = &iface.problem {
            return refuse(format!("has ports the model cannot read: {problem}"));
        }
        let operand = |role: Role| iface.operand(role).and_then(|i| ins.get(i).copied());
        let result = |role: Role| iface.result(role).and_then(|i| outs.get(i).copied());
        let all = |roles: &mut dyn Iterator<Item = Role>, output: bool| {
            roles.map(|r| if output { result(r) } else { operand(r) }).collect::<Option<Vec<_>>>()
        };
        let (Some(group), Some(ld_addr), Some(ld_data), Some(st_addr), Some(st_data)) = (
            all(&mut (0..iface.groups.len()).map(Role::GroupAlloc), false),
            all(&mut (0..iface.loads).map(Role::LoadAddr), false),
            all(&mut (0..iface.loads).map(Role::LoadData), true),
            all(&mut (0..iface.stores).map(Role::StoreAddr), false),
            all(&mut (0..iface.stores).map(Role::StoreData), false),
        ) else {
            return refuse("has a port without a channel".into());
        };
        let (mut start, mut end) = (operand(Role::MemStart), operand(Role::CtrlEnd));
        if start.is_none() || end.is_none() {
            if !iface.steady_done && !iface.behind_controller {
                return refuse("has no start and end tokens".into());
            }
            (start, end) = (None, None);
        }
        let mut extra_ins = Vec::new();
        let (mc, bram) = if iface.behind_controller {
            let (Some(ld_a), Some(st_a), Some(st_d), Some(back)) = (
                result(Role::ToController(0)),
                result(Role::ToController(1)),
                result(Role::ToController(2)),
                operand(Role::FromController),
            ) else {
                return refuse("has no channels to its controller".into());
            };
            let fed = (0..func.item.ops.len()).any(|o| {
                memories::interface(func, o as OpId)
                    .and_then(|i| i.lsq_ports)
                    .is_some_and(|p| p.lsq == id)
            });
            if !fed {
                return refuse("has results that do not reach a controller's ports".into());
            }
            let done = self.controller_done(func, id);
            extra_ins.push(done);
            let mc =
                ToMc { ld_addr: ld_a, st_addr: st_a, st_data: st_d, ld_data: back, st_done: done };
            (Some(mc), None)
        } else {
            let specs = memories::memories(func);
            let Some(spec) = specs.iter().find(|m| m.interfaces.iter().any(|i| i.op == id)) else {
                return refuse("reaches a memory the model cannot size".into());
            };
            if spec.interfaces.len() > 1 || !matches!(spec.kind, MemoryKind::Argument(_)) {
                return refuse("shares its memory with another interface".into());
            }
            (None, Some(Bram::new(spec.depth, inputs.memories.get(&spec.name), spec.width)))
        };
        let lsq = Lsq {
            depth: crate::netlist::lsq::depth(&iface.groups),
            accesses: iface.groups.iter().map(Vec::len).sum(),
            groups: iface.groups.clone(),
            group,
            ld_addr,
            ld_data,
            st_addr,
            st_data,
            start,
            end,
            mem_end: result(Role::MemEnd),
            mc,
            bram,
            q: VecDeque::new(),
            next_seq: 0,
            rd: None,
            lt_q: VecDeque::new(),
            st_q: VecDeque::new(),
            sa_sent: false,
            sd_sent: false,
            start_held: false,
            end_held: false,
        };
        let mut node_ins = ins;
        node_ins.extend(extra_ins);
        self.nodes.push(Node::new(Kind::Lsq(Box::new(lsq)), Some(id), node_ins, outs));
        Ok(())
    }
}
