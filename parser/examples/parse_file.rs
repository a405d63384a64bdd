//! Parses one file once and prints the tree size and error count: the unit of work for
//! instruction counts (`valgrind --tool=callgrind`), see docs/benchmarks.md.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_file FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("cannot read {path}: {err}");
            std::process::exit(2);
        }
    };
    let parse = hsir_parser::parse(text);
    println!("{} tree elements, {} errors", parse.tree().len(), parse.errors().len());
}
