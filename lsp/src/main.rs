//! `hsir`: the command-line tool and the language server (`hsir lsp`), in one binary.
//!
//! This crate is the only one that knows about files, terminals, JSON and LSP. It converts in,
//! calls the analysis, and converts out.

mod cli;
mod cosim;
mod memory;
mod position;
mod server;
mod source;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "hsir",
    version,
    about = "Diagnostics and tooling for dataflow-circuit MLIR (Handshake, pipeline, LOOM dataflow)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Report syntax and semantic problems in MLIR files.
    ///
    /// Exit status: 0 when no file has an error, 1 when some file has an error, 2 on a usage
    /// or IO problem.
    Check {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Change a code's severity, or turn it off: `--severity HS1108=off`,
        /// `--severity HS1107=error`. Levels: error, warning, information, hint, off.
        #[arg(long = "severity", value_name = "CODE=LEVEL")]
        severity: Vec<String>,
        /// Files to check, analysed together: an `instance` in one may name a function of
        /// another.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run the language server on stdin and stdout (LSP over JSON-RPC).
    Lsp {
        /// Accepted for editors that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Generate Verilog for a `handshake.func` (or an `hw.module` with pipelines).
    ///
    /// Writes the design, the component library it uses and `files.f` into DIR, each file
    /// atomically; with `--testbench`, a self-checking testbench too, which
    /// `iverilog -g2012 -o sim -c DIR/files.f && vvp sim` runs. Exit status: 0 when written,
    /// 1 when the IR has errors, 2 on a usage or IO problem.
    Rtl {
        file: PathBuf,
        /// The function or module to generate (default: the one nothing instantiates).
        #[arg(long)]
        top: Option<String>,
        /// The output folder.
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        out: PathBuf,
        /// Also write a testbench that checks the design against hsir's interpreter.
        #[arg(long)]
        testbench: bool,
        /// Random input tokens per argument, for the testbench (default: the function's
        /// `// hsir-sim: tokens=N` directive, else 1 with Dynamatic's memory interfaces, else 3).
        #[arg(long, requires = "testbench")]
        tokens: Option<usize>,
        /// Seed of the testbench's tokens and stalls.
        #[arg(long, default_value_t = 1, requires = "testbench")]
        seed: u64,
        /// The testbench's inputs from a file (`NAME = 1, 2, 3` per line; see README),
        /// over the function's `// hsir-sim:` directives.
        #[arg(long, value_name = "FILE", requires = "testbench")]
        inputs: Option<PathBuf>,
        /// Replace files in DIR even if hsir did not write them.
        #[arg(long)]
        force: bool,
        /// Generate the design even when its functions have dataflow lint errors (HS5010
        /// otherwise), to watch in simulation what a lint means.
        #[arg(long)]
        allow_lint_errors: bool,
    },
    /// Place buffers in a `handshake.func` with Dynamatic's FPGA20 or FPL22 MILP.
    ///
    /// Prints the buffered file on stdout (or writes it with -o / --in-place), in the file's
    /// own buffer syntax, comments and layout kept; a summary per function goes to stderr.
    /// Exit status: 0 when placed, 1 when a path cannot meet the period or the IR has errors,
    /// 2 on a usage or IO problem.
    Buffers {
        file: PathBuf,
        /// `fpga20` (data/valid timing) or `fpl22` (data/valid and ready timing).
        #[arg(long, default_value = "fpga20")]
        algorithm: String,
        /// Target clock period, ns.
        #[arg(long, default_value_t = 4.0)]
        period: f64,
        /// Dynamatic's basic-block transition counts (`srcBB,dstBB,transitions,isBackedge`).
        #[arg(long)]
        profile: Option<PathBuf>,
        /// Write the buffered file here.
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        out: Option<PathBuf>,
        /// Replace FILE with the buffered file.
        #[arg(long, conflicts_with = "out")]
        in_place: bool,
        /// Write the undecomposed MILP of the (first) function in CPLEX LP format.
        #[arg(long, value_name = "MODEL.lp")]
        emit_model: Option<PathBuf>,
        /// Write the JSON report: per MILP its size, status, time and gap; per loop its throughput.
        #[arg(long, value_name = "REPORT.json")]
        report: Option<PathBuf>,
        /// Only this function.
        #[arg(long = "func")]
        func: Option<String>,
        /// Remove the function's buffers first (otherwise they are kept as lower bounds).
        #[arg(long)]
        strip: bool,
        /// Seconds the placement of one function may take at most: a safety cap. The work is
        /// bounded by budgets that do not depend on the machine, so a placement that ends before
        /// the cap is the same on every run; one the cap stops says so (HS6003).
        #[arg(long, default_value_t = hsir_backend::buffers::DEFAULT_TIME_LIMIT_SECS as f64)]
        time_limit: f64,
        /// Branch-and-bound nodes each MILP may solve (by default as many as its integer
        /// variables, 50 to 150): unlike a time limit, it gives the same placement on every
        /// machine.
        #[arg(long, value_name = "N")]
        node_limit: Option<u64>,
        /// `microlp` (built in) or `highs` (with the `highs` feature).
        #[arg(long, default_value = "microlp")]
        solver: String,
        /// A timing model file replacing the built-in one (see docs/timing-model.md).
        #[arg(long)]
        timing: Option<PathBuf>,
        /// Leave out the slack search: the transparent slots, sized by running the circuit in
        /// the cycle-level model after the MILP, that let loops run ahead of each other.
        #[arg(long)]
        no_slack: bool,
        /// The inputs the slack search runs the function on (`NAME = 1, 2, 3` per line, as
        /// `hsir rtl --inputs`), instead of the testbench's random ones.
        #[arg(long, value_name = "FILE")]
        inputs: Option<PathBuf>,
    },
    /// Static timing analysis of a buffered `handshake.func` under the timing model.
    ///
    /// Prints per function its longest register-to-register data path (data delays, as
    /// FPGA20 times them; opaque buffers, pipelined units, memory interfaces and the function's
    /// ports are registers), the units it crosses with their characterized delays, its slack
    /// at the period, the same path under the plain sum of delays when the model has an
    /// overhead, and any combinational cycle left. Exit status: 0 when every path fits the
    /// period, 1 when one does not, a cycle is left or the IR has errors, 2 on a usage or IO
    /// problem.
    Timing {
        file: PathBuf,
        /// Only this function.
        #[arg(long = "func")]
        func: Option<String>,
        /// Clock period, ns.
        #[arg(long, default_value_t = 4.0)]
        period: f64,
        /// A timing model file replacing the built-in one (see docs/timing-model.md).
        #[arg(long)]
        timing: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Run hsir's token interpreter on a `handshake.func`.
    ///
    /// Prints the tokens each result receives, memory contents that changed, tokens left in
    /// channels once nothing can fire, and merges whose order depends on timing. Inputs not
    /// given come from the function's `// hsir-sim:` directives and the seed.
    Sim {
        file: PathBuf,
        /// The function to run (default: the one nothing instantiates).
        #[arg(long)]
        top: Option<String>,
        /// Tokens of one channel argument, comma-separated (`--args 1,2,3`, `-1` and `0x1f`
        /// too); once per channel argument, in order. Each must fit the argument's width.
        #[arg(long = "args", value_name = "LIST", allow_hyphen_values = true)]
        args: Vec<String>,
        /// Initial words of a memory: `--mem A=1,2,3`, from its first word; the words not
        /// given keep the values drawn from the seed.
        #[arg(long = "mem", value_name = "NAME=LIST")]
        mems: Vec<String>,
        /// Inputs from a file (`NAME = 1, 2, 3` per line; see README), over the function's
        /// `// hsir-sim:` directives; --args and --mem go over it.
        #[arg(long, value_name = "FILE")]
        inputs: Option<PathBuf>,
        /// Random tokens per argument when --args is not given.
        #[arg(long)]
        tokens: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Give up after this many op firings.
        #[arg(long, default_value_t = 10_000_000)]
        max_firings: u64,
        /// Also simulate cycle by cycle with the component library's slots and timing: the
        /// cycle count, or a deadlock the RTL would have (HS5011, exit status 1).
        #[arg(long)]
        cycles: bool,
    },
    /// Co-simulate a `handshake.func` against its C source, as Dynamatic's hls-verifier does.
    ///
    /// Compiles the C program with hsir's own `dynamatic/Integration.h`, whose `CALL_KERNEL`
    /// records the kernel's arguments, return value and arrays; runs the interpreter and the
    /// RTL (one invocation, with those inputs) and compares both with C. The RTL's cycles run
    /// to `end`; its memories are read at `end` and again once every write has landed (the
    /// testbench drains them), and the latter are compared with C. Writes that land after
    /// `end` are reported per array (how many, how many cycles after `end`, which elements a
    /// caller reading memory at `end` sees stale). When they change an element, the verdict
    /// is FAIL with the reason "late writes", distinct from "wrong values": the circuit says
    /// it is done before its memory is final. Writes after `end` that leave every element as
    /// it was are reported only. Exit status: 0 when both sides equal C (and the RTL's memory
    /// is final at `end`), 1 when not, 2 on a usage or IO problem, a missing compiler or
    /// simulator, or IR errors that stop the RTL.
    Cosim {
        file: PathBuf,
        /// The kernel's C source, with a `main` that calls `CALL_KERNEL(kernel, args...)`.
        #[arg(long = "c", value_name = "KERNEL.c")]
        c_file: PathBuf,
        /// The function (default: the one nothing instantiates).
        #[arg(long)]
        top: Option<String>,
        /// `iverilog` or `verilator`.
        #[arg(long, default_value = "iverilog")]
        simulator: String,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Keep the files (header, RTL, testbench, inputs.txt, the C run, the log) in DIR;
        /// files hsir did not write are never replaced.
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        out: Option<PathBuf>,
        /// The C compiler (default: $CC, else cc).
        #[arg(long)]
        cc: Option<String>,
        /// Seconds the RTL simulation may take.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
        /// The interpreter gives up after this many op firings.
        #[arg(long, default_value_t = 20_000_000)]
        max_firings: u64,
    },
    /// Print the lossless syntax tree of a file.
    Syntax {
        /// Print the text rebuilt from the tree instead (it equals the file).
        #[arg(long)]
        text: bool,
        file: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Source excerpts with labels, for people.
    Human,
    /// One JSON array of diagnostics, with LSP-style 0-based lines and UTF-16 columns.
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check { format, severity, files } => cli::check::run(&files, format, &severity),
        Command::Syntax { text, file } => cli::syntax::run(&file, text),
        Command::Sim { file, top, args, mems, inputs, tokens, seed, max_firings, cycles } => {
            cli::sim::run(&cli::sim::SimArgs {
                file,
                top,
                args,
                mems,
                inputs,
                tokens,
                seed,
                max_firings,
                cycles,
            })
        }
        Command::Rtl {
            file,
            top,
            out,
            testbench,
            tokens,
            seed,
            inputs,
            force,
            allow_lint_errors,
        } => cli::rtl::run(&cli::rtl::RtlArgs {
            file,
            top,
            out,
            testbench,
            tokens,
            seed,
            force,
            allow_lint_errors,
            inputs,
        }),
        Command::Buffers {
            file,
            algorithm,
            period,
            profile,
            out,
            in_place,
            emit_model,
            report,
            func,
            strip,
            time_limit,
            node_limit,
            solver,
            timing,
            no_slack,
            inputs,
        } => cli::buffers::run(&cli::buffers::BuffersArgs {
            file,
            algorithm,
            period,
            profile,
            out,
            in_place,
            emit_model,
            report,
            func,
            strip,
            time_limit,
            node_limit,
            solver,
            timing,
            slack: !no_slack,
            inputs,
        }),
        Command::Cosim { file, c_file, top, simulator, format, out, cc, timeout, max_firings } => {
            cli::cosim::run(&cli::cosim::CosimArgs {
                file,
                c_file,
                top,
                simulator,
                json: matches!(format, Format::Json),
                out,
                cc,
                timeout,
                max_firings,
            })
        }
        Command::Timing { file, func, period, timing, format } => {
            cli::timing::run(&cli::timing::TimingArgs {
                file,
                func,
                period,
                timing,
                json: matches!(format, Format::Json),
            })
        }
        Command::Lsp { stdio: _ } => server::run(),
    };
    ExitCode::from(status)
}
