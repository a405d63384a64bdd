//! The lowered form of one item (a top-level op: a function, an `hw.module`, a declaration):
//! its ops, values, uses, blocks and regions, with names resolved.
//!
//! Every range in an `Item` is relative to the item's first byte, so an item whose text did not
//! change lowers to an equal `Item` wherever it moved in the file; that is what lets the
//! database keep it across edits elsewhere. `lower` never fails: what it cannot read it leaves
//! out, and problems with names (undefined, redefined, `#N` out of range, use before
//! definition where dominance is required) are recorded as `NameProblem`s for the checks.

use std::borrow::Cow;
use std::hash::BuildHasher;

use hsir_parser::ast::{self, AstNode};
use hsir_parser::{
    SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken, SyntaxTree, TextRange, TextSize,
};

use crate::ops::{Dialect, OpKind};
use crate::types::{self, Type};

pub type OpId = u32;
pub type ValueId = u32;
pub type UseId = u32;
pub type BlockId = u32;
pub type RegionId = u32;

/// A type of an item: an index into its `type_table`, read with `Item::ty`. Each distinct type
/// of the item is there once, so two ids of one item are equal exactly when their types are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeId(u32);

impl TypeId {
    /// Its index in the item's `type_table`.
    pub fn index(self) -> u32 {
        self.0
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Item {
    /// The item's text, exactly: every range and `Str` of the item is relative to its first
    /// byte, and every name is a `Str` into it (`Item::str`).
    pub text: Box<str>,
    pub ops: Vec<OpData>,
    pub values: Vec<ValueData>,
    pub uses: Vec<UseData>,
    pub blocks: Vec<BlockData>,
    pub regions: Vec<RegionData>,
    pub name_problems: Vec<NameProblem>,
    /// What ops and values list, each run a `Span` of one of these arrays.
    pub arrays: Arrays,
    /// The item's types, each once (`TypeId`, `Item::ty`).
    pub type_table: Vec<Type>,
}

/// The item's shared arrays: an op's (or value's) list of some kind is one run of entries in
/// one of them, named by a `Span`, rather than a vector of its own.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Arrays {
    /// Ids: ops' results, operands and regions, values' uses.
    pub ids: Vec<u32>,
    pub result_groups: Vec<ResultGroup>,
    pub types: Vec<TypeEntry>,
    /// The types of the lists among `types` (`TypeEntry::List`, `TypeEntry::Function`).
    pub written: Vec<Written>,
    pub attrs: Vec<Attribute>,
    pub ints: Vec<u64>,
    /// `key = value` entries written in `[...]`.
    pub entries: Vec<(Str, Str)>,
    /// Bare words.
    pub words: Vec<Str>,
}

/// A name: a range of the item's text (relative to its first byte, as the item's ranges are),
/// read with `Item::str`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Str {
    pub start: u32,
    pub len: u32,
}

impl Str {
    /// The name written at `range` (relative to the item).
    pub fn at(range: TextRange) -> Str {
        Str { start: range.start().into(), len: range.len().into() }
    }

    /// Where the name was written, relative to the item.
    pub fn range(self) -> TextRange {
        TextRange::at(self.start.into(), self.len.into())
    }
}

/// A run of entries of one of `Arrays`' arrays: `start .. start + len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    fn of<T>(self, array: &[T]) -> &[T] {
        &array[self.start as usize..(self.start + self.len) as usize]
    }

    /// The span from `start` to the end of an array now `end` long.
    fn to(start: usize, end: usize) -> Span {
        Span { start: start as u32, len: (end - start) as u32 }
    }
}

impl Item {
    /// The type `id` names.
    pub fn ty(&self, id: TypeId) -> &Type {
        &self.type_table[id.0 as usize]
    }

    /// The types of a list of `TypeEntry::List` or `TypeEntry::Function`.
    pub fn written(&self, list: Span) -> &[Written] {
        list.of(&self.arrays.written)
    }

    /// The type a value's definition gives it, when known.
    pub fn value_ty(&self, value: &ValueData) -> Option<&Type> {
        value.ty.map(|id| self.ty(id))
    }

    /// The type a port was written with, when it was.
    pub fn port_ty(&self, port: &Port) -> Option<&Type> {
        port.ty.map(|id| self.ty(id))
    }

    /// The text of a name.
    pub fn str(&self, s: Str) -> &str {
        &self.text[s.start as usize..(s.start + s.len) as usize]
    }

    /// The values `op` defines, in order.
    pub fn results(&self, op: &OpData) -> &[ValueId] {
        op.results.of(&self.arrays.ids)
    }

    /// The uses `op` reads, in text order.
    pub fn operands(&self, op: &OpData) -> &[UseId] {
        op.operands.of(&self.arrays.ids)
    }

    /// The regions `op` holds, in order.
    pub fn op_regions(&self, op: &OpData) -> &[RegionId] {
        op.regions.of(&self.arrays.ids)
    }

    /// Every use of `value`, in text order.
    pub fn value_uses(&self, value: &ValueData) -> &[UseId] {
        value.uses.of(&self.arrays.ids)
    }

    pub fn result_groups(&self, op: &OpData) -> &[ResultGroup] {
        op.result_groups.of(&self.arrays.result_groups)
    }

    /// Types of `op`'s `: ...` list before `to` / `->`.
    pub fn types(&self, op: &OpData) -> &[TypeEntry] {
        op.types.of(&self.arrays.types)
    }

    /// Types of `op` after `to` / `->`.
    pub fn types_after(&self, op: &OpData) -> &[TypeEntry] {
        op.types_after.of(&self.arrays.types)
    }

    pub fn attrs(&self, op: &OpData) -> &[Attribute] {
        op.attrs.of(&self.arrays.attrs)
    }

    pub fn attr(&self, op: &OpData, key: &str) -> Option<&Attribute> {
        self.attrs(op).iter().find(|a| self.str(a.key) == key)
    }

    /// The value's text of `op`'s attribute `key`, whitespace kept.
    pub fn attr_value(&self, op: &OpData, key: &str) -> Option<&str> {
        self.attr(op, key).map(|a| self.str(a.value))
    }

    /// Integers written in `[...]`.
    pub fn bracket_ints(&self, op: &OpData) -> &[u64] {
        op.bracket_ints.of(&self.arrays.ints)
    }

    /// `key = value` entries written in `[...]` (`Item::str`).
    pub fn bracket_entries(&self, op: &OpData) -> &[(Str, Str)] {
        op.bracket_entries.of(&self.arrays.entries)
    }

    /// The value's text of the `key = value` entry written in `[...]`.
    pub fn bracket_entry(&self, op: &OpData, key: &str) -> Option<&str> {
        let entries = self.bracket_entries(op);
        entries.iter().find(|&&(k, _)| self.str(k) == key).map(|&(_, v)| self.str(v))
    }

    /// Bare words among `op`'s parts (`Item::str`).
    pub fn words(&self, op: &OpData) -> &[Str] {
        op.words.of(&self.arrays.words)
    }

    pub fn word(&self, op: &OpData, word: &str) -> bool {
        self.words(op).iter().any(|&w| self.str(w) == word)
    }
}

/// Where a type was written, and what it is (`Item::ty`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub ty: TypeId,
    pub range: TextRange,
}

/// One entry of an op's `: ...` type list. A list's types are a run of `Arrays::written`
/// (`Item::written`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeEntry {
    One(Written),
    /// `[T, U]` (Dynamatic's mux and control_merge).
    List(Span, TextRange),
    /// `(T, U) -> (V)`.
    Function(Span, Span, TextRange),
}

impl TypeEntry {
    pub fn range(&self) -> TextRange {
        match self {
            TypeEntry::One(w) => w.range,
            TypeEntry::List(_, r) | TypeEntry::Function(_, _, r) => *r,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    /// Quotes stripped from a string key (`Item::str`).
    pub key: Str,
    /// The value's text, whitespace kept (`Item::str`).
    pub value: Str,
    pub range: TextRange,
    /// Whether it was written inline (`numSlots = 1`) rather than in a dictionary.
    pub inline: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultGroup {
    pub count: u32,
    /// Where its name (`%x` of `%x:2`) was written.
    pub range: TextRange,
    /// Whether `:N` was written.
    pub explicit_count: bool,
}

impl ResultGroup {
    /// Its name: `%x` of `%x:2` (`Item::str`).
    pub fn name(&self) -> Str {
        Str::at(self.range)
    }
}

/// Where an operand was written among the op's parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// Directly after the name or after a comma.
    Plain,
    /// Inside `[...]`.
    Bracket,
    /// Inside `(...)`.
    Paren,
    /// Inside `keyword(...)` (`Item::str`).
    Keyword(Str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpData {
    /// The name as written, quotes stripped: `fork`, `handshake.fork`, `arith.addi`. The op
    /// table's copy for a name it knows (`OpKind::resolve`), so that most ops allocate none.
    pub name: Cow<'static, str>,
    /// The op the name is in hsir's op table (`OpKind::from_name`, resolved once here).
    pub kind: Option<OpKind>,
    pub range: TextRange,
    pub name_range: TextRange,
    pub generic: bool,
    /// The block holding the op; `None` for the item itself.
    pub block: Option<BlockId>,
    /// The lists below are runs of the item's `Arrays`; read them through `Item`'s accessors
    /// (`item.results(op)`, `item.operands(op)`, ...).
    pub result_groups: Span,
    /// Values (`Arrays::ids`).
    pub results: Span,
    /// Uses (`Arrays::ids`).
    pub operands: Span,
    /// Regions (`Arrays::ids`).
    pub regions: Span,
    /// Types of the `: ...` list before `to` / `->`.
    pub types: Span,
    /// Types after `to` / `->`.
    pub types_after: Span,
    pub attrs: Span,
    /// Integers written in `[...]`: `fork [3]`, `buffer [2]`.
    pub bracket_ints: Span,
    /// `key = value` entries written in `[...]`: `memory [ld = 1, st = 0]`.
    pub bracket_entries: Span,
    /// Bare words among the op's parts: `seq`, `slt`, `private`.
    pub words: Span,
    /// The first `@symbol` of the op (a callee or the op's own name; `Item::str`).
    pub symbol: Option<Str>,
    /// For function-like ops: the signature.
    pub signature: Option<Box<Signature>>,
    /// Whether the op's own syntax (outside its regions) has an error: junk, or a group left
    /// unclosed. Its signature is not checked; the syntax error says what is wrong.
    pub broken: bool,
}

impl OpData {
    /// The name without a `handshake.` prefix.
    pub fn short_name(&self) -> &str {
        self.name.strip_prefix(Dialect::Handshake.prefix()).unwrap_or(&self.name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub name: Option<(String, TextRange)>,
    pub args: Vec<Port>,
    pub results: Vec<Port>,
    /// A declaration: no body.
    pub external: bool,
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// `Item::port_ty`.
    pub ty: Option<TypeId>,
    pub range: TextRange,
    /// The `%arg` value, for arguments of a function with a body.
    pub value: Option<ValueId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Def {
    /// Argument `n` of a block (function arguments are the entry block's).
    Arg { block: BlockId, n: u32 },
    /// Result `n` of an op.
    Result { op: OpId, n: u32 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueData {
    /// The index in its group.
    pub index: u32,
    pub def: Def,
    /// The type its definition gives it, when known (`Item::value_ty`).
    pub ty: Option<TypeId>,
    /// Where the name was written.
    pub range: TextRange,
    /// Every use, in text order (`Item::value_uses`).
    pub uses: Span,
}

impl ValueData {
    /// The group name, written at `range`: `%0` for `%0#1` (`Item::str`).
    pub fn name(&self) -> Str {
        Str::at(self.range)
    }

    /// `%x` or `%x#N`, as a use would write it.
    pub fn display(&self, item: &Item, group_len: u32) -> String {
        let mut out = String::new();
        self.push_display(item, group_len, &mut out);
        out
    }

    /// Appends `display`'s text to `out`, for a message that names many values.
    pub fn push_display(&self, item: &Item, group_len: u32, out: &mut String) {
        out.push_str(item.str(self.name()));
        if group_len > 1 {
            use std::fmt::Write;
            // Writing to a `String` cannot fail.
            let _ = write!(out, "#{}", self.index);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UseData {
    /// Where it was written.
    pub range: TextRange,
    pub op: OpId,
    pub container: Container,
    pub value: Option<ValueId>,
}

impl UseData {
    /// The text as written, at `range`: `%x#1` (`Item::str`).
    pub fn text(&self) -> Str {
        Str::at(self.range)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockData {
    pub region: RegionId,
    /// `^bb0` (`Item::str`).
    pub label: Option<Str>,
    pub args: Vec<ValueId>,
    pub ops: Vec<OpId>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// Ops may use values defined later (`handshake.func`, `hw.module`, pipelines).
    Graph,
    /// Definitions must dominate uses (`func.func` and the rest of MLIR).
    Dominance,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionData {
    pub owner: OpId,
    pub blocks: Vec<BlockId>,
    pub kind: RegionKind,
    /// The enclosing region; `None` at the item's own regions and below isolated ops.
    pub parent: Option<RegionId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameProblem {
    Undefined { use_: UseId },
    Redefined { range: TextRange, name: String, first: TextRange },
    IndexOutOfRange { use_: UseId, len: u32 },
    UsedBeforeDefined { use_: UseId },
}

/// Whether ops named `name` start a new name scope (MLIR's IsolatedFromAbove). Pipelines are
/// not isolated: their stages may read the enclosing module's values.
fn isolated(name: &str, has_signature: bool) -> bool {
    has_signature || matches!(name, "module" | "builtin.module")
}

/// Whether the regions of ops named `owner` are graph regions (no dominance, so forward
/// references are allowed) or SSACFG regions, or as the enclosing region's: the one place
/// that decides it.
fn region_kind(owner: &str, owner_kind: Option<OpKind>, enclosing: RegionKind) -> RegionKind {
    let graph = owner_kind == Some(OpKind::Func)
        || owner == "fabric.module"
        || owner.starts_with("hw.module")
        || owner.starts_with(Dialect::Pipeline.prefix())
        || owner.starts_with("sv.")
        || owner.starts_with("kanagawa.")
        || owner.starts_with("esi.")
        || owner == "module"
        || owner == "builtin.module";
    if graph {
        RegionKind::Graph
    } else if owner.starts_with("func.")
        || owner.starts_with("scf.")
        || owner.starts_with("affine.")
        || owner.starts_with("cf.")
    {
        RegionKind::Dominance
    } else {
        enclosing
    }
}

/// Ops of other dialects whose regions are dataflow circuits, where Handshake ops may appear:
/// LOOM's function units and Kanagawa's dataflow methods. With `handshake.func`, the one list
/// of them (`is_dataflow_owner`).
const OTHER_DATAFLOW_OWNERS: &[&str] = &["fabric.function_unit", "kanagawa.method.df"];

/// Whether the regions of `op` are dataflow circuits.
fn is_dataflow_owner(op: &OpData) -> bool {
    OpKind::of(op) == Some(OpKind::Func) || OTHER_DATAFLOW_OWNERS.contains(&&*op.name)
}

/// Whether `op` lies in a region of a dataflow owner (`is_dataflow_owner`), at any depth.
pub fn in_dataflow_region(item: &Item, op: OpId) -> bool {
    let mut block = item.ops[op as usize].block;
    while let Some(b) = block {
        let owner = &item.ops[item.regions[item.blocks[b as usize].region as usize].owner as usize];
        if is_dataflow_owner(owner) {
            return true;
        }
        block = owner.block;
    }
    false
}

/// Lowers one item. `op` is its node; ranges become relative to its start.
pub fn lower(op: ast::Op<'_>) -> Item {
    lower_noting_types(op, &mut Vec::new())
}

/// `lower`, noting in `typed` (preorder positions, in order) the `TYPE` nodes of the op that
/// have nodes below them: the only ones `check_types::type_diagnostics_of` needs to read, found
/// in the walk that sizes the arrays rather than in a walk of its own.
pub(crate) fn lower_noting_types(op: ast::Op<'_>, typed: &mut Vec<u32>) -> Item {
    let range = op.syntax().text_range();
    let mut lowerer = Lowerer {
        base: range.start(),
        item: Item { text: op.syntax().tree().text()[range].into(), ..Item::default() },
        scopes: Vec::new(),
        region_args: Vec::new(),
        type_texts: Vec::new(),
        type_ids: Default::default(),
        names: [None; NAME_SLOTS],
        frames: Vec::new(),
        region_nodes: Vec::new(),
        spare: Vec::new(),
    };
    // The arrays' sizes, known from the tree in advance, so that they grow once: how many
    // nodes of each kind the item has.
    let mut counts = [0u32; SyntaxKind::NODE_END as usize + 1];
    for (index, kind, inner) in op.syntax().descendant_kinds() {
        counts[kind as usize] += 1;
        if kind == SyntaxKind::TYPE && inner {
            typed.push(index);
        }
    }
    let count = |kind: SyntaxKind| counts[kind as usize] as usize;
    let (ops, results) = (count(SyntaxKind::OP), count(SyntaxKind::RESULT));
    let (operands, types) = (count(SyntaxKind::OPERAND), count(SyntaxKind::TYPE));
    let item = &mut lowerer.item;
    item.ops.reserve_exact(ops);
    // A result list may bind several values (`%x:2`).
    item.values.reserve(results + results / 2);
    item.uses.reserve_exact(operands);
    item.arrays.ids.reserve(results + 2 * operands);
    item.arrays.result_groups.reserve_exact(results);
    item.arrays.types.reserve(types);
    // The scope that will hold most names: the item's own when it is not isolated, else the
    // first isolated op's (a function's), which takes it from `spare`.
    let mut scope = Scope::default();
    scope.defs.reserve(results);
    scope.grow(results);
    scope.pending.reserve(operands);
    let top_isolated = isolated(
        op.name().unwrap_or(""),
        op.syntax().children().any(|n| n.kind() == SyntaxKind::FUNC_SIGNATURE),
    );
    if top_isolated {
        lowerer.spare.push(scope);
        lowerer.scopes.push(Scope::default());
    } else {
        lowerer.scopes.push(scope);
    }
    lowerer.op(op, None, None, RegionKind::Dominance);
    let scope = lowerer.scopes.pop().unwrap_or_default();
    lowerer.resolve(&scope);
    lowerer.value_uses();
    lowerer.item
}

/// One definition of a name in a scope: its region and its group's values (`first ..
/// first + count`, contiguous ids); `next` chains the definitions whose names' hashes fall in
/// one bucket of `Scope::heads`.
struct Definition {
    name: Str,
    /// The hash of the name's text.
    hash: u64,
    region: RegionId,
    first: ValueId,
    count: u32,
    next: u32,
}

const NO_DEFINITION: u32 = u32::MAX;

impl Scope {
    /// The first definition of the chain of `hash`'s bucket.
    fn head(&self, hash: u64) -> u32 {
        match self.heads.len() {
            0 => NO_DEFINITION,
            len => self.heads[hash as usize & (len - 1)],
        }
    }

    /// Makes room for `more` definitions: the buckets stay at least twice as many as the
    /// definitions, and are chained again when they grow.
    fn grow(&mut self, more: usize) {
        let want = 2 * (self.defs.len() + more);
        if want <= self.heads.len() {
            return;
        }
        let len = want.next_power_of_two().max(16);
        self.heads.clear();
        self.heads.resize(len, NO_DEFINITION);
        for (i, d) in self.defs.iter_mut().enumerate() {
            let bucket = &mut self.heads[d.hash as usize & (len - 1)];
            d.next = *bucket;
            *bucket = i as u32;
        }
    }

    /// Empties the scope, keeping its memory.
    fn clear(&mut self) {
        self.defs.clear();
        self.heads.fill(NO_DEFINITION);
        self.pending.clear();
    }

    /// Adds `d` at the head of its bucket's chain.
    fn insert(&mut self, mut d: Definition) {
        self.grow(1);
        let bucket = d.hash as usize & (self.heads.len() - 1);
        d.next = self.heads[bucket];
        self.heads[bucket] = self.defs.len() as u32;
        self.defs.push(d);
    }

    /// The definition in `region` among the chain from `head` whose name has `hash` and is
    /// one `same` accepts.
    fn find(
        &self,
        head: u32,
        hash: u64,
        region: RegionId,
        same: impl Fn(Str) -> bool,
    ) -> Option<&Definition> {
        let mut at = head;
        while at != NO_DEFINITION {
            let d = &self.defs[at as usize];
            if d.hash == hash && d.region == region && same(d.name) {
                return Some(d);
            }
            at = d.next;
        }
        None
    }
}

#[derive(Default)]
struct Scope {
    /// The definitions, chained by the hash of their name (`heads`: a power of two of buckets,
    /// each the last definition whose hash falls in it), so that defining a name
    /// allocates nothing of its own.
    defs: Vec<Definition>,
    heads: Vec<u32>,
    /// Uses to resolve when the scope closes, with the region they are in.
    pending: Vec<(UseId, Option<RegionId>)>,
}

struct Lowerer {
    base: TextSize,
    item: Item,
    scopes: Vec<Scope>,
    /// Arguments of an op's first region written among its parts, found while reading them,
    /// in text order: `REGION_ARG`s (`scf.for %i = ...`, `iter_args(%acc = %init)`), and
    /// `%x : T` in the parentheses of a region-holding op of another dialect whose entry block
    /// has no label (`kanagawa.method @f(%a: i32)`, `kanagawa.sblock (%x : i32 = %outer)`).
    region_args: Vec<(Str, Option<TypeId>)>,
    /// Types read so far (`written`), by their token's kind and text, or `TYPE` and the
    /// node's text: a few.
    type_texts: Vec<(SyntaxKind, Box<[u8]>, TypeId)>,
    /// The item's types by their value, once it has more than `MAX_SCANNED_TYPES` (`intern`).
    type_ids: rustc_hash::FxHashMap<Type, TypeId>,
    /// Op names resolved so far (`resolve_name`), by `name_slot`.
    names: [Option<(&'static str, OpKind)>; NAME_SLOTS],
    /// `parts`' stack of the groups open around its position, kept to reuse its memory.
    frames: Vec<(u32, Container, Filter)>,
    /// The regions of the ops being lowered (preorder positions of `REGION` nodes): each op's
    /// run, pushed by `parts`, is taken off when its regions are lowered.
    region_nodes: Vec<u32>,
    /// Scopes to reuse (empty), so that an isolated op's scope does not grow from nothing.
    spare: Vec<Scope>,
}

/// What `Lowerer::op` needs of what `Lowerer::parts` read, besides the op it pushed: its name
/// (quotes stripped), whether it is in the generic form, and its signature.
struct Parts<'t> {
    name: &'t str,
    generic: bool,
    signature_node: Option<ast::FuncSignature<'t>>,
}

/// Whether `%x : T` in the parentheses of `op` binds an argument of its first region: the op
/// holds regions, has no signature, and its entry block has no label (a labelled entry block
/// names its own arguments: `scf.reduce(%v : f32) { ^bb0(%l: f32, %r: f32): ...`, where
/// `%v : f32` is an operand).
fn binds_region_args(op: SyntaxNode<'_>) -> bool {
    let holds_regions = op.children().any(|n| n.kind() == SyntaxKind::REGION);
    let signature = op.children().any(|n| n.kind() == SyntaxKind::FUNC_SIGNATURE);
    let entry_labelled = || {
        let regions = ast::Op::cast(op).map(|o| o.regions()).unwrap_or_default();
        regions.first().and_then(|r| r.blocks().next()).is_some_and(|b| b.label().is_some())
    };
    holds_regions && !signature && !entry_labelled()
}

/// Which children of a group `Lowerer::parts` reads; the others it steps over.
#[derive(Clone, Copy)]
enum Filter {
    All,
    AttrEntries,
    FuncAttributes,
    NotTypes,
}

/// The first token of `kind` below `node`, in text order, trivia left out.
fn first_token_below<'t>(node: SyntaxNode<'t>, kind: SyntaxKind) -> Option<SyntaxToken<'t>> {
    for element in node.grammar_children() {
        match element {
            SyntaxElement::Token(t) if t.kind() == kind => return Some(t),
            SyntaxElement::Token(_) => {}
            SyntaxElement::Node(n) => {
                if let Some(t) = first_token_below(n, kind) {
                    return Some(t);
                }
            }
        }
    }
    None
}

const NO_REGION: RegionId = u32::MAX;

/// How many types `Lowerer::written` remembers by their text.
const MAX_TYPE_TEXTS: usize = 16;

/// Up to how many types `Lowerer::intern` looks up one by one.
const MAX_SCANNED_TYPES: usize = 32;

/// The slots of `Lowerer::names`, a power of two.
const NAME_SLOTS: usize = 64;

/// The slot of `Lowerer::names` for an op name: from its length and its first and last bytes.
fn name_slot(name: &str) -> usize {
    let bytes = name.as_bytes();
    let (first, last) = (bytes.first().copied().unwrap_or(0), bytes.last().copied().unwrap_or(0));
    (bytes.len().wrapping_mul(31) ^ usize::from(first).wrapping_mul(7) ^ usize::from(last))
        & (NAME_SLOTS - 1)
}

/// The group name and index of a use's text (a `VALUE_ID`): `%x#1` is `%x` and 1, `%x` is `%x`
/// and 0, and an index that is not a number is `u32::MAX`.
fn split_use(text: &[u8]) -> (&[u8], u32) {
    // A `VALUE_ID` has at most one `#`, right before its trailing digits: look only there.
    let mut at = text.len();
    while at > 0 && text[at - 1].is_ascii_digit() {
        at -= 1;
    }
    if at == 0 || text[at - 1] != b'#' {
        return (text, 0);
    }
    let hash = at - 1;
    let (name, digits) = (&text[..hash], &text[hash + 1..]);
    // Up to nine digits (all of them are) cannot overflow; anything else is read by `parse`.
    if (1..=9).contains(&digits.len()) {
        let index = digits.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0'));
        return (name, index);
    }
    // Text after an ASCII `#` is still UTF-8.
    let index = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<u32>().ok());
    (name, index.unwrap_or(u32::MAX))
}

/// A value named at `range`, added to `values`.
fn new_value(
    values: &mut Vec<ValueData>,
    index: u32,
    def: Def,
    ty: Option<TypeId>,
    range: TextRange,
) -> ValueId {
    let id = values.len() as ValueId;
    values.push(ValueData { index, def, ty, range, uses: Span::default() });
    id
}

/// `a == b`, byte by byte: the names and types compared in lowering are a few bytes long,
/// for which a call to `memcmp` costs more than the comparison.
fn same_text(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The hash of a name's text, by which a scope chains its definitions.
fn name_hash(name: &[u8]) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

impl Lowerer {
    fn rel(&self, range: TextRange) -> TextRange {
        // The ranges of an op lie in it: only a range before the item is the empty default.
        let (start, end) = (u32::from(range.start()), u32::from(range.end()));
        match start.checked_sub(self.base.into()) {
            Some(s) => TextRange::new(s.into(), (end - u32::from(self.base)).into()),
            None => TextRange::default(),
        }
    }

    /// `OpKind::resolve`, remembering the names it found in `names`.
    fn resolve_name(&mut self, name: &str) -> Option<(OpKind, &'static str)> {
        let slot = name_slot(name);
        if let Some((known, kind)) = self.names[slot] {
            if same_text(known.as_bytes(), name.as_bytes()) {
                return Some((kind, known));
            }
        }
        let resolved = OpKind::resolve(name);
        if let Some((kind, known)) = resolved {
            self.names[slot] = Some((known, kind));
        }
        resolved
    }

    /// The type `node` spells, interned, and where it was written. The types read here are
    /// remembered by their text (a few), since one item mostly writes a few types many times;
    /// their problems are not kept (`check_types` reports them).
    fn written(&mut self, node: SyntaxNode<'_>) -> Written {
        let tree = node.tree();
        // A type of one token (`i32`, `none`) is keyed by the token, any other by its text.
        let span = node.grammar_token_span();
        let one_token = node.subtree_end() == node.index() + 1 && span.end == span.start + 1;
        let (kind, key) = if one_token {
            (tree.grammar_token_kind(span.start), tree.grammar_token_range(span.start))
        } else {
            (SyntaxKind::TYPE, node.text_range())
        };
        let bytes = &tree.text().as_bytes()[usize::from(key.start())..usize::from(key.end())];
        let seen = self.type_texts.iter().find(|(k, t, _)| *k == kind && same_text(t, bytes));
        if let Some(&(_, _, id)) = seen {
            // As `types::lower_ranged` gives it: a token's range for a one-word type.
            let range = if one_token && !matches!(bytes, b"channel" | b"control") {
                key
            } else {
                node.text_range()
            };
            return Written { ty: id, range: self.rel(range) };
        }
        let (ty, range) = types::lower_ranged(node, &mut Vec::new());
        let id = self.intern(ty);
        if self.type_texts.len() < MAX_TYPE_TEXTS {
            self.type_texts.push((kind, bytes.into(), id));
        }
        Written { ty: id, range: self.rel(range) }
    }

    /// The id of `ty` in the item's type table, added if it is new.
    fn intern(&mut self, ty: Type) -> TypeId {
        let table = &mut self.item.type_table;
        // Most items have a few types: looked up one by one, until there are many.
        if table.len() <= MAX_SCANNED_TYPES {
            if let Some(at) = table.iter().position(|t| *t == ty) {
                return TypeId(at as u32);
            }
        } else if let Some(&id) = self.type_ids.get(&ty) {
            return id;
        }
        let id = TypeId(table.len() as u32);
        table.push(ty);
        if table.len() > MAX_SCANNED_TYPES {
            if self.type_ids.is_empty() {
                let ids = table.iter().enumerate().map(|(i, t)| (t.clone(), TypeId(i as u32)));
                self.type_ids.extend(ids);
            } else {
                self.type_ids.insert(table[table.len() - 1].clone(), id);
            }
        }
        id
    }

    fn entry(&mut self, node: SyntaxNode<'_>) -> Option<TypeEntry> {
        match node.kind() {
            // Mostly a type without nodes below it: no function type.
            SyntaxKind::TYPE if node.subtree_end() == node.index() + 1 => {
                Some(TypeEntry::One(self.written(node)))
            }
            SyntaxKind::TYPE => {
                if let Some(function) =
                    node.children().find(|n| n.kind() == SyntaxKind::FUNCTION_TYPE)
                {
                    // The inputs, then the outputs: two runs of `Arrays::written`.
                    let start = self.item.arrays.written.len();
                    let mut arrow = None;
                    for element in function.grammar_children() {
                        match element.kind() {
                            SyntaxKind::ARROW => {
                                arrow.get_or_insert(self.item.arrays.written.len());
                            }
                            SyntaxKind::TYPE => {
                                let Some(n) = element.into_node() else { continue };
                                let w = self.written(n);
                                self.item.arrays.written.push(w);
                            }
                            _ => {}
                        }
                    }
                    let end = self.item.arrays.written.len();
                    let arrow = arrow.unwrap_or(end);
                    let (ins, outs) = (Span::to(start, arrow), Span::to(arrow, end));
                    return Some(TypeEntry::Function(ins, outs, self.rel(node.text_range())));
                }
                Some(TypeEntry::One(self.written(node)))
            }
            SyntaxKind::BRACKET_TYPE_LIST => {
                let start = self.item.arrays.written.len();
                for n in node.children().filter(|n| n.kind() == SyntaxKind::TYPE) {
                    let w = self.written(n);
                    self.item.arrays.written.push(w);
                }
                let list = Span::to(start, self.item.arrays.written.len());
                Some(TypeEntry::List(list, self.rel(node.text_range())))
            }
            _ => None,
        }
    }

    /// The name written at `range` (of the tree's text).
    fn name(&self, range: TextRange) -> Str {
        Str::at(self.rel(range))
    }

    /// Defines `name` in `region` as the values `first .. first + count`.
    fn define(&mut self, region: RegionId, name: Str, first: ValueId, count: u32) {
        let scope = self.scopes.last_mut().expect("a scope is open");
        let Item { text, name_problems, regions, .. } = &mut self.item;
        let bytes = |s: Str| &text.as_bytes()[s.start as usize..(s.start + s.len) as usize];
        let hash = name_hash(bytes(name));
        let head = scope.head(hash);
        // A name may be defined once per region and its enclosing regions of the scope.
        let mut r = (region != NO_REGION).then_some(region);
        loop {
            let here = r.unwrap_or(NO_REGION);
            if let Some(d) = scope.find(head, hash, here, |s| same_text(bytes(s), bytes(name))) {
                name_problems.push(NameProblem::Redefined {
                    range: name.range(),
                    name: text[name.start as usize..(name.start + name.len) as usize].to_string(),
                    first: d.name.range(),
                });
                return;
            }
            match r {
                Some(current) => r = regions[current as usize].parent,
                None => break,
            }
        }
        scope.insert(Definition { name, hash, region, first, count, next: NO_DEFINITION });
    }

    /// Lowers `op` into `block` (None for the item), in `region` (NO_REGION at the top).
    fn op(
        &mut self,
        op: ast::Op<'_>,
        block: Option<BlockId>,
        region: Option<RegionId>,
        enclosing: RegionKind,
    ) -> OpId {
        let id = self.item.ops.len() as OpId;
        let syntax = op.syntax();
        let regions_start = self.region_nodes.len();
        let Parts { name, generic, signature_node } = self.parts(syntax, id, block, region);
        let regions_end = self.region_nodes.len();
        let (groups, kind) = {
            let data = &self.item.ops[id as usize];
            (data.result_groups, data.kind)
        };

        // Results are values of the enclosing region, but their names are bound after the op's
        // own regions, as MLIR's parser does: a nested region may reuse them.
        let first_result = self.item.values.len() as ValueId;
        let Item { values, arrays, .. } = &mut self.item;
        let results_start = arrays.ids.len();
        let mut n = 0;
        for group in groups.of(&arrays.result_groups) {
            for index in 0..group.count {
                let v = new_value(values, index, Def::Result { op: id, n }, None, group.range);
                arrays.ids.push(v);
                n += 1;
            }
        }
        let results_end = arrays.ids.len();
        let holds_regions = regions_start != regions_end;
        let data = &mut self.item.ops[id as usize];
        data.results = Span::to(results_start, results_end);
        if !holds_regions {
            // Nothing is pushed on `Arrays::ids` below for an op without regions.
            data.regions = Span::to(results_end, results_end);
        }
        if let Some(b) = block {
            self.item.blocks[b as usize].ops.push(id);
        }
        let region_args = std::mem::take(&mut self.region_args);

        let is_isolated = isolated(name, signature_node.is_some());
        if is_isolated {
            let scope = self.spare.pop().unwrap_or_default();
            self.scopes.push(scope);
        }
        // Only an op that holds regions needs to know their kind.
        let kind = if holds_regions { region_kind(name, kind, enclosing) } else { enclosing };
        let mut first_region = true;
        let mut entry_block_of_first = None;
        let mut region_ids = Vec::new();
        for at in regions_start..regions_end {
            let Some(region_node) =
                syntax.tree().node_at(self.region_nodes[at]).and_then(ast::Region::cast)
            else {
                continue;
            };
            let rid = self.item.regions.len() as RegionId;
            self.item.regions.push(RegionData {
                owner: id,
                blocks: Vec::new(),
                kind,
                parent: if is_isolated { None } else { region },
            });
            region_ids.push(rid);
            let mut blocks = region_node.blocks().peekable();
            if blocks.peek().is_none() && first_region {
                // An empty body still holds the function's arguments and the values the op
                // binds (`scf.for %i = %a to %b step %c {}`).
                let bid = self.new_block(rid, None);
                entry_block_of_first = Some(bid);
                for (name, ty) in &region_args {
                    self.block_arg(bid, rid, *name, *ty);
                }
            }
            for (i, block_node) in blocks.enumerate() {
                let label = block_node.label();
                let bid = self.new_block(
                    rid,
                    label.and_then(|l| l.name()).map(|t| self.name(t.text_range())),
                );
                if i == 0 && first_region {
                    entry_block_of_first = Some(bid);
                    // Function arguments and pipeline inner values belong to the entry block.
                    self.entry_values(op, signature_node, bid, rid);
                    for (name, ty) in &region_args {
                        self.block_arg(bid, rid, *name, *ty);
                    }
                }
                if let Some(label) = label {
                    for arg in label.args() {
                        let Some(token) = arg.name() else { continue };
                        let ty = arg.ty().map(|t| self.written(t.syntax()).ty);
                        let name = self.name(token.text_range());
                        self.block_arg(bid, rid, name, ty);
                    }
                }
                for inner in block_node.ops() {
                    self.op(inner, Some(bid), Some(rid), kind);
                }
            }
            first_region = false;
        }
        if holds_regions {
            self.region_nodes.truncate(regions_start);
            let ids_start = self.item.arrays.ids.len();
            self.item.arrays.ids.extend(region_ids);
            self.item.ops[id as usize].regions = Span::to(ids_start, self.item.arrays.ids.len());
        }
        if let Some(sig) = signature_node {
            let signature = self.signature(sig, entry_block_of_first);
            self.item.ops[id as usize].signature = Some(Box::new(signature));
        } else if generic {
            let signature = self.generic_signature(id, entry_block_of_first);
            self.item.ops[id as usize].signature = signature.map(Box::new);
        }
        if is_isolated {
            let mut scope = self.scopes.pop().unwrap_or_default();
            self.resolve(&scope);
            scope.clear();
            self.spare.push(scope);
        }
        let mut first = first_result;
        for g in groups.start..groups.start + groups.len {
            let group = &self.item.arrays.result_groups[g as usize];
            let (group_name, count) = (group.name(), group.count);
            self.define(region.unwrap_or(NO_REGION), group_name, first, count);
            first += count;
        }
        id
    }

    fn new_block(&mut self, region: RegionId, label: Option<Str>) -> BlockId {
        let bid = self.item.blocks.len() as BlockId;
        self.item.blocks.push(BlockData { region, label, args: Vec::new(), ops: Vec::new() });
        self.item.regions[region as usize].blocks.push(bid);
        bid
    }

    /// Adds an argument named `name` to `block` of `region`.
    fn block_arg(&mut self, block: BlockId, region: RegionId, name: Str, ty: Option<TypeId>) {
        let n = self.item.blocks[block as usize].args.len() as u32;
        let v = new_value(&mut self.item.values, 0, Def::Arg { block, n }, ty, name.range());
        self.item.blocks[block as usize].args.push(v);
        self.define(region, name, v, 1);
    }

    /// Values an op defines for its body: function arguments, pipeline inputs and `entryEn`.
    fn entry_values(
        &mut self,
        op: ast::Op<'_>,
        signature: Option<ast::FuncSignature<'_>>,
        block: BlockId,
        region: RegionId,
    ) {
        if let Some(sig) = signature {
            for arg in sig.args() {
                let Some(token) = arg.name() else { continue };
                if token.kind() != SyntaxKind::VALUE_ID {
                    continue;
                }
                if arg.direction().is_some_and(|d| d.text() == "out") {
                    continue;
                }
                let ty = arg.ty().map(|t| self.written(t.syntax()).ty);
                let name = self.name(token.text_range());
                self.block_arg(block, region, name, ty);
            }
        }
        for input in op.pipeline_inputs() {
            let Some(token) = input.inner() else { continue };
            let ty = input.ty().map(|t| self.written(t.syntax()).ty);
            let name = self.name(token.text_range());
            self.block_arg(block, region, name, ty);
        }
        for group in op.keyword_groups() {
            if group.keyword() != Some("entryEn") {
                continue;
            }
            for token in group.syntax().descendants_with_tokens().filter_map(|e| e.into_token()) {
                if token.kind() != SyntaxKind::VALUE_ID {
                    continue;
                }
                let name = self.name(token.text_range());
                let i1 = Type::Int { width: 1, signedness: types::Signedness::Signless };
                let ty = Some(self.intern(i1));
                self.block_arg(block, region, name, ty);
            }
        }
    }

    fn signature(&mut self, sig: ast::FuncSignature<'_>, entry: Option<BlockId>) -> Signature {
        let entry_args: Vec<ValueId> =
            entry.map(|b| self.item.blocks[b as usize].args.clone()).unwrap_or_default();
        let mut args = Vec::new();
        let mut named = 0;
        let mut external = true;
        for arg in sig.args() {
            if arg.is_variadic_marker() {
                continue;
            }
            if arg.direction().is_some_and(|d| d.text() == "out") {
                continue;
            }
            let is_named = arg.name().is_some_and(|t| t.kind() == SyntaxKind::VALUE_ID);
            let value = if is_named {
                external = false;
                let v = entry_args.get(named).copied();
                named += 1;
                v
            } else {
                None
            };
            args.push(Port {
                ty: arg.ty().map(|t| self.written(t.syntax()).ty),
                range: self.rel(arg.syntax().text_range()),
                value,
            });
        }
        let mut results: Vec<Port> = sig
            .results()
            .into_iter()
            .map(|r| Port {
                ty: r.ty().map(|t| self.written(t.syntax()).ty),
                range: self.rel(r.syntax().text_range()),
                value: None,
            })
            .collect();
        // `hw.module` output ports are results.
        for arg in sig.args() {
            if arg.direction().is_some_and(|d| d.text() == "out") {
                results.push(Port {
                    ty: arg.ty().map(|t| self.written(t.syntax()).ty),
                    range: self.rel(arg.syntax().text_range()),
                    value: None,
                });
            }
        }
        let name = sig.name().map(|t| (t.text().to_string(), self.rel(t.text_range())));
        Signature {
            name,
            args,
            results,
            external: external && entry.is_none(),
            range: self.rel(sig.syntax().text_range()),
        }
    }

    /// The signature of a function in MLIR's generic form (`"handshake.func"() ({...})
    /// {sym_name = "f", function_type = (i32, none) -> (i32, none)}`): its name from
    /// `sym_name`, its arguments from the entry block's, its results from `function_type`
    /// (builtin types; others untyped). `None` for ops without both attributes.
    fn generic_signature(&mut self, id: OpId, entry: Option<BlockId>) -> Option<Signature> {
        let op = &self.item.ops[id as usize];
        let name = self.item.attr(op, "sym_name")?;
        let function_type = self.item.attr(op, "function_type")?;
        let symbol = format!("@{}", self.item.str(name.value).trim().trim_matches('"'));
        let name_range = name.range;
        let args = entry
            .map(|b| self.item.blocks[b as usize].args.clone())
            .unwrap_or_default()
            .into_iter()
            .map(|v| {
                let value = &self.item.values[v as usize];
                Port { ty: value.ty, range: value.range, value: Some(v) }
            })
            .collect();
        let range = function_type.range;
        let results: Vec<Option<Type>> = function_results(self.item.str(function_type.value))
            .into_iter()
            .map(types::builtin)
            .collect();
        let results = results
            .into_iter()
            .map(|ty| Port { ty: ty.map(|ty| self.intern(ty)), range, value: None })
            .collect();
        Some(Signature {
            name: Some((symbol, name_range)),
            args,
            results,
            external: entry.is_none(),
            range,
        })
    }

    /// Operands (used in `use_region`, the op's own region), types, attributes and the other
    /// written parts of `op` (not its regions), and the regions it holds: the `REGION` nodes below it outside other regions, in text order
    /// (what `ast::Op::regions` finds), pushed on `region_nodes`.
    ///
    /// One walk over the op's nodes in preorder (`index + 1 .. subtree_end`). A node read whole
    /// (an operand, a type list, an attribute entry) or left out is stepped over with its
    /// subtree, in which only regions are looked for; a group's children are read with the
    /// group's container, kept on a stack of the groups open around the position. The op's own
    /// tokens (its bare words and symbols) are read between its direct children.
    fn parts<'t>(
        &mut self,
        syntax: SyntaxNode<'t>,
        id: OpId,
        block: Option<BlockId>,
        use_region: Option<RegionId>,
    ) -> Parts<'t> {
        let mut name_node = None;
        let mut signature_node = None;
        // Whether `%x : T` in parentheses binds an argument of the op's first region: asked
        // when such an operand is met.
        let mut region_args = None;
        let groups_start = self.item.arrays.result_groups.len();
        let mut after_arrow = false;
        let operands_start = self.item.arrays.ids.len();
        let attrs_start = self.item.arrays.attrs.len();
        let ints_start = self.item.arrays.ints.len();
        let entries_start = self.item.arrays.entries.len();
        let words_start = self.item.arrays.words.len();
        let mut types_after = Vec::new();
        let types_start = self.item.arrays.types.len();
        let tree = syntax.tree();
        // The groups open around the position: where each ends and what its parent read with;
        // kept between ops.
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        // The first `@symbol` among the op's own tokens comes before any in its parts.
        let mut symbol = None;
        let mut nested_symbol = None;
        let mut broken = false;
        let end = syntax.subtree_end();
        // The innermost open group: where it ends, and how its children are read.
        let mut group_end = end;
        let mut container = Container::Plain;
        let mut filter = Filter::All;
        // The op's own tokens not read yet start at `tok`.
        let own_tokens = syntax.grammar_token_span();
        let mut tok = own_tokens.start;
        let mut i = syntax.index() + 1;
        while i < end {
            while i >= group_end {
                let Some(frame) = frames.pop() else { break };
                (group_end, container, filter) = frame;
            }
            let Some(node) = tree.node_at(i) else { break };
            let kind = node.kind();
            let next = node.subtree_end();
            if frames.is_empty() {
                // A direct child of the op: the op's tokens before it are its own.
                let span = node.grammar_token_span();
                if span.start > tok {
                    self.own_tokens(tree, tok..span.start, &mut symbol);
                }
                tok = tok.max(span.end);
            }
            if kind == SyntaxKind::REGION {
                self.region_nodes.push(i);
                i = next;
                continue;
            }
            let read = match filter {
                Filter::All => true,
                Filter::AttrEntries => kind == SyntaxKind::ATTR_ENTRY,
                Filter::FuncAttributes => kind == SyntaxKind::FUNC_ATTRIBUTES,
                Filter::NotTypes => kind != SyntaxKind::TYPE,
            };
            if !read {
                if next > i + 1 {
                    self.regions_below(tree, i, next);
                }
                i = next;
                continue;
            }
            // Whether a group does not end with its `closer`: then the op is broken.
            let unclosed = |closer: SyntaxKind| {
                let span = node.grammar_token_span();
                span.is_empty() || tree.grammar_token_kind(span.end - 1) != closer
            };
            // How the node's children are read, if they are; the groups and error nodes say
            // whether the op is broken.
            let below = match kind {
                SyntaxKind::RESULT_LIST if frames.is_empty() => {
                    self.result_groups(node);
                    None
                }
                SyntaxKind::OP_NAME if frames.is_empty() && name_node.is_none() => {
                    name_node = Some(node);
                    None
                }
                SyntaxKind::RESULT_LIST | SyntaxKind::OP_NAME => None,
                SyntaxKind::REGION_ARG => {
                    // A definition in the op's first region; the operand after its `=` is a
                    // use in the enclosing one, read as any other operand.
                    if let Some(token) = ast::RegionArg::cast(node).and_then(|a| a.name()) {
                        let name = self.name(token.text_range());
                        self.region_args.push((name, None));
                    }
                    None
                }
                // Only its `attributes {...}` are the op's; ports are read by `signature`.
                SyntaxKind::FUNC_SIGNATURE => {
                    if frames.is_empty() && signature_node.is_none() {
                        signature_node = ast::FuncSignature::cast(node);
                    }
                    Some((Container::Plain, Filter::FuncAttributes))
                }
                SyntaxKind::OPERAND => {
                    let binds = container == Container::Paren
                        && *region_args.get_or_insert_with(|| binds_region_args(syntax));
                    self.operand(node, id, use_region, &container, binds);
                    None
                }
                SyntaxKind::TYPE_LIST => {
                    // Its children in text order, as `grammar_children` gives them, read by
                    // position: the child node at token `t` if one starts there, else `t`.
                    let span = node.grammar_token_span();
                    let (mut t, mut child) = (span.start, i + 1);
                    loop {
                        let c = if child < next { tree.node_at(child) } else { None };
                        if let Some(c) = c {
                            let c_span = c.grammar_token_span();
                            if c_span.start == t {
                                (t, child) = (c_span.end, c.subtree_end());
                                if !matches!(
                                    c.kind(),
                                    SyntaxKind::TYPE | SyntaxKind::BRACKET_TYPE_LIST
                                ) {
                                    continue;
                                }
                                let Some(entry) = self.entry(c) else { continue };
                                if after_arrow {
                                    types_after.push(entry)
                                } else {
                                    self.item.arrays.types.push(entry)
                                }
                                continue;
                            }
                        }
                        if t >= span.end {
                            break;
                        }
                        match tree.grammar_token_kind(t) {
                            SyntaxKind::ARROW => after_arrow = true,
                            SyntaxKind::IDENT
                                if &tree.text()[tree.grammar_token_range(t)] == "to" =>
                            {
                                after_arrow = true
                            }
                            _ => {}
                        }
                        t += 1;
                    }
                    None
                }
                SyntaxKind::ATTR_ENTRY if container == Container::Bracket => {
                    let (key, value) = self.attr_entry(node);
                    self.item.arrays.entries.push((key, value));
                    None
                }
                SyntaxKind::ATTR_ENTRY => {
                    let (key, value) = self.attr_entry(node);
                    let inline = node.parent().is_some_and(|p| p.kind() == SyntaxKind::OP);
                    let range = self.rel(node.text_range());
                    self.item.arrays.attrs.push(Attribute { key, value, range, inline });
                    None
                }
                SyntaxKind::ATTR_DICT => {
                    broken |= unclosed(SyntaxKind::R_BRACE);
                    Some((Container::Plain, Filter::AttrEntries))
                }
                SyntaxKind::FUNC_ATTRIBUTES => Some((Container::Plain, Filter::All)),
                SyntaxKind::BRACKET_GROUP => {
                    broken |= unclosed(SyntaxKind::R_BRACK);
                    for token in node.grammar_tokens() {
                        if token.kind() == SyntaxKind::INT {
                            if let Ok(v) = token.text().parse() {
                                self.item.arrays.ints.push(v);
                            }
                        }
                    }
                    Some((Container::Bracket, Filter::All))
                }
                SyntaxKind::PAREN_GROUP => {
                    broken |= unclosed(SyntaxKind::R_PAREN);
                    Some((Container::Paren, Filter::All))
                }
                SyntaxKind::KEYWORD_GROUP => {
                    broken |= unclosed(SyntaxKind::R_PAREN);
                    let keyword = ast::KeywordGroup::cast(node).and_then(|g| g.keyword());
                    match keyword {
                        Some("entryEn") => None,
                        _ => Some((
                            Container::Keyword(
                                keyword.map_or(Str::default(), |k| self.slice(tree.text(), k)),
                            ),
                            Filter::All,
                        )),
                    }
                }
                SyntaxKind::SYMBOL_REF => {
                    if nested_symbol.is_none() {
                        if let Some(t) = first_token_below(node, SyntaxKind::AT_ID) {
                            nested_symbol = Some(self.name(t.text_range()));
                        }
                    }
                    None
                }
                SyntaxKind::PIPELINE_INPUT_LIST | SyntaxKind::PIPELINE_INPUT => {
                    Some((container, Filter::NotTypes))
                }
                SyntaxKind::PIPELINE_OUTPUT_LIST | SyntaxKind::LOC | SyntaxKind::TYPE => None,
                SyntaxKind::ERROR_NODE => {
                    broken = true;
                    Some((container, Filter::All))
                }
                _ => Some((container, Filter::All)),
            };
            match below {
                Some((c, f)) => {
                    let open = std::mem::replace(&mut container, c);
                    let open_filter = std::mem::replace(&mut filter, f);
                    frames.push((group_end, open, open_filter));
                    group_end = next;
                    i += 1;
                }
                None => {
                    if next > i + 1 {
                        self.regions_below(tree, i, next);
                    }
                    i = next;
                }
            }
        }
        self.own_tokens(tree, tok..own_tokens.end.max(tok), &mut symbol);
        self.frames = frames;
        let op_range = syntax.text_range();
        let name_range = name_node.map_or(TextRange::empty(op_range.start()), |n| n.text_range());
        let name = name_node.map_or("", |_| {
            let text = &tree.text()[name_range];
            text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text)
        });
        let generic = name_node.is_some_and(|n| {
            let span = n.grammar_token_span();
            !span.is_empty() && tree.grammar_token_kind(span.start) == SyntaxKind::STRING
        });
        let resolved = self.resolve_name(name);
        let (range, name_range) = (self.rel(op_range), self.rel(name_range));
        let arrays = &mut self.item.arrays;
        let types_end = arrays.types.len();
        if !types_after.is_empty() {
            arrays.types.extend(types_after);
        }
        debug_assert_eq!(self.item.ops.len(), id as usize);
        self.item.ops.push(OpData {
            name: resolved.map_or_else(|| Cow::Owned(name.to_string()), |(_, s)| Cow::Borrowed(s)),
            kind: resolved.map(|(kind, _)| kind),
            range,
            name_range,
            generic,
            block,
            result_groups: Span::to(groups_start, arrays.result_groups.len()),
            results: Span::default(),
            operands: Span::to(operands_start, arrays.ids.len()),
            regions: Span::default(),
            types: Span::to(types_start, types_end),
            types_after: Span::to(types_end, arrays.types.len()),
            attrs: Span::to(attrs_start, arrays.attrs.len()),
            bracket_ints: Span::to(ints_start, arrays.ints.len()),
            bracket_entries: Span::to(entries_start, arrays.entries.len()),
            words: Span::to(words_start, arrays.words.len()),
            symbol: symbol.or(nested_symbol),
            signature: None,
            broken,
        });
        Parts { name, generic, signature_node }
    }

    /// The result groups of a `RESULT_LIST`, onto `Arrays::result_groups`.
    fn result_groups(&mut self, list: SyntaxNode<'_>) {
        let tree = list.tree();
        // Its children, by position: each `RESULT` is read, anything else stepped over.
        let (mut at, end) = (list.index() + 1, list.subtree_end());
        while let Some(result) = (at < end).then(|| tree.node_at(at)).flatten() {
            at = result.subtree_end();
            if result.kind() != SyntaxKind::RESULT {
                continue;
            }
            // The ranges of its first `%x` and its first `N`: without nodes below it, all its
            // tokens are its own, and only those two kinds' ranges are read.
            let (mut value, mut int) = (None, None);
            if at == result.index() + 1 {
                for t in result.grammar_token_span() {
                    match tree.grammar_token_kind(t) {
                        SyntaxKind::VALUE_ID if value.is_none() => {
                            value = Some(tree.grammar_token_range(t));
                        }
                        SyntaxKind::INT if int.is_none() => int = Some(tree.grammar_token_range(t)),
                        _ => {}
                    }
                }
            } else {
                for token in result.grammar_tokens() {
                    match token.kind() {
                        SyntaxKind::VALUE_ID if value.is_none() => value = Some(token.text_range()),
                        SyntaxKind::INT if int.is_none() => int = Some(token.text_range()),
                        _ => {}
                    }
                }
            }
            let Some(value) = value else { continue };
            let count = int.and_then(|r| tree.text()[r].parse().ok());
            self.item.arrays.result_groups.push(ResultGroup {
                count: count.unwrap_or(1),
                range: self.rel(value),
                explicit_count: int.is_some(),
            });
        }
    }

    /// The op's own tokens `tokens` (not below a child node): bare words, and its first
    /// `@symbol` into `symbol` if it has none yet.
    fn own_tokens(
        &mut self,
        tree: &SyntaxTree,
        tokens: std::ops::Range<u32>,
        symbol: &mut Option<Str>,
    ) {
        for t in tokens {
            match tree.grammar_token_kind(t) {
                SyntaxKind::IDENT => {
                    let w = self.name(tree.grammar_token_range(t));
                    self.item.arrays.words.push(w);
                }
                SyntaxKind::AT_ID if symbol.is_none() => {
                    *symbol = Some(self.name(tree.grammar_token_range(t)));
                }
                _ => {}
            }
        }
    }

    /// The key (quotes stripped) and the value of an `ATTR_ENTRY`.
    fn attr_entry(&self, node: SyntaxNode<'_>) -> (Str, Str) {
        let entry = ast::AttrEntry::cast(node);
        let source = node.tree().text();
        let key = entry.and_then(|e| e.key()).map_or(Str::default(), |k| self.slice(source, k));
        let value =
            entry.and_then(|e| e.value()).map_or(Str::default(), |v| self.slice(source, v.text()));
        (key, value)
    }

    /// The name that `part`, a slice of the tree's text `source`, is.
    fn slice(&self, source: &str, part: &str) -> Str {
        let start = part.as_ptr() as usize - source.as_ptr() as usize;
        self.name(TextRange::at(TextSize::from(start as u32), TextSize::from(part.len() as u32)))
    }

    /// The regions below node `index` (whose subtree ends at `end`), outside other regions.
    fn regions_below(&mut self, tree: &SyntaxTree, index: u32, end: u32) {
        let mut at = index + 1;
        while at < end {
            let Some(node) = tree.node_at(at) else { break };
            if node.kind() == SyntaxKind::REGION {
                self.region_nodes.push(at);
                at = node.subtree_end();
            } else {
                at += 1;
            }
        }
    }

    /// An operand of op `id`, used in `use_region`, written in `container`; with `region_args`,
    /// `%x : T` in parentheses is an argument of the op's first region instead.
    fn operand(
        &mut self,
        node: SyntaxNode<'_>,
        id: OpId,
        use_region: Option<RegionId>,
        container: &Container,
        region_args: bool,
    ) {
        let tree = node.tree();
        // Mostly the operand is its one `%x` token, without nodes below it.
        let span = node.grammar_token_span();
        let leaf = node.subtree_end() == node.index() + 1;
        let range = if leaf
            && !span.is_empty()
            && tree.grammar_token_kind(span.start) == SyntaxKind::VALUE_ID
        {
            tree.grammar_token_range(span.start)
        } else {
            match ast::Operand::cast(node).and_then(|o| o.value()) {
                Some(token) => token.text_range(),
                None => return,
            }
        };
        if region_args && *container == Container::Paren {
            let next = node.parent().and_then(|p| {
                let mut siblings = p.grammar_children();
                siblings.find(|c| {
                    c.text_range() == node.text_range() && c.kind() == SyntaxKind::OPERAND
                })?;
                siblings.next()
            });
            let typed = next.and_then(|e| e.into_node()).filter(|n| {
                n.kind() == SyntaxKind::TYPE_LIST
                    && n.first_grammar_token().is_some_and(|t| t.kind() == SyntaxKind::COLON)
            });
            if let Some(list) = typed {
                let ty = list
                    .children()
                    .find(|n| n.kind() == SyntaxKind::TYPE)
                    .map(|t| self.written(t).ty);
                let name = self.name(range);
                self.region_args.push((name, ty));
                return;
            }
        }
        let uid = self.item.uses.len() as UseId;
        self.item.uses.push(UseData {
            range: self.rel(range),
            op: id,
            container: *container,
            value: None,
        });
        self.item.arrays.ids.push(uid);
        self.scopes.last_mut().expect("a scope is open").pending.push((uid, use_region));
    }

    /// Every value's uses, in text order, as runs of `Arrays::ids`: once all uses are resolved.
    fn value_uses(&mut self) {
        let item = &mut self.item;
        let mut counts = vec![0u32; item.values.len()];
        for u in &item.uses {
            if let Some(v) = u.value {
                counts[v as usize] += 1;
            }
        }
        let mut at = item.arrays.ids.len() as u32;
        for (value, count) in item.values.iter_mut().zip(&counts) {
            value.uses = Span { start: at, len: 0 };
            at += count;
        }
        item.arrays.ids.resize(at as usize, 0);
        // Use ids grow in text order, so filling in id order keeps each list in text order.
        for (uid, u) in item.uses.iter().enumerate() {
            if let Some(v) = u.value {
                let span = &mut item.values[v as usize].uses;
                item.arrays.ids[(span.start + span.len) as usize] = uid as UseId;
                span.len += 1;
            }
        }
    }

    /// Resolves the uses of a closed scope against its definitions.
    fn resolve(&mut self, scope: &Scope) {
        for &(uid, region) in &scope.pending {
            let text = self.item.text.as_bytes();
            let bytes = |s: Str| &text[s.start as usize..(s.start + s.len) as usize];
            let (name, index) = split_use(bytes(self.item.uses[uid as usize].text()));
            let hash = name_hash(name);
            let head = scope.head(hash);
            let mut r = region;
            let found = loop {
                let here = r.unwrap_or(NO_REGION);
                if let Some(d) = scope.find(head, hash, here, |s| same_text(bytes(s), name)) {
                    break Some((d.first, d.count, d.region));
                }
                match r {
                    Some(current) => r = self.item.regions[current as usize].parent,
                    None => break None,
                }
            };
            let Some((first, count, def_region)) = found else {
                self.item.name_problems.push(NameProblem::Undefined { use_: uid });
                continue;
            };
            if index >= count {
                self.item
                    .name_problems
                    .push(NameProblem::IndexOutOfRange { use_: uid, len: count });
                continue;
            }
            let value = first + index;
            self.item.uses[uid as usize].value = Some(value);
            // The definition's region is its block's: only one that requires dominance needs
            // the order checked (a graph region's, as in a `handshake.func`, does not).
            if def_region != NO_REGION
                && self.item.regions[def_region as usize].kind == RegionKind::Dominance
            {
                self.check_order(uid, value);
            }
        }
    }

    /// Use before definition within one block, for a `value` defined in a region that requires
    /// dominance (the caller asks only for those).
    fn check_order(&mut self, uid: UseId, value: ValueId) {
        let Def::Result { op: def_op, .. } = self.item.values[value as usize].def else { return };
        let def_block = self.item.ops[def_op as usize].block;
        if def_block.is_none() {
            return;
        }
        // The op that holds the use, lifted to the definition's block.
        let mut holder = self.item.uses[uid as usize].op;
        while self.item.ops[holder as usize].block != def_block {
            let Some(b) = self.item.ops[holder as usize].block else { return };
            holder = self.item.regions[self.item.blocks[b as usize].region as usize].owner;
        }
        // In one block, text order is op order: ops are pushed as they are read.
        if holder <= def_op {
            self.item.name_problems.push(NameProblem::UsedBeforeDefined { use_: uid });
        }
    }
}

/// The length of the group a value belongs to.
pub fn group_len(item: &Item, value: ValueId) -> u32 {
    let v = &item.values[value as usize];
    match v.def {
        Def::Result { op, .. } => item
            .result_groups(&item.ops[op as usize])
            .iter()
            .find(|g| item.str(g.name()) == item.str(v.name()))
            .map_or(1, |g| g.count),
        Def::Arg { .. } => 1,
    }
}

/// The result types of a function type's text (`(i32, none) -> (i32, none)`, `() -> i1`), as
/// written, split at top-level commas.
fn function_results(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut arrow = None;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' && depth == 0 => {
                arrow = Some(i + 1);
                break;
            }
            // `->` inside brackets is a nested function type's arrow, not a closing `>`.
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b'>' => depth -= 1,
            _ => {}
        }
    }
    let Some(after) = arrow else { return Vec::new() };
    let results = text[after..].trim();
    let inner = match results.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) => inner,
        None => return if results.is_empty() { Vec::new() } else { vec![results] },
    };
    let wrapped = format!("[{inner}]");
    match crate::attrs::array(&wrapped) {
        // The entries borrow from `wrapped`; find each in `inner` instead.
        Some(entries) => {
            let mut out = Vec::new();
            let mut from = 0;
            for entry in entries {
                if let Some(at) = inner[from..].find(entry) {
                    out.push(&inner[from + at..from + at + entry.len()]);
                    from += at + entry.len();
                }
            }
            out
        }
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_use_splits_into_its_group_name_and_index() {
        assert_eq!(split_use(b"%x"), (&b"%x"[..], 0));
        assert_eq!(split_use(b"%0"), (&b"%0"[..], 0));
        assert_eq!(split_use(b"%trueResult_10"), (&b"%trueResult_10"[..], 0));
        assert_eq!(split_use(b"%x#1"), (&b"%x"[..], 1));
        assert_eq!(split_use(b"%12#34"), (&b"%12"[..], 34));
        assert_eq!(split_use(b"%x#4294967295"), (&b"%x"[..], u32::MAX));
        // Past `u32`, or no digits: not an index.
        assert_eq!(split_use(b"%x#4294967296"), (&b"%x"[..], u32::MAX));
        assert_eq!(split_use(b"%x#"), (&b"%x"[..], u32::MAX));
    }
}
