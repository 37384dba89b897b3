//! A site over many runs: `DIR/index.html` ([`crate::index_page`]) and one page per run with
//! a report, `DIR/tasks/<id>.html`, each linking back to the index.

use crate::index::{index_page, IndexRow};
use crate::page::{report_page, PageInput};
use crate::source::{load_sources, Builtin};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One run of the site.
pub struct SiteRun {
    /// Its row in the index (its `page` is set here).
    pub row: IndexRow,
    /// qicc's JSON report, when the run printed one (a rejected input has none: no page).
    pub report: Option<Value>,
    /// The `qicc verify` command line, when known.
    pub command: Option<Vec<String>>,
    /// Where to look for a source file the report names by a relative path.
    pub dirs: Vec<PathBuf>,
}

/// Writes the site into `dir` (`builtin`: the files that are not on disk, see
/// [`crate::load_sources`]); returns the index's path.
pub fn write_site(
    dir: &Path,
    title: &str,
    runs: Vec<SiteRun>,
    builtin: &[Builtin],
) -> std::io::Result<PathBuf> {
    let tasks = dir.join("tasks");
    let mut rows = Vec::with_capacity(runs.len());
    let mut used = std::collections::HashSet::new();
    for run in runs {
        let mut row = run.row;
        if let Some(report) = &run.report {
            let name = unique(&file_name(&row.id), &mut used);
            let sources = load_sources(report, &run.dirs, builtin);
            let html = report_page(&PageInput {
                report,
                sources: &sources,
                command: run.command.as_deref(),
                index_link: Some("../index.html"),
            });
            crate::write_page(&tasks, &name, &html)?;
            row.page = Some(format!("tasks/{name}"));
        }
        rows.push(row);
    }
    crate::write_page(dir, "index.html", &index_page(title, &rows))
}

/// A task id as a file name: path separators and other unsafe characters become `_`.
fn file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{}.html", safe.trim_start_matches('.'))
}

fn unique(name: &str, used: &mut std::collections::HashSet<String>) -> String {
    let mut candidate = name.to_string();
    let mut n = 2;
    while !used.insert(candidate.clone()) {
        candidate = format!("{}-{n}.html", name.trim_end_matches(".html"));
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_distinct_safe_file_names() {
        let mut used = Default::default();
        assert_eq!(
            unique(&file_name("loops/a b.yml"), &mut used),
            "loops_a_b.yml.html"
        );
        assert_eq!(
            unique(&file_name("loops/a_b.yml"), &mut used),
            "loops_a_b.yml-2.html"
        );
        assert_eq!(file_name("../x"), "_x.html");
    }
}
