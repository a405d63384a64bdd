//! `hsir`: the command-line tool and the language server (`hsir lsp`), in one binary.
//!
//! This crate is the only one that knows about files, terminals, JSON and LSP. It converts in,
//! calls the analysis, and converts out.

mod cli;
mod memory;
mod position;
mod server;

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
        Command::Lsp { stdio: _ } => server::run(),
    };
    ExitCode::from(status)
}
