//! The browsable report (`verify --html`, `batch --html`, `report --html`) end to end with
//! the real `qicc`: what each page holds is checked in its HTML here; the rendered pages are
//! checked in a real browser by `tests/browser/test_pages.py` (CI).

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

fn scratch(name: &str) -> PathBuf {
    common::scratch("html", name)
}

use common::qicc;

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
        .display()
        .to_string()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The page fetches nothing: no attribute names a URL other than a fragment or a relative
/// path, and the Content-Security-Policy forbids fetching.
fn assert_self_contained(page: &str) {
    assert!(page.contains("Content-Security-Policy"), "no CSP");
    for attr in ["src=\"", "href=\""] {
        for v in page.split(attr).skip(1) {
            let url = v.split('"').next().unwrap_or("");
            assert!(
                !url.contains("://") && !url.starts_with("//"),
                "the page links {url}"
            );
        }
    }
}

fn verify_html(dir: &Path, args: &[&str]) -> (Output, String) {
    let mut all = vec!["verify", "--html", dir.to_str().expect("utf-8 path")];
    all.extend_from_slice(args);
    let out = qicc(&all);
    let page = read(&dir.join("index.html"));
    assert_self_contained(&page);
    (out, page)
}

#[test]
fn false_page_marks_the_violated_line_and_lists_the_replayed_steps() {
    let dir = scratch("false");
    let (out, page) = verify_html(&dir, &[&example("escape.c")]);
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    assert!(page.contains("data-verdict=\"false\""));
    // escape.c:18 holds the violated __VERIFIER_assert.
    let line18 = page
        .split("<tr id=\"f0-l18\"")
        .nth(1)
        .expect("line 18 of the source")
        .split("</tr>")
        .next()
        .unwrap_or("");
    assert!(line18.contains("violated-line"), "{line18}");
    assert!(line18.contains("#1 violated"), "{line18}");
    // The trace: 9 inputs (the buffer fills with spaces), steps numbered and linked to lines.
    let json = qicc(&["verify", "--format", "json", &example("escape.c")]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let steps = report["violation"]["trace"]["steps"]
        .as_array()
        .expect("steps");
    assert!(!steps.is_empty());
    assert_eq!(page.matches("<tr id=\"step-").count(), steps.len());
    assert_eq!(
        page.matches("<tr class=\"input\">").count(),
        report["violation"]["trace"]["inputs"]
            .as_array()
            .map_or(0, Vec::len)
    );
    assert!(page.contains("<a class=\"loc\" href=\"#f0-l15\">"));
    assert!(
        page.contains("href=\"#step-1\""),
        "source lines link their steps"
    );
    // No proof under FALSE.
    assert!(page.contains("No assertion is proven safe."));
}

#[test]
fn true_page_shows_the_region_proof_and_the_region_nesting_tree() {
    let dir = scratch("region");
    let (out, page) = verify_html(&dir, &[&example("two_sum.c")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(page.contains("data-argument=\"region\""));
    assert!(page.contains("region proof"));
    let json = qicc(&["verify", "--format", "json", &example("two_sum.c")]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let regions = report["regions"].as_array().expect("the report's regions");
    assert!(regions.len() >= 2, "{regions:?}");
    assert_eq!(page.matches("<g class=\"rnt-node").count(), regions.len());
    // The node the proof ran on is coloured as proven.
    assert!(page.contains("rnt-node o-proved"));
    assert!(page.contains("<table class=\"attempts sortable-table\">"));
    assert!(page.contains("No violation was found.") || page.contains("None: no violation"));
}

#[test]
fn invariants_stand_at_their_loops() {
    let dir = scratch("invariants");
    let src = dir.join("count.c");
    std::fs::write(
        &src,
        "extern unsigned __VERIFIER_nondet_uint(void);\nvoid reach_error(void);\n\
         int main(void) {\n  unsigned n = __VERIFIER_nondet_uint(), i = 0, k = 0;\n\
         while (i < n) {\n    i++;\n    k += 2;\n  }\n  if (k != 2 * i) reach_error();\n  return 0;\n}\n",
    )
    .expect("write");
    let site = dir.join("site");
    let (out, page) = verify_html(
        &site,
        &["--engine", "invariants", src.to_str().expect("utf-8")],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(page.contains("<h3>Loop invariants</h3>"), "{page}");
    // The annotation stands under the loop's line (5) in the source.
    let after_loop = page
        .split("<tr id=\"f0-l5\"")
        .nth(1)
        .expect("line 5")
        .split("<tr id=\"f0-l6\"")
        .next()
        .unwrap_or("");
    assert!(after_loop.contains("/*@ loop invariant"), "{after_loop}");
}

#[test]
fn batch_and_saved_reports_make_an_index_with_a_page_per_task() {
    let dir = scratch("batch");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("mkdir");
    std::fs::copy(example("escape.c"), suite.join("escape.c")).expect("copy");
    std::fs::copy(example("two_sum.c"), suite.join("two_sum.c")).expect("copy");
    let out = dir.join("out");
    let run = qicc(&[
        "batch",
        "--jobs",
        "1",
        "--timeout",
        "30",
        "--html",
        "--progress",
        "none",
        "-o",
        out.to_str().expect("utf-8"),
        suite.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let index = read(&out.join("html/index.html"));
    assert_self_contained(&index);
    assert_eq!(index.matches("<tr class=\"task ").count(), 2);
    for page in ["suite_escape.c.html", "suite_two_sum.c.html"] {
        assert!(index.contains(&format!("href=\"tasks/{page}\"")), "{index}");
        let p = read(&out.join("html/tasks").join(page));
        assert_self_contained(&p);
        assert!(p.contains("href=\"../index.html\""));
        assert!(
            p.contains("<table class=\"source\""),
            "the source was found"
        );
    }
    // `qicc report` over the batch directory and a saved JSON report.
    let json = dir.join("escape.json");
    let r = qicc(&["verify", "--format", "json", &example("escape.c")]);
    std::fs::write(&json, &r.stdout).expect("write");
    let site = dir.join("site");
    let rep = qicc(&[
        "report",
        "--html",
        site.to_str().expect("utf-8"),
        out.to_str().expect("utf-8"),
        json.to_str().expect("utf-8"),
    ]);
    assert_eq!(rep.status.code(), Some(0), "{rep:?}");
    let index = read(&site.join("index.html"));
    assert_eq!(index.matches("<tr class=\"task ").count(), 3);
    // Not a report: a clear error, exit code 6.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"x\": 1}").expect("write");
    let rep = qicc(&[
        "report",
        "--html",
        site.to_str().expect("utf-8"),
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(rep.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&rep.stderr).contains("neither a qicc JSON report"));
}

#[test]
fn a_trace_into_the_library_models_shows_their_source() {
    let dir = scratch("libc");
    let src = dir.join("lib.c");
    std::fs::write(
        &src,
        "#include <string.h>\nextern char __VERIFIER_nondet_char(void);\nvoid reach_error(void);\n\
         int main(void) {\n  char s[4];\n  s[0] = __VERIFIER_nondet_char(); s[1] = 'b'; s[2] = 0;\n\
         if (strlen(s) == 2 && s[0] == 'z') reach_error();\n  return 0;\n}\n",
    )
    .expect("write");
    let site = dir.join("site");
    let (out, page) = verify_html(
        &site,
        &["--trace-detail", "full", src.to_str().expect("utf-8")],
    );
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    assert!(page.contains("<h3>&lt;qicc libc&gt;</h3>"));
    // A step inside strlen's model links to a line of the models' source.
    assert!(
        page.contains("<a class=\"loc\" href=\"#f1-l"),
        "no step in the models"
    );
    // Without the full trace the model's call is one step, and its source is not shown.
    let (_, page) = verify_html(&dir.join("short"), &[src.to_str().expect("utf-8")]);
    assert!(!page.contains("<h3>&lt;qicc libc&gt;</h3>"));
}
