//! The `hsir.placeBuffers` command: "Place buffers (FPGA20 / FPL22)" from the editor.
//!
//! Arguments: one object `{ "uri": ..., "algorithm": "fpga20" | "fpl22", "period": 4.0,
//! "function": "f", "existing": "replace" | "keep" }` (only `uri` is required), or the same as
//! positional values `[uri, algorithm, period, function]`. The algorithm and the period default
//! to the `hsir.buffers.*` settings; without a function every `handshake.func` with a body is
//! placed.
//!
//! A function that already has buffers: `existing` says what becomes of them, `replace` (a
//! placement from scratch, `hsir buffers --strip`) or `keep` (they stay, as lower bounds, and
//! buffers are added where needed). Without it the user is asked (`window/showMessageRequest`:
//! Replace / Keep and add / Cancel); a client that cannot be asked gets `replace`, and the
//! message says so. The message says how many existing buffers were replaced or kept.
//!
//! The document must be open: the buffers are written into the editor's text, as one
//! `workspace/applyEdit` whose `TextDocumentEdit` names the version that was placed. When the
//! document changed while placement ran, nothing is applied and the user is told to run it
//! again, so a newer text is never overwritten (and a client that checks versions, as VS Code
//! and Neovim do, refuses a stale edit on its side as well).
//!
//! Placement runs on a blocking thread, one function after another, under progress that the
//! user may cancel (`window/workDoneProgress/cancel`, or `$/cancelRequest` of the request);
//! the backend polls the flag while it solves. A cancelled placement applies nothing. The
//! placement's own findings (HS6xxx: paths longer than the period, models cut off by their
//! time limit) are shown with the document's diagnostics, moved to where the edit puts their
//! text, for as long as the document holds exactly the text the edit made. The answer is a
//! small summary; failures are the error's message.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;

use hsir_analysis::{Diagnostic, TextRange, TextSize};
use hsir_backend::buffers::{self, edit::TextEdit, timing::TimingModel, Algorithm, Options};

use super::world::{text_hash, Until};
use super::Backend;
use crate::position::{Encoding, LineIndex};

pub const PLACE_BUFFERS: &str = "hsir.placeBuffers";

#[derive(Debug, Default, PartialEq)]
struct Args {
    uri: String,
    algorithm: Option<Algorithm>,
    period: Option<f64>,
    function: Option<String>,
    existing: Option<Existing>,
}

/// What becomes of the buffers a function already has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Existing {
    /// Removed, and the function placed from scratch (`Options::strip`).
    Replace,
    /// Kept as lower bounds; buffers added where needed.
    Keep,
}

/// The choices of the question, in the order shown.
const REPLACE: &str = "Replace";
const KEEP: &str = "Keep and add";
const CANCEL: &str = "Cancel";

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

fn failed(message: String) -> Error {
    // LSP's RequestFailed: the request was valid but did not succeed.
    Error { code: ErrorCode::ServerError(-32803), message: message.into(), data: None }
}

fn parse_args(arguments: &[Value]) -> std::result::Result<Args, String> {
    let usage = "hsir.placeBuffers takes { \"uri\": \"file:///...\", \"algorithm\": \"fpga20\" | \"fpl22\", \"period\": 4.0, \"function\": \"f\", \"existing\": \"replace\" | \"keep\" } or [uri, algorithm, period, function]";
    let string = |v: Option<&Value>, what: &str| -> std::result::Result<Option<String>, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => {
                Err(format!("{PLACE_BUFFERS}: `{what}` must be a string, not `{other}`"))
            }
        }
    };
    let algorithm = |v: Option<&Value>| -> std::result::Result<Option<Algorithm>, String> {
        match string(v, "algorithm")? {
            None => Ok(None),
            Some(name) => Algorithm::from_name(&name).map(Some).ok_or_else(|| {
                format!("{PLACE_BUFFERS}: unknown algorithm `{name}`; expected `fpga20` or `fpl22`")
            }),
        }
    };
    let period = |v: Option<&Value>| -> std::result::Result<Option<f64>, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(p) => match p.as_f64() {
                Some(x) if x > 0.0 && x.is_finite() => Ok(Some(x)),
                _ => Err(format!(
                    "{PLACE_BUFFERS}: `period` must be a positive number of nanoseconds, not `{p}`"
                )),
            },
        }
    };
    let function = |v: Option<&Value>| -> std::result::Result<Option<String>, String> {
        Ok(string(v, "function")?.map(|f| f.trim_start_matches('@').to_string()))
    };
    let existing = |v: Option<&Value>| -> std::result::Result<Option<Existing>, String> {
        match string(v, "existing")?.as_deref() {
            None => Ok(None),
            Some("replace") => Ok(Some(Existing::Replace)),
            Some("keep") => Ok(Some(Existing::Keep)),
            Some(other) => {
                Err(format!("{PLACE_BUFFERS}: `existing` is `replace` or `keep`, not `{other}`"))
            }
        }
    };
    let args = match arguments {
        [Value::Object(map)] => Args {
            uri: string(map.get("uri"), "uri")?.unwrap_or_default(),
            algorithm: algorithm(map.get("algorithm"))?,
            period: period(map.get("period"))?,
            function: function(map.get("function"))?,
            existing: existing(map.get("existing"))?,
        },
        [first, rest @ ..] if rest.len() <= 3 => Args {
            uri: string(Some(first), "uri")?.unwrap_or_default(),
            algorithm: algorithm(rest.first())?,
            period: period(rest.get(1))?,
            function: function(rest.get(2))?,
            existing: None,
        },
        _ => return Err(usage.to_string()),
    };
    if args.uri.is_empty() {
        return Err(format!("{PLACE_BUFFERS} needs a `uri`; {usage}"));
    }
    Ok(args)
}

/// The name users see: `FPGA20`, `FPL22`.
fn shown(algorithm: Algorithm) -> String {
    algorithm.name().to_uppercase()
}

/// The key of a progress token in `Backend::cancels`.
pub fn token_key(token: &lsp::NumberOrString) -> String {
    match token {
        lsp::NumberOrString::Number(n) => format!("n{n}"),
        lsp::NumberOrString::String(s) => format!("s{s}"),
    }
}

/// The progress token of a long command: the client's own, or, when the client supports
/// progress, one hsir creates (`hsir-<what>-N`). Either way it is registered so that the
/// client's cancel sets `cancel`; a created one before the client hears of it, so that a cancel
/// can never come first.
pub(super) async fn progress_token(
    backend: &Backend,
    given: Option<lsp::NumberOrString>,
    what: &str,
    cancel: &Arc<AtomicBool>,
) -> Option<lsp::NumberOrString> {
    let register = |token: &lsp::NumberOrString| {
        if let Ok(mut cancels) = backend.cancels.lock() {
            cancels.insert(token_key(token), cancel.clone());
        }
    };
    if let Some(token) = given {
        register(&token);
        return Some(token);
    }
    if !backend.progress_supported() {
        return None;
    }
    let token = lsp::NumberOrString::String(format!("hsir-{what}-{}", backend.next_token()));
    register(&token);
    match backend.client.create_work_done_progress(token.clone()).await {
        Ok(()) => Some(token),
        Err(_) => {
            if let Ok(mut cancels) = backend.cancels.lock() {
                cancels.remove(&token_key(&token));
            }
            None
        }
    }
}

/// The progress of one placement: begun, reported and ended by hand (tower-lsp-server's
/// helper has no way to end a progress from `Drop`). Dropped unended (the request was
/// cancelled and its future dropped), it ends the progress as cancelled, so that the client's
/// indicator never spins on, and forgets the token's cancel flag.
pub(super) struct Progress<'a> {
    pub(super) backend: &'a Backend,
    pub(super) token: Option<lsp::NumberOrString>,
    pub(super) ended: bool,
}

impl Progress<'_> {
    fn params(token: &lsp::NumberOrString, value: lsp::WorkDoneProgress) -> lsp::ProgressParams {
        lsp::ProgressParams {
            token: token.clone(),
            value: lsp::ProgressParamsValue::WorkDone(value),
        }
    }

    async fn send(&self, value: lsp::WorkDoneProgress) {
        if let Some(token) = &self.token {
            let params = Progress::params(token, value);
            self.backend.client.send_notification::<lsp::notification::Progress>(params).await;
        }
    }

    pub(super) async fn begin(&self, title: String) {
        self.send(lsp::WorkDoneProgress::Begin(lsp::WorkDoneProgressBegin {
            title,
            cancellable: Some(true),
            message: None,
            percentage: None,
        }))
        .await;
    }

    pub(super) async fn report(&self, message: String) {
        self.send(lsp::WorkDoneProgress::Report(lsp::WorkDoneProgressReport {
            cancellable: Some(true),
            message: Some(message),
            percentage: None,
        }))
        .await;
    }

    pub(super) async fn end(mut self, message: String) {
        self.ended = true;
        self.send(lsp::WorkDoneProgress::End(lsp::WorkDoneProgressEnd { message: Some(message) }))
            .await;
    }
}

impl Drop for Progress<'_> {
    fn drop(&mut self) {
        let Some(token) = self.token.take() else { return };
        if let Ok(mut cancels) = self.backend.cancels.lock() {
            cancels.remove(&token_key(&token));
        }
        if !self.ended {
            let client = self.backend.client.clone();
            let end = lsp::WorkDoneProgress::End(lsp::WorkDoneProgressEnd {
                message: Some("cancelled; nothing was applied".to_string()),
            });
            let params = Progress::params(&token, end);
            tokio::spawn(async move {
                client.send_notification::<lsp::notification::Progress>(params).await;
            });
        }
    }
}

/// Marks the placement cancelled when the request's future is dropped (`$/cancelRequest`).
pub(super) struct CancelOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What the blocking thread read from the text: the program, the functions to place, and the
/// buffers each already has (functions without any left out).
struct Prepared {
    program: hsir_backend::Program,
    functions: Vec<String>,
    existing: Vec<(String, usize)>,
}

/// How many buffers on channels `func` has (what `Options::strip` removes).
fn buffers_in(func: &hsir_backend::program::Func) -> usize {
    use hsir_analysis::dataflow;
    let item = &func.item;
    let buffers = dataflow::buffers(item);
    (0..item.ops.len()).filter(|&op| dataflow::is_channel_buffer(item, &buffers, op as _)).count()
}

/// The message of the first problem, with how many more there are.
fn first_problem(problems: &[Diagnostic]) -> String {
    let first =
        problems.first().map(|d| format!("{}: {}", d.code.code(), d.message)).unwrap_or_default();
    match problems.len() {
        0 | 1 => first,
        n => format!("{first} (and {} more)", n - 1),
    }
}

fn prepare(
    text: &str,
    function: Option<&str>,
    options: &Options,
) -> std::result::Result<Prepared, String> {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = hsir_backend::Program::analyse(&parse);
    let mut functions: Vec<String> = Vec::new();
    for func in program.funcs.iter().filter(|f| !f.external) {
        if function.is_none_or(|name| name == func.name) && !functions.contains(&func.name) {
            functions.push(func.name.clone());
        }
    }
    // Errors in functions that are not placed, and that these do not instantiate, do not stop
    // the placement.
    program
        .check_all(functions.iter().map(String::as_str))
        .map_err(|errors| format!("no buffers placed: {}", first_problem(&errors)))?;
    if functions.is_empty() {
        // The backend's own words for "nothing to place" (HS5005).
        let none = buffers::place_program(
            &program,
            text,
            options,
            TimingModel::builtin(),
            function,
            Some(&AtomicBool::new(true)),
        );
        let problems = none.err().unwrap_or_default();
        return Err(format!("no buffers placed: {}", first_problem(&problems)));
    }
    let existing = functions
        .iter()
        .filter_map(|name| {
            let func = program.funcs.iter().find(|f| !f.external && f.name == *name)?;
            let count = buffers_in(func);
            (count > 0).then(|| (name.clone(), count))
        })
        .collect();
    Ok(Prepared { program, functions, existing })
}

/// "`@f` already has 26 buffers" or "3 functions already have 40 buffers (`@f`: 26, ...)".
fn existing_text(existing: &[(String, usize)]) -> String {
    let total: usize = existing.iter().map(|(_, n)| n).sum();
    match existing {
        [(name, n)] => format!("@{name} already has {n} buffer{}", if *n == 1 { "" } else { "s" }),
        _ => {
            let each: Vec<String> = existing.iter().map(|(f, n)| format!("@{f}: {n}")).collect();
            format!(
                "{} functions already have {total} buffers ({})",
                existing.len(),
                each.join(", ")
            )
        }
    }
}

/// Asks the user what becomes of the existing buffers; `None` is Cancel (or no answer).
async fn ask(
    backend: &Backend,
    existing: &[(String, usize)],
    algorithm: Algorithm,
) -> Option<Existing> {
    let message = format!(
        "{}. Replace them with a new {} placement, or keep them and add buffers where needed?",
        existing_text(existing),
        shown(algorithm)
    );
    let actions = [REPLACE, KEEP, CANCEL]
        .iter()
        .map(|t| lsp::MessageActionItem { title: t.to_string(), properties: Default::default() })
        .collect();
    let chosen = backend
        .client
        .show_message_request(lsp::MessageType::INFO, format!("hsir: {message}"), Some(actions))
        .await;
    match chosen {
        Ok(Some(item)) if item.title == REPLACE => Some(Existing::Replace),
        Ok(Some(item)) if item.title == KEEP => Some(Existing::Keep),
        _ => None,
    }
}

/// Every function of `prepared`, one after another, telling `started` which one begins. Stops
/// before the next function once `cancel` is set.
fn place_all(
    prepared: &Prepared,
    text: &str,
    options: &Options,
    cancel: &AtomicBool,
    started: &tokio::sync::mpsc::UnboundedSender<usize>,
) -> std::result::Result<buffers::Output, Vec<Diagnostic>> {
    let mut all =
        buffers::Output { placements: Vec::new(), edits: Vec::new(), diagnostics: Vec::new() };
    for (i, name) in prepared.functions.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let _ = started.send(i);
        let output = buffers::place_program(
            &prepared.program,
            text,
            options,
            TimingModel::builtin(),
            Some(name),
            Some(cancel),
        )?;
        all.placements.extend(output.placements);
        all.edits.extend(output.edits);
        all.diagnostics.extend(output.diagnostics);
    }
    all.edits.sort_by_key(|e| (e.range.start(), e.range.end()));
    Ok(all)
}

/// Where `offset` of the placed text is in the text `edits` make: shifted by what the edits
/// before it added or removed; inside a replaced range, at the start of its replacement. Text
/// inserted exactly at `offset` goes before it when `after_insertions` (a range's start), after
/// it otherwise (a range's end), so that a range never grows over inserted text.
fn moved(offset: TextSize, edits: &[TextEdit], after_insertions: bool) -> TextSize {
    let mut delta: i64 = 0;
    for e in edits {
        let before = e.range.end() < offset
            || (e.range.end() == offset && (after_insertions || !e.range.is_empty()));
        if before {
            delta += e.text.len() as i64 - i64::from(u32::from(e.range.len()));
        } else if e.range.start() < offset {
            return TextSize::from((i64::from(u32::from(e.range.start())) + delta) as u32);
        } else {
            break;
        }
    }
    TextSize::from((i64::from(u32::from(offset)) + delta).max(0) as u32)
}

fn moved_range(range: TextRange, edits: &[TextEdit]) -> TextRange {
    let start = moved(range.start(), edits, true);
    TextRange::new(start, moved(range.end(), edits, false).max(start))
}

/// Whether a diagnostic is placement's own. The others are the analysis's, which the document
/// already shows.
fn from_placement(diagnostic: &Diagnostic) -> bool {
    diagnostic.code.code().starts_with("HS6")
}

/// One function's numbers, for the answer.
fn function_json(p: &buffers::Placement) -> Value {
    json!({
        "function": p.func,
        "algorithm": p.algorithm.name(),
        "periodNs": p.period,
        "buffers": p.placed.iter().map(|x| x.chain.len()).sum::<usize>(),
        "slots": p.placed.iter().flat_map(|x| &x.chain).map(|&(_, s)| s).sum::<u32>(),
        "channels": p.placed.len(),
        "throughput": p.cfdfcs.iter().map(|c| c.throughput).collect::<Vec<_>>(),
        "criticalPathNs": p.critical_dv.max(p.critical_r),
        "capacity": p.capacity.describe(&p.graph),
        "timeMs": p.time.as_millis() as u64,
    })
}

fn answer(
    applied: bool,
    cancelled: bool,
    version: i32,
    message: &str,
    output: Option<&buffers::Output>,
) -> Value {
    let replaced: usize =
        output.map(|o| o.placements.iter().map(|p| p.removed.len()).sum()).unwrap_or(0);
    let functions: Vec<Value> =
        output.map(|o| o.placements.iter().map(function_json).collect()).unwrap_or_default();
    let diagnostics: Vec<Value> = output
        .map(|o| {
            o.diagnostics
                .iter()
                .filter(|d| from_placement(d))
                .map(|d| json!({"code": d.code.code(), "severity": d.severity.as_str(), "message": d.message}))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "applied": applied,
        "cancelled": cancelled,
        "version": version,
        "message": message,
        "replacedBuffers": replaced,
        "functions": functions,
        "diagnostics": diagnostics,
    })
}

pub async fn execute(
    backend: &Backend,
    params: lsp::ExecuteCommandParams,
) -> Result<Option<Value>> {
    let args = parse_args(&params.arguments).map_err(invalid)?;
    let Some(uri) = super::proto::uri(&args.uri) else {
        return Err(invalid(format!("{PLACE_BUFFERS}: `{}` is not a URI", args.uri)));
    };
    let settings = backend.settings.lock().map(|s| s.buffers.clone()).unwrap_or_default();
    let algorithm = args
        .algorithm
        .or_else(|| Algorithm::from_name(&settings.algorithm))
        .unwrap_or(Algorithm::Fpga20);
    let options = Options {
        algorithm,
        period: args.period.unwrap_or(settings.period),
        time_limit: Duration::from_secs_f64(settings.time_limit),
        ..Options::default()
    };
    // The text as the editor has it now; its version is the one the edit will name.
    let key = uri.to_string();
    let snapshot = backend.request(move |w| w.snapshot(&key).map(|s| (s, w.encoding))).await?;
    let Some(((text, version), encoding)) = snapshot else {
        return Err(failed(format!(
            "Place buffers: `{}` is not open; buffers are written into the open document, so open it first",
            args.uri
        )));
    };
    let text = Arc::new(text);
    let prepared = {
        let (text, function, options) = (text.clone(), args.function.clone(), options.clone());
        tokio::task::spawn_blocking(move || {
            catch_unwind(AssertUnwindSafe(|| prepare(&text, function.as_deref(), &options)))
        })
        .await
    };
    let prepared = match prepared {
        Ok(Ok(Ok(prepared))) => prepared,
        Ok(Ok(Err(message))) => return Err(failed(format!("Place buffers: {message}"))),
        Ok(Err(panic)) => {
            return Err(failed(format!(
                "Place buffers: internal error: {}",
                super::world::panic_message(&*panic)
            )))
        }
        Err(e) => return Err(failed(format!("Place buffers: internal error: {e}"))),
    };

    // Existing buffers: replaced or kept, as the command says, the user answers, or (a client
    // that cannot be asked) replaced.
    let mut options = options;
    let mut cannot_ask = false;
    let existing = if prepared.existing.is_empty() {
        Existing::Keep
    } else if let Some(choice) = args.existing {
        choice
    } else if backend.message_requests.load(Ordering::Relaxed) {
        match ask(backend, &prepared.existing, algorithm).await {
            Some(choice) => choice,
            None => {
                let message = format!(
                    "buffer placement was cancelled; nothing was applied ({} left as they are)",
                    existing_text(&prepared.existing)
                        .replace(" already has ", " has ")
                        .replace(" already have ", " have ")
                );
                return Ok(Some(answer(false, true, version, &message, None)));
            }
        }
    } else {
        cannot_ask = true;
        Existing::Replace
    };
    options.strip = existing == Existing::Replace;
    let existing_count: usize = prepared.existing.iter().map(|(_, n)| n).sum();

    // Cancellation: by the progress token, or by dropping this future ($/cancelRequest).
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let token = progress_token(
        backend,
        params.work_done_progress_params.work_done_token,
        "buffers",
        &cancel,
    )
    .await;
    let progress = Progress { backend, token, ended: false };
    let count = prepared.functions.len();
    let what = match prepared.functions.as_slice() {
        [one] => format!("@{one}"),
        _ => format!("{count} functions"),
    };
    progress.begin(format!("Placing buffers in {what} ({})", shown(algorithm))).await;

    let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
    let names = prepared.functions.clone();
    let work = {
        let (text, options, cancel) = (text.clone(), options.clone(), cancel.clone());
        tokio::task::spawn_blocking(move || {
            catch_unwind(AssertUnwindSafe(|| {
                place_all(&prepared, &text, &options, &cancel, &started_tx)
            }))
        })
    };
    while let Some(i) = started.recv().await {
        progress.report(format!("@{} ({}/{count})", names[i], i + 1)).await;
    }
    let output = match work.await {
        Ok(Ok(Ok(output))) => output,
        Ok(Ok(Err(problems))) => {
            progress.end("failed".to_string()).await;
            return Err(failed(format!("Place buffers: {}", first_problem(&problems))));
        }
        Ok(Err(panic)) => {
            progress.end("failed".to_string()).await;
            return Err(failed(format!(
                "Place buffers: internal error in buffer placement: {}",
                super::world::panic_message(&*panic)
            )));
        }
        Err(e) => {
            progress.end("failed".to_string()).await;
            return Err(failed(format!("Place buffers: internal error: {e}")));
        }
    };
    if cancel.load(Ordering::Relaxed) || output.placements.iter().any(|p| p.cancelled) {
        let message = "buffer placement was cancelled; nothing was applied".to_string();
        progress.end("cancelled; nothing was applied".to_string()).await;
        return Ok(Some(answer(false, true, version, &message, None)));
    }
    let summary: Vec<String> = output.placements.iter().map(crate::cli::buffers::summary).collect();
    let summary = summary.join("; ");
    // What became of the buffers that were there.
    let summary = match existing {
        _ if existing_count == 0 => summary,
        Existing::Replace => {
            let removed: usize = output.placements.iter().map(|p| p.removed.len()).sum();
            let why = if cannot_ask {
                " (this editor cannot be asked whether to keep them; pass `\"existing\": \"keep\"` to keep them)"
            } else {
                ""
            };
            format!("replaced {removed} existing buffers{why}: {summary}")
        }
        Existing::Keep => {
            format!("kept {existing_count} existing buffers and added where needed: {summary}")
        }
    };

    // The document must still be the text that was placed.
    let key = uri.to_string();
    let now = backend.request(move |w| w.doc(&key).map(|d| d.version)).await?;
    if now != Some(version) {
        let path = uri.path().as_str();
        let name = path.rsplit('/').next().unwrap_or(path);
        let message = format!(
            "`{name}` changed while buffers were being placed, so nothing was applied; run Place buffers again"
        );
        backend.client.show_message(lsp::MessageType::WARNING, format!("hsir: {message}")).await;
        progress.end("the document changed; nothing was applied".to_string()).await;
        return Ok(Some(answer(false, false, version, &message, Some(&output))));
    }

    // A placement that still deadlocks in the cycle-level model (HS6005) is not applied: its
    // findings are shown on the text as it is.
    if output.placements.iter().any(|p| matches!(p.capacity, buffers::Capacity::Deadlocks { .. })) {
        let findings: Vec<Diagnostic> =
            output.diagnostics.iter().filter(|d| from_placement(d)).cloned().collect();
        let key = uri.to_string();
        backend
            .request(move |w| {
                w.set_command_diagnostics(&key, "buffers", Until::Version(version), findings)
            })
            .await?;
        let message =
            format!("nothing was applied: the placement deadlocks in hardware (HS6005); {summary}");
        backend.client.show_message(lsp::MessageType::ERROR, format!("hsir: {message}")).await;
        progress.end(message.clone()).await;
        return Ok(Some(answer(false, false, version, &message, Some(&output))));
    }

    let findings: Vec<Diagnostic> = output
        .diagnostics
        .iter()
        .filter(|d| from_placement(d))
        .map(|d| {
            let mut d = d.clone();
            d.range = moved_range(d.range, &output.edits);
            for note in &mut d.related {
                note.range = moved_range(note.range, &output.edits);
            }
            d
        })
        .collect();
    if output.edits.is_empty() {
        let key = uri.to_string();
        backend
            .request(move |w| {
                w.set_command_diagnostics(&key, "buffers", Until::Version(version), findings)
            })
            .await?;
        let message = format!("no buffers to add: {summary}");
        progress.end(message.clone()).await;
        return Ok(Some(answer(false, false, version, &message, Some(&output))));
    }
    let placed = buffers::edit::apply(&text, &output.edits);
    let key = uri.to_string();
    let until = Until::Text(text_hash(&placed));
    backend.request(move |w| w.set_command_diagnostics(&key, "buffers", until, findings)).await?;
    let edit = workspace_edit(backend, &uri, version, &text, &output.edits, encoding);
    let label = format!("Place buffers ({})", shown(algorithm));
    let response = backend
        .client
        .send_request::<lsp::request::ApplyWorkspaceEdit>(lsp::ApplyWorkspaceEditParams {
            label: Some(label),
            edit,
        })
        .await;
    let refused = match response {
        Ok(r) if r.applied => None,
        Ok(r) => Some(r.failure_reason.unwrap_or_else(|| "no reason given".to_string())),
        Err(e) => Some(e.message.to_string()),
    };
    if let Some(reason) = refused {
        let key = uri.to_string();
        backend
            .request(move |w| w.set_command_diagnostics(&key, "buffers", until, Vec::new()))
            .await?;
        progress.end("the editor did not apply the buffers".to_string()).await;
        return Err(failed(format!("Place buffers: the editor did not apply the edit: {reason}")));
    }
    progress.end(summary.clone()).await;
    Ok(Some(answer(true, false, version, &summary, Some(&output))))
}

/// One edit of the document at `version`: a versioned `TextDocumentEdit` when the client
/// takes them, else plain changes (the server checked the version just before).
fn workspace_edit(
    backend: &Backend,
    uri: &lsp::Uri,
    version: i32,
    text: &str,
    edits: &[TextEdit],
    encoding: Encoding,
) -> lsp::WorkspaceEdit {
    let index = LineIndex::new(text);
    let lines = index.view(text);
    let edits: Vec<lsp::TextEdit> = edits
        .iter()
        .map(|e| lsp::TextEdit {
            range: super::proto::range_out(&lines, e.range, encoding),
            new_text: e.text.clone(),
        })
        .collect();
    if backend.document_changes.load(Ordering::Relaxed) {
        let document = lsp::TextDocumentEdit {
            text_document: lsp::OptionalVersionedTextDocumentIdentifier {
                uri: uri.clone(),
                version: Some(version),
            },
            edits: edits.into_iter().map(lsp::OneOf::Left).collect(),
        };
        lsp::WorkspaceEdit {
            document_changes: Some(lsp::DocumentChanges::Edits(vec![document])),
            ..Default::default()
        }
    } else {
        let changes = std::collections::HashMap::from([(uri.clone(), edits)]);
        lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_by_name_or_position() {
        let named = parse_args(&[json!({
            "uri": "file:///a.mlir", "algorithm": "FPL22", "period": 3.5, "function": "@f"
        })])
        .unwrap();
        assert_eq!(
            named,
            Args {
                uri: "file:///a.mlir".into(),
                algorithm: Some(Algorithm::Fpl22),
                period: Some(3.5),
                function: Some("f".into()),
                existing: None,
            }
        );
        let positional = parse_args(&[json!("file:///a.mlir"), json!(null), json!(6)]).unwrap();
        assert_eq!((positional.algorithm, positional.period), (None, Some(6.0)));
        let just_uri = parse_args(&[json!({"uri": "file:///a.mlir"})]).unwrap();
        assert_eq!(just_uri.function, None);
        for (bad, needle) in [
            (json!([]), "takes"),
            (json!([{"function": "f"}]), "needs a `uri`"),
            (json!([{"uri": "file:///a", "algorithm": "magic"}]), "unknown algorithm `magic`"),
            (json!([{"uri": "file:///a", "period": 0}]), "positive number"),
            (json!([{"uri": "file:///a", "period": "4"}]), "positive number"),
            (json!([{"uri": 3}]), "must be a string"),
            (json!([{"uri": "file:///a", "existing": "drop"}]), "`replace` or `keep`"),
        ] {
            let arguments = bad.as_array().unwrap().clone();
            let error = parse_args(&arguments).unwrap_err();
            assert!(error.contains(needle), "{bad}: {error}");
        }
    }

    fn edit(start: u32, end: u32, text: &str) -> TextEdit {
        TextEdit { range: TextRange::new(start.into(), end.into()), text: text.to_string() }
    }

    #[test]
    fn ranges_move_with_the_edits_before_them() {
        // "abcdef": 3 bytes inserted at 1, "cd" replaced by one byte.
        let edits = [edit(1, 1, "XYZ"), edit(2, 4, "Q")];
        let text = "abcdef";
        let after = buffers::edit::apply(text, &edits);
        assert_eq!(after, "aXYZbQef");
        let at = |offset: u32| u32::from(moved(offset.into(), &edits, true));
        // `a` stays; `b` moves by 3; `e` by 3 - 1; inside the replaced `cd`, its replacement.
        assert_eq!((at(0), at(1), at(4), at(3)), (0, 4, 6, 5));
        assert_eq!(&after[at(4) as usize..at(6) as usize], "ef");
        // An insertion at a range's start goes before it, one at its end after it.
        let range = moved_range(TextRange::new(1.into(), 2.into()), &edits);
        assert_eq!(&after[range], "b");
        let range = moved_range(TextRange::new(0.into(), 1.into()), &edits);
        assert_eq!(&after[range], "a");
    }
}
