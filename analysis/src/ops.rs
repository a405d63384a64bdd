//! Every op hsir knows, declared once (as CIRCT declares its ops once in ODS).
//!
//! `OPS` is the table: for each op its kind, its names per dialect, the syntax eras it exists
//! in, its operand and result layout per era (with each operand's role), its typing rule,
//! whether it forwards extra signals, and its documentation. The checks, the IDE features, the
//! netlist, the interpreter and the Verilog emitter ask this table (through `OpKind`) what an
//! op is, instead of matching on its name; a new op is one entry here, a fixture, and its
//! Verilog module.
//!
//! Eras are the syntaxes an op has been written in: Dynamatic's of July 2024 (`oehb`,
//! `mc_load`, `end` with memory done tokens), of 2025 (two-operand `load` / `store` with two
//! types, buffers as `NUM_SLOTS` + `TIMING`), of 2026 (four-type `load` / `store`, buffers with
//! `BUFFER_TYPE`), CIRCT's, the Dynamatic type-system proposal's (`channel<T>`, `control`), and
//! LOOM's loop ops. A function's era is read from the function itself (`Era::of`).

use rustc_hash::FxHashMap;
use std::sync::OnceLock;

use crate::ir::{Item, OpData, TypeEntry};
use crate::types::Type;

/// A syntax era: who wrote the IR, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Era {
    /// Dynamatic, July 2024: `oehb` / `tehb` / `tfifo` buffers, `mc_load` / `mc_store` /
    /// `lsq_load` / `lsq_store`, `end` taking the memories' done tokens after the results.
    Dynamatic2024,
    /// Dynamatic, 2025: `load[%addr] %data : <Ta>, <Td>`, buffers as `hw.parameters =
    /// {NUM_SLOTS, TIMING}` (no `BUFFER_TYPE`), `handshake.bufProps`.
    Dynamatic2025,
    /// Dynamatic, 2026: `load [%addr] %data : Ta, Td, Ta, Td`, buffers with `BUFFER_TYPE`.
    Dynamatic2026,
    /// CIRCT's Handshake: raw types are channels (`i32`), `none` is control, `return` ends a
    /// function, loads and stores take a control token.
    Circt,
    /// Dynamatic's type-system proposal (seed 001): `channel<T>`, `control`, `(U)` signals.
    Proposal,
    /// LOOM's loop-stream ops (`dataflow.*`), inside CIRCT-style functions.
    Loom,
}

impl Era {
    pub const ALL: [Era; 6] = [
        Era::Dynamatic2024,
        Era::Dynamatic2025,
        Era::Dynamatic2026,
        Era::Circt,
        Era::Proposal,
        Era::Loom,
    ];
    /// Every era whose functions write channels Dynamatic's way.
    pub const DYNAMATIC_STYLE: &'static [Era] =
        &[Era::Dynamatic2024, Era::Dynamatic2025, Era::Dynamatic2026, Era::Proposal];

    /// How the era is named to users.
    pub fn label(self) -> &'static str {
        match self {
            Era::Dynamatic2024 => "Dynamatic 2024",
            Era::Dynamatic2025 => "Dynamatic 2025",
            Era::Dynamatic2026 => "Dynamatic 2026",
            Era::Circt => "CIRCT",
            Era::Proposal => "Dynamatic type-system proposal",
            Era::Loom => "LOOM",
        }
    }

    /// Whether functions of this era write Dynamatic's channel types.
    pub fn is_dynamatic_style(self) -> bool {
        Era::DYNAMATIC_STYLE.contains(&self)
    }

    /// The era of one function, from what it says itself: its ops (an op that exists in one
    /// era only decides), the types it writes, how its loads and buffers are written. Raw
    /// types make it CIRCT's (LOOM's when it uses LOOM's ops); `channel<T>` / `control`
    /// spellings the proposal's; otherwise the newest Dynamatic era its ops allow.
    pub fn of(item: &Item, text: &str, dynamatic_style: bool) -> Era {
        if !dynamatic_style {
            // Raw types: only LOOM's ops tell its functions from CIRCT's.
            let loom = item
                .ops
                .iter()
                .skip(1)
                .any(|op| OpKind::of(op).is_some_and(|k| k.def().eras == [Era::Loom]));
            return if loom { Era::Loom } else { Era::Circt };
        }
        let mut era2024 = false;
        let mut era2025 = false;
        let mut proposal = false;
        // Evidence of an era before 2026 that does not say which.
        let mut older = false;
        let mut buf_props = false;
        let mut float_impl = false;
        // Raw scalar ports beside Dynamatic's types: only 2024's `end` (which Dynamatic did not
        // verify) could end such a function; later `end`s must match the results exactly.
        let raw_ports = item.ops.first().and_then(|f| f.signature.as_ref()).is_some_and(|s| {
            s.args.iter().chain(&s.results).any(|p| {
                matches!(
                    item.port_ty(p),
                    Some(Type::Int { .. } | Type::Float { .. } | Type::Index | Type::None)
                )
            })
        });
        era2024 |= raw_ports;
        for op in item.ops.iter().skip(1) {
            let Some(kind) = OpKind::of(op) else { continue };
            let def = kind.def();
            if def.eras == [Era::Dynamatic2024] {
                era2024 = true;
            }
            match kind {
                OpKind::Load | OpKind::Store if written_count(item.types(op)) == 2 => {
                    era2025 = true;
                }
                OpKind::Buffer => {
                    let params = item.attr(op, "hw.parameters");
                    if params.is_some_and(|p| !item.str(p.value).contains("BUFFER_TYPE")) {
                        era2025 = true;
                    }
                }
                // Before 2026 a mux wrote one data type and a control_merge no brackets
                // (`: <i1>, <i32>`, `%a, %b : <>, <i1>`); 2026 writes `[...] to T`.
                OpKind::Mux | OpKind::ControlMerge if op.types_after.is_empty() => {
                    older |= !op.types.is_empty();
                }
                // 2024 wrote `source` without a type and `constant` with its result's only.
                OpKind::Source if op.types.is_empty() && !op.generic => era2024 = true,
                OpKind::Constant if written_count(item.types(op)) == 1 && !op.generic => {
                    era2024 = true;
                }
                _ => {}
            }
            // `bufProps` was written from 2025 on; the float units' `fpu_impl` and
            // `internal_delay` only after mid-2025, when their latencies began to follow the
            // period: with those, `bufProps` says nothing about an older era.
            // Its attributes read in one pass; only the first `name` counts.
            let mut named = false;
            for attr in item.attrs(op) {
                match item.str(attr.key) {
                    "handshake.bufProps" => buf_props = true,
                    "fpu_impl" | "internal_delay" => float_impl = true,
                    "name" if !named => {
                        named = true;
                        era2024 |= item.str(attr.value).starts_with("#handshake.name");
                    }
                    _ => {}
                }
            }
            proposal |= item.types(op).iter().chain(item.types_after(op)).any(|e| {
                let TypeEntry::One(w) = e else { return false };
                let written = text.get(usize::from(w.range.start())..usize::from(w.range.end()));
                written.is_some_and(|t| t.starts_with("channel<") || t == "control")
            });
        }
        if era2024 {
            Era::Dynamatic2024
        } else if era2025 || older || (buf_props && !float_impl) {
            Era::Dynamatic2025
        } else if proposal {
            Era::Proposal
        } else {
            Era::Dynamatic2026
        }
    }
}

fn written_count(entries: &[TypeEntry]) -> usize {
    entries
        .iter()
        .map(|e| match e {
            TypeEntry::One(_) => 1,
            TypeEntry::List(ws, _) => ws.len(),
            TypeEntry::Function(..) => 0,
        })
        .sum()
}

/// The dialect an op name is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `handshake.fork`, or `fork` inside a `handshake.func` (Dynamatic's and CIRCT's custom
    /// form omit the prefix).
    Handshake,
    /// `arith.addi`.
    Arith,
    /// LOOM's `dataflow.carry`.
    Dataflow,
    /// CIRCT's `pipeline.stage`.
    Pipeline,
}

impl Dialect {
    pub fn prefix(self) -> &'static str {
        match self {
            Dialect::Handshake => "handshake.",
            Dialect::Arith => "arith.",
            Dialect::Dataflow => "dataflow.",
            Dialect::Pipeline => "pipeline.",
        }
    }
}

/// The family an op belongs to: what the editor groups it under, and the fixture folder
/// (`test_data/ops/<family>.mlir`) that shows it in every era.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    Function,
    Routing,
    Buffer,
    Memory,
    Signals,
    Speculation,
    Arith,
    Cast,
    Loom,
    Pipeline,
}

/// How an op's written types expand into one type per operand and result (`signatures`
/// implements each rule once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typing {
    /// One type for the operand and every result: `fork`, `br`, `buffer`, `not`.
    Forward,
    /// Operands and the one result share the written type(s): `merge`.
    Merge,
    Join,
    Sync,
    Mux,
    ControlMerge,
    Sink,
    Source,
    CondBr,
    Constant,
    ArithConstant,
    /// `load` / `store` / `mc_load` / ...: per era.
    Access,
    /// `end` / `return`.
    Terminator,
    /// A function type says it all: `instance`, `wait`, `memory`, `extmemory`.
    FunctionType,
    /// Memory interfaces: the function type lists the ports.
    Interface,
    Pack,
    Unpack,
    Bundle,
    Unbundle,
    /// `: T to U`.
    Cast,
    /// Two operands and a result of one type.
    Binary,
    /// Two operands of one type, an `i1` result.
    Compare,
    Select,
    ArithSelect,
    SpecCommit,
    Loom,
    /// Not typed by hsir (only counted, or checked elsewhere).
    Untyped,
}

/// One operand or result in a layout: the placeholder signature help shows, and its role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Port {
    pub name: &'static str,
    pub role: &'static str,
    /// Written any number of times (`merge`'s inputs, `end`'s results).
    pub many: bool,
}

const fn p(name: &'static str, role: &'static str) -> Port {
    Port { name, role, many: false }
}

const fn many(name: &'static str, role: &'static str) -> Port {
    Port { name, role, many: true }
}

/// A memory interface's first operand after its memref: the token that starts the memory's use.
const MEM_START: Port = p("%memStart", "start of the memory's use");

/// A memory interface's last operand: the control token saying that no more requests will
/// come (Dynamatic's `ctrlEnd`); its done token (`memEnd`) is offered once it has arrived and
/// every request is done. `OpKind::ctrl_end_operand` finds it.
const CTRL_END: Port = p("%ctrlEnd", "end of the function's control");

/// An op's operands and results as some eras write them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub eras: &'static [Era],
    /// The op's custom form, as signature help and the documentation show it.
    pub syntax: &'static str,
    pub operands: &'static [Port],
    pub results: &'static [Port],
}

/// Everything hsir knows about one op.
#[derive(Debug, Clone, Copy)]
pub struct OpDef {
    pub kind: OpKind,
    /// Names by dialect; the first gives the op's key (`OpDef::key`).
    pub names: &'static [(Dialect, &'static str)],
    pub family: Family,
    /// The eras the op exists in.
    pub eras: &'static [Era],
    pub layouts: &'static [Layout],
    pub typing: Typing,
    /// Dynamatic's rule: the op passes its inputs' extra signals on, so all its channels carry
    /// the same ones.
    pub forwards_extras: bool,
    /// The operand count is read from the op (variadic), not fixed by its typing.
    pub variadic: bool,
    /// Held to the single-use rule: every result consumed exactly once.
    pub single_use: bool,
    pub doc: &'static str,
}

impl OpDef {
    /// The key the rest of hsir knows the op by: its Handshake short name (`fork`, `addi`), or
    /// the dotted name where the short one is taken (`arith.select`, `dataflow.carry`).
    pub fn key(&self) -> &'static str {
        KEYS.get_or_init(|| OPS.iter().map(key_of).collect())[self.kind as usize]
    }

    /// The layout the op has in `era`, or the first one (eras it does not exist in read like
    /// its newest form).
    pub fn layout(&self, era: Era) -> &'static Layout {
        self.layouts.iter().find(|l| l.eras.contains(&era)).unwrap_or(&self.layouts[0])
    }

    /// The role of operand `i` of `count` in `era`, a variadic port repeated as often as the
    /// fixed ports around it leave room for.
    pub fn operand_role(&self, era: Era, i: usize, count: usize) -> Option<&'static str> {
        role_at(self.layout(era).operands, i, count)
    }

    /// The role of result `i` of `count` in `era`.
    pub fn result_role(&self, era: Era, i: usize, count: usize) -> Option<&'static str> {
        role_at(self.layout(era).results, i, count)
    }
}

fn role_at(ports: &[Port], i: usize, count: usize) -> Option<&'static str> {
    let Some(v) = ports.iter().position(|p| p.many) else {
        return ports.get(i).map(|p| p.role);
    };
    let after = ports.len() - v - 1;
    if i < v {
        Some(ports[i].role)
    } else if i + after >= count.max(ports.len() - 1) && i < count {
        // One of the fixed ports after the variadic one.
        Some(ports[ports.len() - (count - i)].role)
    } else {
        Some(ports[v].role)
    }
}

fn key_of(def: &OpDef) -> &'static str {
    let (dialect, name) = def.names[0];
    match dialect {
        Dialect::Handshake => name,
        _ => {
            // A dotted key, leaked once per op for the process's life (a few dozen bytes).
            let dotted = format!("{}{name}", dialect.prefix());
            // Arith ops that Dynamatic also writes bare keep their short key.
            if dialect == Dialect::Arith && def.names.iter().any(|(d, _)| *d == Dialect::Handshake)
            {
                return name;
            }
            Box::leak(dotted.into_boxed_str())
        }
    }
}

static KEYS: OnceLock<Vec<&'static str>> = OnceLock::new();

impl OpKind {
    /// The op an `OpData` is, by its name in any dialect and spelling hsir reads.
    pub fn of(op: &OpData) -> Option<OpKind> {
        op.kind
    }

    /// The op a written name (`fork`, `handshake.fork`, `arith.addi`, `dataflow.carry`) is.
    /// Names of other dialects are `None`.
    pub fn from_name(name: &str) -> Option<OpKind> {
        Self::resolve(name).map(|(kind, _)| kind)
    }

    /// `from_name`, with the table's own copy of the name, which lives as long as the program:
    /// a lowered op keeps it instead of a copy of its own.
    pub fn resolve(name: &str) -> Option<(OpKind, &'static str)> {
        let index = INDEX.get_or_init(|| {
            let mut map = FxHashMap::default();
            for def in OPS {
                for &(dialect, short) in def.names {
                    map.insert(format!("{}{short}", dialect.prefix()), def.kind);
                    if dialect == Dialect::Handshake {
                        map.insert(short.to_string(), def.kind);
                    }
                }
            }
            map
        });
        index.get_key_value(name).map(|(name, &kind)| (kind, name.as_str()))
    }

    pub fn def(self) -> &'static OpDef {
        &OPS[self as usize]
    }

    /// The op's key (`OpDef::key`): how messages name it.
    pub fn key(self) -> &'static str {
        self.def().key()
    }

    /// Every op, in table order.
    pub fn all() -> impl Iterator<Item = OpKind> {
        OPS.iter().map(|d| d.kind)
    }

    pub fn is_buffer(self) -> bool {
        matches!(self, OpKind::Buffer | OpKind::Oehb | OpKind::Tehb | OpKind::Tfifo)
    }

    /// Ops that take one token from whichever input has one (merges; back edges enter
    /// loops through them).
    pub fn is_merge_like(self) -> bool {
        matches!(self, OpKind::Merge | OpKind::Mux | OpKind::ControlMerge | OpKind::Carry)
    }

    /// Memory accesses: `load` / `store` of every era.
    pub fn is_access(self) -> bool {
        self.is_load() || self.is_store()
    }

    pub fn is_load(self) -> bool {
        matches!(self, OpKind::Load | OpKind::McLoad | OpKind::LsqLoad)
    }

    pub fn is_store(self) -> bool {
        matches!(self, OpKind::Store | OpKind::McStore | OpKind::LsqStore)
    }

    /// Memory interfaces: what accesses connect to.
    pub fn is_interface(self) -> bool {
        matches!(self, OpKind::MemController | OpKind::Lsq)
    }

    pub fn is_memory(self) -> bool {
        matches!(self, OpKind::Memory | OpKind::ExtMemory)
    }

    pub fn is_terminator(self) -> bool {
        matches!(self, OpKind::End | OpKind::Return)
    }

    /// Shifts: `shli`, `shrsi`, `shrui`.
    pub fn is_shift(self) -> bool {
        matches!(self, OpKind::ShLI | OpKind::ShRSI | OpKind::ShRUI)
    }

    /// Ops whose (first) result carries the value of their first operand, unchanged or only
    /// re-sized: forks, extensions, truncations and casts of integers, buffers.
    pub fn forwards_value(self) -> bool {
        self.is_buffer()
            || matches!(
                self,
                OpKind::Fork
                    | OpKind::LazyFork
                    | OpKind::ExtSI
                    | OpKind::ExtUI
                    | OpKind::TruncI
                    | OpKind::IndexCast
                    | OpKind::IndexCastUI
                    | OpKind::Bitcast
            )
    }

    pub fn is_binary(self) -> bool {
        self.def().typing == Typing::Binary
    }

    pub fn is_loom(self) -> bool {
        self.def().family == Family::Loom
    }
}

// ---- names, families and labels that the checks, the editor and the backend ask for
impl OpKind {
    /// The op's name with its first dialect's prefix, as the generic form writes it:
    /// `handshake.func`, `handshake.fork`, `arith.constant`, `dataflow.carry`.
    pub fn full_name(self) -> String {
        let (dialect, name) = self.def().names[0];
        format!("{}{name}", dialect.prefix())
    }

    /// Ops of CIRCT's pipeline dialect (`pipeline.scheduled`, `pipeline.stage`, ...).
    pub fn is_pipeline(self) -> bool {
        self.def().family == Family::Pipeline
    }

    /// Pipelines: the ops whose region holds stages.
    pub fn is_pipeline_region(self) -> bool {
        matches!(self, OpKind::PipelineScheduled | OpKind::PipelineUnscheduled)
    }

    /// The operand of memory interface `op` that is its `ctrlEnd` in `era`: the table's
    /// `%ctrlEnd` port, the last operand written outside the memref's brackets. `None` where
    /// the era's layout has no such port (Dynamatic 2024's `mem_controller` and `lsq`), for an
    /// `lsq [MC]` (an LSQ behind a `mem_controller`: no memref, no `memStart` / `ctrlEnd`; its
    /// last operand is the load data coming back), and for every other op.
    pub fn ctrl_end_operand(item: &Item, op: &OpData, era: Era) -> Option<usize> {
        let kind = OpKind::of(op).filter(|k| k.is_interface())?;
        let layout = kind.def().layout(era);
        if !layout.eras.contains(&era) || layout.operands.last() != Some(&CTRL_END) {
            return None;
        }
        let in_brackets = |u: &crate::ir::UseId| {
            item.uses[*u as usize].container == crate::ir::Container::Bracket
        };
        if !item.operands(op).iter().any(in_brackets) {
            return None;
        }
        let ports: Vec<usize> =
            (0..op.operands.len()).filter(|&i| !in_brackets(&item.operands(op)[i])).collect();
        // The fixed ports around the variadic one must be there.
        let fixed = layout.operands.iter().filter(|p| !p.many).count();
        (ports.len() >= fixed).then(|| ports.last().copied()).flatten()
    }

    /// The role of operand `i` of `count` in `era` (`OpDef::operand_role`), numbered among the
    /// repetitions of its port when the port is variadic and repeated (`input 1` of a `join`,
    /// `data 0` of a `mux`): how the interpreter's reports name an operand. `None` beyond the
    /// layout.
    pub fn operand_label(self, era: Era, i: usize, count: usize) -> Option<String> {
        OpKind::label_at(self.def().layout(era).operands, i, count)
    }

    fn label_at(ports: &[Port], i: usize, count: usize) -> Option<String> {
        if i >= count {
            return None;
        }
        let role = role_at(ports, i, count)?;
        let Some(v) = ports.iter().position(|p| p.many) else {
            return Some(role.to_string());
        };
        // The variadic port is repeated as often as the fixed ports around it leave room for.
        let repeated = count.saturating_sub(ports.len() - 1);
        let variadic = i >= v && i < v + repeated;
        Some(if variadic && repeated > 1 { format!("{role} {}", i - v) } else { role.to_string() })
    }
}

static INDEX: OnceLock<FxHashMap<String, OpKind>> = OnceLock::new();

macro_rules! op_kinds {
    ($($kind:ident),* $(,)?) => {
        /// Every op hsir knows. Its discriminant is its index in `OPS`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum OpKind { $($kind),* }
    };
}

op_kinds!(
    Func,
    End,
    Return,
    Instance,
    EsiInstance,
    Fork,
    LazyFork,
    Join,
    Merge,
    Mux,
    ControlMerge,
    Br,
    CondBr,
    Sink,
    Source,
    Constant,
    Sync,
    Init,
    Not,
    Select,
    Buffer,
    Oehb,
    Tehb,
    Tfifo,
    Load,
    Store,
    McLoad,
    McStore,
    LsqLoad,
    LsqStore,
    Memory,
    ExtMemory,
    MemController,
    Lsq,
    Pack,
    Unpack,
    Bundle,
    Unbundle,
    Compose,
    Decompose,
    Reshape,
    Wait,
    SpecCommit,
    Speculator,
    SpecSave,
    SpecSaveCommit,
    SpeculatingBranch,
    NonSpec,
    Blocker,
    ReadyRemover,
    ValidMerger,
    AddI,
    SubI,
    MulI,
    DivSI,
    DivUI,
    RemSI,
    RemUI,
    AndI,
    OrI,
    XOrI,
    ShLI,
    ShRSI,
    ShRUI,
    AddF,
    SubF,
    MulF,
    DivF,
    RemF,
    MaxSI,
    MaxUI,
    MinSI,
    MinUI,
    MaximumF,
    MinimumF,
    MaxNumF,
    MinNumF,
    CeilDivSI,
    CeilDivUI,
    FloorDivSI,
    CmpI,
    CmpF,
    NegF,
    AbsF,
    ExtSI,
    ExtUI,
    TruncI,
    ExtF,
    TruncF,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    IndexCast,
    IndexCastUI,
    Bitcast,
    ArithConstant,
    ArithSelect,
    Stream,
    Gate,
    Carry,
    Invariant,
    PipelineScheduled,
    PipelineUnscheduled,
    PipelineStage,
    PipelineReturn,
    PipelineLatency,
    PipelineLatencyReturn,
    PipelineSrc,
);

use Dialect::{Arith, Dataflow, Handshake as Hs, Pipeline as Pl};
use Era::*;

const D2024: &[Era] = &[Dynamatic2024];
const NOT_2024: &[Era] = &[Dynamatic2025, Dynamatic2026, Circt, Proposal, Loom];
const DYN: &[Era] = Era::DYNAMATIC_STYLE;
const DYN_NOT_2024: &[Era] = &[Dynamatic2025, Dynamatic2026, Proposal];
const LOOM: &[Era] = &[Loom];
const CIRCT_ONLY: &[Era] = &[Circt];
const EVERY: &[Era] = &Era::ALL;

const BASE: OpDef = OpDef {
    kind: OpKind::Func,
    names: &[],
    family: Family::Routing,
    eras: EVERY,
    layouts: &[],
    typing: Typing::Untyped,
    forwards_extras: false,
    variadic: false,
    single_use: true,
    doc: "",
};

const IN: &[Port] = &[p("%input", "input")];
const OUT: &[Port] = &[p("%output", "output")];
const INPUTS: &[Port] = &[many("%in", "input")];
const OUTPUTS: &[Port] = &[many("%out", "output")];
const BINARY_IN: &[Port] = &[p("%lhs", "left operand"), p("%rhs", "right operand")];
const RESULT: &[Port] = &[p("%result", "result")];

const fn one(
    eras: &'static [Era],
    syntax: &'static str,
    operands: &'static [Port],
    results: &'static [Port],
) -> Layout {
    Layout { eras, syntax, operands, results }
}

macro_rules! binary {
    ($kind:ident, $name:literal, $doc:literal) => {
        OpDef {
            kind: OpKind::$kind,
            names: &[(Hs, $name), (Arith, $name)],
            family: Family::Arith,
            eras: EVERY,
            layouts: &[one(EVERY, concat!($name, " %lhs, %rhs : T"), BINARY_IN, RESULT)],
            typing: Typing::Binary,
            forwards_extras: true,
            doc: $doc,
            ..BASE
        }
    };
}

macro_rules! cast {
    ($kind:ident, $name:literal, $doc:literal) => {
        OpDef {
            kind: OpKind::$kind,
            names: &[(Hs, $name), (Arith, $name)],
            family: Family::Cast,
            eras: EVERY,
            layouts: &[one(EVERY, concat!($name, " %input : T to U"), IN, RESULT)],
            typing: Typing::Cast,
            forwards_extras: true,
            doc: $doc,
            ..BASE
        }
    };
}

/// The table. Entries are in `OpKind` order (a test checks it).
pub static OPS: &[OpDef] = &[
    OpDef {
        kind: OpKind::Func,
        names: &[(Hs, "func")],
        family: Family::Function,
        eras: EVERY,
        layouts: &[one(EVERY, "handshake.func @name(%arg: T, ...) -> (T, ...) { ... }", &[], &[])],
        single_use: false,
        doc: "A dataflow circuit: its arguments and results are channels, and its body is a graph of ops that fire when their inputs hold tokens.",
        ..BASE
    },
    OpDef {
        kind: OpKind::End,
        names: &[(Hs, "end")],
        family: Family::Function,
        eras: DYN,
        layouts: &[
            one(D2024, "end %result, ..., %memory_done, ... : T, ...", &[many("%result", "result"), many("%memory_done", "memory done token")], &[]),
            one(DYN_NOT_2024, "end %result, ... : T, ...", &[many("%result", "result")], &[]),
        ],
        typing: Typing::Terminator,
        variadic: true,
        doc: "The function's exit: waits for its result tokens (and the memories' done tokens) and ends the invocation. In Dynamatic's 2024 IR the memories' done tokens follow the results.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Return,
        names: &[(Hs, "return")],
        family: Family::Function,
        eras: EVERY,
        layouts: &[one(EVERY, "return %result, ... : T, ...", &[many("%result", "result")], &[many("%output", "result passed on to `end`")])],
        typing: Typing::Terminator,
        variadic: true,
        doc: "Hands the function's results on; in Dynamatic's IR its results feed `end`.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Instance,
        names: &[(Hs, "instance")],
        family: Family::Function,
        eras: EVERY,
        layouts: &[one(EVERY, "instance @callee(%arg, ...) : (T, ...) -> (U, ...)", &[many("%arg", "argument")], OUTPUTS)],
        typing: Typing::FunctionType,
        doc: "An instance of another function, connected by the channels of its arguments and results.",
        ..BASE
    },
    OpDef {
        kind: OpKind::EsiInstance,
        names: &[(Hs, "esi_instance")],
        family: Family::Function,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "handshake.esi_instance @callee \"name\" clk %clk rst %rst(%arg, ...) : (T, ...) -> (U, ...)", &[many("%arg", "argument")], OUTPUTS)],
        variadic: true,
        doc: "An instance of a `handshake.func` inside a hardware module, connected by ESI channels.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Fork,
        names: &[(Hs, "fork")],
        layouts: &[one(EVERY, "fork [N] %input : T", IN, OUTPUTS)],
        eras: EVERY,
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Copies every input token to all of its outputs; the input is released once every output has taken its copy (eager fork).",
        ..BASE
    },
    OpDef {
        kind: OpKind::LazyFork,
        names: &[(Hs, "lazy_fork")],
        layouts: &[one(EVERY, "lazy_fork [N] %input : T", IN, OUTPUTS)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Copies every input token to all outputs, but only once all of them are ready at the same time (lazy fork).",
        ..BASE
    },
    OpDef {
        kind: OpKind::Join,
        names: &[(Hs, "join")],
        eras: EVERY,
        layouts: &[one(EVERY, "join %in, ... : T, ...", INPUTS, &[p("%control", "control token")])],
        typing: Typing::Join,
        variadic: true,
        doc: "Waits for a token on every input, then emits one control token; the data is dropped.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Merge,
        names: &[(Hs, "merge")],
        eras: EVERY,
        layouts: &[one(EVERY, "merge %in, ... : T", INPUTS, OUT)],
        typing: Typing::Merge,
        forwards_extras: true,
        variadic: true,
        doc: "Passes on a token from whichever input has one; inputs must not hold tokens at the same time.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Mux,
        names: &[(Hs, "mux")],
        eras: EVERY,
        layouts: &[
            one(&[Circt, Loom], "mux %select [%data, ...] : Tselect, T", &[p("%select", "select"), many("%data", "data")], OUT),
            one(&[Dynamatic2024, Dynamatic2025], "mux %select [%data, ...] : Tselect, T", &[p("%select", "select"), many("%data", "data")], OUT),
            one(&[Dynamatic2026, Proposal], "mux %select [%data, ...] : Tselect, [T, ...] to T", &[p("%select", "select"), many("%data", "data")], OUT),
        ],
        typing: Typing::Mux,
        forwards_extras: true,
        variadic: true,
        doc: "Passes on the token of the data input the select token picks; the select is consumed with it.",
        ..BASE
    },
    OpDef {
        kind: OpKind::ControlMerge,
        names: &[(Hs, "control_merge")],
        eras: EVERY,
        layouts: &[
            one(&[Circt, Loom], "control_merge %in, ... : T, Tindex", INPUTS, &[p("%output", "output"), p("%index", "index of the input taken")]),
            one(&[Dynamatic2024, Dynamatic2025], "control_merge %in, ... : T, Tindex", INPUTS, &[p("%output", "output"), p("%index", "index of the input taken")]),
            one(&[Dynamatic2026, Proposal], "control_merge [%in, ...] : [T, ...] to T, Tindex", INPUTS, &[p("%output", "output"), p("%index", "index of the input taken")]),
        ],
        typing: Typing::ControlMerge,
        variadic: true,
        doc: "Passes on a token from whichever input has one, and says which input it came from on its index result.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Br,
        names: &[(Hs, "br")],
        eras: EVERY,
        layouts: &[one(EVERY, "br %input : T", IN, OUT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Passes its token through unchanged (a branch with one successor).",
        ..BASE
    },
    OpDef {
        kind: OpKind::CondBr,
        names: &[(Hs, "cond_br")],
        eras: EVERY,
        layouts: &[
            one(&[Circt, Loom], "cond_br %condition, %data : T", &[p("%condition", "condition"), p("%data", "data")], &[p("%true", "output if true"), p("%false", "output if false")]),
            one(DYN, "cond_br %condition, %data : Tcondition, T", &[p("%condition", "condition"), p("%data", "data")], &[p("%true", "output if true"), p("%false", "output if false")]),
        ],
        typing: Typing::CondBr,
        forwards_extras: true,
        doc: "Sends the data token to the true or the false output, as the condition token says.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Sink,
        names: &[(Hs, "sink")],
        eras: EVERY,
        layouts: &[one(EVERY, "sink %input : T", IN, &[])],
        typing: Typing::Sink,
        doc: "Consumes and drops every token it receives.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Source,
        names: &[(Hs, "source")],
        eras: EVERY,
        layouts: &[
            one(D2024, "source", &[], &[p("%control", "control token")]),
            one(&[Dynamatic2025, Dynamatic2026, Circt, Proposal, Loom], "source : T", &[], &[p("%control", "control token")]),
        ],
        typing: Typing::Source,
        doc: "Produces a control token whenever its consumer is ready.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Constant,
        names: &[(Hs, "constant")],
        eras: EVERY,
        layouts: &[
            one(&[Circt, Loom], "constant %control {value = V : T} : T", &[p("%control", "control (trigger)")], &[p("%value", "value")]),
            one(D2024, "constant %control {value = V : T} : T", &[p("%control", "control (trigger)")], &[p("%value", "value")]),
            one(DYN_NOT_2024, "constant %control {value = V : T} : Tcontrol, T", &[p("%control", "control (trigger)")], &[p("%value", "value")]),
        ],
        typing: Typing::Constant,
        forwards_extras: true,
        doc: "Emits its constant value each time its control input delivers a token.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Sync,
        names: &[(Hs, "sync")],
        eras: EVERY,
        layouts: &[one(EVERY, "sync %in, ... : T, ...", INPUTS, OUTPUTS)],
        typing: Typing::Sync,
        variadic: true,
        doc: "Waits until every input holds a token, then releases them all together, one on each output.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Init,
        names: &[(Hs, "init")],
        layouts: &[one(EVERY, "init %input : T", IN, OUT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Emits one initial token, then passes its input's tokens through.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Not,
        // Dynamatic renamed it `noti` in 2026.
        names: &[(Hs, "not"), (Hs, "noti")],
        layouts: &[
            one(&[Dynamatic2024, Dynamatic2025, Circt, Proposal, Loom], "not %input : T", IN, OUT),
            one(&[Dynamatic2026], "noti %input : T", IN, OUT),
        ],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Inverts a one-bit token.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Select,
        names: &[(Hs, "select")],
        eras: DYN,
        layouts: &[one(DYN, "select %condition [%true_value, %false_value] : Tcondition, T", &[p("%condition", "condition"), p("%true_value", "value if true"), p("%false_value", "value if false")], RESULT)],
        typing: Typing::Select,
        forwards_extras: true,
        doc: "Picks one of two data tokens by a condition token; all three are consumed.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Buffer,
        names: &[(Hs, "buffer")],
        family: Family::Buffer,
        // Dynamatic 2024 wrote `oehb` / `tehb` instead.
        eras: NOT_2024,
        layouts: &[
            one(&[Circt, Loom], "buffer [N] seq|fifo %input : T", IN, OUT),
            one(&[Dynamatic2025], "buffer %input {hw.parameters = {NUM_SLOTS = N : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : T", IN, OUT),
            one(&[Dynamatic2026, Proposal], "buffer %input, bufferType = ONE_SLOT_BREAK_DV, numSlots = N, dvLatency = L : T", IN, OUT),
        ],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Oehb,
        names: &[(Hs, "oehb")],
        family: Family::Buffer,
        eras: D2024,
        layouts: &[one(D2024, "oehb [N] %input : T", IN, OUT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Dynamatic 2024: an opaque elastic buffer, registering data and valid (one cycle of latency), the 2026 `ONE_SLOT_BREAK_DV`.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Tehb,
        names: &[(Hs, "tehb")],
        family: Family::Buffer,
        eras: D2024,
        layouts: &[one(D2024, "tehb [N] %input : T", IN, OUT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Dynamatic 2024: a transparent elastic buffer, registering the ready path only (no latency), the 2026 `ONE_SLOT_BREAK_R`.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Tfifo,
        names: &[(Hs, "tfifo")],
        family: Family::Buffer,
        eras: D2024,
        layouts: &[one(D2024, "tfifo [N] %input : T", IN, OUT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Dynamatic 2024: a transparent FIFO of N slots (no latency when empty), the 2026 `FIFO_BREAK_NONE`.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Load,
        names: &[(Hs, "load")],
        family: Family::Memory,
        eras: NOT_2024,
        layouts: &[
            one(&[Circt, Loom], "load [%address, ...] %data_from_memory, %control : Taddress, Tdata", &[many("%address", "address"), p("%data_from_memory", "data from memory"), p("%control", "control")], &[p("%data", "data to the circuit"), many("%address_to_memory", "address to memory")]),
            one(&[Dynamatic2025], "load[%address] %data_from_memory : Taddress, Tdata", &[p("%address", "address"), p("%data_from_memory", "data from memory")], &[p("%address_to_memory", "address to memory"), p("%data", "data to the circuit")]),
            one(&[Dynamatic2026, Proposal], "load [%address] %data_from_memory : Taddress, Tdata, Taddress, Tdata", &[p("%address", "address"), p("%data_from_memory", "data from memory")], &[p("%address_to_memory", "address to memory"), p("%data", "data to the circuit")]),
        ],
        typing: Typing::Access,
        doc: "A load port: sends an address to a memory and passes the data it returns on.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Store,
        names: &[(Hs, "store")],
        family: Family::Memory,
        eras: NOT_2024,
        layouts: &[
            one(&[Circt, Loom], "store [%address, ...] %data, %control : Taddress, Tdata", &[many("%address", "address"), p("%data", "data to store"), p("%control", "control")], &[p("%data_to_memory", "data to memory"), many("%address_to_memory", "address to memory")]),
            one(&[Dynamatic2025], "store[%address] %data : Taddress, Tdata", &[p("%address", "address"), p("%data", "data to store")], &[p("%address_to_memory", "address to memory"), p("%data_to_memory", "data to memory")]),
            one(&[Dynamatic2026, Proposal], "store [%address] %data : Taddress, Tdata, Taddress, Tdata", &[p("%address", "address"), p("%data", "data to store")], &[p("%address_to_memory", "address to memory"), p("%data_to_memory", "data to memory")]),
        ],
        typing: Typing::Access,
        doc: "A store port: sends an address and a data token to a memory.",
        ..BASE
    },
    OpDef {
        kind: OpKind::McLoad,
        names: &[(Hs, "mc_load")],
        family: Family::Memory,
        eras: D2024,
        layouts: &[one(D2024, "mc_load [%address] %data_from_memory : Taddress, Tdata", &[p("%address", "address"), p("%data_from_memory", "data from memory")], &[p("%address_to_memory", "address to memory"), p("%data", "data to the circuit")])],
        typing: Typing::Access,
        doc: "Dynamatic 2024: a load port of a memory controller (`mem_controller`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::McStore,
        names: &[(Hs, "mc_store")],
        family: Family::Memory,
        eras: D2024,
        layouts: &[one(D2024, "mc_store [%address] %data : Taddress, Tdata", &[p("%address", "address"), p("%data", "data to store")], &[p("%address_to_memory", "address to memory"), p("%data_to_memory", "data to memory")])],
        typing: Typing::Access,
        doc: "Dynamatic 2024: a store port of a memory controller (`mem_controller`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::LsqLoad,
        names: &[(Hs, "lsq_load")],
        family: Family::Memory,
        eras: D2024,
        layouts: &[one(D2024, "lsq_load [%address] %data_from_memory : Taddress, Tdata", &[p("%address", "address"), p("%data_from_memory", "data from memory")], &[p("%address_to_memory", "address to memory"), p("%data", "data to the circuit")])],
        typing: Typing::Access,
        doc: "Dynamatic 2024: a load port of a load-store queue (`lsq`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::LsqStore,
        names: &[(Hs, "lsq_store")],
        family: Family::Memory,
        eras: D2024,
        layouts: &[one(D2024, "lsq_store [%address] %data : Taddress, Tdata", &[p("%address", "address"), p("%data", "data to store")], &[p("%address_to_memory", "address to memory"), p("%data_to_memory", "data to memory")])],
        typing: Typing::Access,
        doc: "Dynamatic 2024: a store port of a load-store queue (`lsq`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::Memory,
        names: &[(Hs, "memory")],
        family: Family::Memory,
        eras: EVERY,
        layouts: &[one(EVERY, "memory [ld = L, st = S] (%store_data, %store_address, ..., %load_address, ...) {id = I : i32, lsq = false} : memref<NxT>, (...) -> (...)", &[many("%port", "store data and address, then load addresses")], &[many("%result", "load data, then a done token per port")])],
        typing: Typing::FunctionType,
        doc: "An on-chip memory with load and store ports; each access is a channel of its own.",
        ..BASE
    },
    OpDef {
        kind: OpKind::ExtMemory,
        names: &[(Hs, "extmemory")],
        family: Family::Memory,
        eras: EVERY,
        layouts: &[one(EVERY, "extmemory [ld = L, st = S] (%memref : memref<NxT>) (%store_data, %store_address, ..., %load_address, ...) : (...) -> (...)", &[p("%memref", "memref"), many("%port", "store data and address, then load addresses")], &[many("%result", "load data, then a done token per port")])],
        typing: Typing::FunctionType,
        doc: "A memory outside the circuit, reached through the function's memref argument and its load and store ports.",
        ..BASE
    },
    OpDef {
        kind: OpKind::MemController,
        names: &[(Hs, "mem_controller")],
        family: Family::Memory,
        eras: DYN,
        layouts: &[
            one(D2024, "mem_controller [%memref : memref<NxT>] (%port, ...) {connectedBlocks = [...]} : (...) -> (...)", &[many("%port", "access port, or a block's control")], &[many("%load_data", "load data"), p("%done", "done token")]),
            one(DYN_NOT_2024, "mem_controller[%memref : memref<NxT>] %memStart (%port, ...) %ctrlEnd {connectedBlocks = [...]} : (...) -> (...)", &[MEM_START, many("%port", "access port, or a block's store count"), CTRL_END], &[many("%load_data", "load data"), p("%memEnd", "done token")]),
        ],
        typing: Typing::Interface,
        variadic: true,
        doc: "Dynamatic's memory controller: serves the loads and stores of one memory and signals when they are done.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Lsq,
        names: &[(Hs, "lsq")],
        family: Family::Memory,
        eras: DYN,
        layouts: &[
            one(D2024, "lsq [%memref : memref<NxT>] (%group_control, %port, ...) {groupSizes = [...]} : (...) -> (...)", &[many("%port", "group control or access port")], &[many("%load_data", "load data"), p("%done", "done token")]),
            one(DYN_NOT_2024, "lsq[%memref : memref<NxT>] (%memStart, %group_control, %port, ..., %ctrlEnd) {groupSizes = [...]} : (...) -> (...)", &[MEM_START, many("%port", "group control or access port"), CTRL_END], &[many("%load_data", "load data"), p("%memEnd", "done token")]),
        ],
        typing: Typing::Interface,
        variadic: true,
        doc: "A load-store queue: orders the accesses of one memory dynamically, in the order of their groups.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Pack,
        names: &[(Hs, "pack")],
        family: Family::Signals,
        eras: EVERY,
        layouts: &[one(EVERY, "pack %in, ... : tuple<T, ...>", INPUTS, &[p("%tuple", "tuple")])],
        typing: Typing::Pack,
        doc: "Waits for a token on every input and combines them into one tuple token.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Unpack,
        names: &[(Hs, "unpack")],
        family: Family::Signals,
        eras: EVERY,
        layouts: &[one(EVERY, "unpack %tuple : tuple<T, ...>", &[p("%tuple", "tuple")], OUTPUTS)],
        typing: Typing::Unpack,
        doc: "Splits a tuple token into one token per element.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Bundle,
        names: &[(Hs, "bundle")],
        family: Family::Signals,
        eras: DYN,
        layouts: &[one(DYN, "bundle %signal, ... : _ to <T>", &[many("%signal", "downstream signal")], &[p("%channel", "channel"), many("%upstream", "upstream signal")])],
        typing: Typing::Bundle,
        doc: "Builds a channel from its separate signals (valid or data, and its extra signals), taking ready back.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Unbundle,
        names: &[(Hs, "unbundle")],
        family: Family::Signals,
        eras: DYN,
        layouts: &[one(DYN, "unbundle %channel [%upstream, ...] : <T> to _", &[p("%channel", "channel"), many("%upstream", "upstream signal")], &[many("%signal", "downstream signal")])],
        typing: Typing::Unbundle,
        doc: "Splits a channel into its separate signals (valid or data, and its extra signals), giving ready in.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Compose,
        names: &[(Hs, "compose")],
        family: Family::Signals,
        eras: &[Proposal, Dynamatic2026],
        layouts: &[one(&[Proposal, Dynamatic2026], "compose %input : T to U", IN, OUT)],
        typing: Typing::Cast,
        doc: "Packs a channel's extra signals into its data.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Decompose,
        names: &[(Hs, "decompose")],
        family: Family::Signals,
        eras: &[Proposal, Dynamatic2026],
        layouts: &[one(&[Proposal, Dynamatic2026], "decompose %input : T to U", IN, OUT)],
        typing: Typing::Cast,
        doc: "Unpacks extra signals from a channel's data.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Reshape,
        names: &[(Hs, "reshape")],
        family: Family::Signals,
        eras: DYN,
        layouts: &[one(DYN, "reshape [MergeData|SplitData|MergeExtra|SplitExtra] %input : T -> U", IN, OUT)],
        doc: "Dynamatic: moves a channel's extra signals into its data or into one combined signal, or back (`MergeData`, `SplitData`, `MergeExtra`, `SplitExtra`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::Wait,
        names: &[(Hs, "wait")],
        eras: DYN,
        layouts: &[one(DYN, "wait %wait_for, %data : (T, U) -> U", &[p("%wait_for", "token to wait for"), p("%data", "data")], OUT)],
        typing: Typing::FunctionType,
        doc: "Passes the second operand's token on once a token of the first operand has arrived.",
        ..BASE
    },
    OpDef {
        kind: OpKind::SpecCommit,
        names: &[(Hs, "spec_commit")],
        family: Family::Speculation,
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "spec_commit [%control] %data : Tin, Tout, Tcontrol", &[p("%control", "control"), p("%data", "data")], OUT)],
        typing: Typing::SpecCommit,
        doc: "Speculation: passes a speculative token on once the control says it was correct, drops it otherwise.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Speculator,
        names: &[(Hs, "speculator")],
        family: Family::Speculation,
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "speculator [%trigger] %data : ...", &[p("%trigger", "trigger"), p("%data", "data")], OUTPUTS)],
        variadic: true,
        doc: "Speculation: emits predicted tokens ahead of the real ones and corrects them later.",
        ..BASE
    },
    OpDef {
        kind: OpKind::SpecSave,
        names: &[(Hs, "spec_save")],
        family: Family::Speculation,
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "spec_save [%control] %data : ...", &[p("%control", "control"), p("%data", "data")], OUT)],
        variadic: true,
        doc: "Speculation: keeps tokens until the speculation they depend on is resolved.",
        ..BASE
    },
    OpDef {
        kind: OpKind::SpecSaveCommit,
        names: &[(Hs, "spec_save_commit")],
        family: Family::Speculation,
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "spec_save_commit [%control] %data : ...", &[p("%control", "control"), p("%data", "data")], OUT)],
        variadic: true,
        doc: "Speculation: keeps tokens until the speculation they depend on is resolved, then commits or discards them.",
        ..BASE
    },
    OpDef {
        kind: OpKind::SpeculatingBranch,
        names: &[(Hs, "speculating_branch")],
        family: Family::Speculation,
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "speculating_branch [%spec_tag] %data : ...", &[p("%spec_tag", "speculation tag"), p("%data", "data")], OUTPUTS)],
        variadic: true,
        doc: "Speculation: a branch that routes tokens by whether they are speculative.",
        ..BASE
    },
    OpDef {
        kind: OpKind::NonSpec,
        names: &[(Hs, "non_spec")],
        family: Family::Speculation,
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "non_spec %input : T to U", IN, OUT)],
        variadic: true,
        doc: "Speculation: marks a token as not speculative.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Blocker,
        names: &[(Hs, "blocker")],
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "blocker %in, ... : T, ...", INPUTS, OUT)],
        variadic: true,
        doc: "Holds its first input's token until every other input has a token too.",
        ..BASE
    },
    OpDef {
        kind: OpKind::ReadyRemover,
        names: &[(Hs, "ready_remover")],
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "ready_remover %input : T", IN, OUT)],
        variadic: true,
        doc: "Ties its input's ready high: the consumer is always ready.",
        ..BASE
    },
    OpDef {
        kind: OpKind::ValidMerger,
        names: &[(Hs, "valid_merger")],
        eras: DYN_NOT_2024,
        layouts: &[one(DYN_NOT_2024, "valid_merger %lhs, %rhs : T, U", BINARY_IN, OUTPUTS)],
        variadic: true,
        doc: "Passes both inputs on, the right one's valid taken from the left one.",
        ..BASE
    },
    binary!(AddI, "addi", "Adds two integers (wrapping)."),
    binary!(SubI, "subi", "Subtracts two integers (wrapping)."),
    binary!(MulI, "muli", "Multiplies two integers (low bits of the product)."),
    binary!(DivSI, "divsi", "Signed integer division, rounding toward zero."),
    binary!(DivUI, "divui", "Unsigned integer division."),
    binary!(RemSI, "remsi", "Signed integer remainder (the sign of the dividend)."),
    binary!(RemUI, "remui", "Unsigned integer remainder."),
    binary!(AndI, "andi", "Bitwise and."),
    binary!(OrI, "ori", "Bitwise or."),
    binary!(XOrI, "xori", "Bitwise exclusive or."),
    binary!(ShLI, "shli", "Shifts left by the second operand."),
    binary!(ShRSI, "shrsi", "Arithmetic shift right by the second operand."),
    binary!(ShRUI, "shrui", "Logical shift right by the second operand."),
    binary!(AddF, "addf", "Floating-point addition."),
    binary!(SubF, "subf", "Floating-point subtraction."),
    binary!(MulF, "mulf", "Floating-point multiplication."),
    binary!(DivF, "divf", "Floating-point division."),
    binary!(RemF, "remf", "Floating-point remainder."),
    binary!(MaxSI, "maxsi", "The larger of two signed integers."),
    binary!(MaxUI, "maxui", "The larger of two unsigned integers."),
    binary!(MinSI, "minsi", "The smaller of two signed integers."),
    binary!(MinUI, "minui", "The smaller of two unsigned integers."),
    binary!(MaximumF, "maximumf", "The larger of two floats (NaN if either is)."),
    binary!(MinimumF, "minimumf", "The smaller of two floats (NaN if either is)."),
    binary!(MaxNumF, "maxnumf", "The larger of two floats (the other one if one is NaN)."),
    binary!(MinNumF, "minnumf", "The smaller of two floats (the other one if one is NaN)."),
    binary!(CeilDivSI, "ceildivsi", "Signed integer division, rounding up."),
    binary!(CeilDivUI, "ceildivui", "Unsigned integer division, rounding up."),
    binary!(FloorDivSI, "floordivsi", "Signed integer division, rounding down."),
    OpDef {
        kind: OpKind::CmpI,
        names: &[(Hs, "cmpi"), (Arith, "cmpi")],
        family: Family::Arith,
        eras: EVERY,
        layouts: &[one(EVERY, "cmpi predicate, %lhs, %rhs : T", BINARY_IN, RESULT)],
        typing: Typing::Compare,
        forwards_extras: true,
        doc: "Compares two integers by its predicate (`eq`, `ne`, `slt`, `ult`, ...); the result is one bit.",
        ..BASE
    },
    OpDef {
        kind: OpKind::CmpF,
        names: &[(Hs, "cmpf"), (Arith, "cmpf")],
        family: Family::Arith,
        eras: EVERY,
        layouts: &[one(EVERY, "cmpf predicate, %lhs, %rhs : T", BINARY_IN, RESULT)],
        typing: Typing::Compare,
        forwards_extras: true,
        doc: "Compares two floats by its predicate (`oeq`, `olt`, `une`, ...); the result is one bit.",
        ..BASE
    },
    OpDef {
        kind: OpKind::NegF,
        names: &[(Hs, "negf"), (Arith, "negf")],
        family: Family::Arith,
        eras: EVERY,
        layouts: &[one(EVERY, "negf %input : T", IN, RESULT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "Negates a float.",
        ..BASE
    },
    OpDef {
        kind: OpKind::AbsF,
        names: &[(Hs, "absf"), (Arith, "absf")],
        family: Family::Arith,
        eras: EVERY,
        layouts: &[one(EVERY, "absf %input : T", IN, RESULT)],
        typing: Typing::Forward,
        forwards_extras: true,
        doc: "The absolute value of a float.",
        ..BASE
    },
    cast!(ExtSI, "extsi", "Widens an integer, copying its sign bit."),
    cast!(ExtUI, "extui", "Widens an integer with zeros."),
    cast!(TruncI, "trunci", "Narrows an integer to its low bits."),
    cast!(ExtF, "extf", "Widens a float."),
    cast!(TruncF, "truncf", "Narrows a float, rounding."),
    cast!(SIToFP, "sitofp", "Converts a signed integer to a float."),
    cast!(UIToFP, "uitofp", "Converts an unsigned integer to a float."),
    cast!(FPToSI, "fptosi", "Converts a float to a signed integer, rounding toward zero."),
    cast!(FPToUI, "fptoui", "Converts a float to an unsigned integer, rounding toward zero."),
    cast!(IndexCast, "index_cast", "Converts between `index` and an integer (sign-extending)."),
    cast!(IndexCastUI, "index_castui", "Converts between `index` and an integer (zero-extending)."),
    cast!(Bitcast, "bitcast", "Reinterprets the bits of a value as another type of the same width."),
    OpDef {
        kind: OpKind::ArithConstant,
        names: &[(Arith, "constant")],
        family: Family::Arith,
        eras: EVERY,
        layouts: &[one(EVERY, "arith.constant V : T", &[], &[p("%value", "value")])],
        typing: Typing::ArithConstant,
        doc: "A constant value, available at all times.",
        ..BASE
    },
    OpDef {
        kind: OpKind::ArithSelect,
        names: &[(Arith, "select")],
        family: Family::Arith,
        eras: EVERY,
        layouts: &[one(EVERY, "arith.select %condition, %true_value, %false_value : T", &[p("%condition", "condition"), p("%true_value", "value if true"), p("%false_value", "value if false")], RESULT)],
        typing: Typing::ArithSelect,
        forwards_extras: true,
        doc: "Picks one of two values by a condition.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Stream,
        names: &[(Dataflow, "stream")],
        family: Family::Loom,
        eras: LOOM,
        layouts: &[one(LOOM, "dataflow.stream %start, %step, %bound {step_op = \"+=\", cont_cond = \"<\"} : (index, index, index) -> (index, i1)", &[p("%start", "start"), p("%step", "step"), p("%bound", "bound")], &[p("%index", "index"), p("%will_continue", "will continue (raw_will_continue)")])],
        typing: Typing::Loom,
        doc: "LOOM: emits the indices of a loop from start by step while the condition against the bound holds, and with each one whether the loop will continue (`raw_will_continue`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::Gate,
        names: &[(Dataflow, "gate")],
        family: Family::Loom,
        eras: LOOM,
        layouts: &[one(LOOM, "dataflow.gate %value, %condition : T, i1 -> T, i1", &[p("%value", "value"), p("%condition", "condition")], &[p("%value_out", "value, final one dropped"), p("%after_cond", "condition after the value (after_cond)")])],
        typing: Typing::Loom,
        doc: "LOOM: drops the final index of a stream and shifts the condition, so the body sees one token per iteration (`after_cond`).",
        ..BASE
    },
    OpDef {
        kind: OpKind::Carry,
        names: &[(Dataflow, "carry")],
        family: Family::Loom,
        eras: LOOM,
        layouts: &[one(LOOM, "dataflow.carry %condition, %initial, %carried : i1, T, T -> T", &[p("%condition", "condition"), p("%initial", "initial value"), p("%carried", "carried value")], &[p("%value", "value of the iteration")])],
        typing: Typing::Loom,
        doc: "LOOM: a loop-carried value: takes the initial value, then the carried one while the condition is true.",
        ..BASE
    },
    OpDef {
        kind: OpKind::Invariant,
        names: &[(Dataflow, "invariant")],
        family: Family::Loom,
        eras: LOOM,
        layouts: &[one(LOOM, "dataflow.invariant %condition, %value : i1, T -> T", &[p("%condition", "condition"), p("%value", "invariant value")], &[p("%repeated", "the value, once per iteration")])],
        typing: Typing::Loom,
        doc: "LOOM: repeats a loop-invariant value for every iteration the condition announces.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineScheduled,
        names: &[(Pl, "scheduled")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.scheduled(%a : T = %x) clock(%clk) reset(%rst) go(%go) entryEn(%en) -> (out : T) { ... }", &[many("%input", "input")], &[many("%output", "output"), p("%done", "done")])],
        single_use: false,
        variadic: true,
        doc: "A scheduled pipeline: its blocks are stages, and values cross a stage boundary through registers or pass-throughs.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineUnscheduled,
        names: &[(Pl, "unscheduled")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.unscheduled(%a : T = %x) ... { ... }", &[many("%input", "input")], &[many("%output", "output"), p("%done", "done")])],
        single_use: false,
        variadic: true,
        doc: "A pipeline before scheduling: one block of ops without stages.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineStage,
        names: &[(Pl, "stage")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.stage ^next regs(%x : T, ...) pass(%y : U, ...)", &[many("%value", "value carried to the next stage")], &[])],
        single_use: false,
        variadic: true,
        doc: "Ends a stage and starts the next: `regs(...)` are registered across the boundary, `pass(...)` go through without a register.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineReturn,
        names: &[(Pl, "return")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.return %x, ... : T, ...", &[many("%result", "result")], &[])],
        single_use: false,
        variadic: true,
        doc: "Ends the last stage and gives the pipeline's results; its `done` result is their valid signal.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineLatency,
        names: &[(Pl, "latency")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.latency N -> (T, ...) { ... }", &[], &[many("%result", "result, ready N stages later")])],
        single_use: false,
        doc: "Computes values that are available only a fixed number of cycles later.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineLatencyReturn,
        names: &[(Pl, "latency.return")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.latency.return %x, ... : T, ...", &[many("%result", "result")], &[])],
        single_use: false,
        variadic: true,
        doc: "Gives the results of a `pipeline.latency` region.",
        ..BASE
    },
    OpDef {
        kind: OpKind::PipelineSrc,
        names: &[(Pl, "src")],
        family: Family::Pipeline,
        eras: CIRCT_ONLY,
        layouts: &[one(CIRCT_ONLY, "pipeline.src %x : T", &[p("%value", "value of an earlier stage")], RESULT)],
        single_use: false,
        doc: "Reads, in a later stage, a value defined in an earlier one (before register materialization).",
        ..BASE
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_kind_order_and_complete() {
        for (i, def) in OPS.iter().enumerate() {
            assert_eq!(def.kind as usize, i, "{:?} is out of place", def.kind);
            assert!(!def.names.is_empty() && !def.doc.is_empty() && !def.layouts.is_empty());
            for era in def.eras {
                assert!(
                    def.layouts.iter().any(|l| l.eras.contains(era)),
                    "{:?} exists in {era:?} but has no layout for it",
                    def.kind
                );
            }
        }
    }

    #[test]
    fn names_resolve_in_every_spelling() {
        assert_eq!(OpKind::from_name("fork"), Some(OpKind::Fork));
        assert_eq!(OpKind::from_name("handshake.fork"), Some(OpKind::Fork));
        assert_eq!(OpKind::from_name("arith.addi"), Some(OpKind::AddI));
        assert_eq!(OpKind::from_name("addi"), Some(OpKind::AddI));
        assert_eq!(OpKind::from_name("arith.select"), Some(OpKind::ArithSelect));
        assert_eq!(OpKind::from_name("select"), Some(OpKind::Select));
        assert_eq!(OpKind::from_name("dataflow.carry"), Some(OpKind::Carry));
        assert_eq!(OpKind::from_name("carry"), None);
        assert_eq!(OpKind::from_name("memref.load"), None);
        assert_eq!(OpKind::Carry.key(), "dataflow.carry");
        assert_eq!(OpKind::ArithConstant.key(), "arith.constant");
        assert_eq!(OpKind::AddI.key(), "addi");
        assert_eq!(OpKind::Carry.def().operand_role(Era::Loom, 1, 3), Some("initial value"));
        assert_eq!(OpKind::Merge.def().operand_role(Era::Circt, 5, 6), Some("input"));
        let load = OpKind::Load.def();
        assert_eq!(load.operand_role(Era::Circt, 1, 4), Some("address"));
        assert_eq!(load.operand_role(Era::Circt, 2, 4), Some("data from memory"));
        assert_eq!(load.operand_role(Era::Circt, 3, 4), Some("control"));
        assert_eq!(load.result_role(Era::Dynamatic2025, 1, 2), Some("data to the circuit"));
    }
}

// ---- attributes --------------------------------------------------------------------------

/// Where an attribute is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrPlace {
    /// In an op's attribute dictionary (or inline, as Dynamatic writes `numSlots = 1`).
    Op,
    /// Inside an op's `hw.parameters = {...}`.
    HwParameters,
}

/// Which ops an attribute belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrOwners {
    /// Every op that is not a function or module.
    AnyOp,
    /// Functions and modules.
    Functions,
    /// These ops.
    Ops(&'static [OpKind]),
}

/// An attribute hsir knows: its key, where it is written, whose it is, a line for completion
/// and what it means for hover.
#[derive(Debug)]
pub struct AttrDef {
    pub key: &'static str,
    pub place: AttrPlace,
    pub owners: AttrOwners,
    /// A few words, for completion.
    pub short: &'static str,
    /// Whether completion offers it (not for other syntaxes of what an offered key says, nor
    /// for what tools write and users do not).
    pub offered: bool,
    /// What it means, a sentence or two, for hover.
    pub doc: &'static str,
}

impl AttrDef {
    /// Whether the attribute belongs to an op of kind `kind` (`None`: an op the table does not
    /// know), a function or module when `function`.
    pub fn belongs_to(&self, kind: Option<OpKind>, function: bool) -> bool {
        match self.owners {
            AttrOwners::AnyOp => !function,
            AttrOwners::Functions => function,
            AttrOwners::Ops(kinds) => kind.is_some_and(|k| kinds.contains(&k)),
        }
    }
}

/// The attributes `op` kinds may carry at `place`, in the table's order (op-specific ones
/// first, then those of every function, then those of every op).
pub fn attributes(
    place: AttrPlace,
    kind: Option<OpKind>,
    function: bool,
) -> impl Iterator<Item = &'static AttrDef> {
    ATTRS.iter().filter(move |a| a.place == place && a.belongs_to(kind, function))
}

/// The attribute `key` at `place` of an op of kind `kind` (a function or module when
/// `function`): the op's own meaning of the key if it has one, else the key's general one.
pub fn attribute(
    key: &str,
    place: AttrPlace,
    kind: Option<OpKind>,
    function: bool,
) -> Option<&'static AttrDef> {
    let key = key.trim().trim_matches('"');
    let same = |a: &&AttrDef| a.key == key && a.place == place;
    attributes(place, kind, function)
        .find(same)
        .or_else(|| ATTRS.iter().find(|a| same(a) && a.owners == AttrOwners::AnyOp))
}

const FLOAT_UNITS: &[OpKind] = &[
    OpKind::AddF,
    OpKind::SubF,
    OpKind::MulF,
    OpKind::DivF,
    OpKind::CmpF,
    OpKind::SIToFP,
    OpKind::UIToFP,
    OpKind::FPToSI,
    OpKind::FPToUI,
    OpKind::ExtF,
    OpKind::TruncF,
];

/// Every attribute hsir explains: op-specific ones first, then functions', then every op's.
pub static ATTRS: &[AttrDef] = &[
    AttrDef {
        key: "INITIAL_TOKEN",
        place: AttrPlace::HwParameters,
        owners: AttrOwners::Ops(&[OpKind::Init]),
        short: "the token the init holds at reset",
        offered: true,
        doc: "The token the `init` holds at reset: it emits this value once, then passes its input's tokens on.",
    },
    AttrDef {
        key: "BUFFER_TYPE",
        place: AttrPlace::HwParameters,
        owners: AttrOwners::Ops(&[OpKind::Buffer, OpKind::Init]),
        short: "one of the six buffer types, as a string",
        offered: true,
        doc: "Which of the six buffer implementations the RTL instantiates (`ONE_SLOT_BREAK_DV`, `ONE_SLOT_BREAK_R`, `ONE_SLOT_BREAK_DVR`, `FIFO_BREAK_DV`, `FIFO_BREAK_NONE`, `SHIFT_REG_BREAK_DV`): what it registers, and so which timing paths it breaks. Dynamatic 2025 did not write it; its backend chose the component from `NUM_SLOTS` and `TIMING`.",
    },
    AttrDef {
        key: "NUM_SLOTS",
        place: AttrPlace::HwParameters,
        owners: AttrOwners::Ops(&[OpKind::Buffer, OpKind::Init]),
        short: "how many tokens the buffer holds (`: ui32`)",
        offered: true,
        doc: "How many tokens the buffer holds at once (`: ui32`). One-slot types must say 1.",
    },
    AttrDef {
        key: "TIMING",
        place: AttrPlace::HwParameters,
        owners: AttrOwners::Ops(&[OpKind::Buffer, OpKind::Init]),
        short: "the latencies, `#handshake<timing {D: _, V: _, R: _}>`",
        offered: true,
        doc: "The buffer's latencies in cycles on the data (`D`), valid (`V`) and ready (`R`) paths, `#handshake<timing {D: 1, V: 1, R: 0}>`; a latency left out is 0. A path with latency is broken (registered) by the buffer.",
    },
    AttrDef {
        key: "hw.parameters",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Buffer, OpKind::Init]),
        short: "the buffer's BUFFER_TYPE, NUM_SLOTS and TIMING",
        offered: true,
        doc: "The parameters of the op's RTL component: for a buffer its `BUFFER_TYPE`, `NUM_SLOTS` and `TIMING` (Dynamatic 2025 wrote `NUM_SLOTS` and `TIMING` only), for an `init` its `INITIAL_TOKEN`.",
    },
    AttrDef {
        key: "bufferType",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Buffer]),
        short: "the buffer's type",
        offered: false,
        doc: "The buffer's type, written inline (`bufferType = ONE_SLOT_BREAK_DV`), as a number of Dynamatic's enum in the generic form, or CIRCT's `#handshake<buffer_type_enum seq|fifo>`.",
    },
    AttrDef {
        key: "numSlots",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Buffer]),
        short: "how many tokens the buffer holds",
        offered: false,
        doc: "How many tokens the buffer holds at once, written inline.",
    },
    AttrDef {
        key: "dvLatency",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Buffer]),
        short: "cycles on the data and valid paths",
        offered: false,
        doc: "The buffer's latency in cycles on the data and valid paths, written inline; it must agree with the type's.",
    },
    AttrDef {
        key: "slots",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Buffer]),
        short: "how many tokens the buffer holds",
        offered: false,
        doc: "CIRCT's generic form of a buffer's slot count (`buffer [N]`).",
    },
    AttrDef {
        key: "initValues",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Buffer]),
        short: "tokens the buffer holds at reset",
        offered: false,
        doc: "CIRCT: the values a `seq` buffer holds at reset, one per slot; the buffer emits them before any input arrives.",
    },
    AttrDef {
        key: "value",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Constant, OpKind::ArithConstant]),
        short: "the constant's value, typed",
        offered: true,
        doc: "The constant's value with its type (`42 : i32`); a Handshake `constant` emits it once per control token it receives.",
    },
    AttrDef {
        key: "predicate",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::CmpI, OpKind::CmpF]),
        short: "the comparison",
        offered: false,
        doc: "The comparison the op makes: for `cmpi` `eq`, `ne`, `slt`, `sle`, `sgt`, `sge`, `ult`, `ule`, `ugt`, `uge`; for `cmpf` the ordered (`o..`) and unordered (`u..`) comparisons, `ord`, `uno`, `true`, `false`. The generic form writes the number of MLIR's enum.",
    },
    AttrDef {
        key: "fpu_impl",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(FLOAT_UNITS),
        short: "which floating-point unit implements the op",
        offered: false,
        doc: "Which floating-point unit implementation Dynamatic instantiates for the op (`flopoco` or `vivado`); it sets the unit's latency and delays.",
    },
    AttrDef {
        key: "fastmath",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(FLOAT_UNITS),
        short: "MLIR's fast-math flags",
        offered: false,
        doc: "MLIR's fast-math flags (`#arith.fastmath<none>`): which IEEE rules the op may relax. The hardware units do not read them.",
    },
    AttrDef {
        key: "id",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Memory, OpKind::ExtMemory]),
        short: "the memory's identifier",
        offered: true,
        doc: "The memory's identifier, which its loads and stores name.",
    },
    AttrDef {
        key: "ld",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Memory, OpKind::ExtMemory]),
        short: "number of load ports",
        offered: true,
        doc: "How many load ports the memory has.",
    },
    AttrDef {
        key: "st",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Memory, OpKind::ExtMemory]),
        short: "number of store ports",
        offered: true,
        doc: "How many store ports the memory has.",
    },
    AttrDef {
        key: "groupSizes",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Lsq]),
        short: "accesses per group",
        offered: true,
        doc: "How many memory accesses each group of the LSQ holds, group by group in program order. A group is the accesses of one basic block; each group's operands are its allocation token, then its accesses.",
    },
    AttrDef {
        key: "connectedBlocks",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::MemController, OpKind::Lsq]),
        short: "the basic blocks whose accesses it serves",
        offered: false,
        doc: "The basic blocks (`handshake.bb` numbers) holding the accesses this memory interface serves.",
    },
    AttrDef {
        key: "step_op",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Stream]),
        short: "how the index steps: \"+=\", \"-=\", ...",
        offered: true,
        doc: "How the stream's index steps from one iteration to the next (`\"+=\"`, `\"-=\"`, `\"*=\"`, ...), by its step operand.",
    },
    AttrDef {
        key: "cont_cond",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::Stream]),
        short: "the comparison that continues the loop: \"<\", \"!=\", ...",
        offered: true,
        doc: "The comparison of the index with the bound that continues the loop (`\"<\"`, `\"!=\"`, ...).",
    },
    AttrDef {
        key: "stallability",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::PipelineScheduled]),
        short: "which stages can stall",
        offered: false,
        doc: "For a pipeline with a `stall` input: one boolean per stage but the last, in stage order, saying whether that stage's registers hold their values while `stall` is high.",
    },
    AttrDef {
        key: "inputNames",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::PipelineScheduled, OpKind::PipelineUnscheduled]),
        short: "names of the pipeline's inputs",
        offered: false,
        doc: "The names of the pipeline's inputs, as strings, for the ports and signals it lowers to.",
    },
    AttrDef {
        key: "outputNames",
        place: AttrPlace::Op,
        owners: AttrOwners::Ops(&[OpKind::PipelineScheduled, OpKind::PipelineUnscheduled]),
        short: "names of the pipeline's outputs",
        offered: false,
        doc: "The names of the pipeline's outputs, as strings.",
    },
    AttrDef {
        key: "argNames",
        place: AttrPlace::Op,
        owners: AttrOwners::Functions,
        short: "names of the arguments, as strings",
        offered: true,
        doc: "The names of the function's arguments, as strings: the port names of its RTL module.",
    },
    AttrDef {
        key: "resNames",
        place: AttrPlace::Op,
        owners: AttrOwners::Functions,
        short: "names of the results, as strings",
        offered: true,
        doc: "The names of the function's results, as strings: the port names of its RTL module.",
    },
    AttrDef {
        key: "handshake.name",
        place: AttrPlace::Op,
        owners: AttrOwners::AnyOp,
        short: "the op's unique name, kept through lowering",
        offered: true,
        doc: "The op's unique name in Dynamatic's IR, kept through every pass: the name of its RTL instance, and how buffer placement, timing reports and simulation traces refer to it.",
    },
    AttrDef {
        key: "handshake.bb",
        place: AttrPlace::Op,
        owners: AttrOwners::AnyOp,
        short: "the basic block the op came from",
        offered: true,
        doc: "The basic block of the source program the op came from (its number). Buffer placement reads it to find the loops (CFDFCs) a channel belongs to; memory interfaces group accesses by it.",
    },
    AttrDef {
        key: "handshake.bufProps",
        place: AttrPlace::Op,
        owners: AttrOwners::AnyOp,
        short: "buffering constraints on its channels",
        offered: false,
        doc: "Dynamatic 2025's buffering constraints on the op's channels, keyed by channel index: the slot bounds buffer placement must respect (two `[min, max]` ranges) and three delays.",
    },
    AttrDef {
        key: "handshake.mem_interface",
        place: AttrPlace::Op,
        owners: AttrOwners::AnyOp,
        short: "which memory interface an access goes through",
        offered: false,
        doc: "Which memory interface a load or store goes through: `MC` (a memory controller) or `LSQ: n` (group n of a load-store queue).",
    },
    AttrDef {
        key: "handshake.deps",
        place: AttrPlace::Op,
        owners: AttrOwners::AnyOp,
        short: "memory dependences of an access",
        offered: false,
        doc: "The memory dependences of a load or store: the accesses (by `handshake.name`) it must be ordered with, at which loop depth, and with which direction vectors.",
    },
];
