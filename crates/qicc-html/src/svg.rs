//! The Region Nesting Tree as an SVG picture, laid out here (no Graphviz on the user's
//! machine): a tidy tree, top-down. Leaves take consecutive columns in pre-order, a parent is
//! centred over its first and last child, each depth is a row; boxes never overlap because no
//! two nodes share a column and a row.

use crate::html::esc;
use std::fmt::Write;

/// One node to draw.
#[derive(Clone, Debug)]
pub struct TreeNode {
    /// The index of its parent among the nodes given (parents come before children).
    pub parent: Option<usize>,
    /// The text in the box (shortened to fit), the full text in its tooltip.
    pub label: String,
    pub tooltip: String,
    /// The CSS class that colours it (`o-proved`, `o-failed`, ...).
    pub class: &'static str,
}

const BOX_W: f64 = 170.0;
const BOX_H: f64 = 34.0;
const GAP_X: f64 = 14.0;
const GAP_Y: f64 = 30.0;
const MARGIN: f64 = 6.0;
/// Characters of a label that fit in a box.
const LABEL_CHARS: usize = 26;

/// The picture of `nodes` (a forest: nodes without a parent are roots, side by side).
pub fn tree(nodes: &[TreeNode]) -> String {
    let n = nodes.len();
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        match node.parent.filter(|&p| p < i) {
            Some(p) => children[p].push(i),
            None => roots.push(i),
        }
    }
    let mut x = vec![0.0f64; n];
    let mut depth = vec![0usize; n];
    let mut next_column = 0.0f64;
    // Pre-order with an explicit stack (a tree may be deep); a node is placed once all its
    // children are (post-order): `done` marks the second visit.
    let mut stack: Vec<(usize, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
    while let Some((i, done)) = stack.pop() {
        if done {
            x[i] = match (children[i].first(), children[i].last()) {
                (Some(&a), Some(&b)) => (x[a] + x[b]) / 2.0,
                _ => {
                    next_column += 1.0;
                    next_column - 1.0
                }
            };
            continue;
        }
        stack.push((i, true));
        for &c in children[i].iter().rev() {
            depth[c] = depth[i] + 1;
            stack.push((c, false));
        }
    }
    let columns = next_column.max(1.0);
    let rows = depth.iter().max().map_or(1, |d| d + 1);
    let width = MARGIN * 2.0 + columns * BOX_W + (columns - 1.0) * GAP_X;
    let height = MARGIN * 2.0 + rows as f64 * BOX_H + (rows as f64 - 1.0) * GAP_Y;
    let left = |i: usize| MARGIN + x[i] * (BOX_W + GAP_X);
    let top = |i: usize| MARGIN + depth[i] as f64 * (BOX_H + GAP_Y);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg class=\"rnt\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" \
         height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" \
         aria-label=\"Region Nesting Tree\">"
    );
    for (i, node) in nodes.iter().enumerate() {
        if let Some(p) = node.parent.filter(|&p| p < i) {
            let _ = writeln!(
                out,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                left(p) + BOX_W / 2.0,
                top(p) + BOX_H,
                left(i) + BOX_W / 2.0,
                top(i)
            );
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        let _ = writeln!(
            out,
            "<g class=\"rnt-node {}\" data-node=\"{}\"><title>{}</title>\
             <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{BOX_W}\" height=\"{BOX_H}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
            node.class,
            i,
            esc(&node.tooltip),
            left(i),
            top(i),
            left(i) + BOX_W / 2.0,
            top(i) + BOX_H / 2.0 + 4.0,
            esc(&shorten(&node.label)),
        );
    }
    out.push_str("</svg>\n");
    out
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= LABEL_CHARS {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(LABEL_CHARS - 1).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: Option<usize>, label: &str) -> TreeNode {
        TreeNode {
            parent,
            label: label.into(),
            tooltip: label.into(),
            class: "o-none",
        }
    }

    /// The boxes' positions, from the picture.
    fn boxes(svg: &str) -> Vec<(f64, f64)> {
        svg.split("<rect x=\"")
            .skip(1)
            .map(|r| {
                let x: f64 = r.split('"').next().unwrap().parse().unwrap();
                let y: f64 = r
                    .split("y=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                (x, y)
            })
            .collect()
    }

    #[test]
    fn one_box_per_node_none_overlapping_parents_centred_above() {
        // main { L1 { f }, L2, g { L3 } }
        let nodes = [
            node(None, "function main"),
            node(Some(0), "region main/L1"),
            node(Some(1), "function f"),
            node(Some(0), "region main/L2"),
            node(Some(0), "function g"),
            node(Some(4), "region g/L3"),
        ];
        let svg = tree(&nodes);
        let b = boxes(&svg);
        assert_eq!(b.len(), nodes.len());
        assert_eq!(svg.matches("<line ").count(), nodes.len() - 1);
        for i in 0..b.len() {
            for j in 0..i {
                let apart = (b[i].0 - b[j].0).abs() >= BOX_W || (b[i].1 - b[j].1).abs() >= BOX_H;
                assert!(apart, "boxes {i} and {j} overlap: {b:?}");
            }
        }
        for (i, n) in nodes.iter().enumerate() {
            if let Some(p) = n.parent {
                assert!(b[p].1 < b[i].1, "parent {p} above child {i}");
            }
        }
        // main is centred over its first (L1) and last (g) child.
        assert_eq!(b[0].0, (b[1].0 + b[4].0) / 2.0);
    }

    #[test]
    fn long_labels_are_shortened_and_escaped() {
        let svg = tree(&[node(None, "region main/L7 (lines 12-18) <a & b>")]);
        assert!(svg.contains("<title>region main/L7 (lines 12-18) &lt;a &amp; b&gt;</title>"));
        assert!(svg.contains(">region main/L7 (lines 12-…</text>"));
    }
}
