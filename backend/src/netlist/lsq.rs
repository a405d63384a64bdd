//! Dynamatic's load-store queue (`lsq`) as one `hsir_lsq` cell: its group allocation tokens,
//! load and store ports, `memStart` / `ctrlEnd` / `memEnd`, and the BRAM ports of the memref it
//! reaches, with the layout `memories.rs` reads. Dynamatic 2024's `lsq` has no `memStart` /
//! `ctrlEnd` (`Interface::steady_done`): the cell's `mem_start` and `ctrl_end` are tied valid, so
//! its done token is offered whenever the queue is empty and no group token is valid.
//!
//! The queue follows the ordering rules and cycles of Dynamatic's own LSQ (see `hsir_lsq` in
//! `rtl/README.md`): loads overtake older stores whose addresses differ, and take a same-address
//! store's data by bypass.
//!
//! An LSQ behind a `mem_controller` (`lsq [MC]`) is the same cell with `MC = 1`: its `mc_*`
//! channels are the load address, store address and store data it sends the controller and the
//! load data coming back, plus the controller's store-done token for the LSQ's store port
//! (`Lowering::controller_done`), which `memories.rs`'s layout does not show: the cell lets a
//! store leave its queue only once the controller has written it. Without a controller those
//! channels are tied off, and with one the BRAM ports are (the controller owns them).

use hsir_analysis::ops::OpKind;
use hsir_analysis::DiagnosticCode as Code;

use super::{group, pins, ChannelId, Lowering};
use crate::memories::{self, Access, MemoryKind, Port as Role};

/// The fewest queue entries an LSQ gets.
pub const MIN_DEPTH: usize = 16;

/// Entries of an LSQ's queue: every group's accesses twice over, at least `MIN_DEPTH`, rounded
/// up to a power of two (which `hsir_lsq` needs for its wrapping pointers).
///
/// Allocation is the only place the RTL's finite queue differs from the interpreter's unbounded
/// one. `hsir_lsq` takes group tokens while it has room for one allocation of every group at
/// once (so its ready never depends on valid), and the queue drains as long as its oldest access
/// gets its address (and data). In a circuit whose accesses follow program order that never
/// waits for a later allocation, so a depth holding all groups' accesses cannot deadlock. The
/// rest is overlap: a loop whose body is one group keeps several iterations queued (16 entries:
/// gaussian's group of three accesses has room to allocate while 13 entries, four iterations
/// and a bit, are queued).
pub fn depth(groups: &[Vec<Access>]) -> usize {
    let accesses: usize = groups.iter().map(Vec::len).sum();
    (2 * accesses).max(MIN_DEPTH).next_power_of_two()
}

/// The `LAYOUT` parameter: each group's accesses in program order (`l` a load, `s` a store),
/// groups separated by `_`; `lls_ls` is a group of two loads and a store, then a load and a
/// store. Ports are numbered in the order they appear.
pub fn layout(groups: &[Vec<Access>]) -> String {
    let parts: Vec<String> = groups
        .iter()
        .map(|g| g.iter().map(|a| if matches!(a, Access::Load(_)) { 'l' } else { 's' }).collect())
        .collect();
    parts.join("_")
}

impl Lowering<'_> {
    pub(super) fn lsq(&mut self, id: hsir_analysis::ir::OpId, base: String) {
        let func = self.func;
        let op = &func.item.ops[id as usize];
        let Some(iface) = memories::interface(func, id) else { return };
        let refuse = |this: &mut Self, why: String| {
            this.error(Code::BackendUnsupportedOp, op.name_range, why);
        };
        if let Some(problem) = &iface.problem {
            return refuse(
                self,
                format!("`{}` whose ports hsir cannot read: {problem}", op.short_name()),
            );
        }
        let behind = iface.behind_controller;
        let specs = if behind { Vec::new() } else { memories::memories(func) };
        let bram = if behind {
            None
        } else {
            let Some(spec) = specs.iter().find(|m| m.interfaces.iter().any(|i| i.op == id)) else {
                return refuse(
                self,
                format!("`{}` whose memory hsir cannot size (a memref argument with a static shape is needed)", op.short_name()),
            );
            };
            if spec.interfaces.len() > 1 {
                return refuse(
                self,
                format!(
                    "`{}` on memory `{}`, which {} other interface{} also reach{}: hsir gives a memref one interface",
                    op.short_name(),
                    spec.name,
                    spec.interfaces.len() - 1,
                    if spec.interfaces.len() == 2 { "" } else { "s" },
                    if spec.interfaces.len() == 2 { "es" } else { "" },
                ),
            );
            }
            let MemoryKind::Argument(arg) = spec.kind else { return };
            Some((spec, arg))
        };
        let operand = |this: &Self, role: Role| {
            iface
                .operand(role)
                .and_then(|i| func.item.operands(op).get(i))
                .and_then(|&u| this.chan_of_use(u))
        };
        let result = |this: &Self, role: Role| {
            iface
                .result(role)
                .and_then(|i| func.item.results(op).get(i))
                .and_then(|&v| this.chan_of_value(v))
        };
        let (ld, st) = (iface.loads, iface.stores);
        let all = |this: &Self, roles: &mut dyn Iterator<Item = Role>, output: bool| {
            roles
                .map(|r| if output { result(this, r) } else { operand(this, r) })
                .collect::<Option<Vec<ChannelId>>>()
        };
        let (
            Some(allocs),
            Some(ld_addr),
            Some(ld_data),
            Some(st_addr),
            Some(st_data),
            start,
            end,
            mem_end,
        ) = (
            all(self, &mut (0..iface.groups.len()).map(Role::GroupAlloc), false),
            all(self, &mut (0..ld).map(Role::LoadAddr), false),
            all(self, &mut (0..ld).map(Role::LoadData), true),
            all(self, &mut (0..st).map(Role::StoreAddr), false),
            all(self, &mut (0..st).map(Role::StoreData), false),
            operand(self, Role::MemStart),
            operand(self, Role::CtrlEnd),
            result(self, Role::MemEnd),
        )
        else {
            // A port that is not a channel was reported with its value (HS5003).
            return;
        };
        if !iface.steady_done && !behind && (start.is_none() || end.is_none()) {
            return;
        }
        let widths = |this: &Self, v: &[ChannelId]| -> Vec<u32> {
            v.iter().map(|&c| this.module.channels[c].shape.bits()).collect()
        };
        let mut addr_widths = widths(self, &ld_addr);
        addr_widths.extend(widths(self, &st_addr));
        let aw = addr_widths.iter().copied().max().unwrap_or(1);
        if addr_widths.iter().any(|&w| w != aw) {
            return refuse(
                self,
                format!("`{}` whose addresses have different widths ({addr_widths:?} bits): give them one width", op.short_name()),
            );
        }
        // Behind a controller, the words are as wide as the store data it sends.
        let to_mc = |this: &Self, k: usize| result(this, Role::ToController(k));
        let mc = if behind {
            let (Some(ld_a), Some(st_a), Some(st_d), Some(back)) = (
                to_mc(self, 0),
                to_mc(self, 1),
                to_mc(self, 2),
                operand(self, Role::FromController),
            ) else {
                return;
            };
            let Some(done) = self.controller_done_of(id) else {
                return refuse(
                    self,
                    format!(
                        "`{} [MC]` whose results do not reach a `{}`'s load and store ports",
                        op.short_name(),
                        OpKind::MemController.key()
                    ),
                );
            };
            Some([ld_a, st_a, st_d, back, done])
        } else {
            None
        };
        let (w, memory_name) = match (&bram, &mc) {
            (Some((spec, _)), _) => (spec.width, format!("memory `{}`", spec.name)),
            (None, Some(mc)) => (
                self.module.channels[mc[2]].shape.bits(),
                format!("its `{}`", OpKind::MemController.key()),
            ),
            (None, None) => return,
        };
        if let Some(mc) = &mc {
            addr_widths.extend(widths(self, &mc[..2]));
            if addr_widths.iter().any(|&x| x != aw) {
                return refuse(
                    self,
                    format!("`{}` whose addresses have different widths ({addr_widths:?} bits): give them one width", op.short_name()),
                );
            }
        }
        let mut data_widths = widths(self, &ld_data);
        data_widths.extend(widths(self, &st_data));
        if let Some(mc) = &mc {
            data_widths.push(self.module.channels[mc[3]].shape.bits());
        }
        if let Some(&other) = data_widths.iter().find(|&&x| x != w) {
            return refuse(
                self,
                format!(
                    "`{}` on {memory_name} of {w}-bit words moves {other}-bit data",
                    op.short_name(),
                ),
            );
        }
        let raw = match &bram {
            Some((_, arg)) => {
                let Some(mem) = self.module.memories.iter_mut().find(|m| m.arg == *arg) else {
                    return;
                };
                mem.addr_width = aw;
                let n = mem.name.clone();
                ["loadEn", "loadAddr", "loadData", "storeEn", "storeAddr", "storeData"]
                    .iter()
                    .map(|p| (p.to_string(), format!("{n}_{p}")))
                    .collect()
            }
            // The controller owns the BRAM ports: the cell's outputs go to wires nothing reads.
            None => {
                let mut raw = vec![("loadData".to_string(), format!("{w}'d0"))];
                for (port, width) in [
                    ("loadEn", 1),
                    ("loadAddr", aw),
                    ("storeEn", 1),
                    ("storeAddr", aw),
                    ("storeData", w),
                ] {
                    let c = self.new_channel(
                        &format!("{base}_{port}"),
                        super::Shape { data: width, control: false },
                        String::new(),
                    );
                    self.module.channels[c].raw = true;
                    let wire = format!("{}_data", self.module.channels[c].name);
                    self.module.unused.push(wire.clone());
                    raw.push((port.to_string(), wire));
                }
                raw
            }
        };
        // Groups without ports get one port that never asks (inputs) or always takes (outputs).
        let fill_in = |this: &mut Self, v: Vec<ChannelId>, width: u32| {
            if v.is_empty() {
                vec![this.tie_input(&base, width)]
            } else {
                v
            }
        };
        let ld_addr = fill_in(self, ld_addr, aw);
        let st_addr = fill_in(self, st_addr, aw);
        let st_data = fill_in(self, st_data, w);
        let ld_data = if ld_data.is_empty() { vec![self.tie_output(&base, w)] } else { ld_data };
        // Without a controller its channels never carry anything.
        let [mc_ld_a, mc_st_a, mc_st_d, mc_back, mc_done] = match mc {
            Some(mc) => mc,
            None => [
                self.tie_output(&base, aw),
                self.tie_output(&base, aw),
                self.tie_output(&base, w),
                self.tie_input(&base, w),
                self.tie_input(&base, 1),
            ],
        };
        // A 2025 `lsq [MC]` has no done token: its end is taken whenever offered.
        let mem_end = match mem_end {
            Some(end) => end,
            None => self.tie_output(&base, 1),
        };
        let (start, end) = match (start, end) {
            (Some(start), Some(end)) => (start, end),
            // Dynamatic 2024's `lsq` and any `lsq [MC]` have no `memStart` / `ctrlEnd`: both are
            // always there, so its done token is offered while the queue is idle (and taken again
            // and again: it is never left over).
            _ => {
                self.steady.push(mem_end);
                (self.tie_valid(&base), self.tie_valid(&base))
            }
        };
        let layout = layout(&iface.groups);
        self.module.cells.push(super::Cell {
            module: "hsir_lsq".into(),
            name: base,
            params: vec![
                ("NG", iface.groups.len().to_string()),
                ("NLD", ld.max(1).to_string()),
                ("NST", st.max(1).to_string()),
                ("W", w.to_string()),
                ("AW", aw.to_string()),
                ("DEPTH", depth(&iface.groups).to_string()),
                ("NCHAR", layout.len().to_string()),
                ("LAYOUT", format!("\"{layout}\"")),
                ("MC", u8::from(behind).to_string()),
            ],
            clocked: true,
            pins: vec![
                group("group", allocs, false, false),
                group("ld_addr", ld_addr, false, true),
                group("ld_data", ld_data, true, true),
                group("st_addr", st_addr, false, true),
                group("st_data", st_data, false, true),
                pins("mem_start", vec![start], false, false),
                pins("ctrl_end", vec![end], false, false),
                pins("mem_end", vec![mem_end], true, false),
                pins("mc_ld_addr", vec![mc_ld_a], true, true),
                pins("mc_ld_data", vec![mc_back], false, true),
                pins("mc_st_addr", vec![mc_st_a], true, true),
                pins("mc_st_data", vec![mc_st_d], true, true),
                pins("mc_st_done", vec![mc_done], false, false),
            ],
            raw,
        });
    }
}

impl Lowering<'_> {
    /// The store-done channel from a `mem_controller` to `lsq [MC]` op `lsq`, made by whichever
    /// of the two is lowered first.
    pub(super) fn controller_done(&mut self, lsq: hsir_analysis::ir::OpId) -> ChannelId {
        if let Some(&(_, c)) = self.controller_done.iter().find(|(l, _)| *l == lsq) {
            return c;
        }
        let base = format!("lsq{lsq}_st_done");
        let c = self.new_channel(&base, super::Shape { data: 0, control: true }, String::new());
        self.controller_done.push((lsq, c));
        c
    }

    /// The channel `controller_done` made for `lsq`, or makes it when a `mem_controller` in
    /// the function lists `lsq`'s results among its ports.
    fn controller_done_of(&mut self, lsq: hsir_analysis::ir::OpId) -> Option<ChannelId> {
        if let Some(&(_, c)) = self.controller_done.iter().find(|(l, _)| *l == lsq) {
            return Some(c);
        }
        let func = self.func;
        let fed = (0..func.item.ops.len()).any(|op| {
            memories::interface(func, op as hsir_analysis::ir::OpId)
                .and_then(|i| i.lsq_ports)
                .is_some_and(|p| p.lsq == lsq)
        });
        fed.then(|| self.controller_done(lsq))
    }
}

#[cfg(test)]
mod tests {
    use super::{depth, layout};
    use crate::memories::Access::{Load, Store};

    #[test]
    fn layouts_and_depths() {
        let gaussian = vec![vec![Load(0), Load(1), Store(0)]];
        assert_eq!(layout(&gaussian), "lls");
        assert_eq!(depth(&gaussian), 16);
        let two = vec![vec![Store(0)], vec![Load(0), Store(1)], vec![Load(1)]];
        assert_eq!(layout(&two), "s_ls_l");
        let big: Vec<_> = (0..5).map(|k| vec![Load(k), Store(k)]).collect();
        assert_eq!(depth(&big), 32);
    }
}
