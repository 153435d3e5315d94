fn main() {
    let path = std::env::args().nth(1).unwrap();
    let m = patchmap::ir::parse_file(std::path::Path::new(&path)).unwrap();
    print!("{m}");
}
