//! `qicc run`: one concrete execution through the interpreter, with its trace.

use crate::common::{input_error, print_warnings, Format, InputArgs, TraceDetail};
use clap::Args;
use qicc_interp::{run as interpret, trace, InputOracle, Outcome, RandomOracle, RunConfig};

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Seed of the pseudo-random stream that answers __VERIFIER_nondet_* calls and other
    /// arbitrary values.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Values for the __VERIFIER_nondet_* calls, in order (comma-separated, decimal or 0x hex,
    /// negative allowed); later calls fall back to the seeded stream.
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_name = "V,V,..."
    )]
    pub inputs: Option<Vec<String>>,
    /// Stop after this many steps.
    #[arg(long, default_value_t = 50_000_000)]
    pub max_steps: u64,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// How much of the run to show (see `qicc verify --help`).
    #[arg(long, value_enum, default_value = "program")]
    pub trace_detail: TraceDetail,
}

fn parse_value(s: &str) -> Option<u64> {
    let s = s.trim();
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => u64::from_str_radix(h, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// Exit code of `qicc run`: 10 when a property assertion was violated, 5 when the run ended in
/// an undefined-behaviour check or could not finish (blocked assumption, step limit), else 0.
pub fn run(args: RunArgs) -> u8 {
    if args.format == Format::Sarif {
        eprintln!("qicc: --format sarif is for `qicc verify` (a run has no findings to scan)");
        return crate::EXIT_USAGE;
    }
    let loaded = match args.input.load() {
        Ok(l) => l,
        Err(d) => return input_error(&d, args.format, None),
    };
    print_warnings(&loaded);
    let config = RunConfig {
        max_steps: args.max_steps,
        record_trace: true,
        ..RunConfig::default()
    };
    let run = match &args.inputs {
        Some(list) => {
            let mut values = Vec::new();
            for s in list {
                match parse_value(s) {
                    Some(v) => values.push(v),
                    None => {
                        eprintln!(
                            "qicc: --inputs: '{s}' is not a number (decimal, 0x hex, or negative)\n\nFor more information, try '--help'."
                        );
                        return crate::EXIT_USAGE;
                    }
                }
            }
            interpret(
                &loaded.program,
                &mut InputOracle::new(values, args.seed),
                &config,
            )
        }
        None => interpret(&loaded.program, &mut RandomOracle::new(args.seed), &config),
    };
    let t = trace(&loaded.program, &run).shown(args.trace_detail == TraceDetail::Full);
    match args.format {
        Format::Text | Format::Sarif => print!("{}", t.to_text()),
        Format::Json => match serde_json::to_string_pretty(&t) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("qicc: internal error: {e}");
                return crate::EXIT_INTERNAL;
            }
        },
    }
    if run.read_uninit && args.format == Format::Text {
        println!("note: the run used an uninitialised value or the result of a body-less function");
    }
    match run.outcome {
        Outcome::ErrorReached { assertion }
            if loaded.program.assertion(assertion).kind.is_property() =>
        {
            crate::EXIT_FALSE
        }
        Outcome::Returned { .. } | Outcome::Halted { .. } => 0,
        _ => crate::EXIT_UNKNOWN,
    }
}
