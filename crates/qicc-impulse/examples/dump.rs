fn main() {
    let path = std::env::args().nth(1).expect("path");
    let opts = qicc_frontend::Options {
        data_model: qicc_ir::DataModel::Ilp32,
        ..Default::default()
    };
    match qicc_frontend::lower_file(std::path::Path::new(&path), &opts) {
        Ok(l) => print!("{}", qicc_ir::print_program(&l.program)),
        Err(d) => eprintln!("{d:?}"),
    }
}
