//! The pieces every page shares: escaping, the document around a page's body (style, script,
//! the Content-Security-Policy), reading the JSON report's fields.

use serde_json::Value;
use std::fmt::Write;

/// `s` as HTML text or attribute value.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: `body` inside the shared head (style, script, [`crate::CSP`]).
pub fn document(title: &str, body_attrs: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + STYLE.len() + SCRIPT.len() + 512);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body{body_attrs}>\n{body}\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        crate::CSP,
        esc(title),
    );
    out
}

/// The string at `key` of `v` ("" when missing or not a string).
pub fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The unsigned number at `key` of `v`.
pub fn u64_of(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

/// The array at `key` of `v` (empty when missing).
pub fn array_of<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// Milliseconds as seconds, as the text report shows them.
pub fn seconds(ms: u64) -> String {
    format!("{:.2} s", ms as f64 / 1000.0)
}

/// KiB as MiB.
pub fn mebibytes(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// The verdict word as the text report prints it, with the class that colours it.
pub fn verdict_badge(verdict: &str, bounded: Option<u64>) -> String {
    let word = verdict.to_ascii_uppercase();
    let word = match bounded {
        Some(k) if verdict == "bounded" => format!("{word} (no violation within bound {k})"),
        _ => word,
    };
    format!(
        "<span class=\"verdict v-{}\">{}</span>",
        esc(&verdict.to_ascii_lowercase()),
        esc(&word)
    )
}

const STYLE: &str = r#"
:root { --fg: #1d1f21; --muted: #5f6368; --line: #e3e5e8; --bg-alt: #f6f7f9;
  --ok: #1e7d32; --ok-bg: #e3f4e5; --bad: #b3261e; --bad-bg: #fbe4e2;
  --unk: #8a5a00; --unk-bg: #fff3d6; --info-bg: #e8f0fe; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); margin: 0; }
header { padding: 12px 24px; border-bottom: 1px solid var(--line); background: var(--bg-alt); }
header h1 { font-size: 18px; margin: 0 0 4px 0; }
nav a { margin-right: 14px; }
main { padding: 8px 24px 40px 24px; }
section { margin-top: 22px; }
h2 { font-size: 16px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 14px 0 6px 0; }
a { color: #1a56c4; text-decoration: none; }
a:hover { text-decoration: underline; }
table { border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 3px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--bg-alt); font-weight: 600; }
table.kv th { width: 12em; }
code, pre, .code { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: var(--bg-alt); padding: 8px; overflow: auto; }
.verdict { font-weight: 700; padding: 1px 8px; border-radius: 4px; }
.v-true { color: var(--ok); background: var(--ok-bg); }
.v-false { color: var(--bad); background: var(--bad-bg); }
.v-unknown, .v-bounded, .v-error { color: var(--unk); background: var(--unk-bg); }
.st { font-weight: 600; padding: 0 6px; border-radius: 3px; white-space: nowrap; }
.st-safe { color: var(--ok); background: var(--ok-bg); }
.st-violated { color: var(--bad); background: var(--bad-bg); }
.st-unknown, .st-bounded { color: var(--unk); background: var(--unk-bg); }
.st-ub { color: var(--muted); background: var(--bg-alt); }
table.source { width: 100%; }
table.source td { border: 0; padding: 0 8px; }
table.source td.ln { color: var(--muted); text-align: right; width: 4em; user-select: none; }
table.source td.marks { width: 1%; white-space: nowrap; }
table.source td.code { white-space: pre; }
tr.on-trace td.code { background: var(--info-bg); }
tr.violated-line td.code { background: var(--bad-bg); font-weight: 600; }
tr.inv-row td.code { color: var(--ok); font-style: italic; }
tr:target td { outline: 2px solid #f0b400; background: #fff8d0; }
.steps-at { color: var(--muted); font-size: 11px; }
table.trace td.fn { white-space: nowrap; }
tr.k-error td, tr.k-halt td { background: var(--bad-bg); font-weight: 600; }
tr.k-input td { background: var(--info-bg); }
details > summary { cursor: pointer; color: #1a56c4; margin: 6px 0; }
svg.rnt text { font: 11px system-ui, sans-serif; }
svg.rnt rect { stroke: #555; stroke-width: 1; rx: 4; }
svg.rnt .o-proved rect { fill: #bfe6c4; }
svg.rnt .o-some rect { fill: #e1f2c4; }
svg.rnt .o-failed rect { fill: #f6c5c0; }
svg.rnt .o-cancelled rect { fill: #dde0e4; }
svg.rnt .o-error rect { fill: #ffd9a0; }
svg.rnt .o-none rect { fill: #ffffff; }
svg.rnt line { stroke: #888; }
tr.attempt.o-proved td { background: #e9f7eb; }
tr.attempt.o-some td { background: #f1f8e4; }
tr.attempt.o-failed td { background: #fcebe9; }
tr.attempt.o-error td { background: #fff0d6; }
tr.task.s-wrong td, tr.task.s-error td { background: var(--bad-bg); }
.legend span { display: inline-block; padding: 0 6px; margin-right: 6px; border: 1px solid #555; border-radius: 3px; }
th.sortable { cursor: pointer; }
th.sortable::after { content: " \2195"; color: var(--muted); }
th.sorted-asc::after { content: " \2191"; }
th.sorted-desc::after { content: " \2193"; }
.muted { color: var(--muted); }
.warn { background: var(--unk-bg); padding: 6px 10px; border-left: 4px solid var(--unk); }
.error { background: var(--bad-bg); padding: 6px 10px; border-left: 4px solid var(--bad); }
"#;

/// Sorting of `table.sortable-table` by a header click, or on load by the page's
/// `#sort=COLUMN` / `#sort=-COLUMN` fragment (a link can open the index sorted); each cell's
/// `data-v` is its sort key, numeric when the header says `data-type="num"`. The time from
/// the navigation to the first task after the load event goes into `body[data-loaded-ms]`
/// (read by the page-opening benchmark), and the number of resources the page fetched into
/// `body[data-fetched]` (0: the browser test checks it).
const SCRIPT: &str = r#"
(function () {
  function sortBy(table, col, desc) {
    var ths = table.tHead.rows[0].cells, num = ths[col].getAttribute('data-type') === 'num';
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    function key(r) { var c = r.cells[col]; var v = c.getAttribute('data-v'); if (v === null) v = c.textContent;
      return num ? (v === '' ? Infinity : parseFloat(v)) : v.toLowerCase(); }
    rows.sort(function (a, b) { var x = key(a), y = key(b); var c = x < y ? -1 : x > y ? 1 : 0; return desc ? -c : c; });
    rows.forEach(function (r) { body.appendChild(r); });
    for (var i = 0; i < ths.length; i++) ths[i].classList.remove('sorted-asc', 'sorted-desc');
    ths[col].classList.add(desc ? 'sorted-desc' : 'sorted-asc');
    table.setAttribute('data-sorted', ths[col].getAttribute('data-col') + (desc ? ':desc' : ':asc'));
  }
  var tables = document.querySelectorAll('table.sortable-table');
  tables.forEach(function (table) {
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) (function (i) {
      ths[i].classList.add('sortable');
      ths[i].addEventListener('click', function () { sortBy(table, i, ths[i].classList.contains('sorted-asc')); });
    })(i);
  });
  var m = /sort=(-?)([a-z_]+)/.exec(location.hash);
  if (m) tables.forEach(function (table) {
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) if (ths[i].getAttribute('data-col') === m[2]) sortBy(table, i, m[1] === '-');
  });
  document.body.setAttribute('data-parsed-ms', Math.round(performance.now()));
  window.addEventListener('load', function () {
    // A task after the load event runs once the page is laid out.
    setTimeout(function () {
      document.body.setAttribute('data-fetched', performance.getEntriesByType('resource').length);
      document.body.setAttribute('data-loaded-ms', Math.round(performance.now()));
    }, 0);
  });
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc("a < b && c > \"d\" 'e'"),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;"
        );
    }

    #[test]
    fn bounded_verdict_says_its_bound() {
        assert!(verdict_badge("bounded", Some(8)).contains("no violation within bound 8"));
        assert!(verdict_badge("false", None).contains("v-false\">FALSE<"));
    }
}
