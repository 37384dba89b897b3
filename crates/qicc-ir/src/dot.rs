//! Graphviz output of a function's automaton (`qicc cfa --dot`).

use crate::print::op_str;
use crate::program::{Function, Program};
use std::fmt::Write;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One `digraph` per function, clustered in a single graph for the whole program.
pub fn program_to_dot(p: &Program) -> String {
    let mut out =
        String::from("digraph qicc {\n  node [shape=circle fontsize=10];\n  edge [fontsize=9];\n");
    for (i, f) in p.functions.iter().enumerate() {
        let _ = writeln!(
            out,
            "  subgraph cluster_{i} {{\n    label=\"{}\";",
            escape(&f.name)
        );
        out.push_str(&function_body(p, f, &format!("f{i}_")));
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

pub fn function_to_dot(p: &Program, f: &Function) -> String {
    let mut out = format!(
        "digraph \"{}\" {{\n  node [shape=circle fontsize=10];\n  edge [fontsize=9];\n",
        escape(&f.name)
    );
    out.push_str(&function_body(p, f, ""));
    out.push_str("}\n");
    out
}

fn function_body(p: &Program, f: &Function, prefix: &str) -> String {
    let mut out = String::new();
    for l in f.locs() {
        let (label, shape) = if l == f.entry {
            (format!("{l}\\nentry"), "doublecircle")
        } else if l == f.exit {
            ("exit".to_string(), "doublecircle")
        } else if l == f.err {
            ("err".to_string(), "octagon")
        } else if l == f.halt {
            ("halt".to_string(), "box")
        } else {
            (l.to_string(), "circle")
        };
        let _ = writeln!(
            out,
            "    {prefix}{} [label=\"{label}\" shape={shape}];",
            l.0
        );
    }
    for e in &f.edges {
        let mut label = op_str(p, f, &e.op);
        if e.span.is_known() {
            let _ = write!(label, "  ({}:{})", e.span.line, e.span.col);
        }
        let _ = writeln!(
            out,
            "    {prefix}{} -> {prefix}{} [label=\"{}\"];",
            e.from.0,
            e.to.0,
            escape(&label)
        );
    }
    out
}
