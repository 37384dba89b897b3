//! Readable forms of the Region Nesting Tree: an indented text tree (`qicc regions`, snapshot
//! tests) and Graphviz in the style of the paper's Fig. 1 (white boxes for functions, blue for
//! regions labelled by their lines, arrows for containment, assertions in red).

use crate::rnt::{NodeKind, Rnt};
use qicc_ir::{AssertionId, Program};
use std::fmt::Write;

pub(crate) fn lines_suffix(lines: Option<(u32, u32)>) -> String {
    match lines {
        Some((a, b)) if a == b => format!(" (line {a})"),
        Some((a, b)) => format!(" (lines {a}-{b})"),
        None => String::new(),
    }
}

fn ids(list: &[AssertionId]) -> String {
    list.iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `#0 reach_error at t.c:9:3 "x == 1"`.
pub fn assertion_str(p: &Program, a: AssertionId) -> String {
    match p.assertions.get(a.index()) {
        Some(asr) => {
            let mut s = format!("{a} {} at {}", asr.kind.name(), p.span_str(asr.span));
            if let Some(t) = &asr.text {
                let _ = write!(s, " {t:?}");
            }
            s
        }
        None => format!("{a} (no such assertion)"),
    }
}

impl Rnt {
    /// One line per node, indented by depth:
    ///
    /// ```text
    /// fn main (lines 5-20) [#0 #1]
    ///   region main/L4 (lines 7-12) [#0]
    ///     fn two_sum_prev (called at line 9) (lines 12-18) [#0]
    ///       holds #0 verifier_assert at t.c:14:7 "j < 10"
    /// ```
    ///
    /// `[...]` lists the assertions the node holds transitively, `holds` lines those it holds
    /// directly; a final section maps each assertion to its innermost nodes.
    pub fn to_text(&self, p: &Program) -> String {
        let mut out = String::new();
        let mut stack = vec![(self.root, 0usize)];
        while let Some((n, depth)) = stack.pop() {
            let node = self.node(n);
            let pad = "  ".repeat(depth);
            let head = match node.kind {
                NodeKind::Function(_) => format!("fn {}", self.name(p, n)),
                NodeKind::Region(_) => format!("region {}", self.name(p, n)),
            };
            let _ = write!(out, "{pad}{head}");
            if let (Some(parent), false) = (node.parent, node.call_sites.is_empty()) {
                let pf = p.function(self.node(parent).func());
                let mut lines: Vec<u32> = node
                    .call_sites
                    .iter()
                    .map(|&e| pf.edge(e).span.line)
                    .filter(|&l| l != 0)
                    .collect();
                lines.dedup();
                match lines.len() {
                    0 => out.push_str(" (called)"),
                    1 => {
                        let _ = write!(out, " (called at line {})", lines[0]);
                    }
                    _ => {
                        let l: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                        let _ = write!(out, " (called at lines {})", l.join(", "));
                    }
                }
            }
            out.push_str(&lines_suffix(node.lines));
            let _ = writeln!(out, " [{}]", ids(&node.assertions));
            for a in &node.direct {
                let _ = writeln!(out, "{pad}  holds {}", assertion_str(p, *a));
            }
            for note in &node.notes {
                let _ = writeln!(out, "{pad}  note: {note}");
            }
            for &c in node.children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        let _ = writeln!(out, "assertions:");
        for a in p.assertion_ids() {
            let inner = self.innermost_nodes(a);
            let _ = write!(out, "  {}: ", assertion_str(p, a));
            if inner.is_empty() {
                let _ = writeln!(out, "in no node (unreachable)");
            } else {
                let names: Vec<String> = inner.iter().map(|&n| self.path_name(p, n)).collect();
                let _ = writeln!(out, "innermost {}", names.join(" | "));
            }
        }
        out
    }

    /// Graphviz `digraph` of the tree in the style of the paper's Fig. 1.
    pub fn to_dot(&self, p: &Program) -> String {
        let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::from(
            "digraph rnt {\n  node [shape=box fontsize=10 style=filled];\n  edge [arrowsize=0.7];\n",
        );
        for n in self.node_ids() {
            let node = self.node(n);
            // Label lines, escaped one by one and joined with Graphviz's `\n`.
            let mut label = vec![esc(&self.name(p, n))];
            if let Some((a, b)) = node.lines {
                label.push(format!("{a}-{b}"));
            }
            if node.recursive {
                label.push("(recursive)".into());
            }
            for a in &node.direct {
                label.push(format!("assert {a}"));
            }
            let fill = match node.kind {
                NodeKind::Function(_) => "white",
                NodeKind::Region(_) => "lightblue",
            };
            let border = if node.direct.is_empty() {
                "black"
            } else {
                "red"
            };
            let _ = writeln!(
                out,
                "  {} [label=\"{}\" fillcolor={fill} color={border}];",
                n,
                label.join("\\n")
            );
        }
        for n in self.node_ids() {
            for c in &self.node(n).children {
                let _ = writeln!(out, "  {n} -> {c};");
            }
        }
        out.push_str("}\n");
        out
    }
}
