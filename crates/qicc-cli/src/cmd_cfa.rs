//! `qicc cfa`: the IR the front-end produced, as text (the format `qicc_ir::parse` reads) or DOT.

use crate::common::{input_error, print_warnings, Format, InputArgs};
use clap::Args;

#[derive(Args)]
pub struct CfaArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Graphviz output instead of IR text.
    #[arg(long)]
    pub dot: bool,
    /// Only this function.
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
}

pub fn run(args: CfaArgs) -> u8 {
    let loaded = match args.input.load() {
        Ok(l) => l,
        Err(d) => return input_error(&d, Format::Text, None),
    };
    print_warnings(&loaded);
    let p = &loaded.program;
    match &args.function {
        Some(name) => {
            let Some(id) = p.find_function(name) else {
                eprintln!("qicc: no function '{name}' in the lowered program (only functions reachable from main are lowered)");
                return crate::EXIT_INPUT_ERROR;
            };
            let f = p.function(id);
            if args.dot {
                print!("{}", qicc_ir::dot::function_to_dot(p, f));
            } else {
                print!("{}", qicc_ir::print_function(p, f));
            }
        }
        None => {
            if args.dot {
                print!("{}", qicc_ir::dot::program_to_dot(p));
            } else {
                print!("{}", qicc_ir::print_program(p));
            }
        }
    }
    0
}
