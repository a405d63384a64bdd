//! The `hsir.generateRtl` command: "Generate RTL" from the editor.
//!
//! Arguments: one object `{ "uri": ..., "function": "f", "outputDir": "rtl", "testbench": true }`
//! (only `uri` is required), or the same as positional values `[uri, function, outputDir]`.
//! The text is the document as the editor has it (unsaved edits included), or the file on disk
//! when it is not open. The output folder defaults to the `hsir.rtl.outputDir` setting,
//! relative to the workspace folder holding the file (or the file's folder). Progress is
//! reported when the client allows it, and always ended. The answer lists the files written;
//! problems come back as the error's message, and the backend's own (HS5xxx; the document
//! already shows the analysis's) as the document's diagnostics until it changes. Files the
//! user wrote are never replaced (`cli::rtl::write_all`).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::{NotCancellable, OngoingProgress, Unbounded};

use hsir_analysis::{Diagnostic, Severity};
use hsir_backend::rtl::{self, Options, TestbenchOptions};

use super::Backend;

pub const GENERATE_RTL: &str = "hsir.generateRtl";

/// The commands the server executes.
pub const COMMANDS: &[&str] =
    &[GENERATE_RTL, super::graph::SHOW_GRAPH, super::buffers::PLACE_BUFFERS, super::cosim::COSIM];

#[derive(Debug, Default)]
struct Args {
    uri: String,
    function: Option<String>,
    output_dir: Option<String>,
    testbench: bool,
    allow_lint_errors: bool,
}

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

fn failed(message: String) -> Error {
    // LSP's RequestFailed: the request was valid but did not succeed.
    Error { code: ErrorCode::ServerError(-32803), message: message.into(), data: None }
}

fn parse_args(arguments: &[Value]) -> std::result::Result<Args, String> {
    let usage = "hsir.generateRtl takes { \"uri\": \"file:///...\", \"function\": \"f\", \"outputDir\": \"rtl\", \"testbench\": false, \"allowLintErrors\": false } or [uri, function, outputDir]";
    let string = |v: &Value, what: &str| -> std::result::Result<Option<String>, String> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) if s.is_empty() => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            other => Err(format!("hsir.generateRtl: `{what}` must be a string, not `{other}`")),
        }
    };
    match arguments {
        [Value::Object(map)] => {
            let uri = string(map.get("uri").unwrap_or(&Value::Null), "uri")?
                .ok_or_else(|| format!("hsir.generateRtl needs a `uri`; {usage}"))?;
            let flag = |key: &str| match map.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => {
                    Err(format!("hsir.generateRtl: `{key}` must be true or false, not `{other}`"))
                }
            };
            Ok(Args {
                uri,
                function: string(map.get("function").unwrap_or(&Value::Null), "function")?,
                output_dir: string(map.get("outputDir").unwrap_or(&Value::Null), "outputDir")?,
                testbench: flag("testbench")?,
                allow_lint_errors: flag("allowLintErrors")?,
            })
        }
        [first, rest @ ..] if rest.len() <= 2 => Ok(Args {
            uri: string(first, "uri")?
                .ok_or_else(|| format!("hsir.generateRtl needs a `uri`; {usage}"))?,
            function: rest.first().map(|v| string(v, "function")).transpose()?.flatten(),
            output_dir: rest.get(1).map(|v| string(v, "outputDir")).transpose()?.flatten(),
            testbench: false,
            allow_lint_errors: false,
        }),
        _ => Err(usage.to_string()),
    }
}

/// Whether a diagnostic is the backend's own (HS5xxx). The others are the analysis's, which
/// refused the program; the document already shows them, and showing them twice would list
/// every problem twice.
fn from_backend(diagnostic: &Diagnostic) -> bool {
    diagnostic.code.code().starts_with("HS5")
}

/// The folder to write into: `dir` if absolute, else under the workspace folder that holds
/// `file`, else beside `file`.
fn output_folder(dir: &str, file: &Path, roots: &[PathBuf]) -> PathBuf {
    let dir = Path::new(dir);
    if dir.is_absolute() {
        return dir.to_path_buf();
    }
    let base = roots
        .iter()
        .filter(|root| file.starts_with(root))
        .max_by_key(|root| root.components().count())
        .cloned()
        .or_else(|| file.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    base.join(dir)
}

pub async fn execute(
    backend: &Backend,
    params: lsp::ExecuteCommandParams,
) -> Result<Option<Value>> {
    if params.command != GENERATE_RTL {
        return Err(invalid(format!(
            "hsir has no command `{}`; it has {}",
            params.command,
            COMMANDS.join(", ")
        )));
    }
    let args = parse_args(&params.arguments).map_err(invalid)?;
    let Some(uri) = super::proto::uri(&args.uri) else {
        return Err(invalid(format!("hsir.generateRtl: `{}` is not a URI", args.uri)));
    };
    let Some(path) = uri.to_file_path().map(|p| p.into_owned()) else {
        return Err(invalid(format!(
            "hsir.generateRtl: `{}` is not a file on this machine",
            args.uri
        )));
    };
    let client = &backend.client;
    // Progress: the client's token, or one we ask the client to create.
    let token = match params.work_done_progress_params.work_done_token {
        Some(token) => Some(token),
        None if backend.progress_supported() => {
            let token = lsp::NumberOrString::String(format!("hsir-rtl-{}", backend.next_token()));
            client.create_work_done_progress(token.clone()).await.ok().map(|()| token)
        }
        None => None,
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let progress = match token {
        Some(token) => Some(
            client
                .progress(token, "Generate RTL")
                .with_message(format!("reading {name}"))
                .begin()
                .await,
        ),
        None => None,
    };
    // Every way out of `generate` ends the progress, so that the client's indicator never
    // spins on.
    let result = generate(backend, &args, &uri, &path, progress.as_ref()).await;
    if let Some(p) = progress {
        let message = match &result {
            Ok(answer) => format!(
                "wrote {} files to {}",
                answer["files"].as_array().map_or(0, Vec::len),
                answer["folder"].as_str().unwrap_or_default()
            ),
            Err(_) => "failed".to_string(),
        };
        p.finish_with_message(message).await;
    }
    result.map(Some)
}

/// Reads the document, generates, writes, and shows what the backend found on the document.
async fn generate(
    backend: &Backend,
    args: &Args,
    uri: &lsp::Uri,
    path: &Path,
    progress: Option<&OngoingProgress<Unbounded, NotCancellable>>,
) -> Result<Value> {
    let key = uri.to_string();
    let snapshot = backend.request(move |w| w.snapshot(&key)).await?;
    let (text, version) = match snapshot {
        Some((text, version)) => (text.into_bytes(), Some(version)),
        None => match std::fs::read(path) {
            Ok(bytes) => (bytes, None),
            Err(e) => {
                return Err(failed(format!("Generate RTL: cannot read `{}`: {e}", path.display())));
            }
        },
    };
    if let Some(p) = progress {
        let what =
            args.function.as_deref().map_or("the top function".to_string(), |f| format!("@{f}"));
        p.report(format!("lowering {what}")).await;
    }
    let settings_dir =
        backend.settings.lock().map(|s| s.rtl.output_dir.clone()).unwrap_or_default();
    let folder =
        output_folder(args.output_dir.as_deref().unwrap_or(&settings_dir), path, &backend.roots());
    let options = Options {
        top: args.function.clone(),
        testbench: args.testbench.then(TestbenchOptions::default),
        allow_lint_errors: args.allow_lint_errors,
        inputs_file: None,
        skip_capacity_check: false,
    };
    let target = folder.clone();
    let work = tokio::task::spawn_blocking(move || {
        let (parse, _) = hsir_analysis::parse_bytes(&text);
        match rtl::generate(&parse, &options) {
            Ok(output) => {
                let written = crate::cli::rtl::write_all(&target, &output.files, false);
                Ok((output, written))
            }
            Err(errors) => Err(errors),
        }
    })
    .await;
    let result = match work {
        Ok(result) => result,
        Err(e) => return Err(failed(format!("Generate RTL: internal error: {e}"))),
    };
    let key = uri.to_string();
    match result {
        Ok((output, Ok(paths))) => {
            let shown: Vec<Diagnostic> = output
                .diagnostics
                .iter()
                .filter(|d| d.severity <= Severity::Warning && from_backend(d))
                .cloned()
                .collect();
            if let Some(version) = version {
                backend.request(move |w| w.set_backend_diagnostics(&key, version, shown)).await?;
            }
            let notes: Vec<Value> = output
                .diagnostics
                .iter()
                .map(|d| json!({ "code": d.code.code(), "severity": d.severity.as_str(), "message": d.message }))
                .collect();
            Ok(json!({
                "top": output.top,
                "folder": folder.display().to_string(),
                "files": paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "notes": notes,
            }))
        }
        Ok((_, Err(message))) => Err(failed(format!("Generate RTL: {message}"))),
        Err(errors) => {
            // The reason is the first error; notes that came with it (forks and sinks the
            // backend would add) are not why nothing was written.
            let real: Vec<&Diagnostic> =
                errors.iter().filter(|d| d.severity == Severity::Error).collect();
            let first = real
                .first()
                .or(errors.first().as_ref())
                .map(|d| format!("{}: {}", d.code.code(), d.message))
                .unwrap_or_default();
            let more = if real.len() > 1 {
                format!(" (and {} more)", real.len() - 1)
            } else {
                String::new()
            };
            let shown: Vec<Diagnostic> = errors.into_iter().filter(from_backend).collect();
            if let Some(version) = version {
                backend.request(move |w| w.set_backend_diagnostics(&key, version, shown)).await?;
            }
            Err(failed(format!("Generate RTL: no RTL written: {first}{more}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_by_name_or_position() {
        let named =
            parse_args(&[json!({ "uri": "file:///a.mlir", "function": "f", "outputDir": "out" })])
                .unwrap();
        assert_eq!(
            (named.uri.as_str(), named.function.as_deref(), named.output_dir.as_deref()),
            ("file:///a.mlir", Some("f"), Some("out"))
        );
        let positional = parse_args(&[json!("file:///a.mlir"), json!("g")]).unwrap();
        assert_eq!((positional.function.as_deref(), positional.output_dir), (Some("g"), None));
        assert!(parse_args(&[]).is_err());
        assert!(parse_args(&[json!({ "function": "f" })]).unwrap_err().contains("needs a `uri`"));
        assert!(parse_args(&[json!({ "uri": 3 })]).unwrap_err().contains("must be a string"));
    }

    #[test]
    fn output_folder_is_under_the_workspace_folder() {
        let roots = vec![PathBuf::from("/w"), PathBuf::from("/w/sub")];
        assert_eq!(
            output_folder("rtl", Path::new("/w/sub/a.mlir"), &roots),
            PathBuf::from("/w/sub/rtl")
        );
        assert_eq!(
            output_folder("rtl", Path::new("/elsewhere/a.mlir"), &roots),
            PathBuf::from("/elsewhere/rtl")
        );
        assert_eq!(output_folder("/abs", Path::new("/w/a.mlir"), &roots), PathBuf::from("/abs"));
    }
}
