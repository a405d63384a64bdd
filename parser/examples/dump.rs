fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let p = hsir_parser::parse(text);
    if std::env::args().nth(2).is_some() {
        println!("{:#?}", p.root());
    }
    for e in p.errors() {
        println!("{:?} {:?}", e, &p.tree().text()[e.range]);
    }
}
