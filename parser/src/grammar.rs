//! The grammar, written with chumsky over the non-trivia tokens of `input::prepare`.
//!
//! chumsky builds values, not lossless trees, so the grammar builds none: each node parser
//! opens and closes a node of the `TreeBuilder` in the parser state, and a node covers the
//! tokens consumed while it is open. The state implements chumsky's `Inspector`, so
//! what an alternative built is truncated away when the alternative is abandoned.
//!
//! The grammar is total: every token sequence parses. Where the text is broken, an `ERROR_NODE`
//! or a missing piece plus an `Error` event stands in, and parsing goes on at the next line or
//! statement. Closing delimiters are consumed only by the group that opened them, or, when no
//! open group could own them, as junk where they stand.

use chumsky::error::EmptyErr;
use chumsky::input::{Checkpoint, Cursor, InputRef};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;
use std::rc::{self, Rc};

use std::cell::Cell;
use std::sync::mpsc;

use crate::build::{TreeBuilder, TreeMark};
use crate::input::{flags, Tok};
use crate::tree::Node;
use crate::SyntaxErrorKind;
use crate::SyntaxKind::{self, *};

mod simple;
mod tokens;

use tokens::{pass_over, Toks};

pub(crate) type In<'a> = Toks<'a>;
type Ex<'a> = extra::Full<EmptyErr, State<'a>, ()>;

/// What the grammar records; see the module documentation. Eight bytes: a 10 MB file records
/// millions of these.
/// An error covering grammar tokens `start..end` (empty: at `start`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PendingError {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) kind: SyntaxErrorKind,
    pub(crate) message: &'static str,
}

/// Mutable parser state: the tree being built, the errors, and what the recovery rules consult.
pub(crate) struct State<'a> {
    /// All the grammar tokens, for parsers that read ahead (`simple`); the tree builder's
    /// position indexes them.
    toks: &'a [Tok],
    /// The input's jump cell (see `tokens`).
    jump: &'a Cell<usize>,
    pub(crate) tree: TreeBuilder,
    pub(crate) errors: Vec<PendingError>,
    /// How many function-like ops enclose the current position.
    func_depth: u32,
    /// How many `(`, `[`, `{`, `<`, `{-#` groups are open around the current position.
    open: [u32; 5],
    /// Positions of the openers of the open groups, innermost last.
    openers: Vec<u32>,
    /// Functions parsed ahead on another thread, to be spliced in (see `run`).
    prefetch: Option<Prefetch>,
    /// Set while the cursor passes over tokens that are in the tree already.
    skipping: bool,
    /// On the thread that parses ahead: the builder and errors of the op just parsed.
    finished: Option<(TreeBuilder, Vec<PendingError>)>,
}

/// A top-level function op parsed ahead of the main parse.
struct Prefetched {
    /// Grammar tokens `start..end` are the op.
    start: u32,
    end: u32,
    /// The group counts the op was parsed under.
    open: [u32; 5],
    /// The builder's nodes; the first is its root, which stands for the op's parent.
    nodes: Vec<Node>,
    /// Errors, positioned as in the whole text.
    errors: Vec<PendingError>,
}

/// The receiving end of the thread that parses functions ahead.
struct Prefetch {
    /// Where the functions parsed ahead start, in the order they are sent.
    starts: Vec<u32>,
    next: usize,
    /// One result for each start: `None` where the grammar could not finish the op under the
    /// state it assumed, which is never spliced.
    results: mpsc::Receiver<Option<Prefetched>>,
}

#[derive(Debug, Clone, Copy)]
/// Only what an abandoned alternative can change. The group counters and the function depth
/// are left out: a group, once opened, always closes (its contents and closer are total), and
/// so does a function body, so no rewind lands inside one that has since closed.
pub(crate) struct Mark {
    tree: TreeMark,
    errors: u32,
}

impl<'a> State<'a> {
    pub(crate) fn new(toks: &'a [Tok], jump: &'a Cell<usize>, tree: TreeBuilder) -> Self {
        State {
            toks,
            jump,
            tree,
            errors: Vec::new(),
            func_depth: 0,
            open: [0; 5],
            openers: Vec::new(),
            prefetch: None,
            skipping: false,
            finished: None,
        }
    }

    /// The function parsed ahead that starts at grammar token `at`, if there is one and it was
    /// parsed under the state the main parse is in now: then it is exactly what the main parse
    /// would build, because the grammar's decisions depend only on the tokens, the group counts
    /// and the function depth. Results for functions the main parse went past are dropped.
    fn prefetched_at(&mut self, at: u32) -> Option<Prefetched> {
        let prefetch = self.prefetch.as_mut()?;
        while prefetch.starts.get(prefetch.next).is_some_and(|&start| start < at) {
            prefetch.next += 1;
            prefetch.results.recv().ok()?;
        }
        if prefetch.starts.get(prefetch.next) != Some(&at) {
            return None;
        }
        prefetch.next += 1;
        let prefetched = prefetch.results.recv().ok()??;
        (self.func_depth == 0 && self.open == prefetched.open).then_some(prefetched)
    }

    fn error(&mut self, error: PendingError) {
        self.errors.push(error);
    }

    /// Whether every group and function body the grammar entered was left again; the counters
    /// are not restored by rewinds (see `Mark`), so this checks that no rewind crossed one.
    pub(crate) fn balanced(&self) -> bool {
        self.func_depth == 0 && self.open == [0; 5] && self.openers.is_empty()
    }
}

impl<'a> Inspector<'a, In<'a>> for State<'a> {
    type Checkpoint = Mark;

    fn on_token(&mut self, _: &Tok) {
        if !self.skipping {
            self.tree.consume();
        }
    }

    fn on_save<'p>(&self, _: &Cursor<'a, 'p, In<'a>>) -> Mark {
        Mark { tree: self.tree.mark(), errors: self.errors.len() as u32 }
    }

    fn on_rewind<'p>(&mut self, mark: &Checkpoint<'a, 'p, In<'a>, Mark>) {
        let mark = mark.inspector();
        self.tree.rewind(mark.tree);
        self.errors.truncate(mark.errors as usize);
    }
}

// ---- running the grammar -------------------------------------------------------------------

/// Runs the grammar over `toks`; returns the tree's nodes and the grammar's errors, or `None`
/// if the grammar failed (a bug: it is total).
///
/// With two threads, a second thread parses the top-level function ops of the last part of
/// the tokens ahead, each as the main parse would if it reached it with the expected group
/// counts (inside a `module` body or at the top level), while the main thread parses from the
/// start. When the main parse reaches such an op in that state, it splices the result in
/// instead of parsing it (`splice`); otherwise it parses the op itself. Either way the tree and
/// the errors are the ones a single thread builds.
pub(crate) fn run(
    toks: &[Tok],
    functions: &[u32],
    threads: usize,
    stack_bytes: usize,
    hand_parsed: bool,
) -> Option<(Vec<Node>, Vec<PendingError>)> {
    let starts =
        if threads > 1 { functions_parsed_ahead(toks.len(), functions) } else { Vec::new() };
    if starts.is_empty() {
        return run_main(toks, None, hand_parsed);
    }
    let open = expected_open(toks);
    std::thread::scope(|scope| {
        let (sender, results) = mpsc::channel();
        let ahead = starts.clone();
        let worker = std::thread::Builder::new().name("hsir-parse-ahead".into()).spawn_scoped(
            scope,
            move || {
                stacker::grow(stack_bytes, || parse_ahead(toks, &ahead, open, &sender, hand_parsed))
            },
        );
        let prefetch = worker.is_ok().then_some(Prefetch { starts, next: 0, results });
        let outcome = run_main(toks, prefetch, hand_parsed);
        // A worker that failed only cost time: its results were not used past the failure.
        if let Ok(worker) = worker {
            let _ = worker.join();
        }
        outcome
    })
}

fn run_main(
    toks: &[Tok],
    prefetch: Option<Prefetch>,
    hand_parsed: bool,
) -> Option<(Vec<Node>, Vec<PendingError>)> {
    let jump = Cell::new(0);
    let tree = TreeBuilder::new(toks.len() as u32, 0, toks.len() + 1);
    let mut state = State::new(toks, &jump, tree);
    state.prefetch = prefetch;
    let (file, _, _grammar) = parsers(hand_parsed);
    if !file.parse_with_state(Toks::new(toks, &jump), &mut state).has_output() {
        return None;
    }
    debug_assert!(state.balanced(), "the grammar left a group or function open");
    Some((state.tree.into_nodes(), state.errors))
}

/// Where the thread that parses ahead starts, in thousandths of the tokens. It takes more than
/// half: the main thread also splices in what it parsed, which costs about a third of parsing
/// it. Measured on the 10 MB benchmark file: 40–45% beat 50% and 35% (docs/benchmarks.md).
const AHEAD_FROM_PERMILLE: usize = 420;

/// The function starts (`Prepared::functions`) in the part of the `len` tokens parsed ahead.
fn functions_parsed_ahead(len: usize, functions: &[u32]) -> Vec<u32> {
    let from = (len * AHEAD_FROM_PERMILLE / 1000) as u32;
    functions[functions.partition_point(|&at| at < from)..].to_vec()
}

/// The group counts at the top-level functions: one brace open if the file's first op is a
/// `module` (its body), none otherwise. A guess: `State::prefetched_at` checks it.
fn expected_open(toks: &[Tok]) -> [u32; 5] {
    match toks.iter().find(|t| t.has(flags::OP_START)) {
        Some(first) if first.has(flags::MODULE_NAME) => [0, 0, 1, 0, 0],
        _ => [0; 5],
    }
}

/// Parses the op at each of `starts` under group counts `open`, and sends the results in order
/// until the receiver hangs up.
fn parse_ahead(
    toks: &[Tok],
    starts: &[u32],
    open: [u32; 5],
    sender: &mpsc::Sender<Option<Prefetched>>,
    hand_parsed: bool,
) {
    let len = toks.len() as u32;
    // Zero between parses (see `tokens`), so one serves them all.
    let jump = Cell::new(0);
    let (_, op, _grammar) = parsers(hand_parsed);
    // After the op, take what was built, if the op left the state as it found it, and stop:
    // the parse "fails" there, so that it neither needs the end of the input nor walks to it.
    let take = custom(move |inp: &mut InputRef<'_, '_, In<'_>, Ex<'_>>| {
        let state = inp.state();
        if state.func_depth == 0 && state.open == open && state.openers.is_empty() {
            let tree = std::mem::replace(&mut state.tree, TreeBuilder::new(0, 0, 1));
            state.finished = Some((tree, std::mem::take(&mut state.errors)));
        }
        Err::<(), _>(EmptyErr::default())
    });
    let ahead = op.then(take);
    for (k, &start) in starts.iter().enumerate() {
        let expected = starts.get(k + 1).map_or(len, |&next| next) - start;
        let tree = TreeBuilder::new(len, start, expected as usize + 1);
        let mut state = State::new(toks, &jump, tree);
        state.open = open;
        let _ = ahead.parse_with_state(Toks::new(&toks[start as usize..], &jump), &mut state);
        let prefetched = state.finished.take().map(|(tree, mut errors)| {
            for error in &mut errors {
                error.start += start;
                error.end += start;
            }
            Prefetched { start, end: tree.pos(), open, nodes: tree.into_part(), errors }
        });
        if sender.send(prefetched).is_err() {
            return;
        }
    }
}

// ---- primitives ------------------------------------------------------------------------------

fn position<'a>(inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>) -> u32 {
    let here = inp.cursor();
    inp.span_since(&here).start as u32
}

/// Wraps what `inner` consumes in a node of `kind`.
///
/// One `custom` rather than `start().then(inner).then(finish())`: nodes are the grammar's most
/// frequent construct. If `inner` fails, the open node is dropped by the rewind that any
/// enclosing alternative performs.
fn node<'a, O>(
    kind: SyntaxKind,
    inner: impl Parser<'a, In<'a>, O, Ex<'a>> + Clone,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        inp.state().tree.start_node(kind);
        inp.check(&inner)?;
        inp.state().tree.finish_node();
        Ok(())
    })
}

/// Records an error at the current position (on the next token), consuming nothing.
fn error_here<'a>(
    kind: SyntaxErrorKind,
    message: &'static str,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp| {
        let at = position(inp);
        let end = if inp.peek().is_some() { at + 1 } else { at };
        inp.state().error(PendingError { start: at, end, kind, message });
        Ok(())
    })
}

/// Records an error on the token just consumed (for "expected X after Y" messages).
fn error_before<'a>(
    kind: SyntaxErrorKind,
    message: &'static str,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp| {
        let at = position(inp);
        let start = at.saturating_sub(1);
        inp.state().error(PendingError { start, end: at, kind, message });
        Ok(())
    })
}

/// Succeeds, consuming nothing, when the next token satisfies `pred`.
fn peek_is<'a>(pred: impl Fn(Tok) -> bool + Clone) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp| match inp.peek() {
        Some(tok) if pred(tok) => Ok(()),
        _ => Err(EmptyErr::default()),
    })
}

/// Succeeds, consuming nothing, when the next token does not satisfy `pred` (or at the end).
fn peek_not<'a>(pred: impl Fn(Tok) -> bool + Clone) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp| match inp.peek() {
        Some(tok) if pred(tok) => Err(EmptyErr::default()),
        Some(_) => Ok(()),
        None => Err(EmptyErr::default()),
    })
}

/// Succeeds, consuming nothing, when the token after the next one is `kind` (chumsky's cursor
/// peeks one token; the slice gives the second).
fn second_is<'a>(kind: SyntaxKind) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let state = inp.state();
        match state.toks.get(state.tree.pos() as usize + 1) {
            Some(tok) if tok.kind == kind => Ok(()),
            _ => Err(EmptyErr::default()),
        }
    })
}

/// `%x` among an op's parts: an `OPERAND`, or, before `=`, a `REGION_ARG` (`scf.for %i = %lb`,
/// `iter_args(%acc = %init)`: a value the op binds for its region; the value after `=` is an
/// operand). Decided by looking one token further, so no alternative is tried and undone.
fn value_item<'a>() -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let Some(tok) = inp.peek() else { return Err(EmptyErr::default()) };
        if tok.kind != VALUE_ID {
            return Err(EmptyErr::default());
        }
        let state = inp.state();
        let binds = state.toks.get(state.tree.pos() as usize + 1).is_some_and(|t| t.kind == EQ);
        state.tree.start_node(if binds { REGION_ARG } else { OPERAND });
        inp.skip();
        inp.state().tree.finish_node();
        Ok(())
    })
}

/// Succeeds, consuming nothing, at `( %a, %b, ... )` followed by `=` or `in`: values an op binds
/// for its region (`scf.parallel (%i, %j) = (...)`, `scf.forall (%i) in (%n)`), not operands.
fn region_arg_list_ahead<'a>() -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let state = inp.state();
        let ahead = state.toks[state.tree.pos() as usize..].iter();
        if region_arg_list_at(ahead.copied()) {
            Ok(())
        } else {
            Err(EmptyErr::default())
        }
    })
}

/// Whether `toks` start with `( %a (, %b)* )` and then `=` or `in`.
fn region_arg_list_at(mut toks: impl Iterator<Item = Tok>) -> bool {
    if toks.next().map(|t| t.kind) != Some(L_PAREN) {
        return false;
    }
    loop {
        if toks.next().map(|t| t.kind) != Some(VALUE_ID) {
            return false;
        }
        match toks.next().map(|t| t.kind) {
            Some(COMMA) => {}
            Some(R_PAREN) => break,
            _ => return false,
        }
    }
    toks.next().is_some_and(|t| t.kind == EQ || (t.kind == IDENT && t.has(flags::KW_IN)))
}

/// Consumes the next token if it satisfies `pred`. It looks before it takes, so a mismatch
/// costs no consumption (and no tree work) to undo.
fn tok_if<'a>(pred: impl Fn(Tok) -> bool + Clone) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| match inp.peek() {
        Some(tok) if pred(tok) => {
            inp.skip();
            Ok(())
        }
        _ => Err(EmptyErr::default()),
    })
}

fn tok<'a>(kind: SyntaxKind) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    tok_if(move |t| t.kind == kind)
}

fn flagged<'a>(kind: SyntaxKind, flag: u16) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    tok_if(move |t| t.kind == kind && t.has(flag))
}

type BoxedItem<'a> = Boxed<'a, 'a, In<'a>, (), Ex<'a>>;

/// Picks the parser for the next token by its kind: one table lookup, where a `choice` would try
/// each alternative in turn. Tokens whose kind has no entry, or that `refuse` rejects, fail.
fn dispatch<'a>(
    entries: Vec<(&[SyntaxKind], BoxedItem<'a>)>,
    fallback: Option<BoxedItem<'a>>,
    refuse: fn(Tok) -> bool,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    dispatch_with(dispatch_table(entries, fallback), refuse)
}

type DispatchTable<'a> = std::rc::Rc<Vec<Option<BoxedItem<'a>>>>;

fn dispatch_table<'a>(
    entries: Vec<(&[SyntaxKind], BoxedItem<'a>)>,
    fallback: Option<BoxedItem<'a>>,
) -> DispatchTable<'a> {
    let mut table: Vec<Option<BoxedItem<'a>>> = vec![fallback; SyntaxKind::ALL_TOKENS_END as usize];
    for (kinds, parser) in entries {
        for kind in kinds {
            table[*kind as usize] = Some(parser.clone());
        }
    }
    std::rc::Rc::new(table)
}

/// `dispatch` over a table that several parsers share.
fn dispatch_with<'a>(
    table: DispatchTable<'a>,
    refuse: fn(Tok) -> bool,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let Some(tok) = inp.peek() else { return Err(EmptyErr::default()) };
        if refuse(tok) {
            return Err(EmptyErr::default());
        }
        match &table[tok.kind as usize] {
            Some(parser) => inp.check(parser),
            None => Err(EmptyErr::default()),
        }
    })
}

fn never(_: Tok) -> bool {
    false
}

/// Any single token that opens or closes nothing and stops nothing.
fn plain<'a>() -> BoxedItem<'a> {
    tok_if(|t| {
        !t.kind.is_closer()
            && !is_hard_stop(t)
            && !matches!(t.kind, L_PAREN | L_BRACK | L_BRACE | L_ANGLE)
    })
    .boxed()
}

fn slot(closer: SyntaxKind) -> usize {
    match closer {
        R_PAREN => 0,
        R_BRACK => 1,
        R_BRACE => 2,
        R_ANGLE => 3,
        _ => 4,
    }
}

/// A closer that some open group may own: the current construct must stop before it.
fn owned_closer<'a>() -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| match inp.peek() {
        Some(tok) if tok.kind.is_closer() && inp.state().open[slot(tok.kind)] > 0 => Ok(()),
        _ => Err(EmptyErr::default()),
    })
}

/// A closer no open group can own: junk to be consumed where it stands.
fn stray_closer<'a>() -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    let unowned = custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| match inp.peek() {
        Some(tok) if tok.kind.is_closer() && inp.state().open[slot(tok.kind)] == 0 => Ok(()),
        _ => Err(EmptyErr::default()),
    });
    node(
        ERROR_NODE,
        unowned
            .ignore_then(error_here(SyntaxErrorKind::Unexpected, "unexpected closing delimiter"))
            .ignore_then(any()),
    )
}

/// Tokens that end any construct: the split marker, and the start of a resource block (a
/// top-level construct). A stray `#-}` is not one: it is an error where it stands.
fn is_hard_stop(tok: Tok) -> bool {
    matches!(tok.kind, SPLIT_MARKER | FILE_METADATA_BEGIN)
}

/// `#-}` with no resource block open.
fn stray_metadata_end<'a>() -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    node(
        ERROR_NODE,
        error_here(SyntaxErrorKind::Unexpected, "`#-}` without a `{-#` before it")
            .then(tok(FILE_METADATA_END)),
    )
}

/// Where an operation ends: a closer, a hard stop, or the start of another statement.
fn ends_op(tok: Tok) -> bool {
    tok.kind.is_closer()
        || is_hard_stop(tok)
        || tok.has(flags::DEF_START | flags::LABEL_START | flags::OP_START)
}

/// Where an unclosed bracket group gives up: a new definition or function on a fresh line.
fn ends_group(tok: Tok) -> bool {
    is_hard_stop(tok)
        || (tok.has(flags::NEWLINE) && tok.has(flags::DEF_START))
        || (tok.has(flags::OP_START) && tok.has(flags::FUNC_NAME | flags::MODULE_NAME))
}

/// `open contents close`, counting the group as open while `item` runs. A missing closer is an
/// error at the opener; the closer is never taken from an enclosing group.
fn group<'a>(
    opener: SyntaxKind,
    closer: SyntaxKind,
    item: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    delimited(opener, closer, ends_group, item)
}

/// A region's braces: statements inside are its business, so only hard stops end it early.
fn region_braces<'a>(
    item: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    delimited(L_BRACE, R_BRACE, is_hard_stop, item)
}

fn delimited<'a>(
    opener: SyntaxKind,
    closer: SyntaxKind,
    gives_up_at: fn(Tok) -> bool,
    item: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    let stop = peek_is(move |t| t.kind == closer || gives_up_at(t)).or(owned_closer());
    let contents = stop.not().ignore_then(choice((stray_closer(), item))).repeated();
    // Written with `custom` rather than `map_with`: chumsky skips mapping closures when a
    // parser's output is unused, and these side effects must always happen.
    let open = custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| match inp.peek() {
        Some(tok) if tok.kind == opener => {
            let at = position(inp);
            inp.skip();
            let state = inp.state();
            state.openers.push(at);
            state.open[slot(closer)] += 1;
            Ok(())
        }
        _ => Err(EmptyErr::default()),
    });
    let close = custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let closed = inp.peek().is_some_and(|t| t.kind == closer);
        if closed {
            inp.skip();
        }
        let state = inp.state();
        state.open[slot(closer)] -= 1;
        let at = state.openers.pop().expect("every group pushes its opener");
        if !closed {
            state.error(PendingError {
                start: at,
                end: at + 1,
                kind: SyntaxErrorKind::Unclosed,
                message: unclosed_message(closer),
            });
        }
        Ok(())
    });
    open.ignore_then(contents).ignore_then(close)
}

fn unclosed_message(closer: SyntaxKind) -> &'static str {
    match closer {
        R_PAREN => "unclosed `(`: expected `)`",
        R_BRACK => "unclosed `[`: expected `]`",
        R_BRACE => "unclosed `{`: expected `}`",
        R_ANGLE => "unclosed `<`: expected `>`",
        _ => "unclosed `{-#`: expected `#-}`",
    }
}

/// Junk on a line where a statement was expected: an error, then everything up to the next
/// line or statement boundary, with bracket groups consumed whole.
fn junk<'a>(
    message: &'static str,
    balanced: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    let first = choice((balanced.clone(), tok_if(|t| !t.kind.is_closer() && !is_hard_stop(t))));
    let rest = peek_not(|t| t.has(flags::NEWLINE) || t.kind.is_closer() || is_hard_stop(t))
        .ignore_then(choice((balanced, any().ignored())))
        .repeated();
    node(ERROR_NODE, error_here(SyntaxErrorKind::Unexpected, message).ignore_then(first).then(rest))
}

// ---- the grammar -----------------------------------------------------------------------------

/// A parser the grammar declares before defining it, so that definitions can refer to it (and
/// to each other).
type Declared<'a> = Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, (), Ex<'a>>>;

/// The grammar's declared parsers, held while they parse. chumsky's handles to a declared
/// parser are strong references, so a definition holding one (its own, or one whose definition
/// holds it) is a reference cycle: the whole grammar, some 17 KB, was leaked by every parse,
/// which in the server is every edit. Definitions reach declared parsers through `late`, a weak
/// reference, and this is what keeps them alive.
pub(crate) struct Grammar<'a> {
    op: Rc<Declared<'a>>,
    op_item: Rc<Declared<'a>>,
    attr_atom: Rc<Declared<'a>>,
    ty: Rc<Declared<'a>>,
    attr_item: Rc<Declared<'a>>,
}

/// Weak references to the parsers of a `Grammar`.
struct WeakGrammar<'a> {
    op: rc::Weak<Declared<'a>>,
    op_item: rc::Weak<Declared<'a>>,
    attr_atom: rc::Weak<Declared<'a>>,
    ty: rc::Weak<Declared<'a>>,
    attr_item: rc::Weak<Declared<'a>>,
}

impl<'a> Grammar<'a> {
    fn weak(&self) -> WeakGrammar<'a> {
        WeakGrammar {
            op: Rc::downgrade(&self.op),
            op_item: Rc::downgrade(&self.op_item),
            attr_atom: Rc::downgrade(&self.attr_atom),
            ty: Rc::downgrade(&self.ty),
            attr_item: Rc::downgrade(&self.attr_item),
        }
    }
}

/// Defines a declared parser.
fn define<'a>(declared: &Declared<'a>, parser: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone + 'a) {
    let mut handle = declared.clone();
    handle.define(parser);
}

/// A declared parser, through a weak reference (see `Grammar`). It is alive whenever it runs:
/// the caller of `parsers` holds the `Grammar` while it parses.
fn late<'a>(declared: &rc::Weak<Declared<'a>>) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone + 'a {
    let declared = declared.clone();
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| match declared.upgrade() {
        Some(parser) => inp.parse(&*parser),
        None => Err(EmptyErr::default()),
    })
}

/// The whole-file parser, and the operation parser within it. `hand_parsed`: whether
/// statements of the everyday shapes take the hand-written path (`simple`).
fn parsers<'a>(
    hand_parsed: bool,
) -> (impl Parser<'a, In<'a>, (), Ex<'a>>, impl Parser<'a, In<'a>, (), Ex<'a>>, Grammar<'a>) {
    let grammar = Grammar {
        op: Rc::new(Recursive::declare()),
        op_item: Rc::new(Recursive::declare()),
        attr_atom: Rc::new(Recursive::declare()),
        ty: Rc::new(Recursive::declare()),
        attr_item: Rc::new(Recursive::declare()),
    };
    let weak = grammar.weak();

    // -- attributes ----------------------------------------------------------------------------
    // Generic bracketed contents inside attributes and types: anything, nested groups whole.
    let attr_dict = {
        let key = tok_if(|t| matches!(t.kind, IDENT | STRING));
        let value = attr_value(late(&weak.attr_atom), late(&weak.ty), true);
        let entry = node(ATTR_ENTRY, key.then(tok(EQ).then(value).or_not()));
        let junk_in_dict = node(
            ERROR_NODE,
            error_here(SyntaxErrorKind::Expected, "expected an attribute name").ignore_then(
                tok_if(|t| !t.kind.is_closer() && t.kind != COMMA && !is_hard_stop(t)),
            ),
        );
        node(ATTR_DICT, group(L_BRACE, R_BRACE, choice((entry, tok(COMMA), junk_in_dict))))
    };
    let angle_group = node(ANGLE_GROUP, group(L_ANGLE, R_ANGLE, late(&weak.attr_item)));
    let brace_group = node(BRACE_GROUP, group(L_BRACE, R_BRACE, late(&weak.attr_item)));
    let brace_in_attr = choice((
        peek_is(|t| t.has(flags::DICT_START)).ignore_then(attr_dict.clone()),
        brace_group.clone(),
    ));
    let loc = node(
        LOC,
        flagged(IDENT, flags::KW_LOC).ignore_then(group(L_PAREN, R_PAREN, late(&weak.attr_item))),
    );
    let symbol_ref = node(
        SYMBOL_REF,
        tok(AT_ID)
            .ignore_then(tok(COLON).ignore_then(tok(COLON)).ignore_then(tok(AT_ID)).repeated()),
    );
    // Types are tried only where a name starts them: a strict type parse that can fail deep
    // inside nested `(`/`<` and then be retried as a generic group would make backtracking
    // exponential in the nesting depth.
    define(
        &grammar.attr_item,
        dispatch(
            vec![
                (&[IDENT], choice((loc.clone(), late(&weak.ty), tok(IDENT))).boxed()),
                (&[BANG_ID], late(&weak.ty).boxed()),
                (
                    &[L_PAREN],
                    node(PAREN_GROUP, group(L_PAREN, R_PAREN, late(&weak.attr_item))).boxed(),
                ),
                (
                    &[L_BRACK],
                    node(BRACKET_GROUP, group(L_BRACK, R_BRACK, late(&weak.attr_item))).boxed(),
                ),
                (&[L_ANGLE], angle_group.clone().boxed()),
                (&[L_BRACE], brace_in_attr.clone().boxed()),
                (&[AT_ID], symbol_ref.clone().boxed()),
                (&[FILE_METADATA_END], stray_metadata_end().boxed()),
            ],
            Some(plain()),
            never,
        ),
    );

    define(
        &grammar.attr_atom,
        dispatch(
            vec![
                (
                    &[L_BRACK],
                    node(
                        ARRAY_ATTR,
                        group(
                            L_BRACK,
                            R_BRACK,
                            choice((
                                attr_value(late(&weak.attr_atom), late(&weak.ty), true),
                                tok(COMMA),
                            )),
                        ),
                    )
                    .boxed(),
                ),
                (&[L_BRACE], brace_in_attr.clone().boxed()),
                (
                    &[IDENT],
                    choice((loc.clone(), tok(IDENT).then(angle_group.clone().or_not()).ignored()))
                        .boxed(),
                ),
                (&[HASH_ID], tok(HASH_ID).then(angle_group.clone().or_not()).ignored().boxed()),
                (&[L_ANGLE], choice((late(&weak.ty), angle_group.clone())).boxed()),
                (
                    &[L_PAREN],
                    choice((
                        late(&weak.ty),
                        node(PAREN_GROUP, group(L_PAREN, R_PAREN, late(&weak.attr_item))),
                    ))
                    .boxed(),
                ),
                (&[BANG_ID], late(&weak.ty).boxed()),
                (&[AT_ID], symbol_ref.clone().boxed()),
                (
                    &[STRING, INT, FLOAT, MINUS, ARROW, QUESTION, STAR, PLUS, ERROR],
                    any().ignored().boxed(),
                ),
            ],
            None,
            never,
        ),
    );

    // -- types ---------------------------------------------------------------------------------
    let type_list = late(&weak.ty).then(tok(COMMA).ignore_then(late(&weak.ty)).repeated());
    let extra_signal = {
        let direction = tok(L_PAREN).then(tok(IDENT)).then(tok(R_PAREN));
        let name = tok(IDENT).then(tok(COLON));
        node(
            EXTRA_SIGNAL,
            // `(U) i1`, `e: i1 (U)`, and the seed's `e: (U) i1`.
            direction
                .clone()
                .or_not()
                .then(name.or_not())
                .then(direction.clone().or_not())
                .then(late(&weak.ty))
                .then(direction.or_not()),
        )
    };
    let extra_signal_list = node(
        EXTRA_SIGNAL_LIST,
        tok(L_BRACK)
            .then(extra_signal.clone().then(tok(COMMA).then(extra_signal).repeated()).or_not())
            .then(tok(R_BRACK)),
    );
    let channel_params = node(
        CHANNEL_PARAMS,
        tok(L_ANGLE)
            .then(
                choice((
                    extra_signal_list.clone().ignored(),
                    late(&weak.ty).then(tok(COMMA).then(extra_signal_list).or_not()).ignored(),
                ))
                .or_not(),
            )
            .then(tok(R_ANGLE)),
    );
    let type_params = node(TYPE_PARAMS, group(L_ANGLE, R_ANGLE, late(&weak.attr_item)));
    let function_type = node(
        FUNCTION_TYPE,
        tok(L_PAREN).then(type_list.clone().or_not()).then(tok(R_PAREN)).then(tok(ARROW)).then(
            // A result that starts with `(` is a parenthesized list; the function type `ty`
            // would read the same `( ... )` first, so it is not tried again after the list
            // failed (retrying it at every level of nesting is exponential).
            choice((
                tok(L_PAREN).then(type_list.clone().or_not()).then(tok(R_PAREN)).ignored(),
                peek_is(|t| t.kind != L_PAREN).ignore_then(late(&weak.ty)),
            )),
        ),
    );
    define(
        &grammar.ty,
        dispatch(
            vec![
                // Dynamatic's short form: `<i32>`, `<>`, `<i32, [e: i1]>`.
                (&[L_ANGLE], node(TYPE, channel_params.clone()).boxed()),
                (
                    &[IDENT, BANG_ID],
                    node(
                        TYPE,
                        choice((
                            peek_is(|t| t.has(flags::CHANNEL_NAME))
                                .ignore_then(any())
                                .then(channel_params.clone().or_not())
                                .ignored(),
                            tok_if(|t| !t.has(flags::OP_START))
                                .then(
                                    peek_is(|t| t.kind == L_ANGLE)
                                        .ignore_then(type_params)
                                        .or_not(),
                                )
                                .ignored(),
                        )),
                    )
                    .boxed(),
                ),
                (&[L_PAREN], node(TYPE, function_type).boxed()),
            ],
            None,
            never,
        ),
    );
    let type_elem = choice((
        late(&weak.ty),
        node(BRACKET_TYPE_LIST, tok(L_BRACK).then(type_list.clone().or_not()).then(tok(R_BRACK))),
    ));
    let type_elems = type_elem.clone().then(tok(COMMA).ignore_then(type_elem).repeated());
    // `: T, U [to|-> V, W]...`; with nothing type-like after the `:`, an error only if the
    // statement ends there, otherwise the `:` is left as a plain token (unknown custom syntax).
    let more_types =
        tok(ARROW).or(flagged(IDENT, flags::KW_TO)).ignore_then(type_elems.clone()).repeated();
    let type_annotation = choice((
        node(TYPE_LIST, tok(COLON).ignore_then(type_elems.clone()).then(more_types.clone())),
        node(
            TYPE_LIST,
            tok(COLON)
                .ignore_then(peek_is(ends_op).or(end()))
                .ignore_then(error_before(SyntaxErrorKind::Expected, "expected a type after `:`")),
        ),
    ));
    let arrow_types = node(TYPE_LIST, tok(ARROW).ignore_then(type_elems).then(more_types));

    // -- operations ----------------------------------------------------------------------------
    let region = {
        let block_arg = node(
            BLOCK_ARG,
            tok(VALUE_ID).then(tok(COLON)).then(late(&weak.ty)).then(loc.clone().or_not()),
        );
        let block_arg_list = node(
            BLOCK_ARG_LIST,
            group(L_PAREN, R_PAREN, choice((block_arg, tok(COMMA), late(&weak.op_item)))),
        );
        let label = node(
            BLOCK_LABEL,
            flagged(CARET_ID, flags::LABEL_START).then(block_arg_list.or_not()).then(tok(COLON)),
        );
        let statement = statement(late(&weak.op), late(&weak.op_item), true, hand_parsed);
        let block = node(
            BLOCK,
            choice((
                label.then(statement.clone().repeated()).ignored(),
                statement.repeated().at_least(1),
            )),
        );
        node(REGION, region_braces(block))
    };

    let brace_in_op = choice((
        peek_is(|t| t.has(flags::DICT_START)).ignore_then(attr_dict.clone()),
        region.clone(),
    ));
    let inline_attr = node(
        ATTR_ENTRY,
        tok(IDENT).then(tok(EQ)).then(attr_value(late(&weak.attr_atom), late(&weak.ty), false)),
    );
    // `(%i, %j)` before `=` or `in`: values the op binds for its region
    // (`scf.parallel (%i, %j) = (...)`, `scf.forall (%i) in (%n)`); see `value_item` for `%i =`.
    let region_arg = node(REGION_ARG, tok(VALUE_ID));
    let region_arg_list = region_arg_list_ahead().ignore_then(node(
        PAREN_GROUP,
        tok(L_PAREN)
            .then(region_arg.clone())
            .then(tok(COMMA).then(region_arg.clone()).repeated())
            .then(tok(R_PAREN)),
    ));
    let op_table = dispatch_table(
        vec![
            (&[VALUE_ID], value_item().boxed()),
            (&[COLON], choice((type_annotation, tok(COLON))).boxed()),
            (&[ARROW], choice((arrow_types, tok(ARROW))).boxed()),
            (
                &[L_PAREN],
                choice((
                    region_arg_list,
                    node(PAREN_GROUP, group(L_PAREN, R_PAREN, late(&weak.op_item))),
                ))
                .boxed(),
            ),
            (&[L_BRACK], node(BRACKET_GROUP, group(L_BRACK, R_BRACK, late(&weak.op_item))).boxed()),
            (&[L_BRACE], brace_in_op.clone().boxed()),
            (
                &[IDENT],
                choice((
                    second_is(L_PAREN).ignore_then(choice((
                        loc.clone(),
                        node(
                            KEYWORD_GROUP,
                            tok(IDENT).then(group(L_PAREN, R_PAREN, late(&weak.op_item))),
                        ),
                    ))),
                    second_is(EQ).ignore_then(inline_attr),
                    tok(IDENT),
                ))
                .boxed(),
            ),
            (
                &[CARET_ID],
                node(
                    SUCCESSOR,
                    tok(CARET_ID).then(
                        node(PAREN_GROUP, group(L_PAREN, R_PAREN, late(&weak.op_item))).or_not(),
                    ),
                )
                .boxed(),
            ),
            (&[AT_ID], symbol_ref.clone().boxed()),
            (
                &[BANG_ID],
                node(
                    TYPE,
                    tok(BANG_ID).then(
                        type_params_or_channel(channel_params.clone(), late(&weak.attr_item))
                            .or_not(),
                    ),
                )
                .boxed(),
            ),
            (&[HASH_ID], node(ATTR, tok(HASH_ID).then(angle_group.clone().or_not())).boxed()),
            (&[L_ANGLE], angle_group.clone().boxed()),
            (&[FILE_METADATA_END], stray_metadata_end().boxed()),
        ],
        Some(plain()),
    );
    define(&grammar.op_item, dispatch_with(op_table.clone(), never));
    // An op's own items: everything up to where the op ends.
    let op_body_item = dispatch_with(op_table, ends_op);

    let body = op_body_item.clone().repeated();

    // Function-like ops: `@name(args) -> results attributes {...} { body }`.
    let func_body = {
        let direction = tok(IDENT).then(peek_is(|t| matches!(t.kind, VALUE_ID | IDENT)));
        let named = direction
            .or_not()
            .then(tok_if(|t| matches!(t.kind, VALUE_ID | IDENT)))
            .then(tok(COLON))
            .then(late(&weak.ty))
            .ignored();
        let arg = node(
            FUNC_ARG,
            choice((
                tok(ELLIPSIS),
                choice((named, late(&weak.ty)))
                    .then(attr_dict.clone().or_not())
                    .then(loc.clone().or_not())
                    .ignored(),
            )),
        );
        let arg_list = node(
            FUNC_ARG_LIST,
            tok(L_PAREN)
                .then(arg.clone().then(tok(COMMA).then(arg).repeated()).or_not())
                .then(tok(R_PAREN)),
        );
        let result = node(
            FUNC_RESULT,
            late(&weak.ty).then(attr_dict.clone().or_not()).then(loc.clone().or_not()),
        );
        let results = node(
            FUNC_RESULT_LIST,
            tok(ARROW).then(choice((
                tok(L_PAREN)
                    .then(result.clone().then(tok(COMMA).then(result).repeated()).or_not())
                    .then(tok(R_PAREN))
                    .ignored(),
                node(FUNC_RESULT, late(&weak.ty)),
            ))),
        );
        let attributes =
            node(FUNC_ATTRIBUTES, flagged(IDENT, flags::KW_ATTRIBUTES).then(attr_dict.clone()));
        let visibility = tok(IDENT).then(peek_is(|t| t.kind == AT_ID));
        let signature = choice((
            simple::signature(hand_parsed),
            node(
                FUNC_SIGNATURE,
                visibility
                    .or_not()
                    .then(tok(AT_ID))
                    .then(
                        node(TYPE_PARAMS, group(L_ANGLE, R_ANGLE, late(&weak.attr_item))).or_not(),
                    )
                    .then(arg_list)
                    .then(results.or_not())
                    .then(attributes.or_not()),
            ),
        ));
        let enter = custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
            inp.state().func_depth += 1;
            Ok(())
        });
        let leave = custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
            inp.state().func_depth -= 1;
            Ok(())
        });
        let with_signature = signature
            .then(
                peek_is(|t| t.kind == L_BRACE)
                    .ignore_then(enter.then(region.clone()).then(leave))
                    .or_not(),
            )
            .then(body.clone())
            .ignored();
        let without_signature = error_here(
            SyntaxErrorKind::Expected,
            "expected a function signature: `@name(%arg: type, ...) -> (types)`",
        )
        .then(enter)
        .then(body.clone())
        .then(leave)
        .ignored();
        choice((with_signature, without_signature))
    };

    // `pipeline.scheduled "name"(%a : T = %outer) stall(..) clock(..) ... -> (out : T) { ... }`.
    let pipeline_body = {
        let input = node(
            PIPELINE_INPUT,
            tok(VALUE_ID)
                .then(tok(COLON))
                .then(late(&weak.ty))
                .then(tok(EQ))
                .then(node(OPERAND, tok(VALUE_ID))),
        );
        let inputs = node(
            PIPELINE_INPUT_LIST,
            tok(L_PAREN)
                .then(input.clone().then(tok(COMMA).then(input).repeated()).or_not())
                .then(tok(R_PAREN)),
        );
        let output = node(PIPELINE_OUTPUT, tok(IDENT).then(tok(COLON)).then(late(&weak.ty)));
        let outputs = node(
            PIPELINE_OUTPUT_LIST,
            tok(ARROW)
                .then(tok(L_PAREN))
                .then(output.clone().then(tok(COMMA).then(output).repeated()).or_not())
                .then(tok(R_PAREN)),
        );
        let item = dispatch(
            vec![(&[ARROW], choice((outputs, late(&weak.op_item))).boxed())],
            Some(late(&weak.op_item).boxed()),
            ends_op,
        )
        .repeated();
        tok(STRING).or_not().then(inputs).then(item).ignored()
    };

    let result = node(RESULT, tok(VALUE_ID).then(tok(COLON).then(tok(INT)).or_not()));
    let results =
        node(RESULT_LIST, result.clone().then(tok(COMMA).then(result).repeated()).then(tok(EQ)));
    let op_name = node(OP_NAME, tok_if(|t| matches!(t.kind, IDENT | STRING)));
    let named_op = choice((
        peek_is(|t| t.has(flags::FUNC_NAME)).ignore_then(op_name.clone()).ignore_then(func_body),
        peek_is(|t| t.has(flags::PIPELINE_NAME))
            .ignore_then(op_name.clone())
            .ignore_then(pipeline_body),
        op_name.ignore_then(body.clone()),
    ));
    define(
        &grammar.op,
        node(
            OP,
            choice((
                peek_is(|t| t.kind == VALUE_ID).ignore_then(results.clone()).ignore_then(choice((
                    named_op.clone(),
                    error_before(SyntaxErrorKind::Expected, "expected an operation name after `=`")
                        .ignore_then(body.clone()),
                ))),
                named_op,
            )),
        )
        .boxed(),
    );

    // -- top level -----------------------------------------------------------------------------
    let balanced = choice((
        node(PAREN_GROUP, group(L_PAREN, R_PAREN, late(&weak.attr_item))),
        node(BRACKET_GROUP, group(L_BRACK, R_BRACK, late(&weak.attr_item))),
        node(BRACE_GROUP, group(L_BRACE, R_BRACE, late(&weak.attr_item))),
        node(ANGLE_GROUP, group(L_ANGLE, R_ANGLE, late(&weak.attr_item))),
    ));
    let alias_value = choice((
        attr_value(late(&weak.attr_atom), late(&weak.ty), true),
        error_here(SyntaxErrorKind::Expected, "expected a value after `=` in an alias definition"),
    ));
    let alias_def = node(
        ALIAS_DEF,
        choice((
            tok(BANG_ID).then(tok(EQ)).then(late(&weak.ty).or(alias_value.clone())).ignored(),
            tok(HASH_ID).then(tok(EQ)).then(alias_value).ignored(),
        )),
    );
    let resource_block = node(
        RESOURCE_BLOCK,
        delimited(
            FILE_METADATA_BEGIN,
            FILE_METADATA_END,
            |t| t.kind == SPLIT_MARKER,
            late(&weak.attr_item),
        ),
    );
    let top_statement = choice((
        tok(SPLIT_MARKER),
        alias_def,
        resource_block,
        statement(late(&weak.op), late(&weak.op_item), false, hand_parsed),
        stray_closer(),
        junk("expected an operation", balanced),
        // Nothing above fails on a token that reaches here; this keeps the grammar total if a
        // later change breaks that.
        node(ERROR_NODE, error_here(SyntaxErrorKind::Unexpected, "unexpected token").then(any())),
    ));
    (top_statement.repeated().then(end()).ignored(), late(&weak.op), grammar)
}

/// One statement of a region or of the top level: an operation, or junk with an error.
fn statement<'a>(
    op: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone + 'a,
    op_item: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone + 'a,
    in_region: bool,
    hand_parsed: bool,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    let region_stop = custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let Some(tok) = inp.peek() else { return Ok(()) };
        let unclosed_function = tok.has(flags::OP_START)
            && tok.has(flags::FUNC_NAME | flags::MODULE_NAME)
            && inp.state().func_depth > 0;
        if (in_region && (tok.kind == R_BRACE || tok.has(flags::LABEL_START)))
            || unclosed_function
            || is_hard_stop(tok)
        {
            Ok(())
        } else {
            Err(EmptyErr::default())
        }
    });
    let starts_op = peek_is(|t| {
        matches!(t.kind, IDENT | STRING) || (t.kind == VALUE_ID && t.has(flags::DEF_START))
    });
    let op_junk = peek_is(|t| t.kind == VALUE_ID)
        .ignore_then(junk("expected `=` after the result names", op_item.clone()));
    region_stop.not().ignore_then(choice((
        splice(),
        simple::statement(hand_parsed),
        starts_op.ignore_then(op),
        op_junk,
        stray_closer(),
        stray_metadata_end(),
        owned_closer().not().ignore_then(junk("expected an operation", op_item)),
    )))
}

/// An op parsed ahead on another thread, put in place of parsing it here.
fn splice<'a>() -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(|inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        let at = position(inp);
        let Some(prefetched) = inp.state().prefetched_at(at) else {
            return Err(EmptyErr::default());
        };
        let state = inp.state();
        state.tree.splice(&prefetched.nodes, prefetched.end);
        state.errors.extend_from_slice(&prefetched.errors);
        pass_over(inp, prefetched.end - prefetched.start);
        Ok(())
    })
}

fn attr_value<'a>(
    atom: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
    ty: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
    typed: bool,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    // Inline entries (`numSlots = 1 {attrs} : <i32>`) end before a `{`: it is the op's
    // dictionary, not part of the value.
    let stop = peek_is(move |t| {
        t.kind.is_closer()
            || matches!(t.kind, COMMA | EQ | COLON)
            || (!typed && t.kind == L_BRACE)
            || is_hard_stop(t)
            || t.has(flags::DEF_START | flags::OP_START | flags::LABEL_START)
    });
    let atoms = atom.clone().then(stop.not().ignore_then(atom).repeated());
    let suffix = peek_is(move |t| typed && t.kind == COLON).ignore_then(tok(COLON)).ignore_then(ty);
    node(ATTR, atoms.then(suffix.or_not()))
}

fn type_params_or_channel<'a>(
    channel_params: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
    attr_item: impl Parser<'a, In<'a>, (), Ex<'a>> + Clone,
) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    choice((channel_params, node(TYPE_PARAMS, group(L_ANGLE, R_ANGLE, attr_item))))
}
