//! Parses one file once and prints the tree size and error count: the unit of work for
//! instruction counts (`valgrind --tool=callgrind`), see docs/benchmarks.md.
//!
//! `parse_file FILE [THREADS]`: THREADS is 1 or 2 (default: what `ParseOptions` chooses).

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: parse_file FILE [THREADS]");
        std::process::exit(2);
    };
    let mut options = hsir_parser::ParseOptions::default();
    if let Some(threads) = args.next() {
        match threads.parse() {
            Ok(n @ (1 | 2)) => options.threads = n,
            _ => {
                eprintln!("THREADS must be 1 or 2, not {threads:?}");
                std::process::exit(2);
            }
        }
    }
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("cannot read {path}: {err}");
            std::process::exit(2);
        }
    };
    let parse = hsir_parser::parse_with(text, options);
    let tree = parse.tree();
    println!(
        "{} nodes, {} grammar tokens, {} errors",
        tree.node_count(),
        tree.grammar_token_count(),
        parse.errors().len()
    );
}
