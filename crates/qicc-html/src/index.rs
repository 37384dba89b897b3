//! The index of many runs ([`index_page`]): per-family counts on top, then one row per task
//! linking to its page, sortable by any column (a header click, or `index.html#sort=time`).

use crate::html::{document, esc, mebibytes, seconds, verdict_badge};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One task of the index.
#[derive(Clone, Debug, Default)]
pub struct IndexRow {
    pub id: String,
    pub family: String,
    /// `true`, `false`, `unknown`, `bounded`, or `error`.
    pub verdict: String,
    pub expected: Option<bool>,
    /// `correct`, `wrong`, `unknown` or `error`.
    pub status: String,
    pub wall_ms: u64,
    pub peak_rss_kib: Option<u64>,
    pub reason: Option<String>,
    /// The task's page, relative to the index.
    pub page: Option<String>,
}

/// The index page over `rows`.
pub fn index_page(title: &str, rows: &[IndexRow]) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<header><h1>{}</h1><nav><a href=\"#families\">Families</a><a href=\"#tasks\">Tasks</a>\
         </nav></header>\n<main>",
        esc(title)
    );
    families(&mut body, rows);
    body.push_str(
        "<section id=\"tasks-section\"><h2>Tasks</h2>\n<table id=\"tasks\" \
         class=\"sortable-table\"><thead><tr><th data-col=\"task\">Task</th>\
         <th data-col=\"family\">Family</th><th data-col=\"verdict\">Verdict</th>\
         <th data-col=\"expected\">Expected</th><th data-col=\"status\">Status</th>\
         <th data-col=\"time\" data-type=\"num\">Time</th>\
         <th data-col=\"memory\" data-type=\"num\">Memory</th><th data-col=\"reason\">Reason</th>\
         </tr></thead><tbody>\n",
    );
    for r in rows {
        let task = match &r.page {
            Some(p) => format!("<a href=\"{}\">{}</a>", esc(p), esc(&r.id)),
            None => esc(&r.id),
        };
        let expected = match r.expected {
            Some(true) => "true",
            Some(false) => "false",
            None => "",
        };
        let _ = writeln!(
            body,
            "<tr class=\"task s-{}\"><td data-v=\"{}\">{task}</td><td>{}</td>\
             <td data-v=\"{}\">{}</td><td>{}</td><td class=\"status\">{}</td>\
             <td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td>{}</td></tr>",
            esc(&r.status),
            esc(&r.id),
            esc(&r.family),
            esc(&r.verdict),
            verdict_badge(&r.verdict, None),
            expected,
            esc(&r.status),
            r.wall_ms,
            seconds(r.wall_ms),
            r.peak_rss_kib.map(|k| k.to_string()).unwrap_or_default(),
            r.peak_rss_kib.map(mebibytes).unwrap_or_default(),
            esc(r.reason.as_deref().unwrap_or("")),
        );
    }
    body.push_str("</tbody></table></section>\n</main>\n");
    document(title, " class=\"index\"", &body)
}

fn families(out: &mut String, rows: &[IndexRow]) {
    let mut per: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    for r in rows {
        let c = per.entry(r.family.as_str()).or_default();
        c[0] += 1;
        match r.status.as_str() {
            "correct" => c[1] += 1,
            "wrong" => c[2] += 1,
            "error" => c[4] += 1,
            _ => c[3] += 1,
        }
    }
    out.push_str(
        "<section id=\"families\"><h2>Families</h2><table class=\"families\"><thead><tr>\
         <th>Family</th><th>Tasks</th><th>Correct</th><th>Wrong</th><th>Unknown</th>\
         <th>Error</th></tr></thead><tbody>\n",
    );
    let mut total = [0usize; 5];
    for (family, c) in &per {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(family),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        for i in 0..5 {
            total[i] += c[i];
        }
    }
    let _ = writeln!(
        out,
        "<tr class=\"total\"><th>all</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>\
         </tr></tbody></table></section>",
        total[0], total[1], total[2], total[3], total[4]
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_link_their_pages_and_families_are_counted() {
        let rows = [
            IndexRow {
                id: "a/x".into(),
                family: "a".into(),
                verdict: "true".into(),
                expected: Some(true),
                status: "correct".into(),
                wall_ms: 1500,
                page: Some("tasks/a_x.html".into()),
                ..Default::default()
            },
            IndexRow {
                id: "a/y<".into(),
                family: "a".into(),
                verdict: "false".into(),
                expected: Some(true),
                status: "wrong".into(),
                ..Default::default()
            },
        ];
        let page = index_page("batch", &rows);
        assert!(page.contains("<a href=\"tasks/a_x.html\">a/x</a>"));
        assert!(page.contains("a/y&lt;"));
        assert!(
            page.contains("<tr><td>a</td><td>2</td><td>1</td><td>1</td><td>0</td><td>0</td></tr>")
        );
        assert!(page.contains("data-v=\"1500\">1.50 s"));
    }
}
