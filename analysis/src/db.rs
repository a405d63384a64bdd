//! The incremental analysis database.
//!
//! Inputs are file texts by `FileId`; everything else is derived and memoized:
//! - each file's items (its top-level ops), each with the syntax it was parsed from;
//! - per item, its lowering (`ir::Item`) and the diagnostics that depend on its text alone
//!   (syntax errors, types, pipelines): `Lowered`, kept while the item's text is unchanged;
//! - per item, its checks (`Checked`), kept while its lowering is the same and every function
//!   it looked up in the workspace symbol table still has the signature it saw;
//! - the workspace symbol table, rebuilt from the lowered items when one of them changes.
//!
//! An edit inside one item's text reparses that item alone (it is spliced in place of the old
//! one without touching the rest of the file) and invalidates only its lowering; callers are
//! rechecked when, and only when, the signature they depend on changed. `Counters` say what was
//! recomputed, so tests can assert it. Ranges inside `Lowered` and `Checked` are relative to
//! the item, so items that only moved are reused as they are.

use std::any::Any;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use hsir_parser::ast::{AstNode, Op};
use hsir_parser::{Parse, SyntaxErrorKind, SyntaxKind, TextRange, TextSize};

use crate::check_item::{self, Callee, Typed};
pub use crate::schedule::Threads;
use crate::schedule::{self, Plan};
use crate::{ir, Diagnostic, DiagnosticCode, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// How much work the database has done since it was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Whole-file parses.
    pub file_parses: u64,
    /// Items reparsed on their own after an edit inside them.
    pub item_parses: u64,
    /// Pieces of files parsed on their own (`Split`); a file whose pieces did not all parse
    /// cleanly is parsed whole as well, a second file parse.
    pub piece_parses: u64,
    /// Items lowered (and their text-only diagnostics computed).
    pub lowerings: u64,
    /// Items checked.
    pub checks: u64,
    /// Symbol-table rebuilds.
    pub symbol_tables: u64,
    /// Items whose syntax, lowering and types were made again for the IDE features after
    /// they had been let go to save memory (see `Database::set_detail_budget`).
    pub details_rebuilt: u64,
}

/// Settings that change what is reported, not what is computed.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Per-code severity; `None` turns the code off.
    pub severity: HashMap<DiagnosticCode, Option<Severity>>,
}

/// What an item's text alone determines.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Lowered {
    pub item: ir::Item,
    /// The function it offers callers, by name.
    pub callee: Option<(String, Callee)>,
    /// Syntax, type and pipeline diagnostics, relative to the item.
    pub diagnostics: Vec<Diagnostic>,
}

/// What is kept of an item's lowering for as long as its text is unchanged: the function it
/// offers callers and the diagnostics its text alone decides. The lowering itself is part of
/// the item's `Detail`, which may be let go.
#[derive(Debug)]
struct Summary {
    callee: Option<(String, Callee)>,
    diagnostics: Vec<Diagnostic>,
}

/// An item's syntax, lowering and types: what the IDE features read. Large (tens of bytes per
/// byte of text), so it is kept for a budget of recently used items and made again on demand.
#[derive(Debug)]
struct Detail {
    parse: Arc<Parse>,
    node: u32,
    lowered: Lowered,
    typed: OnceLock<Option<Typed>>,
}

impl Detail {
    fn node(&self) -> Option<Op<'_>> {
        self.parse.tree().node_at(self.node).and_then(Op::cast)
    }

    /// Whether the parse is the item's own, not one of the whole file.
    fn owns_parse(&self, len: TextSize) -> bool {
        TextSize::of(self.parse.tree().text()) == len
    }
}

/// An item's checks and the symbols they read.
#[derive(Debug)]
struct Checked {
    diagnostics: Vec<Diagnostic>,
    /// The item revision checked.
    revision: u64,
    deps: Vec<(String, Option<Arc<Callee>>)>,
    /// The symbol table `deps` were last found to agree with: while it is the current one,
    /// they need not be looked up again.
    symbols: u64,
}

#[derive(Debug)]
struct Slot {
    /// Where the item starts in the file's current text.
    start: TextSize,
    len: TextSize,
    /// A parse holding the item's syntax (the whole file's, or the item's own after an edit
    /// inside it) and the item's node in it (`SyntaxNode::index`), until the item is lowered.
    syntax: Option<(Arc<Parse>, u32)>,
    /// Which `// -----` case of the file it is in (0 without markers); symbols resolve within
    /// the case first.
    case: u32,
    /// A hash of the item's text and of the syntax errors its parse put inside it: a parse
    /// error of one item can land in the next (an op missing its signature is reported at the
    /// next token), so the same text may carry different errors after an edit before it.
    /// `None` until needed for an item of a piece (`Split`), whose parse put no error in it:
    /// its key is then its text's alone (`text_key`), which a cold check never needs.
    hash: Option<u64>,
    /// Whether a syntax error starts at the item's first byte, which a previous item's parse
    /// may have put there.
    error_at_start: bool,
    /// Changes whenever the item's text does: what `Checked` was computed for.
    revision: u64,
    summary: Option<Summary>,
    /// The function the item offered before an edit made its summary stale, kept until it is
    /// lowered again so that the symbol table survives when the function is the same.
    outdated: Option<Option<(String, Callee)>>,
    checked: Option<Checked>,
    /// Syntax, lowering and types, while kept (`OnceLock`, so that a read-only `Analysis` can
    /// make them again on demand).
    detail: OnceLock<Option<Arc<Detail>>>,
    /// When the detail was last read (`Database::clock`), for the budget.
    used: AtomicU64,
    /// What IDE features derived from the item (`Analysis::memo`), kept until it is checked
    /// again, whether or not its detail is.
    memos: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
    /// Everything reported for the item, relative to it, with the configured severities, in
    /// text order: made when first asked for and shared until the item or the settings change.
    reported: Option<Arc<[Diagnostic]>>,
}

impl Slot {
    fn new(start: TextSize, len: TextSize, syntax: (Arc<Parse>, u32), case: u32) -> Slot {
        Slot {
            start,
            len,
            syntax: Some(syntax),
            case,
            hash: None,
            error_at_start: false,
            revision: 0,
            summary: None,
            outdated: None,
            checked: None,
            detail: OnceLock::new(),
            used: AtomicU64::new(0),
            memos: Mutex::new(Vec::new()),
            reported: None,
        }
    }

    fn kept_detail(&self) -> Option<&Arc<Detail>> {
        self.detail.get().and_then(Option::as_ref)
    }
}

#[derive(Debug)]
struct FileData {
    text: String,
    slots: Vec<Slot>,
    /// Diagnostics outside every item (absolute).
    outside: Vec<Diagnostic>,
    /// Pieces of the text not parsed yet (`Split`): the next analysis parses each on its own,
    /// lowers and checks its items, and lets its syntax go, so that no tree of the whole text
    /// is ever held. `slots` is empty meanwhile.
    pending: Option<Vec<TextRange>>,
}

/// How `Database::set_text` parses a file new to the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// In pieces (`hsir_parser::pieces`) of about `PIECE_MIN` bytes, for texts of at least
    /// `SPLIT_MIN` bytes whose shape allows it; whole otherwise.
    Auto,
    /// In pieces of at least this many bytes whenever the text's shape allows it: what tests
    /// use to compare the two ways on small texts.
    Always(usize),
    /// Whole.
    Never,
}

/// Texts from this size up are parsed in pieces (`Split::Auto`).
pub const SPLIT_MIN: usize = 128 << 10;

/// The smallest piece (`Split::Auto`): a parse has a fixed cost (its own stack, its first
/// allocations), which a piece of this size makes small.
pub const PIECE_MIN: usize = 64 << 10;

#[derive(Debug)]
pub struct Database {
    files: HashMap<FileId, FileData>,
    counters: Counters,
    details_rebuilt: AtomicU64,
    /// Bumped on every read of an item's detail.
    clock: AtomicU64,
    /// The last item revision handed out.
    revisions: u64,
    /// How many bytes of item text may keep their details (see `set_detail_budget`).
    detail_budget: usize,
    /// Bytes of item text whose details were let go since `take_released` was last called.
    released: usize,
    config: Config,
    symbols: Option<Arc<SymbolTable>>,
    /// How many symbol tables have been built: the current one's generation.
    symbols_generation: u64,
    /// Whether items are linted after their type checks (`set_lints`).
    lints: bool,
    /// How many threads lower and check items (`set_threads`).
    threads: Threads,
    /// How new files are parsed (`set_split`).
    split: Split,
}

/// Functions by name, with where each is defined. Signatures are shared with the checks that
/// read them (`Checked::deps`), one copy however many instances name a function.
type SymbolTable = HashMap<String, Vec<(FileId, u32, Arc<Callee>)>>;

/// The function `name` means in `file`'s case `case`: one of that case, else one from another
/// file (cases of one file never see each other).
fn resolve<'a>(
    table: &'a SymbolTable,
    name: &str,
    file: FileId,
    case: u32,
) -> Option<&'a Arc<Callee>> {
    resolve_def(table, name, file, case).map(|(_, _, callee)| callee)
}

/// Where `resolve` finds `name`: its file, case and signature.
fn resolve_def<'a>(
    table: &'a SymbolTable,
    name: &str,
    file: FileId,
    case: u32,
) -> Option<&'a (FileId, u32, Arc<Callee>)> {
    let defs = table.get(name)?;
    defs.iter()
        .find(|(f, c, _)| *f == file && *c == case)
        .or_else(|| defs.iter().find(|(f, _, _)| *f != file))
}

/// The case of each item: how many `// -----` markers come before it.
fn cases(parse: &Parse, items: &[Op<'_>]) -> Vec<u32> {
    use hsir_parser::ast::SourceFile;
    let markers: Vec<TextSize> = SourceFile::cast(parse.root())
        .map(|f| f.split_markers().map(|t| t.text_range().start()).collect())
        .unwrap_or_default();
    items
        .iter()
        .map(|op| markers.partition_point(|&m| m < op.syntax().text_range().start()) as u32)
        .collect()
}

/// The key of an item (`Slot::hash`) at `range` of `parse`, and whether a syntax error starts
/// at its start.
fn item_key(parse: &Parse, range: TextRange) -> (u64, bool) {
    let mut hasher = text_key(&parse.tree().text()[range]);
    let errors = parse.errors();
    let first = errors.partition_point(|e| e.range.start() < range.start());
    let mut at_start = false;
    for error in errors[first..].iter().take_while(|e| e.range.start() <= range.end()) {
        if range.contains_range(error.range) {
            at_start |= error.range.start() == range.start();
            (error.range - range.start(), error.kind, &error.message).hash(&mut hasher);
        }
    }
    (hasher.finish(), at_start)
}

/// The key of an item's text (`item_key` goes on with its errors, if it has any).
fn text_key(text: &str) -> std::collections::hash_map::DefaultHasher {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher
}

/// The default detail budget: items with up to this much text in all keep their syntax,
/// lowering and types. About 45 bytes are kept per byte of text, so this is some 50 MB; a
/// workspace under it keeps everything.
pub const DEFAULT_DETAIL_BUDGET: usize = 1 << 20;

impl Default for Database {
    fn default() -> Database {
        Database {
            files: HashMap::new(),
            counters: Counters::default(),
            details_rebuilt: AtomicU64::new(0),
            clock: AtomicU64::new(0),
            revisions: 0,
            detail_budget: DEFAULT_DETAIL_BUDGET,
            released: 0,
            config: Config::default(),
            symbols: None,
            symbols_generation: 0,
            lints: true,
            threads: Threads::Auto,
            split: Split::Auto,
        }
    }
}

impl Database {
    pub fn new() -> Database {
        Database::default()
    }

    pub fn counters(&self) -> Counters {
        Counters { details_rebuilt: self.details_rebuilt.load(Ordering::Relaxed), ..self.counters }
    }

    /// How many bytes of item text keep their details (syntax, lowering, types) between
    /// requests. Beyond it, the least recently used are let go after each analysis and made
    /// again when a feature reads them; diagnostics and signatures are always kept. A workspace
    /// whose text fits keeps everything.
    pub fn set_detail_budget(&mut self, bytes: usize) {
        self.detail_budget = bytes;
    }

    /// Lets go of the details beyond the budget that IDE features made again since the last
    /// analysis (an analysis does it by itself).
    pub fn release_details(&mut self) {
        self.evict_details();
    }

    /// How many bytes of item text had their details let go since the last call: a hint that
    /// the process may give memory back to the system.
    pub fn take_released(&mut self) -> usize {
        std::mem::take(&mut self.released)
    }

    /// How many threads lower and check items: by default every core, for work enough to
    /// share. The results, and their order, are the same on any number.
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }

    /// How `set_text` parses a file new to the database: whole, or in pieces. The results are
    /// the same either way; pieces take less memory and share the parsing among threads.
    pub fn set_split(&mut self, split: Split) {
        self.split = split;
    }

    fn next_revision(&mut self) -> u64 {
        self.revisions += 1;
        self.revisions
    }

    /// Whether the dataflow lints (`crate::lints`) run after each item's type checks; on by
    /// default. A caller that needs only whether IR is well formed and how it is typed (the
    /// backend, before it lowers) turns them off and is spared their cost.
    pub fn set_lints(&mut self, lints: bool) {
        if self.lints != lints {
            self.lints = lints;
            for data in self.files.values_mut() {
                for slot in &mut data.slots {
                    slot.checked = None;
                    slot.reported = None;
                }
            }
        }
    }

    pub fn set_config(&mut self, config: Config) {
        self.config = config;
        for data in self.files.values_mut() {
            for slot in &mut data.slots {
                slot.reported = None;
            }
        }
    }

    pub fn text(&self, file: FileId) -> Option<&str> {
        self.files.get(&file).map(|f| f.text.as_str())
    }

    pub fn files(&self) -> Vec<FileId> {
        let mut files: Vec<FileId> = self.files.keys().copied().collect();
        files.sort();
        files
    }

    pub fn remove_file(&mut self, file: FileId) {
        if self.files.remove(&file).is_some() {
            self.symbols = None;
        }
    }

    /// Sets a file's whole text. Items whose text did not change keep their lowering and checks.
    /// A large file new to the database is parsed in pieces by the next analysis (`Split`).
    pub fn set_text(&mut self, file: FileId, text: String) {
        let min_piece = match self.split {
            Split::Auto if text.len() >= SPLIT_MIN => Some(PIECE_MIN),
            Split::Always(min) => Some(min),
            Split::Auto | Split::Never => None,
        };
        let text = match min_piece {
            Some(min) if !self.files.contains_key(&file) => {
                match self.set_pieces(file, text, min) {
                    Ok(()) => return,
                    Err(text) => text,
                }
            }
            _ => text,
        };
        self.set_parse(file, hsir_parser::parse(text));
    }

    /// Sets a new file's text to be parsed in pieces, if the text allows it; gives the text
    /// back if not. The text around the pieces (a `module` line and its `}`) is parsed here,
    /// and must be an empty module without errors.
    fn set_pieces(&mut self, file: FileId, mut text: String, min: usize) -> Result<(), String> {
        let Some(pieces) = hsir_parser::pieces(&text, min) else { return Err(text) };
        let mut outside = Vec::new();
        if pieces.body.len() < text.len() {
            let wrapper = hsir_parser::parse(pieces.wrapper(&text));
            if !wrapper.errors().is_empty() || !crate::items(&wrapper).is_empty() {
                return Err(text);
            }
            outside = outside_diagnostics(&wrapper, &[]);
            let at = |r: TextRange| {
                let r = pieces.wrapper_range(r.start().into()..r.end().into());
                TextRange::new(TextSize::from(r.start as u32), TextSize::from(r.end as u32))
            };
            for d in &mut outside {
                d.map_ranges(at);
            }
        }
        let to_range = |r: &std::ops::Range<usize>| {
            TextRange::new(TextSize::from(r.start as u32), TextSize::from(r.end as u32))
        };
        let pending = pieces.pieces.iter().map(to_range).collect();
        // Room for typing, as `set_parse` leaves.
        text.reserve_exact((text.len() / 64).max(4096));
        self.counters.file_parses += 1;
        self.files
            .insert(file, FileData { text, slots: Vec::new(), outside, pending: Some(pending) });
        self.symbols = None;
        Ok(())
    }

    /// Sets a file's text from a parse of it made elsewhere (`hsir check` parses while it
    /// decodes).
    pub fn set_parse(&mut self, file: FileId, parse: Parse) {
        let source = parse.tree().text();
        // Room for typing: without it, the first inserted character copies the whole text into
        // a new allocation (10 ms at 15 MB).
        let mut text = String::with_capacity(source.len() + (source.len() / 64).max(4096));
        text.push_str(source);
        let parse = Arc::new(parse);
        self.counters.file_parses += 1;
        let mut old: HashMap<u64, Vec<Slot>> = HashMap::new();
        if let Some(data) = self.files.remove(&file) {
            for slot in data.slots {
                let key = slot.hash.unwrap_or_else(|| {
                    text_key(&data.text[TextRange::at(slot.start, slot.len)]).finish()
                });
                old.entry(key).or_default().push(slot);
            }
        }
        let items = crate::items(&parse);
        let item_cases = cases(&parse, &items);
        let mut slots = Vec::with_capacity(items.len());
        let mut covered: Vec<TextRange> = Vec::with_capacity(items.len());
        for (op, &case) in items.iter().zip(&item_cases) {
            let range = op.syntax().text_range();
            covered.push(range);
            let (hash, error_at_start) = item_key(&parse, range);
            let slot_node = op.syntax().index();
            let syntax = (parse.clone(), slot_node);
            let mut slot = Slot::new(range.start(), range.len(), syntax, case);
            slot.hash = Some(hash);
            slot.error_at_start = error_at_start;
            match old.get_mut(&hash).and_then(|v| v.pop()) {
                // The same text: its summary, checks and detail (with its own parse) hold.
                Some(reused) => {
                    slot.revision = reused.revision;
                    slot.summary = reused.summary;
                    slot.checked = reused.checked;
                    // Moved into the new parse: a detail left in the old one would keep that
                    // whole tree alive, one more with every change of the whole text.
                    let detail = reused.detail.into_inner().flatten().and_then(Arc::into_inner);
                    let moved =
                        detail.map(|d| Detail { parse: parse.clone(), node: slot_node, ..d });
                    if let Some(moved) = moved {
                        slot.detail = OnceLock::from(Some(Arc::new(moved)));
                    }
                    slot.used = reused.used;
                    slot.memos = reused.memos;
                    if slot.summary.is_some() {
                        slot.syntax = None;
                    }
                }
                None => slot.revision = self.next_revision(),
            }
            slots.push(slot);
        }
        let outside = outside_diagnostics(&parse, &covered);
        self.files.insert(file, FileData { text, slots, outside, pending: None });
        self.symbols = None;
    }

    /// Applies an edit: `range` of the current text becomes `new_text`. An edit strictly inside
    /// one item that leaves it one balanced item reparses that item alone; anything else
    /// reparses the file.
    pub fn edit(&mut self, file: FileId, range: TextRange, new_text: &str) {
        if self.files.get(&file).is_some_and(|d| d.pending.is_some()) {
            self.check_all();
        }
        let Some(data) = self.files.get_mut(&file) else { return };
        if range.end() > TextSize::of(data.text.as_str())
            || !data.text.is_char_boundary(range.start().into())
            || !data.text.is_char_boundary(range.end().into())
        {
            return;
        }
        let index = data.slots.partition_point(|s| s.start + s.len <= range.start());
        let spliced = data.slots.get(index).and_then(|slot| {
            let end = slot.start + slot.len;
            if !(slot.start < range.start() && range.end() < end) {
                return None;
            }
            let local = range - slot.start;
            let old = &data.text[TextRange::at(slot.start, slot.len)];
            let mut item_text = String::with_capacity(old.len() + new_text.len());
            item_text.push_str(&old[..usize::from(local.start())]);
            item_text.push_str(new_text);
            item_text.push_str(&old[usize::from(local.end())..]);
            let parse = hsir_parser::parse(item_text.clone());
            let node = standalone_item(&parse)?;
            // An unterminated string runs to the end of its line, which in the file may lie
            // past the item (a `\r` before the `\n`, another item on the line): what the item
            // holds is then the file's to say.
            let last = parse.tree().root().last_token();
            if last.is_some_and(|t| t.kind() == SyntaxKind::ERROR && t.text().starts_with('"')) {
                return None;
            }
            // The item parses alone as it does in the file only where the file's parse reaches
            // it at the top level and leaves it there: nothing outside the items is broken (an
            // unclosed `<` between items swallows the items after it), no error sits at the
            // start of this item or the next (the work of the item before, perhaps), and none
            // at the end of the item's text (it would land on the next token in the file).
            let len = TextSize::of(item_text.as_str());
            if !data.outside.is_empty()
                || slot.error_at_start
                || data.slots.get(index + 1).is_some_and(|n| n.error_at_start)
                || parse.errors().iter().any(|e| e.range.end() >= len)
            {
                return None;
            }
            Some((parse, item_text, node))
        });
        match spliced {
            Some((parse, item_text, node)) => {
                self.counters.item_parses += 1;
                let data = self.files.get_mut(&file).expect("checked above");
                data.text.replace_range(std::ops::Range::<usize>::from(range), new_text);
                let old_len = data.slots[index].len;
                let new_len = TextSize::of(item_text.as_str());
                let revision = self.next_revision();
                let data = self.files.get_mut(&file).expect("checked above");
                let slot = &mut data.slots[index];
                slot.len = new_len;
                let (hash, error_at_start) = item_key(&parse, TextRange::up_to(new_len));
                slot.syntax = Some((Arc::new(parse), node));
                slot.hash = Some(hash);
                slot.error_at_start = error_at_start;
                slot.revision = revision;
                if let Some(summary) = slot.summary.take() {
                    slot.outdated = Some(summary.callee);
                }
                slot.checked = None;
                slot.detail = OnceLock::new();
                slot.memos = Mutex::new(Vec::new());
                slot.reported = None;
                let start = slot.start;
                let shift = |at: TextSize| -> TextSize {
                    if at >= start + old_len {
                        at + new_len - old_len
                    } else {
                        at
                    }
                };
                for later in &mut data.slots[index + 1..] {
                    later.start = shift(later.start);
                }
                for d in &mut data.outside {
                    shift_diagnostic(d, &shift);
                }
            }
            None => {
                let mut text = self.files[&file].text.clone();
                text.replace_range(std::ops::Range::<usize>::from(range), new_text);
                self.set_text(file, text);
            }
        }
    }

    fn lower_all(&mut self) {
        let mut lowered = 0;
        let callee_changed = std::sync::atomic::AtomicBool::new(false);
        let clock = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
        for data in self.files.values_mut() {
            let text = data.text.as_str();
            let mut stale: Vec<&mut Slot> =
                data.slots.iter_mut().filter(|s| s.summary.is_none()).collect();
            lowered += stale.len() as u64;
            let sizes: Vec<usize> = stale.iter().map(|s| usize::from(s.len)).collect();
            let plan = Plan::new(&sizes, self.threads);
            schedule::each_chunk(&mut stale, &plan, |chunk| {
                for slot in chunk {
                    if !lower_slot(slot, text, clock) {
                        callee_changed.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        self.counters.lowerings += lowered;
        if callee_changed.into_inner() {
            self.symbols = None;
        }
    }

    /// The cold path, taken when the symbol table has to be made again anyway (a file was
    /// opened or its whole text set): each chunk of items is lowered and at once checked
    /// against the functions of every item up to the chunk's end, which are merged into the
    /// symbol table in text order. A lookup that finds a function in the item's own file and
    /// case is final, since later items can only add definitions after it; the checks of the
    /// other items (a function not found yet, or found in another file) are compared with
    /// the whole table afterwards and made again if it answers differently. Details beyond
    /// the budget are let go right after their item's check, as `evict_details` would after
    /// the whole analysis, so that a large file's lowerings are never all held at once.
    ///
    /// A file set in pieces (`Split`) has its pieces parsed here, each as a chunk's first
    /// step, and its items made from them; a piece's tree lives only as long as the details of
    /// its items. If a piece does not parse cleanly on its own, the file is parsed whole
    /// instead and left unlowered: the caller runs this again.
    fn lower_and_check_cold(&mut self) {
        let clock = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
        let total: usize = self.files.values().map(|f| f.text.len()).sum();
        let release = total > self.detail_budget;
        let generation = self.symbols_generation + 1;
        let lints = self.lints;
        let config = &self.config;
        let revisions = AtomicU64::new(self.revisions);
        let (lowered, checked, released) =
            (AtomicU64::new(0), AtomicU64::new(0), std::sync::atomic::AtomicUsize::new(0));
        let pieces_parsed = AtomicU64::new(0);
        let mut files: Vec<(&FileId, &mut FileData)> = self.files.iter_mut().collect();
        files.sort_by_key(|(id, _)| **id);
        /// An item to lower if it is not yet, and to check if it was lowered in this pass.
        enum Work<'a> {
            Slot {
                slot: &'a mut Slot,
                fresh: bool,
            },
            /// A piece of the file to parse, with the items made of it (all of them fresh) and
            /// the diagnostics between them; `None` if it did not parse cleanly.
            Piece {
                range: TextRange,
                made: Option<PieceItems>,
            },
        }
        struct Job<'a> {
            file: FileId,
            text: &'a str,
            work: Work<'a>,
        }
        let mut jobs: Vec<Job<'_>> = Vec::new();
        for (&file, data) in files {
            let text = data.text.as_str();
            for &range in data.pending.iter().flatten() {
                jobs.push(Job { file, text, work: Work::Piece { range, made: None } });
            }
            for slot in &mut data.slots {
                jobs.push(Job { file, text, work: Work::Slot { slot, fresh: false } });
            }
        }
        let sizes: Vec<usize> = jobs
            .iter()
            .map(|j| match &j.work {
                Work::Slot { slot, .. } if slot.summary.is_none() => usize::from(slot.len),
                Work::Slot { .. } => 0,
                Work::Piece { range, .. } => usize::from(range.len()),
            })
            .collect();
        let plan = Plan::new(&sizes, self.threads);
        let table = schedule::pipeline(
            &mut jobs,
            &plan,
            SymbolTable::new(),
            |chunk| {
                let mut functions = Vec::new();
                for job in chunk {
                    let (file, text) = (job.file, job.text);
                    let fresh: &mut [Slot] = match &mut job.work {
                        Work::Slot { slot, fresh } => {
                            if slot.summary.is_none() {
                                lower_slot(slot, text, clock);
                                lowered.fetch_add(1, Ordering::Relaxed);
                                *fresh = true;
                            }
                            std::slice::from_mut(&mut **slot)
                        }
                        Work::Piece { range, made } => {
                            pieces_parsed.fetch_add(1, Ordering::Relaxed);
                            let Some(piece) = piece_items(text, *range, &revisions) else {
                                continue;
                            };
                            let (slots, _) = made.insert(piece);
                            for slot in slots.iter_mut() {
                                lower_slot(slot, text, clock);
                            }
                            lowered.fetch_add(slots.len() as u64, Ordering::Relaxed);
                            slots
                        }
                    };
                    for slot in fresh.iter() {
                        if let Some((name, callee)) =
                            slot.summary.as_ref().and_then(|s| s.callee.clone())
                        {
                            functions.push((name, file, slot.case, Arc::new(callee)));
                        }
                    }
                }
                functions
            },
            |table, functions| {
                for (name, file, case, callee) in functions {
                    // In text order, so the first definition is found first.
                    table.entry(name).or_default().push((file, case, callee));
                }
            },
            |chunk, table| {
                for job in chunk.iter_mut() {
                    let (file, text) = (job.file, job.text);
                    // An item made of a piece lets its detail go even if a later item may
                    // change what its checks found: its detail holds the piece's whole tree.
                    let (fresh, pieced): (&mut [Slot], bool) = match &mut job.work {
                        Work::Slot { slot, fresh: true } => {
                            (std::slice::from_mut(&mut **slot), false)
                        }
                        Work::Piece { made: Some((slots, _)), .. } => (slots, true),
                        _ => continue,
                    };
                    for slot in fresh {
                        let case = slot.case;
                        let mut settled = true;
                        let lookup = |name: &str| {
                            let table =
                                table.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                            let def = resolve_def(&table, name, file, case);
                            settled &= def.is_some_and(|(f, c, _)| *f == file && *c == case);
                            def.map(|(_, _, callee)| callee.clone())
                        };
                        // Generation 0 is no table's: unless settled below, the ordinary pass
                        // compares the lookups with the whole table.
                        check_slot(slot, text, lints, lookup, 0);
                        // What the output will read, made here on every core (a later check
                        // of the item, if its lookups change, makes it again).
                        slot.reported = Some(reported_of(slot, config));
                        checked.fetch_add(1, Ordering::Relaxed);
                        if settled {
                            if let Some(c) = slot.checked.as_mut() {
                                c.symbols = generation;
                            }
                        }
                        if release
                            && (settled || pieced)
                            && slot.kept_detail().is_some_and(|d| !d.owns_parse(slot.len))
                        {
                            slot.detail = OnceLock::new();
                            released.fetch_add(usize::from(slot.len), Ordering::Relaxed);
                        }
                    }
                }
            },
        );
        // The items made of pieces, in order, by file; `None` for a file with a piece that
        // did not parse cleanly.
        let mut made: HashMap<FileId, Option<PieceItems>> = HashMap::new();
        for job in jobs {
            if let Work::Piece { made: piece, .. } = job.work {
                let entry = made.entry(job.file).or_insert_with(|| Some(Default::default()));
                match (entry.as_mut(), piece) {
                    (Some((slots, outside)), Some((more, between))) => {
                        slots.extend(more);
                        outside.extend(between);
                    }
                    _ => *entry = None,
                }
            }
        }
        self.revisions = revisions.into_inner();
        self.counters.piece_parses += pieces_parsed.into_inner();
        self.counters.lowerings += lowered.into_inner();
        self.counters.checks += checked.into_inner();
        self.released += released.into_inner();
        self.counters.symbol_tables += 1;
        self.symbols_generation = generation;
        self.symbols = Some(Arc::new(table));
        for (file, made) in made {
            let Some(data) = self.files.get_mut(&file) else { continue };
            data.pending = None;
            match made {
                Some((slots, between)) => {
                    data.slots = slots;
                    data.outside.extend(between);
                    data.outside.sort_by_key(|d| (d.range.start(), d.range.end()));
                }
                None => {
                    // Parsed whole after all: what was found in its pieces goes, and so does
                    // the symbol table they added to.
                    let text = std::mem::take(&mut data.text);
                    self.files.remove(&file);
                    self.set_parse(file, hsir_parser::parse(text));
                }
            }
        }
    }

    fn symbol_table(&mut self) -> Arc<SymbolTable> {
        if let Some(symbols) = &self.symbols {
            return symbols.clone();
        }
        let mut table = SymbolTable::new();
        let mut files: Vec<(&FileId, &FileData)> = self.files.iter().collect();
        files.sort_by_key(|(id, _)| **id);
        for (&file, data) in files {
            for slot in &data.slots {
                if let Some((name, callee)) = slot.summary.as_ref().and_then(|l| l.callee.clone()) {
                    // In file order, so the first definition is found first.
                    table.entry(name).or_default().push((file, slot.case, Arc::new(callee)));
                }
            }
        }
        self.counters.symbol_tables += 1;
        self.symbols_generation += 1;
        let table = Arc::new(table);
        self.symbols = Some(table.clone());
        table
    }

    fn check_all(&mut self) {
        let cold = |db: &Database| {
            db.files.values().any(|f| f.pending.is_some())
                || (db.symbols.is_none()
                    && db.files.values().any(|f| f.slots.iter().any(|s| s.summary.is_none())))
        };
        if cold(self) {
            self.lower_and_check_cold();
            // Again for a file set in pieces that had to be parsed whole after all.
            if cold(self) {
                self.lower_and_check_cold();
            }
        } else {
            self.lower_all();
        }
        let symbols = self.symbol_table();
        let generation = self.symbols_generation;
        let mut checked = 0;
        for (&file, data) in self.files.iter_mut() {
            let text = data.text.as_str();
            let mut stale: Vec<&mut Slot> = Vec::new();
            for slot in &mut data.slots {
                if slot.summary.is_none() {
                    continue;
                }
                let (case, revision) = (slot.case, slot.revision);
                let fresh = slot.checked.as_mut().is_some_and(|c| {
                    if c.revision != revision {
                        return false;
                    }
                    if c.symbols == generation {
                        return true;
                    }
                    let agree = c
                        .deps
                        .iter()
                        .all(|(name, seen)| resolve(&symbols, name, file, case) == seen.as_ref());
                    if agree {
                        c.symbols = generation;
                    }
                    agree
                });
                if !fresh {
                    stale.push(slot);
                }
            }
            checked += stale.len() as u64;
            let rebuilt = &self.details_rebuilt;
            let lints = self.lints;
            let sizes: Vec<usize> = stale.iter().map(|s| usize::from(s.len)).collect();
            let plan = Plan::new(&sizes, self.threads);
            schedule::each_chunk(&mut stale, &plan, |chunk| {
                for slot in chunk {
                    if slot.detail.get().is_none() {
                        rebuilt.fetch_add(1, Ordering::Relaxed);
                        let item_text = &text[TextRange::at(slot.start, slot.len)];
                        slot.detail = OnceLock::from(detail_of(item_text).map(Arc::new));
                    }
                    let case = slot.case;
                    let lookup = |name: &str| resolve(&symbols, name, file, case).cloned();
                    check_slot(slot, text, lints, lookup, generation);
                }
            });
        }
        self.counters.checks += checked;
        self.evict_details();
    }

    /// Lets go of details beyond the budget, least recently used first. Details that live in a
    /// parse of a whole file go first whenever the file does not fit, since any one of them
    /// keeps the whole tree.
    fn evict_details(&mut self) {
        let total: usize = self.files.values().map(|f| f.text.len()).sum();
        if total <= self.detail_budget {
            return;
        }
        let mut kept: Vec<(u64, usize, FileId, usize)> = Vec::new();
        let mut released = 0;
        for (&file, data) in self.files.iter_mut() {
            for (index, slot) in data.slots.iter_mut().enumerate() {
                let Some(detail) = slot.kept_detail() else { continue };
                let len = usize::from(slot.len);
                if detail.owns_parse(slot.len) {
                    kept.push((slot.used.load(Ordering::Relaxed), len, file, index));
                } else {
                    slot.detail = OnceLock::new();
                    released += len;
                }
            }
        }
        kept.sort_by_key(|k| std::cmp::Reverse(k.0));
        let mut room = self.detail_budget;
        for (_, len, file, index) in kept {
            if len <= room {
                room -= len;
                continue;
            }
            room = 0;
            if let Some(slot) = self.files.get_mut(&file).and_then(|d| d.slots.get_mut(index)) {
                slot.detail = OnceLock::new();
                released += len;
            }
        }
        self.released += released;
    }

    /// Brings every item up to date and gives read access to the results, for the IDE
    /// features (`crate::ide`).
    pub fn analysis(&mut self) -> Analysis<'_> {
        self.check_all();
        let symbols = self.symbol_table();
        Analysis { db: self, symbols }
    }

    /// The lowering and types of each item of `file`, moved out of the database for a caller
    /// that reads every item once and keeps what it reads (the backend's `Program`): copying
    /// them would cost as much as making them. Like any detail let go, they are made again
    /// from the items' texts if a feature asks for them later; summaries and checks stay.
    pub fn take_items(&mut self, file: FileId) -> Vec<TakenItem> {
        self.check_all();
        let symbols = self.symbol_table();
        let lints = self.lints;
        let Some(FileData { text, slots, .. }) = self.files.get_mut(&file) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(slots.len());
        for (index, slot) in slots.iter_mut().enumerate() {
            if slot.summary.is_none() {
                continue;
            }
            let item = ItemRef::of(file, index, slot);
            let item_text = &text[item.range];
            let kept = slot.detail.take().flatten().and_then(|d| Arc::try_unwrap(d).ok());
            let Some(detail) = kept.or_else(|| detail_of(item_text)) else { continue };
            let Detail { lowered, typed, .. } = detail;
            let typed = typed.into_inner().unwrap_or_else(|| {
                let mut lookup = |name: &str| resolve(&symbols, name, file, item.case).cloned();
                let check = if lints { check_item::check_item } else { check_item::check_types };
                check(&lowered.item, item_text, &mut lookup, &mut Vec::new())
            });
            out.push(TakenItem { item, lowered, typed });
        }
        out
    }

    /// Everything reported for `file`, in text order, with ranges in its current text.
    pub fn diagnostics(&mut self, file: FileId) -> Vec<Diagnostic> {
        let Some(sorted) = self.sorted_diagnostics(file) else { return Vec::new() };
        sorted.iter().map(|(d, at)| d.clone().shifted(at)).collect()
    }

    /// What `diagnostics` gives, in its order, without copying them (`None` for an unknown
    /// file): for a caller that shows only some.
    pub fn sorted_diagnostics(&mut self, file: FileId) -> Option<SortedDiagnostics> {
        let reported = self.reported(file)?;
        let mut order: Vec<(TextSize, TextSize, DiagnosticCode, u32, u32)> = Vec::new();
        let lists = std::iter::once((TextSize::from(0), &reported.outside[..]))
            .chain(reported.items.iter().map(|(start, list)| (*start, &list[..])));
        for (list, (start, diagnostics)) in lists.enumerate() {
            for (index, d) in diagnostics.iter().enumerate() {
                let key = (d.range.start() + start, d.range.end() + start, d.code);
                order.push((key.0, key.1, key.2, list as u32, index as u32));
            }
        }
        // Stable: among equals, those outside items first, then the items' in text order.
        order.sort_by_key(|&(start, end, code, _, _)| (start, end, code));
        let order = order.into_iter().map(|(_, _, _, list, index)| (list, index)).collect();
        Some(SortedDiagnostics { reported, order })
    }

    /// Everything reported for `file`, item by item: each item's list is relative to the
    /// item's start and shared (an item that did not change hands out the same `Arc`), so a
    /// caller can reuse what it made of it. `None` for an unknown file.
    pub fn reported(&mut self, file: FileId) -> Option<Reported> {
        self.check_all();
        let config = &self.config;
        let data = self.files.get_mut(&file)?;
        let mut outside = data.outside.clone();
        apply_config(config, &mut outside);
        let mut items = Vec::with_capacity(data.slots.len());
        for slot in &mut data.slots {
            if slot.reported.is_none() {
                slot.reported = Some(reported_of(slot, config));
            }
            let Some(reported) = &slot.reported else { continue };
            if !reported.is_empty() {
                items.push((slot.start, reported.clone()));
            }
        }
        Some(Reported { outside, items })
    }
}

/// One item with its lowering and types, as `Database::take_items` gives them.
#[derive(Debug)]
pub struct TakenItem {
    pub item: ItemRef,
    pub lowered: Lowered,
    /// The value types and spelling style of a `handshake.func`.
    pub typed: Option<Typed>,
}

/// A file's diagnostics in the order `Database::diagnostics` gives them (by start, end and
/// code), as `Database::sorted_diagnostics` gives them: borrowed from `Reported`.
#[derive(Debug)]
pub struct SortedDiagnostics {
    reported: Reported,
    /// Each diagnostic's list (0 for those outside items, then the items') and place in it.
    order: Vec<(u32, u32)>,
}

impl SortedDiagnostics {
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Each diagnostic, in order, with the offset its ranges count from (`Diagnostic::shifted`
    /// by it gives the ranges in the file's text).
    pub fn iter(&self) -> impl Iterator<Item = (&Diagnostic, TextSize)> + Clone + '_ {
        self.order.iter().map(|&(list, index)| match list.checked_sub(1) {
            None => (&self.reported.outside[index as usize], TextSize::from(0)),
            Some(item) => {
                let (start, list) = &self.reported.items[item as usize];
                (&list[index as usize], *start)
            }
        })
    }
}

/// A file's diagnostics, as `Database::reported` gives them.
#[derive(Debug)]
pub struct Reported {
    /// Diagnostics outside every item, with absolute ranges.
    pub outside: Vec<Diagnostic>,
    /// Each item with something to report: its start, and its diagnostics relative to it.
    pub items: Vec<(TextSize, Arc<[Diagnostic]>)>,
}

/// Everything reported for a lowered and checked item, relative to it, with the configured
/// severities, in order.
fn reported_of(slot: &Slot, config: &Config) -> Arc<[Diagnostic]> {
    let lowered = slot.summary.iter().flat_map(|l| l.diagnostics.iter());
    let checked = slot.checked.iter().flat_map(|c| c.diagnostics.iter());
    let mut all: Vec<Diagnostic> = lowered.chain(checked).cloned().collect();
    apply_config(config, &mut all);
    all.sort_by_key(|d| (d.range.start(), d.range.end(), d.code));
    all.into()
}

/// Applies severity overrides; drops the codes turned off.
fn apply_config(config: &Config, diagnostics: &mut Vec<Diagnostic>) {
    if config.severity.is_empty() {
        return;
    }
    diagnostics.retain_mut(|d| match config.severity.get(&d.code) {
        Some(Some(severity)) => {
            d.severity = *severity;
            true
        }
        Some(None) => false,
        None => true,
    });
}

/// A read-only view of an up-to-date database: files, their items and what was learnt of each.
#[derive(Debug, Clone)]
pub struct Analysis<'db> {
    db: &'db Database,
    symbols: Arc<SymbolTable>,
}

/// A handle on one item of a file, valid for the `Analysis` that gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemRef {
    pub file: FileId,
    index: usize,
    /// The item's range in the file.
    pub range: TextRange,
    /// Which `// -----` case of the file it is in.
    pub case: u32,
}

impl ItemRef {
    fn of(file: FileId, index: usize, slot: &Slot) -> ItemRef {
        ItemRef { file, index, range: TextRange::at(slot.start, slot.len), case: slot.case }
    }
}

/// One item (a top-level op) of a file, with its syntax, lowering and type-check results.
#[derive(Debug, Clone, Copy)]
pub struct ItemView<'a> {
    pub file: FileId,
    /// Which `// -----` case of the file it is in.
    pub case: u32,
    /// Where the item starts in the file's text. Ranges in `lowered` and `typed` are relative
    /// to it.
    pub start: TextSize,
    /// The item's own text.
    pub text: &'a str,
    /// The item's syntax node.
    pub syntax: Op<'a>,
    /// What turns the ranges of `syntax` (and its descendants) into file offsets: the node may
    /// live in a parse of the whole file or of the item alone.
    pub syntax_base: SyntaxBase,
    pub lowered: &'a Lowered,
    /// The value types and spelling style of a `handshake.func`.
    pub typed: Option<&'a Typed>,
}

/// The distance from an item's syntax, in the parse it lives in, to the item in the file's
/// text. Either way: a detail made in a parse of the whole file stays in it while an edit in
/// an earlier item moves the item back (`Database::edit` shifts later items, not their
/// parses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxBase(i64);

impl SyntaxBase {
    /// The base of syntax that starts at `syntax` in its parse for an item at `item`.
    fn between(syntax: TextSize, item: TextSize) -> SyntaxBase {
        SyntaxBase(i64::from(u32::from(item)) - i64::from(u32::from(syntax)))
    }

    /// A syntax offset, as a file offset.
    pub fn offset(self, at: TextSize) -> TextSize {
        TextSize::from((i64::from(u32::from(at)) + self.0) as u32)
    }

    /// A syntax range, as a file range.
    pub fn range(self, range: TextRange) -> TextRange {
        TextRange::new(self.offset(range.start()), self.offset(range.end()))
    }

    /// The syntax offset of a file offset; `None` before the start of the syntax's parse.
    pub fn local(self, at: TextSize) -> Option<TextSize> {
        u32::try_from(i64::from(u32::from(at)) - self.0).ok().map(TextSize::from)
    }

    /// The syntax range of a file range; `None` if it starts before the syntax's parse.
    pub fn local_range(self, range: TextRange) -> Option<TextRange> {
        Some(TextRange::new(self.local(range.start())?, self.local(range.end())?))
    }
}

impl<'a> ItemView<'a> {
    /// The item's range in the file.
    pub fn range(&self) -> TextRange {
        TextRange::at(self.start, TextSize::of(self.text))
    }

    /// A range relative to the item, made absolute.
    pub fn abs(&self, range: TextRange) -> TextRange {
        range + self.start
    }

    /// The range of a node of `syntax`, made absolute.
    pub fn syntax_abs(&self, range: TextRange) -> TextRange {
        self.syntax_base.range(range)
    }

    /// The type of a value: the type checks' when known, else the one written.
    pub fn type_of(&self, value: ir::ValueId) -> Option<&'a crate::types::Type> {
        let typed = self.typed.and_then(|t| t.types.get(value));
        let item = &self.lowered.item;
        typed.or_else(|| item.value_ty(item.values.get(value as usize)?))
    }
}

impl<'db> Analysis<'db> {
    pub fn files(&self) -> Vec<FileId> {
        self.db.files()
    }

    pub fn text(&self, file: FileId) -> Option<&'db str> {
        self.db.files.get(&file).map(|f| f.text.as_str())
    }

    /// The file's items, in text order.
    ///
    /// Each view needs the item's detail; in a workspace beyond the detail budget, those that
    /// were let go are made again (about 0.1 s per MB), so features that need only some items
    /// ask for them with `items_in`.
    pub fn items(&self, file: FileId) -> Vec<ItemView<'db>> {
        let Some(data) = self.db.files.get(&file) else { return Vec::new() };
        data.slots.iter().filter_map(|slot| self.view(file, data, slot)).collect()
    }

    /// The file's items that overlap `range` (either end included), in text order.
    pub fn items_in(&self, file: FileId, range: TextRange) -> Vec<ItemView<'db>> {
        let Some(data) = self.db.files.get(&file) else { return Vec::new() };
        let first = data.slots.partition_point(|s| s.start + s.len < range.start());
        data.slots[first..]
            .iter()
            .take_while(|s| s.start <= range.end())
            .filter_map(|slot| self.view(file, data, slot))
            .collect()
    }

    /// The ranges of the file's items, in text order, without reading their details.
    pub fn item_ranges(&self, file: FileId) -> Vec<TextRange> {
        self.item_refs(file).iter().map(|r| r.range).collect()
    }

    /// The file's items, in text order, as handles for `view_of` and `memo`: cheap, whatever
    /// the budget.
    pub fn item_refs(&self, file: FileId) -> Vec<ItemRef> {
        let Some(data) = self.db.files.get(&file) else { return Vec::new() };
        (data.slots.iter().enumerate())
            .filter(|(_, slot)| slot.summary.is_some())
            .map(|(index, slot)| ItemRef::of(file, index, slot))
            .collect()
    }

    /// The view of an item (made again if its detail was let go).
    pub fn view_of(&self, item: ItemRef) -> Option<ItemView<'db>> {
        let data = self.db.files.get(&item.file)?;
        self.view(item.file, data, data.slots.get(item.index)?)
    }

    /// A value an IDE feature derives from one item, made by `make` from the item's view the
    /// first time it is asked for and then kept while the item is unchanged and not checked
    /// again, even when the item's detail is let go. So an outline or the semantic tokens of a
    /// file beyond the detail budget are made once, not on every request. Items move: ranges in
    /// a memo should be relative to the item's start. One memo per type and item.
    pub fn memo<T: Any + Send + Sync>(
        &self,
        item: ItemRef,
        make: impl FnOnce(&ItemView<'db>) -> T,
    ) -> Option<Arc<T>> {
        let slot = self.db.files.get(&item.file)?.slots.get(item.index)?;
        let found = slot.memos.lock().ok()?.iter().find_map(|m| m.clone().downcast::<T>().ok());
        if let Some(found) = found {
            return Some(found);
        }
        let value = Arc::new(make(&self.view_of(item)?));
        slot.memos.lock().ok()?.push(value.clone());
        Some(value)
    }

    /// The item whose range contains `offset` (either end included).
    pub fn item_at(&self, file: FileId, offset: TextSize) -> Option<ItemView<'db>> {
        let data = self.db.files.get(&file)?;
        let index = data.slots.partition_point(|s| s.start + s.len < offset);
        let slot = data.slots.get(index).filter(|s| s.start <= offset)?;
        self.view(file, data, slot)
    }

    /// The function `name` (without `@`) means from `file`'s case `case`, as calls resolve it.
    pub fn resolve(&self, name: &str, file: FileId, case: u32) -> Option<ItemView<'db>> {
        let (def_file, def_case, _) = resolve_def(&self.symbols, name, file, case)?;
        let data = self.db.files.get(def_file)?;
        let slot = data.slots.iter().find(|slot| {
            slot.case == *def_case
                && slot
                    .summary
                    .as_ref()
                    .is_some_and(|s| s.callee.as_ref().is_some_and(|(n, _)| n == name))
        })?;
        self.view(*def_file, data, slot)
    }

    /// Every item of the workspace that defines a function, with its name, in file order.
    /// Cheap: what a feature needs of each beyond its name it reads through `memo`.
    pub fn functions(&self) -> Vec<(String, ItemRef)> {
        let mut out = Vec::new();
        for file in self.files() {
            let Some(data) = self.db.files.get(&file) else { continue };
            for (index, slot) in data.slots.iter().enumerate() {
                let Some((name, _)) = slot.summary.as_ref().and_then(|s| s.callee.as_ref()) else {
                    continue;
                };
                out.push((name.clone(), ItemRef::of(file, index, slot)));
            }
        }
        out
    }

    fn view(&self, file: FileId, data: &'db FileData, slot: &'db Slot) -> Option<ItemView<'db>> {
        slot.summary.as_ref()?;
        let text = &data.text[TextRange::at(slot.start, slot.len)];
        let detail = slot
            .detail
            .get_or_init(|| {
                self.db.details_rebuilt.fetch_add(1, Ordering::Relaxed);
                detail_of(text).map(Arc::new)
            })
            .as_deref()?;
        slot.used.store(self.db.clock.fetch_add(1, Ordering::Relaxed) + 1, Ordering::Relaxed);
        let syntax = detail.node()?;
        let syntax_base = SyntaxBase::between(syntax.syntax().text_range().start(), slot.start);
        let typed = detail.typed.get_or_init(|| {
            let mut lookup = |name: &str| resolve(&self.symbols, name, file, slot.case).cloned();
            let check =
                if self.db.lints { check_item::check_item } else { check_item::check_types };
            check(&detail.lowered.item, text, &mut lookup, &mut Vec::new())
        });
        Some(ItemView {
            file,
            case: slot.case,
            start: slot.start,
            text,
            syntax,
            syntax_base,
            lowered: &detail.lowered,
            typed: typed.as_ref(),
        })
    }
}

/// Lowers a slot's item (from the syntax it was given, else from its text in `text`, the
/// file's) and keeps its summary and detail. Returns whether it offers callers the function
/// it offered before an edit (false for an item new to the file, which may add one).
fn lower_slot(slot: &mut Slot, text: &str, clock: u64) -> bool {
    let syntax = slot.syntax.take();
    let detail = match syntax {
        Some((parse, node)) => detail_in(parse, node),
        None => detail_of(&text[TextRange::at(slot.start, slot.len)]),
    };
    let summary = match &detail {
        Some(detail) => Summary {
            callee: detail.lowered.callee.clone(),
            diagnostics: detail.lowered.diagnostics.clone(),
        },
        None => Summary { callee: None, diagnostics: Vec::new() },
    };
    let same = slot.outdated.take().is_some_and(|old| old == summary.callee);
    slot.summary = Some(summary);
    slot.detail = OnceLock::from(detail.map(Arc::new));
    slot.used.store(clock, Ordering::Relaxed);
    slot.reported = None;
    same
}

/// Checks a lowered slot's item (`text` is the file's), looking functions up with `lookup`,
/// and keeps what it found with the symbols it read, as checked against symbol table
/// `generation`.
fn check_slot(
    slot: &mut Slot,
    text: &str,
    lints: bool,
    mut lookup: impl FnMut(&str) -> Option<Arc<Callee>>,
    generation: u64,
) {
    let item_text = &text[TextRange::at(slot.start, slot.len)];
    let mut deps = Vec::new();
    let mut lookup = |name: &str| {
        let found = lookup(name);
        deps.push((name.to_string(), found.clone()));
        found
    };
    let mut diagnostics = Vec::new();
    if let Some(detail) = slot.kept_detail() {
        let check = if lints { check_item::check_item } else { check_item::check_types };
        let typed = check(&detail.lowered.item, item_text, &mut lookup, &mut diagnostics);
        let typed_slot = OnceLock::new();
        let _ = typed_slot.set(typed);
        // The detail is shared only with `Analysis` views, which cannot outlive the
        // database's `&mut self`; a fresh one is made if it were not unique.
        let detail = slot.detail.get_mut().and_then(Option::as_mut);
        if let Some(detail) = detail.and_then(Arc::get_mut) {
            detail.typed = typed_slot;
        }
    }
    slot.checked =
        Some(Checked { diagnostics, revision: slot.revision, deps, symbols: generation });
    // A memo may show what the checks learnt from other items (a callee's types).
    slot.memos = Mutex::new(Vec::new());
    slot.reported = None;
}

fn shift_diagnostic(d: &mut Diagnostic, shift: &dyn Fn(TextSize) -> TextSize) {
    d.map_ranges(|r| TextRange::new(shift(r.start()), shift(r.end())));
}

/// The node of a reparsed item's text when it is still exactly one item, with nothing left
/// unclosed, so that it can stand in for the old one.
fn standalone_item(parse: &Parse) -> Option<u32> {
    let items = crate::items(parse);
    let [op] = items.as_slice() else { return None };
    let text = parse.tree().text();
    let whole = op.syntax().text_range() == TextRange::up_to(TextSize::of(text))
        && !parse.errors().iter().any(|e| e.kind == SyntaxErrorKind::Unclosed)
        && !op.syntax().tokens().any(|t| t.kind() == SyntaxKind::SPLIT_MARKER);
    whole.then(|| op.syntax().index())
}

/// The items a piece of a file's text makes (`Split`), and the diagnostics between them.
type PieceItems = (Vec<Slot>, Vec<Diagnostic>);

/// The items of a piece of a file's text (`Split`) parsed on its own, not lowered yet, and the
/// diagnostics between them (absolute ranges); `None` if the piece has a syntax error, since
/// the whole text might then parse differently there.
fn piece_items(text: &str, range: TextRange, revisions: &AtomicU64) -> Option<PieceItems> {
    let options = hsir_parser::ParseOptions { threads: 1, ..Default::default() };
    let parse = hsir_parser::parse_with(&text[range], options);
    if !parse.errors().is_empty() {
        return None;
    }
    let parse = Arc::new(parse);
    let items = crate::items(&parse);
    let mut slots = Vec::with_capacity(items.len());
    let mut covered = Vec::with_capacity(items.len());
    for op in &items {
        let local = op.syntax().text_range();
        covered.push(local);
        let syntax = (parse.clone(), op.syntax().index());
        // The piece parsed without errors: the item's key is its text's, made if an edit
        // ever needs it (`Slot::hash`).
        let mut slot = Slot::new(range.start() + local.start(), local.len(), syntax, 0);
        slot.revision = revisions.fetch_add(1, Ordering::Relaxed) + 1;
        slots.push(slot);
    }
    let mut between = outside_diagnostics(&parse, &covered);
    for d in &mut between {
        shift_diagnostic(d, &|at: TextSize| at + range.start());
    }
    Some((slots, between))
}

/// The detail of the item at `node` of `parse`.
fn detail_in(parse: Arc<Parse>, node: u32) -> Option<Detail> {
    let op = parse.tree().node_at(node).and_then(Op::cast)?;
    let lowered = lower(&parse, op);
    Some(Detail { parse: parse.clone(), node, lowered, typed: OnceLock::new() })
}

/// The detail of an item made from its text alone. `None` only if the text no longer parses
/// as an op at all, which an item's text always does.
fn detail_of(text: &str) -> Option<Detail> {
    let parse = hsir_parser::parse(text.to_string());
    let node = standalone_item(&parse)
        .or_else(|| crate::items(&parse).first().map(|op| op.syntax().index()))?;
    detail_in(Arc::new(parse), node)
}

/// Lowers one item and computes the diagnostics its text alone decides (relative ranges).
fn lower(parse: &Parse, op: Op<'_>) -> Lowered {
    let mut typed = Vec::new();
    let item = ir::lower_noting_types(op, &mut typed);
    let range = op.syntax().text_range();
    let mut diagnostics = Vec::new();
    let errors = parse.errors();
    let first = errors.partition_point(|e| e.range.start() < range.start());
    for error in &errors[first..] {
        if error.range.start() >= range.end() {
            break;
        }
        if range.contains_range(error.range) {
            diagnostics.push(crate::syntax::from_syntax_error(error));
        }
    }
    crate::check_types::type_diagnostics_of(op.syntax().tree(), &typed, &mut diagnostics);
    crate::check_pipeline::check_item(op, &mut diagnostics);
    let base = range.start();
    for d in &mut diagnostics {
        shift_diagnostic(d, &|at: TextSize| at.checked_sub(base).unwrap_or_default());
    }
    let callee = check_item::callee_of(&item);
    Lowered { item, callee, diagnostics }
}

/// Syntax errors and type problems outside every item.
fn outside_diagnostics(parse: &Parse, covered: &[TextRange]) -> Vec<Diagnostic> {
    let inside = |r: TextRange| {
        let i = covered.partition_point(|c| c.end() <= r.start());
        covered.get(i).is_some_and(|c| c.contains_range(r))
    };
    let mut out: Vec<Diagnostic> = parse
        .errors()
        .iter()
        .filter(|e| !inside(e.range))
        .map(crate::syntax::from_syntax_error)
        .collect();
    let mut types = Vec::new();
    crate::check_types::type_diagnostics_outside(parse.root(), covered, &mut types);
    out.extend(types);
    out
}

/// Checks one parsed file on its own: what `hsir check` reports for it alone. It is the
/// database's analysis, run once on a copy of the parse.
pub fn check_parse(parse: &Parse) -> Vec<Diagnostic> {
    let mut db = Database::new();
    db.set_parse(FileId(0), parse.clone());
    db.diagnostics(FileId(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After a change of the whole text, the items that kept their details hold them in the new
    /// parse of the file, not in the old one: otherwise every full-text change (a client that
    /// does not send incremental edits) would leave one more tree of the whole file alive.
    #[test]
    fn reused_details_move_to_the_new_parse() {
        let one = "handshake.func @f(%a: i32) -> (i32) {\n  return %a : i32\n}\n";
        let two = "handshake.func @g(%a: i64) -> (i64) {\n  return %a : i64\n}\n";
        let mut db = Database::new();
        db.set_text(FileId(0), format!("{one}{two}"));
        db.diagnostics(FileId(0));
        db.set_text(FileId(0), format!("{one}{}", two.replace("%a", "%b")));
        db.diagnostics(FileId(0));
        let data = &db.files[&FileId(0)];
        for slot in &data.slots {
            let detail = slot.kept_detail().expect("within the budget, details are kept");
            assert_eq!(detail.parse.tree().text(), data.text, "the detail lives in the new parse");
        }
        assert_eq!(db.counters().lowerings, 3, "the unchanged item was not lowered again");
    }
}
