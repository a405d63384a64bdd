fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let toks = hsir_parser::lex(&text);
        let lt = t.elapsed();
        let p = hsir_parser::parse(text.clone());
        let el = t.elapsed();
        println!(
            "lex {:?} total {:?} {:.1} MB/s entries {} errors {}",
            lt,
            el - lt,
            text.len() as f64 / 1e6 / (el - lt).as_secs_f64(),
            p.tree().len(),
            p.errors().len()
        );
        drop(toks);
    }
}
