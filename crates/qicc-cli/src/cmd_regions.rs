//! `qicc regions`: the interprocedural Region Nesting Tree (Qicc paper, Alg. 1 and 2, Fig. 1).

use crate::common::{input_error, print_warnings, Format, InputArgs};
use clap::Args;

#[derive(Args)]
pub struct RegionsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Graphviz output (functions as white boxes, regions as blue boxes labelled by lines).
    #[arg(long)]
    pub dot: bool,
}

pub fn run(args: RegionsArgs) -> u8 {
    let loaded = match args.input.load() {
        Ok(l) => l,
        Err(d) => return input_error(&d, Format::Text, None),
    };
    print_warnings(&loaded);
    let rnt = qicc_analysis::build_rnt(&loaded.program);
    if args.dot {
        print!("{}", rnt.to_dot(&loaded.program));
    } else {
        print!("{}", rnt.to_text(&loaded.program));
    }
    0
}
