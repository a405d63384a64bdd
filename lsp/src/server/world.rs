//! The analysis worker: one thread that owns the database and every open document.
//!
//! Handlers never touch the database. They send `Task`s down one channel, in the order the
//! client sent the messages, and the worker runs them in that order: an edit is applied before
//! any request that follows it, so a request always sees the text the client had when it sent
//! it. Diagnostics are computed when the queue runs dry, so a burst of keystrokes is analysed
//! once, for its last version; results for versions that were superseded are never computed.

use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;

use hsir_analysis::{Database, Diagnostic, FileId, TextRange};

use super::config::Settings;
use super::position::{Encoding, LineIndex, Pos};

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
    },
}

/// One open document.
#[derive(Debug)]
pub struct Document {
    pub file: FileId,
    pub version: i32,
    pub lines: LineIndex,
}

/// The open documents, by URI and by file.
#[derive(Clone, Copy)]
pub struct Docs<'a> {
    docs: &'a HashMap<String, Document>,
    uris: &'a HashMap<FileId, String>,
}

impl<'a> Docs<'a> {
    pub fn get(&self, uri: &str) -> Option<&'a Document> {
        self.docs.get(uri)
    }

    /// A file's URI and line index.
    pub fn of(&self, file: FileId) -> Option<(&'a str, &'a LineIndex)> {
        let uri = self.uris.get(&file)?;
        Some((uri.as_str(), &self.docs.get(uri)?.lines))
    }
}

/// Diagnostics ready to send: the worker hands them to the async side, which publishes them.
#[derive(Debug)]
pub struct Publish {
    pub uri: String,
    pub version: Option<i32>,
    pub diagnostics: Vec<Diagnostic>,
    pub lines: Arc<LineIndex>,
}

/// What the worker owns.
pub struct World {
    pub db: Database,
    pub docs: HashMap<String, Document>,
    uris: HashMap<FileId, String>,
    next_file: u32,
    pub settings: Settings,
    pub encoding: Encoding,
    /// Open documents whose diagnostics may have changed since they were last published.
    dirty: Vec<String>,
    /// What was last published for each document, so that a change elsewhere republishes only
    /// the documents whose diagnostics really changed.
    published: HashMap<String, u64>,
    /// Problems to tell the user about (a setting that could not be read, an edit that did not
    /// fit the text), drained by the async side.
    pub messages: Vec<String>,
}

impl World {
    pub fn new(encoding: Encoding) -> World {
        World {
            db: Database::new(),
            docs: HashMap::new(),
            uris: HashMap::new(),
            next_file: 0,
            settings: Settings::default(),
            encoding,
            dirty: Vec::new(),
            published: HashMap::new(),
            messages: Vec::new(),
        }
    }

    /// The database brought up to date, beside the open documents, for the IDE features.
    pub fn analysis(&mut self) -> (hsir_analysis::Analysis<'_>, Docs<'_>) {
        (self.db.analysis(), Docs { docs: &self.docs, uris: &self.uris })
    }

    pub fn doc(&self, uri: &str) -> Option<&Document> {
        self.docs.get(uri)
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
                    let (Some(start), Some(end)) = (
                        doc.lines.offset(start, self.encoding),
                        doc.lines.offset(end, self.encoding),
                    ) else {
                        self.messages.push(format!(
                            "hsir: an edit of `{uri}` names a position outside the text; the server's copy may now differ from the editor's (close and reopen the file to resync)"
                        ));
                        continue;
                    };
                    let range = TextRange::new(start.min(end), end.max(start));
                    self.db.edit(file, range, &change.text);
                    let text = self.db.text(file).unwrap_or_default();
                    doc.lines.edit(range, &change.text, text);
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
            self.mark_all_dirty();
        }
    }

    /// A change in one file can change another's diagnostics (a caller of an edited `@f`),
    /// so every open document is looked at again; only those whose diagnostics differ from
    /// what was published are sent.
    fn mark_all_dirty(&mut self) {
        self.dirty = self.docs.keys().cloned().collect();
    }

    fn configure(&mut self, settings: Settings) {
        self.db.set_config(settings.analysis_config());
        self.settings = settings;
        self.published.clear();
        self.mark_all_dirty();
    }

    /// The diagnostics of every dirty document whose diagnostics changed.
    fn take_publishes(&mut self) -> Vec<Publish> {
        let mut dirty = std::mem::take(&mut self.dirty);
        dirty.sort();
        let mut out = Vec::new();
        for uri in dirty {
            let Some(doc) = self.docs.get(&uri) else { continue };
            let file = doc.file;
            let diagnostics = self.db.diagnostics(file);
            let doc = &self.docs[&uri];
            let key = fingerprint(&diagnostics, doc.version);
            if self.published.get(&uri) == Some(&key) {
                continue;
            }
            self.published.insert(uri.clone(), key);
            out.push(Publish {
                uri,
                version: Some(doc.version),
                diagnostics,
                lines: Arc::new(doc.lines.clone()),
            });
        }
        out
    }
}

/// Identifies a document's published state: its diagnostics at a version. A document whose
/// version moved is always republished, so that the client sees diagnostics for the version
/// it has.
fn fingerprint(diagnostics: &[Diagnostic], version: i32) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    version.hash(&mut hasher);
    for d in diagnostics {
        d.range.hash(&mut hasher);
        d.code.hash(&mut hasher);
        d.message.hash(&mut hasher);
        (d.severity as u8).hash(&mut hasher);
    }
    hasher.finish()
}

/// Runs the worker until the channel closes. `publish` receives diagnostics and messages for
/// the client, in order.
pub fn run(
    encoding: Encoding,
    settings: Settings,
    tasks: Receiver<Task>,
    publish: impl Fn(Vec<Publish>, Vec<String>),
) {
    let mut world = World::new(encoding);
    world.configure(settings);
    let mut queue: VecDeque<Task> = VecDeque::new();
    loop {
        if queue.is_empty() {
            match tasks.recv() {
                Ok(task) => queue.push_back(task),
                Err(_) => return,
            }
        }
        // Take everything already sent, so that a burst of edits is analysed once.
        queue.extend(tasks.try_iter());
        while let Some(task) = queue.pop_front() {
            handle(&mut world, task);
            queue.extend(tasks.try_iter());
        }
        let messages = std::mem::take(&mut world.messages);
        let publishes = guarded(&mut world, "computing diagnostics", World::take_publishes);
        publish(publishes.unwrap_or_default(), messages);
    }
}

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
        Task::Configure(settings) => world.configure(*settings),
        Task::Request { job, cancelled } => {
            if !cancelled.load(Ordering::Relaxed) {
                // The job reports its own panic as an error response (see `server::request`);
                // this guard only keeps the worker alive.
                guarded(world, "answering a request", job);
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
