//! The `hsir.cosim` command: "Co-simulate against C" from the editor (`crate::cosim`).
//!
//! Arguments: one object `{ "uri": ..., "function": "f", "c": "/path/kernel.c",
//! "simulator": "iverilog" | "verilator", "outputDir": "cosim" }` (only `uri` is required), or
//! positional `[uri, c, function]`. The IR is the document as the editor has it (unsaved edits
//! too), or the file on disk. Without `c`, the C file is the kernel's `.c` beside the `.mlir`
//! or in a sibling `c/` folder (`crate::cosim::find_c_file`). Without `outputDir` the files
//! live in a temporary folder; a relative one is under the workspace folder holding the file.
//!
//! The work runs on a blocking thread under progress (compiling C, running it, the
//! interpreter, compiling and simulating the RTL) that the user may cancel
//! (`window/workDoneProgress/cancel` or `$/cancelRequest`, which stop the running compiler or
//! simulator). The verdict is shown (`window/showMessage`) and returned: the JSON of
//! `hsir cosim --format json`. Problems (no C file, a missing simulator, IR errors) are the
//! error's message.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;

use super::buffers::{progress_token, CancelOnDrop, Progress};
use super::Backend;
use crate::cosim::{self, Limits, Request, Simulator};

pub const COSIM: &str = "hsir.cosim";

#[derive(Debug, Default, PartialEq)]
struct Args {
    uri: String,
    function: Option<String>,
    c: Option<String>,
    simulator: Option<String>,
    output_dir: Option<String>,
}

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

fn failed(message: String) -> Error {
    Error { code: ErrorCode::ServerError(-32803), message: message.into(), data: None }
}

fn parse_args(arguments: &[Value]) -> std::result::Result<Args, String> {
    let usage = "hsir.cosim takes { \"uri\": \"file:///...\", \"c\": \"kernel.c\", \"function\": \"f\", \"simulator\": \"iverilog\", \"outputDir\": \"cosim\" } or [uri, c, function]";
    let string = |v: Option<&Value>, what: &str| -> std::result::Result<Option<String>, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!("{COSIM}: `{what}` must be a string, not `{other}`")),
        }
    };
    let args = match arguments {
        [Value::Object(map)] => Args {
            uri: string(map.get("uri"), "uri")?.unwrap_or_default(),
            function: string(map.get("function"), "function")?,
            c: string(map.get("c"), "c")?,
            simulator: string(map.get("simulator"), "simulator")?,
            output_dir: string(map.get("outputDir"), "outputDir")?,
        },
        [first, rest @ ..] if rest.len() <= 2 => Args {
            uri: string(Some(first), "uri")?.unwrap_or_default(),
            c: string(rest.first(), "c")?,
            function: string(rest.get(1), "function")?,
            ..Args::default()
        },
        _ => return Err(usage.to_string()),
    };
    if args.uri.is_empty() {
        return Err(format!("{COSIM} needs a `uri`; {usage}"));
    }
    Ok(args)
}

/// A path or a `file://` URI.
fn path_of(text: &str) -> Option<PathBuf> {
    if text.starts_with("file:") {
        super::proto::uri(text)?.to_file_path().map(|p| p.into_owned())
    } else {
        Some(PathBuf::from(text))
    }
}

pub async fn execute(
    backend: &Backend,
    params: lsp::ExecuteCommandParams,
) -> Result<Option<Value>> {
    let args = parse_args(&params.arguments).map_err(invalid)?;
    let Some(uri) = super::proto::uri(&args.uri) else {
        return Err(invalid(format!("{COSIM}: `{}` is not a URI", args.uri)));
    };
    let Some(path) = uri.to_file_path().map(|p| p.into_owned()) else {
        return Err(invalid(format!("{COSIM}: `{}` is not a file on this machine", args.uri)));
    };
    let simulator = match args.simulator.as_deref() {
        None => Simulator::Iverilog,
        Some(s) => Simulator::parse(s).ok_or_else(|| {
            invalid(format!("{COSIM}: `simulator` is \"iverilog\" or \"verilator\", not `{s}`"))
        })?,
    };
    let c_file = match &args.c {
        Some(c) => {
            let c = path_of(c).ok_or_else(|| invalid(format!("{COSIM}: `{c}` is not a file path")))?;
            if c.is_relative() {
                path.parent().unwrap_or(Path::new(".")).join(c)
            } else {
                c
            }
        }
        None => cosim::find_c_file(&path, args.function.as_deref()).ok_or_else(|| {
            failed(format!(
                "Co-simulate: no C file given, and none named after the kernel beside `{}` or in a sibling `c/` folder; pass `c`",
                path.display()
            ))
        })?,
    };
    let key = uri.to_string();
    let snapshot = backend.request(move |w| w.snapshot(&key)).await?;
    let ir = match snapshot {
        Some((text, _)) => text.into_bytes(),
        None => std::fs::read(&path)
            .map_err(|e| failed(format!("Co-simulate: cannot read `{}`: {e}", path.display())))?,
    };
    let out = args
        .output_dir
        .as_deref()
        .map(|dir| super::rtl::output_folder(dir, &path, &backend.roots()))
        .transpose()
        .map_err(|message| failed(format!("Co-simulate: {message}")))?;
    let request = Request {
        ir_name: path.display().to_string(),
        ir,
        c_file: c_file.clone(),
        top: args.function.clone(),
        simulator,
        cc: cosim::default_cc(None),
        out,
        limits: Limits::default(),
        max_firings: cosim::MAX_FIRINGS,
    };

    // Cancellation: by the progress token, or by dropping this future ($/cancelRequest).
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let token =
        progress_token(backend, params.work_done_progress_params.work_done_token, "cosim", &cancel)
            .await;
    let progress = Progress { backend, token, ended: false };
    let c_name = c_file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    progress.begin(format!("Co-simulating against {c_name}")).await;
    let (stages_tx, mut stages) = tokio::sync::mpsc::unbounded_channel();
    let work = {
        let cancel = cancel.clone();
        tokio::task::spawn_blocking(move || {
            catch_unwind(AssertUnwindSafe(|| {
                let report = |stage: cosim::Stage| {
                    let _ = stages_tx.send(stage);
                };
                cosim::run(&request, &report, &cancel)
            }))
        })
    };
    while let Some(stage) = stages.recv().await {
        progress.report(stage.describe().to_string()).await;
    }
    let outcome = match work.await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(panic)) => {
            progress.end("failed".into()).await;
            return Err(failed(format!(
                "Co-simulate: internal error: {}",
                super::world::panic_message(&*panic)
            )));
        }
        Err(e) => {
            progress.end("failed".into()).await;
            return Err(failed(format!("Co-simulate: internal error: {e}")));
        }
    };
    match outcome {
        Ok(report) => {
            let pass = report.pass();
            let mut message = format!(
                "hsir: co-simulation of @{} against {c_name}: {}",
                report.func,
                if pass { "PASS" } else { "FAIL" }
            );
            if let Some(cycles) = report.cycles {
                message.push_str(&format!(", {cycles} cycles"));
            }
            let problems: Vec<String> = [&report.interpreter, &report.rtl]
                .iter()
                .zip(["interpreter", "RTL"])
                .filter_map(|(side, name)| {
                    side.error
                        .clone()
                        .or_else(|| side.mismatches.first().map(|m| m.describe()))
                        .or_else(|| {
                            // Values equal C once every write landed, but some landed late.
                            let late: Vec<String> = side
                                .late_writes
                                .iter()
                                .filter(|l| l.stale_at_end())
                                .map(|l| format!("{}: {}", l.output, l.describe()))
                                .collect();
                            (!late.is_empty()).then(|| {
                                format!(
                                    "late writes, values equal C once they land: {}",
                                    late.join("; ")
                                )
                            })
                        })
                        .map(|first| format!("{name}: {first}"))
                })
                .collect();
            if !problems.is_empty() {
                message.push_str(&format!(" ({})", problems.join("; ")));
            }
            let kind = if pass { lsp::MessageType::INFO } else { lsp::MessageType::WARNING };
            backend.client.show_message(kind, message.clone()).await;
            progress.end(if pass { "PASS".into() } else { "FAIL".into() }).await;
            let mut answer = report.to_json();
            answer["message"] = Value::String(message);
            Ok(Some(answer))
        }
        Err(cosim::Error::Cancelled) => {
            progress.end("cancelled".into()).await;
            Ok(Some(
                serde_json::json!({ "verdict": "cancelled", "message": "co-simulation cancelled" }),
            ))
        }
        Err(e) => {
            progress.end("failed".into()).await;
            Err(failed(format!("Co-simulate: {}", e.message())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_by_name_or_position() {
        let named =
            parse_args(&[json!({ "uri": "file:///a.mlir", "c": "k.c", "function": "f" })]).unwrap();
        assert_eq!((named.c.as_deref(), named.function.as_deref()), (Some("k.c"), Some("f")));
        let positional = parse_args(&[json!("file:///a.mlir"), json!("/k.c")]).unwrap();
        assert_eq!((positional.c.as_deref(), positional.function), (Some("/k.c"), None));
        assert!(parse_args(&[]).is_err());
        assert!(parse_args(&[json!({ "c": "k.c" })]).unwrap_err().contains("needs a `uri`"));
        assert!(parse_args(&[json!({ "uri": "file:///a", "c": 3 })])
            .unwrap_err()
            .contains("must be a string"));
    }
}
