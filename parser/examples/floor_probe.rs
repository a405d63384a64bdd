use hsir_parser::SyntaxKind;
use logos::Logos;
fn count(text: &str) -> usize {
    let mut l = SyntaxKind::lexer(text);
    let mut n = 0;
    while let Some(_) = l.next() {
        n += 1;
    }
    n
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mid = text[text.len() / 2..].find('\n').unwrap() + text.len() / 2 + 1;
    for _ in 0..7 {
        let t = std::time::Instant::now();
        let n = count(&text);
        let one = t.elapsed();
        let t = std::time::Instant::now();
        let (a, b) = std::thread::scope(|s| {
            let h = s.spawn(|| count(&text[mid..]));
            let a = count(&text[..mid]);
            (a, h.join().unwrap())
        });
        let two = t.elapsed();
        let t = std::time::Instant::now();
        let p = hsir_parser::parse(text.clone());
        let parse = t.elapsed();
        eprintln!(
            "tokens {n} ({}) lex1 {:.1} ms lex2 {:.1} ms parse {:.1} ms",
            a + b,
            one.as_secs_f64() * 1e3,
            two.as_secs_f64() * 1e3,
            parse.as_secs_f64() * 1e3
        );
        drop(p);
    }
}
