//! `hsir cosim FILE.mlir --c KERNEL.c [--top F] [--simulator iverilog|verilator]
//! [--format human|json] [-o DIR] [--cc CC]`: the interpreter and the RTL against the C source.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::cosim::{self, Error, Limits, Request, Simulator};

use super::EXIT_USAGE_OR_IO;

pub struct CosimArgs {
    pub file: PathBuf,
    pub c_file: PathBuf,
    pub top: Option<String>,
    pub simulator: String,
    pub json: bool,
    pub out: Option<PathBuf>,
    pub cc: Option<String>,
    /// Seconds the RTL simulation may take.
    pub timeout: u64,
    pub max_firings: u64,
}

pub fn run(args: &CosimArgs) -> u8 {
    let Some(simulator) = Simulator::parse(&args.simulator) else {
        eprintln!("error: --simulator is `iverilog` or `verilator`, not `{}`", args.simulator);
        return EXIT_USAGE_OR_IO;
    };
    let ir = match std::fs::read(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", args.file.display());
            return EXIT_USAGE_OR_IO;
        }
    };
    let request = Request {
        ir_name: args.file.display().to_string(),
        ir,
        c_file: args.c_file.clone(),
        top: args.top.clone(),
        simulator,
        cc: cosim::default_cc(args.cc.as_deref()),
        out: args.out.clone(),
        limits: Limits { simulate: Duration::from_secs(args.timeout), ..Limits::default() },
        max_firings: args.max_firings,
    };
    let verbose = !args.json;
    let progress = |stage: cosim::Stage| {
        if verbose {
            eprintln!("hsir cosim: {}", stage.describe());
        }
    };
    match cosim::run(&request, &progress, &AtomicBool::new(false)) {
        Ok(report) => {
            let text = if args.json { format!("{}\n", report.to_json()) } else { report.to_text() };
            let written = super::sim::write_stdout(&text);
            if written != 0 {
                return written;
            }
            u8::from(!report.pass())
        }
        Err(Error::Ir { message, diagnostics, text }) => {
            super::rtl::print_diagnostics(&request.ir_name, &text, &diagnostics);
            eprintln!("error: {message}");
            EXIT_USAGE_OR_IO
        }
        Err(e) => {
            eprintln!("error: {}", e.message());
            EXIT_USAGE_OR_IO
        }
    }
}
