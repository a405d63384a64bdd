fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let p = hsir_parser::parse(text);
    println!("{}", p.tree().len());
}
