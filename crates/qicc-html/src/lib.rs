//! The browsable report (CBMC's `cbmc-viewer` is the model): static web pages a user opens
//! from disk, made from qicc's JSON report alone.
//!
//! - [`report_page`]: one run. Summary (verdict, reason, time, memory, engine, options, the
//!   task and its expected verdict), the assertions and the open undefined-behaviour checks
//!   with their status, the source with each of them marked and the counterexample's steps
//!   numbered on their lines, the counterexample as a table (inputs first, each step linked to
//!   its line, a long trace's middle collapsed), the proof of each safe assertion with the loop
//!   invariants as annotations at their loops, and the Region Nesting Tree as an SVG picture
//!   ([`svg`]) beside the runs tried on its nodes.
//! - [`index_page`]: many runs (a batch): per-family counts, one row per task linking to its
//!   page, sortable by any column.
//!
//! The JSON report (`qicc verify --format json`, a batch's `result.json`) is the contract:
//! this crate names no other qicc crate, so pages can be made long after the run
//! (`qicc report --html`).
//!
//! Invariant: a page fetches nothing. Its style and script are inline, pictures are inline
//! SVG, every link is a fragment or a relative path to another page of the site, and each
//! page's Content-Security-Policy forbids every fetch ([`CSP`]), so it opens the same with
//! or without a network.

mod html;
mod index;
mod page;
mod site;
mod source;
pub mod svg;

pub use index::{index_page, IndexRow};
pub use page::{report_page, PageInput};
pub use site::{write_site, SiteRun};
pub use source::{load_sources, Builtin, Source};

/// Allows the page's own inline style and script and `data:` images; nothing is fetched.
pub const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/// Writes `html` as `dir/name`, creating `dir`.
pub fn write_page(
    dir: &std::path::Path,
    name: &str,
    html: &str,
) -> std::io::Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    std::fs::write(&path, html)?;
    Ok(path)
}
