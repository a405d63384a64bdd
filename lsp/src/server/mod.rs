//! `hsir lsp`: the language server, over stdio.
//!
//! Handlers are thin: they convert the request in (`proto`), hand a job to the analysis
//! worker (`world`), and convert its answer out. The worker is one thread that owns the
//! database; jobs and edits reach it in the order the client sent them, so a request always
//! sees the edits sent before it. Nothing here blocks the async executor on analysis.

mod buffers;
mod config;
mod cosim;
mod features;
mod graph;
mod index;

mod proto;
mod rtl;
mod transport;
mod world;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use crate::position::Encoding;
use config::Settings;
use world::{Task, World};

/// Gives stdout, when it is a pipe, the largest buffer an unprivileged process may ask for
/// (`/proc/sys/fs/pipe-max-size`, 1 MiB by default) instead of 64 KiB. A publish of thousands
/// of diagnostics is megabytes; with the small buffer the client wakes to read it in dozens of
/// 64 KiB pieces, which at 15 MB of IR took longer than computing it.
fn widen_stdout_pipe() {
    #[cfg(target_os = "linux")]
    {
        let wanted = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
            .unwrap_or(1 << 20)
            .min(1 << 20);
        // Not a pipe (a file, a socket, a terminal): nothing to widen.
        let _ = rustix::pipe::fcntl_setpipe_size(std::io::stdout(), wanted);
    }
}

/// Runs the server on stdin/stdout until the client says `exit` or closes the stream.
pub fn run() -> u8 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("hsir-lsp")
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the language server's runtime: {err}");
            return 2;
        }
    };
    widen_stdout_pipe();
    runtime.block_on(async {
        let (input, output, written, injector) =
            transport::guard(tokio::io::stdin(), tokio::io::stdout());
        let (service, socket) = LspService::build(move |client| Backend::new(client, injector))
            .custom_method("hsir/test/panic", Backend::test_panic)
            .custom_method("hsir/test/text", Backend::test_text)
            .custom_method("hsir/test/busy", Backend::test_busy)
            // tower-lsp-server has no handler for it (its issue 176); "Place buffers" listens.
            .custom_method("window/workDoneProgress/cancel", Backend::work_done_progress_cancel)
            .finish();
        Server::new(input, output, socket).serve(service).await;
        let _ = written.await;
    });
    // The task reading stdin may be blocked on a client that keeps it open after `exit`.
    runtime.shutdown_background();
    0
}

/// Whether test-only hooks answer: set `HSIR_TEST_HOOKS=1` in the server's environment.
fn test_hooks() -> bool {
    std::env::var_os("HSIR_TEST_HOOKS").is_some_and(|v| v == "1")
}

pub struct Backend {
    client: Client,
    /// Set in `initialize`, once the position encoding is known.
    tasks: Mutex<Option<std::sync::mpsc::Sender<Task>>>,
    /// The settings as last read, which the next `didChangeConfiguration` updates.
    settings: Mutex<Settings>,
    /// Writes notifications the worker serialised itself (diagnostics) to the client.
    injector: tokio::sync::mpsc::UnboundedSender<Vec<u8>>,
    /// The workspace folders, as paths.
    roots: Mutex<Vec<PathBuf>>,
    /// Whether the client lets the server create progress tokens.
    work_done_progress: AtomicBool,
    /// The last progress token made.
    tokens: AtomicU64,
    /// Whether the client applies versioned `documentChanges` in a workspace edit.
    document_changes: AtomicBool,
    /// Whether the client answers `window/showMessageRequest` (it declared `window.showMessage`).
    message_requests: AtomicBool,
    /// The cancel flags of running placements, by progress token (`buffers::token_key`).
    cancels: Mutex<std::collections::HashMap<String, Arc<AtomicBool>>>,
    /// The workspace's `.mlir` files on disk, for workspace symbols; made in `initialize`.
    index: Arc<Mutex<Option<index::DiskIndex>>>,
    /// Whether the client lets the server register a file watcher (`initialized` does).
    watch_files: AtomicBool,
}

impl Backend {
    fn new(client: Client, injector: tokio::sync::mpsc::UnboundedSender<Vec<u8>>) -> Backend {
        Backend {
            client,
            injector,
            tasks: Mutex::new(None),
            settings: Mutex::new(Settings::default()),
            roots: Mutex::new(Vec::new()),
            work_done_progress: AtomicBool::new(false),
            tokens: AtomicU64::new(0),
            document_changes: AtomicBool::new(false),
            message_requests: AtomicBool::new(false),
            cancels: Mutex::new(std::collections::HashMap::new()),
            index: Arc::new(Mutex::new(None)),
            watch_files: AtomicBool::new(false),
        }
    }

    fn roots(&self) -> Vec<PathBuf> {
        self.roots.lock().map(|r| r.clone()).unwrap_or_default()
    }

    fn progress_supported(&self) -> bool {
        self.work_done_progress.load(Ordering::Relaxed)
    }

    fn next_token(&self) -> u64 {
        self.tokens.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Sends a task to the worker. Before `initialize` there is none; tasks are dropped then,
    /// as the protocol forbids them.
    fn send(&self, task: Task) -> bool {
        let tasks = self.tasks.lock().ok().and_then(|t| t.clone());
        tasks.is_some_and(|tasks| tasks.send(task).is_ok())
    }

    /// Runs `job` on the worker, after every edit sent before it. A panic in `job` becomes an
    /// error response; a request the client cancels is not run if it has not started.
    async fn request<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut World) -> T + Send + 'static,
    ) -> Result<T> {
        self.request_with(None, job).await
    }

    /// `request`, for a request over a whole file whose per-item work `prepare` makes in
    /// slices: requests sent after it are answered between them (`world::interleave`).
    async fn whole_file_request<T: Send + 'static>(
        &self,
        prepare: world::Prepare,
        job: impl FnOnce(&mut World) -> T + Send + 'static,
    ) -> Result<T> {
        self.request_with(Some(prepare), job).await
    }

    async fn request_with<T: Send + 'static>(
        &self,
        prepare: Option<world::Prepare>,
        job: impl FnOnce(&mut World) -> T + Send + 'static,
    ) -> Result<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let cancelled = Arc::new(AtomicBool::new(false));
        let guard = CancelOnDrop(cancelled.clone());
        let job = Box::new(move |world: &mut World| {
            let result = catch_unwind(AssertUnwindSafe(|| job(world)));
            let _ = tx.send(result.map_err(|panic| world::panic_message(&*panic)));
        });
        if !self.send(Task::Request { job, cancelled, prepare }) {
            return Err(Error::invalid_request());
        }
        let answer = rx.await;
        // Finished: marking it cancelled now changes nothing.
        drop(guard);
        match answer {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(message)) => Err(Error {
                code: ErrorCode::InternalError,
                message: format!("hsir: internal error: {message}").into(),
                data: None,
            }),
            Err(_) => Err(Error::request_cancelled()),
        }
    }

    /// `window/workDoneProgress/cancel`: the user cancelled the work behind a progress token.
    async fn work_done_progress_cancel(&self, params: WorkDoneProgressCancelParams) {
        let key = buffers::token_key(&params.token);
        if let Some(flag) = self.cancels.lock().ok().and_then(|c| c.get(&key).cloned()) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Test hook: a request whose handler panics on the worker, to show that the server keeps
    /// serving. It answers only when `HSIR_TEST_HOOKS=1`.
    async fn test_panic(&self) -> Result<()> {
        if !test_hooks() {
            return Err(Error::method_not_found());
        }
        self.request(|_| -> () { panic!("the test hook panicked on purpose") }).await
    }

    /// Test hook: keeps the worker busy for `millis`, so that tests can queue work behind it
    /// (cancelled requests, superseded edits).
    async fn test_busy(&self, millis: u64) -> Result<()> {
        if !test_hooks() {
            return Err(Error::method_not_found());
        }
        let millis = millis.min(10_000);
        self.request(move |_| std::thread::sleep(std::time::Duration::from_millis(millis))).await
    }

    /// Test hook: the server's copy of a document's text, to compare with the editor's.
    async fn test_text(&self, params: TextDocumentIdentifier) -> Result<Option<String>> {
        if !test_hooks() {
            return Err(Error::method_not_found());
        }
        let uri = params.uri.to_string();
        self.request(move |w| {
            let file = w.doc(&uri)?.file;
            w.db.text(file).map(str::to_string)
        })
        .await
    }

    fn apply_settings(&self, value: &serde_json::Value) -> Vec<String> {
        let Ok(mut current) = self.settings.lock() else { return Vec::new() };
        let (settings, problems) = current.updated(value);
        *current = settings.clone();
        drop(current);
        self.send(Task::Configure(Box::new(settings)));
        problems
    }
}

/// A request the analysis declined, with its reason for the user (e.g. a rename to a taken
/// name).
fn refused(message: String) -> Error {
    // LSP's RequestFailed.
    Error { code: ErrorCode::ServerError(-32803), message: message.into(), data: None }
}

/// Marks a request cancelled when its handler future is dropped before it finished: that is
/// what tower-lsp-server does on `$/cancelRequest`.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
        let progress = (params.capabilities.window.as_ref())
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false);
        self.work_done_progress.store(progress, Ordering::Relaxed);
        let document_changes = (params.capabilities.workspace.as_ref())
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes)
            .unwrap_or(false);
        self.document_changes.store(document_changes, Ordering::Relaxed);
        let message_requests =
            (params.capabilities.window.as_ref()).is_some_and(|w| w.show_message.is_some());
        self.message_requests.store(message_requests, Ordering::Relaxed);
        let watch_files = (params.capabilities.workspace.as_ref())
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        self.watch_files.store(watch_files, Ordering::Relaxed);
        if let Ok(mut slot) = self.index.lock() {
            *slot = Some(index::DiskIndex::new(encoding));
        }
        #[allow(deprecated)]
        let mut roots: Vec<PathBuf> = (params.workspace_folders.iter().flatten())
            .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        #[allow(deprecated)]
        if roots.is_empty() {
            roots.extend(
                params.root_uri.as_ref().and_then(|u| u.to_file_path()).map(|p| p.into_owned()),
            );
        }
        if let Ok(mut slot) = self.roots.lock() {
            *slot = roots;
        }
        let mut problems = Vec::new();
        if let Some(options) = &params.initialization_options {
            let (settings, found) = Settings::default().updated(options);
            problems = found;
            if let Ok(mut slot) = self.settings.lock() {
                *slot = settings;
            }
        }
        let settings = self.settings.lock().map(|s| s.clone()).unwrap_or_default();
        let (tx, rx) = std::sync::mpsc::channel();
        let (message_tx, mut message_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        let diagnostic_options = proto::DiagnosticOptions::of(&params.capabilities);
        let injector = self.injector.clone();
        let spawned =
            std::thread::Builder::new().name("hsir-analysis".to_string()).spawn(move || {
                world::run(encoding, settings, diagnostic_options, rx, |publishes, messages| {
                    for message in messages {
                        let _ = message_tx.send(message);
                    }
                    for body in publishes {
                        let _ = injector.send(body);
                    }
                });
            });
        if let Err(err) = spawned {
            return Err(Error {
                code: ErrorCode::InternalError,
                message: format!("hsir: cannot start the analysis thread: {err}").into(),
                data: None,
            });
        }
        if let Ok(mut slot) = self.tasks.lock() {
            *slot = Some(tx);
        }
        let client = self.client.clone();
        tokio::spawn(async move {
            while let Some(message) = message_rx.recv().await {
                client.show_message(MessageType::WARNING, message).await;
            }
        });
        for problem in problems {
            self.client.show_message(MessageType::WARNING, problem).await;
        }
        Ok(InitializeResult {
            capabilities: features::capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "hsir".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // The workspace's `.mlir` files, so that symbol search reads a file again when it
        // changes on disk (it also compares sizes and times, for clients that do not watch).
        if !self.watch_files.load(Ordering::Relaxed) || self.roots().is_empty() {
            return;
        }
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher {
                glob_pattern: GlobPattern::String("**/*.mlir".to_string()),
                kind: None,
            }],
        };
        let registration = Registration {
            id: "hsir-watch-mlir".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        // Not awaited here: a client slow to answer must not hold up the messages after
        // `initialized`. One that refuses leaves the size and time comparison.
        let client = self.client.clone();
        tokio::spawn(async move {
            let _ = client.register_capability(vec![registration]).await;
        });
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let paths: Vec<PathBuf> =
            params.changes.iter().filter_map(|c| index::path_of(c.uri.as_str())).collect();
        if let Ok(mut slot) = self.index.lock() {
            if let Some(index) = slot.as_mut() {
                index.invalidate(paths);
            }
        }
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        self.send(Task::Open { uri: doc.uri.to_string(), version: doc.version, text: doc.text });
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let changes = params
            .content_changes
            .into_iter()
            .map(|c| world::Change { range: c.range.map(proto::range_in), text: c.text })
            .collect();
        self.send(Task::Change {
            uri: params.text_document.uri.to_string(),
            version: params.text_document.version,
            changes,
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.send(Task::Close { uri: uri.to_string() });
        // A closed file's problems leave the Problems panel with it.
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let problems = self.apply_settings(&params.settings);
        for problem in problems {
            self.client.show_message(MessageType::WARNING, problem).await;
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        self.request(move |w| features::hover(w, params)).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        self.request(move |w| features::definition(w, params)).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.request(move |w| features::references(w, params)).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        self.request(move |w| features::highlight(w, params)).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        self.request(move |w| features::prepare_rename(w, params)).await?.map_err(refused)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        self.request(move |w| features::rename(w, params)).await?.map_err(refused)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let prepare = features::prepare(features::WholeFile::Outline, &params.text_document);
        self.whole_file_request(prepare, move |w| features::document_symbols(w, params)).await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        // The files on disk are walked and read off the analysis worker.
        let (index, roots) = (self.index.clone(), self.roots());
        let disk = tokio::task::spawn_blocking(move || {
            let mut slot = index.lock().ok()?;
            Some(slot.as_mut()?.refresh(&roots))
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
        self.request(move |w| features::workspace_symbols(w, params, disk)).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let prepare = features::prepare(features::WholeFile::Folds, &params.text_document);
        self.whole_file_request(prepare, move |w| features::folding_ranges(w, params)).await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        self.request(move |w| features::selection_ranges(w, params)).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.request(move |w| features::completion(w, params)).await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        self.request(move |w| features::signature_help(w, params)).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let prepare = features::prepare(features::WholeFile::Tokens, &params.text_document);
        let tokens = self
            .whole_file_request(prepare, move |w| {
                features::semantic_tokens(w, &params.text_document, None)
            })
            .await?;
        Ok(tokens.map(SemanticTokensResult::Tokens))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let tokens = self
            .request(move |w| {
                features::semantic_tokens(w, &params.text_document, Some(params.range))
            })
            .await?;
        Ok(tokens.map(SemanticTokensRangeResult::Tokens))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.request(move |w| features::inlay_hints(w, params)).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.request(move |w| features::formatting(w, &params.text_document, None, &params.options))
            .await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.request(move |w| {
            features::formatting(w, &params.text_document, Some(params.range), &params.options)
        })
        .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if params.command == graph::SHOW_GRAPH {
            return graph::execute(self, params).await;
        }
        if params.command == buffers::PLACE_BUFFERS {
            return buffers::execute(self, params).await;
        }
        if params.command == cosim::COSIM {
            return cosim::execute(self, params).await;
        }
        rtl::execute(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.request(move |w| features::code_actions(w, &params)).await
    }
}
