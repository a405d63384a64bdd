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

/// The folder to write into: `dir` if absolute (a path the user named in full), else under
/// the workspace folder that holds `file`, else beside `file`. A relative `dir` must stay
/// inside a workspace folder (or the file's folder, for a file outside every workspace
/// folder), `..` and symbolic links resolved: `../../../x` is refused, naming where it leads.
/// "Generate RTL" and "Co-simulate" both resolve their `outputDir` here.
pub(super) fn output_folder(
    dir: &str,
    file: &Path,
    roots: &[PathBuf],
) -> std::result::Result<PathBuf, String> {
    let given = Path::new(dir);
    if given.is_absolute() {
        return Ok(given.to_path_buf());
    }
    let base = roots
        .iter()
        .filter(|root| file.starts_with(root))
        .max_by_key(|root| root.components().count())
        .cloned()
        .or_else(|| file.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let folder = lexically_normal(&base.join(given));
    let allowed: Vec<&PathBuf> = roots.iter().chain(std::iter::once(&base)).collect();
    let real = real_path(&folder);
    let inside = allowed.iter().any(|root| {
        let root = lexically_normal(root);
        folder.starts_with(&root) && real.starts_with(real_path(&root))
    });
    if inside {
        return Ok(folder);
    }
    let shown: Vec<String> = allowed.iter().map(|r| format!("`{}`", r.display())).collect();
    Err(format!(
        "the output folder `{dir}` resolves to `{}`, outside the workspace folders ({}); name a folder inside the workspace, or give an absolute path",
        real.display(),
        shown.join(", ")
    ))
}

/// `path` with `.` and `..` components resolved by name (`..` at the root stays at the root).
fn lexically_normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(part);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` with its longest existing ancestor's symbolic links resolved, the rest appended.
fn real_path(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |p: PathBuf, name| p.join(name));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
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
        output_folder(args.output_dir.as_deref().unwrap_or(&settings_dir), path, &backend.roots())
            .map_err(|message| failed(format!("Generate RTL: {message}")))?;
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
        let folder = |dir: &str, file: &str| output_folder(dir, Path::new(file), &roots);
        assert_eq!(folder("rtl", "/w/sub/a.mlir"), Ok(PathBuf::from("/w/sub/rtl")));
        assert_eq!(folder("rtl", "/elsewhere/a.mlir"), Ok(PathBuf::from("/elsewhere/rtl")));
        assert_eq!(folder("/abs", "/w/a.mlir"), Ok(PathBuf::from("/abs")));
        // `..` may move between workspace folders, never out of all of them.
        assert_eq!(folder("../out", "/w/sub/a.mlir"), Ok(PathBuf::from("/w/out")));
        assert_eq!(folder("./a/../b", "/w/a.mlir"), Ok(PathBuf::from("/w/b")));
        let refused = folder("../../../x", "/w/sub/a.mlir").unwrap_err();
        assert!(
            refused.contains("`../../../x` resolves to `/x`, outside the workspace folders"),
            "{refused}"
        );
        assert!(folder("../x", "/w/a.mlir").is_err());
        // A file outside every workspace folder: its own folder bounds it.
        assert!(folder("../x", "/elsewhere/a.mlir").is_err());
    }

    #[test]
    fn a_symbolic_link_out_of_the_workspace_is_refused() {
        let root = std::env::temp_dir().join(format!("hsir-out-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("w")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::os::unix::fs::symlink(root.join("outside"), root.join("w/link")).unwrap();
        let roots = vec![root.join("w")];
        let file = root.join("w/a.mlir");
        assert!(output_folder("rtl", &file, &roots).is_ok());
        let refused = output_folder("link/rtl", &file, &roots).unwrap_err();
        assert!(refused.contains("outside the workspace folders"), "{refused}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
