//! `cargo run --release -p hsir-analysis --example check_file FILE [RUNS]`: times the
//! database's cold check of a file, for profiling (`perf record`, `valgrind --tool=callgrind`).

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: check_file FILE [RUNS]");
    let runs: usize = args.next().map_or(1, |r| r.parse().expect("RUNS is a number"));
    let text = std::fs::read_to_string(&path).expect("the file is readable UTF-8");
    for _ in 0..runs {
        let start = std::time::Instant::now();
        let mut db = hsir_analysis::Database::new();
        db.set_text(hsir_analysis::FileId(0), text.clone());
        let diagnostics = db.diagnostics(hsir_analysis::FileId(0));
        let ms = start.elapsed().as_secs_f64() * 1e3;
        eprintln!("{} diagnostics in {ms:.1} ms", diagnostics.len());
    }
}
