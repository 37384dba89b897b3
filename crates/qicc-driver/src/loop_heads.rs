//! The loops a user names on the command line: `--show-loops` lists every loop head of the
//! program's own functions (the loop nesting forest of `qicc_analysis::loops`, the one the
//! BMC unwinds) with its source position and the `FUNC:LOC` that `--unwindset FUNC:LOC:K`
//! takes; [`check_unwindset`] rejects an entry that names no loop head before any engine runs.

use qicc_analysis::graph::FunctionGraph;
use qicc_ir::Program;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopHead {
    /// The IR function (a C function's name, a static one's with its unit's prefix).
    pub function: String,
    /// The head's IR location: `L{loc}` in `--unwindset`.
    pub loc: u32,
    /// `file:line:col` of the loop, `-` when unknown.
    pub position: String,
    /// How many loops contain this one.
    pub depth: usize,
}

impl LoopHead {
    /// The name `--unwindset` takes (`main:L5`).
    pub fn name(&self) -> String {
        format!("{}:L{}", self.function, self.loc)
    }
}

/// Every loop head of the program's functions (the C library's models excluded), function by
/// function, outer loops before the loops they contain.
pub fn loop_heads(p: &Program) -> Vec<LoopHead> {
    let mut out = Vec::new();
    for f in p.functions.iter().filter(|f| !p.is_library_model(f)) {
        let g = FunctionGraph::new(f);
        for l in &g.forest.loops {
            let mut depth = 0;
            let mut parent = l.parent;
            while let Some(q) = parent {
                depth += 1;
                parent = g.forest.loops.get(q as usize).and_then(|x| x.parent);
            }
            out.push(LoopHead {
                function: f.name.clone(),
                loc: l.header.0,
                position: if l.span.is_known() {
                    p.span_str(l.span)
                } else {
                    "-".to_string()
                },
                depth,
            });
        }
    }
    out
}

/// The `--show-loops` listing.
pub fn loops_text(p: &Program) -> String {
    let heads = loop_heads(p);
    if heads.is_empty() {
        return "The program has no loops.\n".to_string();
    }
    let w = heads.iter().map(|h| h.name().len()).max().unwrap_or(0);
    let mut s = String::from("Loop heads (--unwindset NAME:K sets the bound of one):\n");
    for h in &heads {
        s.push_str(&format!(
            "  {:w$}  {}{}\n",
            h.name(),
            "  ".repeat(h.depth),
            h.position
        ));
    }
    s
}

/// Whether every `--unwindset` entry `(function, loc, bound)` names a loop head; the error
/// says which does not and lists the heads there are.
pub fn check_unwindset(p: &Program, entries: &[(String, u32, u32)]) -> Result<(), String> {
    let heads = loop_heads(p);
    for (f, loc, _) in entries {
        if heads.iter().any(|h| &h.function == f && h.loc == *loc) {
            continue;
        }
        let why = if p.find_function(f).is_none() {
            format!("no function named {f}")
        } else {
            format!("L{loc} of {f} is not a loop head")
        };
        let list: Vec<String> = heads
            .iter()
            .map(|h| format!("{} ({})", h.name(), h.position))
            .collect();
        return Err(format!(
            "--unwindset {f}:L{loc}: {why}; the loop heads are: {}",
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(", ")
            }
        ));
    }
    Ok(())
}
