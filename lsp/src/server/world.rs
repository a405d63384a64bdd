//! The analysis worker: one thread that owns the database and every open document.
//!
//! Handlers never touch the database. They send `Task`s down one channel, in the order the
//! client sent the messages, and the worker runs them in that order: an edit is applied before
//! any request that follows it, so a request always sees the text the client had when it sent
//! it. Diagnostics are computed when the queue runs dry, so a burst of keystrokes is analysed
//! once, for its last version; results for versions that were superseded are never computed.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;

use hsir_analysis::{Analysis, Database, Diagnostic, FileId, TextRange, TextSize};

use super::config::Settings;
use super::proto;
use crate::position::{Encoding, LineIndex, Lines, Pos};

/// An edit as the client sent it: a range of the previous text (or the whole text).
#[derive(Debug)]
pub struct Change {
    pub range: Option<(Pos, Pos)>,
    pub text: String,
}

/// A unit of work for the worker.
pub enum Task {
    Open {
        uri: String,
        version: i32,
        text: String,
    },
    Change {
        uri: String,
        version: i32,
        changes: Vec<Change>,
    },
    Close {
        uri: String,
    },
    Configure(Box<Settings>),
    /// A read of the world. It is skipped when the client cancelled it first.
    Request {
        job: Box<dyn FnOnce(&mut World) + Send>,
        cancelled: Arc<AtomicBool>,
        /// For a request over a whole file: what makes its per-item parts, a slice at a time,
        /// so that requests sent after it (before any edit) are answered between slices.
        prepare: Option<Prepare>,
    },
}

/// Makes part of a whole-file request's work, until the check it is given says to stop;
/// whether all of it is done.
pub type Prepare = Box<dyn FnMut(&mut World, &dyn Fn() -> bool) -> bool + Send>;

/// How long a whole-file request works before the requests queued behind it get a turn.
const SLICE: std::time::Duration = std::time::Duration::from_millis(20);

/// One open document.
#[derive(Debug)]
pub struct Document {
    pub file: FileId,
    pub version: i32,
    pub lines: LineIndex,
}

/// The open documents, by URI and by file, with their texts.
#[derive(Clone)]
pub struct Docs<'a> {
    docs: &'a HashMap<String, Document>,
    uris: &'a HashMap<FileId, String>,
    analysis: Analysis<'a>,
}

/// An open document as a request sees it.
#[derive(Clone, Copy)]
pub struct DocView<'a> {
    pub file: FileId,
    pub lines: Lines<'a>,
}

impl<'a> Docs<'a> {
    pub fn get(&self, uri: &str) -> Option<DocView<'a>> {
        let doc = self.docs.get(uri)?;
        let text = self.analysis.text(doc.file)?;
        Some(DocView { file: doc.file, lines: doc.lines.view(text) })
    }

    /// A file's URI and lines.
    pub fn of(&self, file: FileId) -> Option<(&'a str, Lines<'a>)> {
        let uri = self.uris.get(&file)?;
        Some((uri.as_str(), self.get(uri)?.lines))
    }
}

/// What was made of one item's diagnostics for the client: kept while the item's list (the
/// same `Arc`) starts at the same line and column, where it gives the same JSON.
struct Fragment {
    /// Held so that the list's address, the cache key, is not reused.
    _diagnostics: Arc<[Diagnostic]>,
    at: Pos,
    json: Arc<str>,
}

/// What the worker owns.
pub struct World {
    pub db: Database,
    pub docs: HashMap<String, Document>,
    uris: HashMap<FileId, String>,
    next_file: u32,
    /// The position encoding agreed in `initialize`.
    pub encoding: Encoding,
    /// Open documents whose diagnostics may have changed since they were last published.
    dirty: Vec<String>,
    /// What was last published for each document, so that a change elsewhere republishes only
    /// the documents whose diagnostics really changed.
    published: HashMap<String, u64>,
    /// Per document, the JSON of each item's diagnostics, by the address of their list.
    fragments: HashMap<String, HashMap<usize, Fragment>>,
    /// What the client can show of a diagnostic.
    pub diagnostic_options: proto::DiagnosticOptions,
    /// Whether a request let go of enough memory to give it back when the client is idle.
    trim_pending: bool,
    /// Problems to tell the user about (a setting that could not be read, an edit that did not
    /// fit the text), drained by the async side.
    pub messages: Vec<String>,
    /// What the last "Generate RTL" and "Place buffers" found in a document, shown with its
    /// diagnostics while the document is as they saw it (or as their edit made it).
    backend: HashMap<String, Vec<Extra>>,
}

/// When the findings of a command on a document are true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// While the document stays at this version.
    Version(i32),
    /// While the document's text has this hash (`text_hash`): the text the command's own edit
    /// makes, whatever versions the client numbers the edit's changes with.
    Text(u64),
}

/// Findings of one command (`source`) on one document.
#[derive(Debug)]
struct Extra {
    source: &'static str,
    until: Until,
    /// Whether the text has had the hash `Until::Text` waits for.
    seen: bool,
    diagnostics: Vec<Diagnostic>,
}

/// The hash `Until::Text` compares.
pub fn text_hash(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

impl World {
    pub fn new(encoding: Encoding, diagnostic_options: proto::DiagnosticOptions) -> World {
        World {
            db: Database::new(),
            docs: HashMap::new(),
            uris: HashMap::new(),
            next_file: 0,
            encoding,
            dirty: Vec::new(),
            published: HashMap::new(),
            fragments: HashMap::new(),
            backend: HashMap::new(),
            diagnostic_options,
            trim_pending: false,
            messages: Vec::new(),
        }
    }

    /// The database brought up to date, beside the open documents, for the IDE features.
    pub fn analysis(&mut self) -> (Analysis<'_>, Docs<'_>) {
        let analysis = self.db.analysis();
        (analysis.clone(), Docs { docs: &self.docs, uris: &self.uris, analysis })
    }

    pub fn doc(&self, uri: &str) -> Option<&Document> {
        self.docs.get(uri)
    }

    /// A document's lines over its current text.
    pub fn lines<'a>(&'a self, doc: &'a Document) -> Lines<'a> {
        doc.lines.view(self.db.text(doc.file).unwrap_or_default())
    }

    fn open(&mut self, uri: String, version: i32, text: String) {
        let file = match self.docs.get(&uri) {
            Some(doc) => doc.file,
            None => {
                self.next_file += 1;
                FileId(self.next_file)
            }
        };
        let lines = LineIndex::new(&text);
        self.db.set_text(file, text);
        self.uris.insert(file, uri.clone());
        self.docs.insert(uri.clone(), Document { file, version, lines });
        self.mark_all_dirty();
    }

    fn change(&mut self, uri: String, version: i32, changes: Vec<Change>) {
        let Some(doc) = self.docs.get_mut(&uri) else {
            self.messages.push(format!("hsir: an edit came for `{uri}`, which is not open"));
            return;
        };
        if version <= doc.version {
            // The protocol has versions increase with every change; an older one can only be a
            // duplicate. Applying it again would corrupt the text.
            self.messages.push(format!(
                "hsir: ignored an edit of `{uri}` to version {version}, older than its version {}",
                doc.version
            ));
            return;
        }
        let file = doc.file;
        for change in changes {
            let doc = self.docs.get_mut(&uri).expect("checked above");
            match change.range {
                None => {
                    doc.lines = LineIndex::new(&change.text);
                    self.db.set_text(file, change.text);
                }
                Some((start, end)) => {
                    let lines = doc.lines.view(self.db.text(file).unwrap_or_default());
                    let (Some(start), Some(end)) =
                        (lines.offset(start, self.encoding), lines.offset(end, self.encoding))
                    else {
                        self.messages.push(format!(
                            "hsir: an edit of `{uri}` names a position outside the text; the server's copy may now differ from the editor's (close and reopen the file to resync)"
                        ));
                        continue;
                    };
                    let range = TextRange::new(start.min(end), end.max(start));
                    self.db.edit(file, range, &change.text);
                    doc.lines.edit(range, &change.text);
                }
            }
        }
        if let Some(doc) = self.docs.get_mut(&uri) {
            doc.version = version;
        }
        self.mark_all_dirty();
    }

    fn close(&mut self, uri: &str) {
        if let Some(doc) = self.docs.remove(uri) {
            self.db.remove_file(doc.file);
            self.uris.remove(&doc.file);
            self.published.remove(uri);
            self.fragments.remove(uri);
            self.backend.remove(uri);
            self.mark_all_dirty();
        }
    }

    /// A change in one file can change another's diagnostics (a caller of an edited `@f`),
    /// so every open document is looked at again; only those whose diagnostics differ from
    /// what was published are sent.
    fn mark_all_dirty(&mut self) {
        self.dirty = self.docs.keys().cloned().collect();
    }

    fn configure(&mut self, settings: &Settings) {
        self.db.set_config(settings.analysis_config());
        self.published.clear();
        self.fragments.clear();
        self.mark_all_dirty();
    }

    /// The `publishDiagnostics` notifications (JSON bodies) of every dirty document whose
    /// diagnostics changed.
    ///
    /// The JSON is written here, not by tower-lsp-server, which would first build a
    /// `serde_json::Value` of the whole list; and each item's part is reused from the last
    /// publish when the item did not change and did not move to another line or column, so a
    /// keystroke in a 15 MB file with thousands of findings rewrites one item's part.
    /// The text and version of an open document.
    pub fn snapshot(&self, uri: &str) -> Option<(String, i32)> {
        let doc = self.docs.get(uri)?;
        Some((self.db.text(doc.file)?.to_string(), doc.version))
    }

    /// Shows what the backend found wrong in `uri` at `version` beside its diagnostics, until
    /// the document changes.
    pub fn set_backend_diagnostics(
        &mut self,
        uri: &str,
        version: i32,
        diagnostics: Vec<Diagnostic>,
    ) {
        self.set_command_diagnostics(uri, "rtl", Until::Version(version), diagnostics);
    }

    /// Shows what the command `source` found in `uri` beside its diagnostics while `until`
    /// holds, in place of what it found before. A version's findings go with the first change;
    /// a text's once the document has had that text and then changed.
    pub fn set_command_diagnostics(
        &mut self,
        uri: &str,
        source: &'static str,
        until: Until,
        diagnostics: Vec<Diagnostic>,
    ) {
        let extras = self.backend.entry(uri.to_string()).or_default();
        let had = extras.iter().any(|e| e.source == source);
        extras.retain(|e| e.source != source);
        if !diagnostics.is_empty() {
            extras.push(Extra { source, until, seen: false, diagnostics });
        }
        if had || !extras.is_empty() {
            self.dirty.push(uri.to_string());
        }
    }

    fn take_publishes(&mut self) -> Vec<Vec<u8>> {
        let mut dirty = std::mem::take(&mut self.dirty);
        dirty.sort();
        let mut out = Vec::new();
        for uri in dirty {
            let Some(doc) = self.docs.get(&uri) else { continue };
            let (file, version) = (doc.file, doc.version);
            let Some(reported) = self.db.reported(file) else { continue };
            let Some(text) = self.db.text(file) else { continue };
            let doc = &self.docs[&uri];
            let lines = doc.lines.view(text);
            let Some(lsp_uri) = proto::uri(&uri) else { continue };
            let options = &self.diagnostic_options;
            let old = self.fragments.remove(&uri).unwrap_or_default();
            let mut fragments = HashMap::with_capacity(reported.items.len());
            let mut parts: Vec<Arc<str>> = Vec::with_capacity(reported.items.len() + 1);
            let mut key = DefaultHasher::new();
            version.hash(&mut key);
            // A part with file ranges (diagnostics outside items, the backend's), hashed in.
            let file_part = |diagnostics: &[Diagnostic], key: &mut DefaultHasher| -> Arc<str> {
                let json = proto::diagnostics_json(
                    diagnostics,
                    TextSize::from(0),
                    &lsp_uri,
                    &lines,
                    self.encoding,
                    options,
                );
                json.hash(key);
                json.into()
            };
            // At most `MAX_SHOWN`, then one note for the rest (`hsir check` does the same).
            let mut room = hsir_analysis::MAX_SHOWN;
            let mut outside = reported.outside.as_slice();
            let mut hidden: Option<(TextRange, Vec<&Diagnostic>)> = None;
            if outside.len() > room {
                hidden = Some((outside[room].range, outside[room..].iter().collect()));
                outside = &outside[..room];
            }
            room -= outside.len();
            if !outside.is_empty() {
                parts.push(file_part(outside, &mut key));
            }
            for (start, diagnostics) in &reported.items {
                if let Some((_, rest)) = &mut hidden {
                    rest.extend(diagnostics.iter());
                    continue;
                }
                if diagnostics.len() > room {
                    let shown = &diagnostics[..room];
                    hidden = Some((
                        diagnostics[room].range + *start,
                        diagnostics[room..].iter().collect(),
                    ));
                    if !shown.is_empty() {
                        let json = proto::diagnostics_json(
                            shown,
                            *start,
                            &lsp_uri,
                            &lines,
                            self.encoding,
                            options,
                        );
                        json.hash(&mut key);
                        parts.push(json.into());
                    }
                    continue;
                }
                room -= diagnostics.len();
                let address = Arc::as_ptr(diagnostics) as *const () as usize;
                let at = lines.pos(*start, self.encoding);
                let json = match old.get(&address) {
                    Some(fragment) if fragment.at == at => fragment.json.clone(),
                    _ => proto::diagnostics_json(
                        diagnostics,
                        *start,
                        &lsp_uri,
                        &lines,
                        self.encoding,
                        options,
                    )
                    .into(),
                };
                (address, at.line, at.character).hash(&mut key);
                parts.push(json.clone());
                fragments.insert(address, Fragment { _diagnostics: diagnostics.clone(), at, json });
            }
            if let Some((at, rest)) = hidden {
                let note = hsir_analysis::not_shown_note(at, rest);
                parts.push(file_part(std::slice::from_ref(&note), &mut key));
            }
            if let Some(extras) = self.backend.get_mut(&uri) {
                let hash = extras
                    .iter()
                    .any(|e| matches!(e.until, Until::Text(_)))
                    .then(|| text_hash(text));
                extras.retain_mut(|extra| {
                    let live = match extra.until {
                        Until::Version(v) => v == version,
                        Until::Text(h) => hash == Some(h),
                    };
                    if live {
                        extra.seen = true;
                        parts.push(file_part(&extra.diagnostics, &mut key));
                        return true;
                    }
                    // Text findings wait for the edit that makes their text; once it came and
                    // went, they are stale.
                    matches!(extra.until, Until::Text(_)) && !extra.seen
                });
                if extras.is_empty() {
                    self.backend.remove(&uri);
                }
            }
            let key = key.finish();
            self.fragments.insert(uri.clone(), fragments);
            if self.published.get(&uri) == Some(&key) {
                continue;
            }
            self.published.insert(uri.clone(), key);
            out.push(proto::publish_json(&lsp_uri, version, &parts));
        }
        out
    }
}

/// Runs the worker until the channel closes. `publish` receives diagnostics and messages for
/// the client, in order.
pub fn run(
    encoding: Encoding,
    settings: Settings,
    diagnostic_options: proto::DiagnosticOptions,
    tasks: Receiver<Task>,
    publish: impl Fn(Vec<Vec<u8>>, Vec<String>),
) {
    let mut world = World::new(encoding, diagnostic_options);
    world.configure(&settings);
    let mut queue: VecDeque<Task> = VecDeque::new();
    loop {
        if queue.is_empty() {
            // A request over a whole large file leaves garbage behind on both sides: the
            // details it made and let go, and the answer tower-lsp-server turned into a
            // `serde_json::Value` (hundreds of MB for the semantic tokens of 15 MB). Once the
            // client has been quiet for a moment, the free memory goes back to the system.
            let task = if world.trim_pending {
                match tasks.recv_timeout(IDLE_BEFORE_TRIM) {
                    Err(RecvTimeoutError::Timeout) => {
                        world.trim_pending = false;
                        crate::memory::give_back_free_memory();
                        continue;
                    }
                    other => other.map_err(|_| ()),
                }
            } else {
                tasks.recv().map_err(|_| ())
            };
            match task {
                Ok(task) => queue.push_back(task),
                Err(()) => return,
            }
        }
        // Take everything already sent, so that a burst of edits is analysed once.
        queue.extend(tasks.try_iter());
        while let Some(mut task) = queue.pop_front() {
            if let Task::Request { prepare, cancelled, .. } = &mut task {
                if let Some(prepare) = prepare.take() {
                    interleave(&mut world, prepare, cancelled, &mut queue, &tasks);
                }
            }
            handle(&mut world, task);
            queue.extend(tasks.try_iter());
        }
        let messages = std::mem::take(&mut world.messages);
        let publishes = guarded(&mut world, "computing diagnostics", World::take_publishes);
        // A cold check of a large file leaves hundreds of MB free. Given back before the
        // publish: it adds a few percent to opening such a file, and the memory the client
        // sees the server hold afterwards is what it really keeps.
        give_back_if_released(&mut world);
        publish(publishes.unwrap_or_default(), messages);
    }
}

/// Runs a whole-file request's `prepare` in slices; between slices, the requests that arrived
/// behind it are answered first, up to the first edit (or other change of the world), which
/// must wait for it: they see the same text it does, and are cheap beside it (a hover while
/// the semantic tokens of 5 MB are made).
fn interleave(
    world: &mut World,
    mut prepare: Prepare,
    cancelled: &AtomicBool,
    queue: &mut VecDeque<Task>,
    tasks: &Receiver<Task>,
) {
    loop {
        if cancelled.load(Ordering::Relaxed) {
            return;
        }
        let deadline = std::time::Instant::now() + SLICE;
        let stop = move || std::time::Instant::now() >= deadline;
        let done = guarded(world, "answering a request", |w| prepare(w, &stop));
        if done.unwrap_or(true) {
            return;
        }
        queue.extend(tasks.try_iter());
        let mut at = 0;
        while at < queue.len() {
            match &queue[at] {
                Task::Request { prepare: None, .. } => {
                    if let Some(task) = queue.remove(at) {
                        handle(world, task);
                    }
                    queue.extend(tasks.try_iter());
                }
                Task::Request { .. } => at += 1,
                _ => break,
            }
        }
    }
}

/// Gives free memory back to the system when many details were let go since last time.
fn give_back_if_released(world: &mut World) {
    if world.db.take_released() >= TRIM_AFTER {
        crate::memory::give_back_free_memory();
    }
}

/// How long the client must be quiet before memory a request left free is given back.
const IDLE_BEFORE_TRIM: std::time::Duration = std::time::Duration::from_millis(500);

/// Bytes of item text whose details, once let go, make it worth giving memory back to the
/// system (about 45 bytes of memory each).
const TRIM_AFTER: usize = 256 << 10;

fn handle(world: &mut World, task: Task) {
    match task {
        Task::Open { uri, version, text } => {
            guarded(world, "opening a document", |w| w.open(uri, version, text));
        }
        Task::Change { uri, version, changes } => {
            guarded(world, "applying an edit", |w| w.change(uri, version, changes));
        }
        Task::Close { uri } => {
            guarded(world, "closing a document", |w| w.close(&uri));
        }
        Task::Configure(settings) => world.configure(&settings),
        Task::Request { job, cancelled, .. } => {
            if !cancelled.load(Ordering::Relaxed) {
                // The job reports its own panic as an error response (see `server::request`);
                // this guard only keeps the worker alive.
                guarded(world, "answering a request", job);
                // A request over a whole large file (an outline) may have made every item's
                // detail again; only the budget's worth is kept. What it let go, and what its
                // answer's conversion leaves behind, goes back to the system when the client
                // is next idle.
                world.db.release_details();
                world.db.take_released();
                world.trim_pending = true;
            }
        }
    }
}

/// Runs `f`, turning a panic into a message for the user. The database stays usable: the
/// worst a panic leaves behind is an item whose results are recomputed next time.
fn guarded<T>(world: &mut World, what: &str, f: impl FnOnce(&mut World) -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(|| f(world))) {
        Ok(value) => Some(value),
        Err(panic) => {
            let message = panic_message(&panic);
            world.messages.push(format!("hsir: internal error while {what}: {message}"));
            None
        }
    }
}

pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_string()
    }
}

#[cfg(test)]
#[path = "world_tests.rs"]
mod tests;
