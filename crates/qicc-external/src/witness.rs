//! Reading an external verifier's violation witness (SV-COMP format 2.0, YAML) back into the
//! values its counterexample gave the program's nondet calls, so that qicc can replay it.
//!
//! A `violation_sequence` is a list of segments, each with `follow` waypoints; a
//! `function_return` waypoint's constraint `\result == v` is the value a call returned (ESBMC
//! writes one for every `__VERIFIER_nondet_*` call on the path, in execution order). Those
//! values, in order, are the input sequence; `branching`, `assumption` and `target` waypoints
//! are not needed to replay (the values decide the branches) and are only checked by the
//! replay reaching the error. A constraint this module cannot read as an integer (a float, an
//! expression) makes the witness unusable: the violation stays unconfirmed, with the reason.
//!
//! Invariant: a witness only ever proposes inputs. Whether they are a counterexample is
//! decided by replaying them on the program (the interpreter, then the driver's replays), never
//! by this module.

use serde::Deserialize;

#[derive(Deserialize)]
struct Entry {
    entry_type: String,
    #[serde(default)]
    content: Vec<Segment>,
}

#[derive(Deserialize)]
struct Segment {
    #[serde(default)]
    segment: Vec<WaypointEntry>,
}

#[derive(Deserialize)]
struct WaypointEntry {
    waypoint: Waypoint,
}

#[derive(Deserialize)]
struct Waypoint {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    constraint: Option<Constraint>,
    #[serde(default)]
    location: Option<Location>,
}

#[derive(Deserialize)]
struct Location {
    #[serde(default)]
    file_name: Option<String>,
    #[serde(default)]
    line: u32,
}

#[derive(Deserialize)]
struct Constraint {
    value: String,
}

/// One `function_return` waypoint: where the call is and the value it returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Returned {
    /// The file the witness names (as the tool was given it), if any.
    pub file: Option<String>,
    /// The call's line (0 when the witness gives none).
    pub line: u32,
    /// The value as a two's-complement 64-bit word (the replay truncates it to its
    /// variable's width).
    pub value: u64,
}

/// The values of the `function_return` waypoints of the witness's violation sequence, in
/// order.
pub fn return_values(yaml: &str) -> Result<Vec<Returned>, String> {
    let entries: Vec<Entry> =
        serde_yaml::from_str(yaml).map_err(|e| format!("not a witness 2.0 file: {e}"))?;
    let seq = entries
        .iter()
        .find(|e| e.entry_type == "violation_sequence")
        .ok_or("the witness has no violation_sequence entry")?;
    let mut values = Vec::new();
    for w in seq.content.iter().flat_map(|s| &s.segment) {
        let w = &w.waypoint;
        if w.kind != "function_return" || w.action.as_deref().is_some_and(|a| a != "follow") {
            continue;
        }
        let c = w
            .constraint
            .as_ref()
            .ok_or("a function_return waypoint without a constraint")?;
        values.push(Returned {
            file: w.location.as_ref().and_then(|l| l.file_name.clone()),
            line: w.location.as_ref().map_or(0, |l| l.line),
            value: result_value(&c.value)?,
        });
    }
    Ok(values)
}

/// `\result == v` (either side; `v` decimal or hexadecimal, maybe negative, maybe with C's
/// integer suffixes), as a 64-bit word.
fn result_value(text: &str) -> Result<u64, String> {
    let bad = || format!("cannot read the return value constraint `{text}`");
    let (l, r) = text.split_once("==").ok_or_else(bad)?;
    let (l, r) = (l.trim(), r.trim());
    let v = match (l, r) {
        ("\\result", v) | (v, "\\result") => v,
        _ => return Err(bad()),
    };
    let v = v.trim_matches(|c| c == '(' || c == ')').trim();
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d.trim()),
        None => (false, v),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => digits.parse::<u64>(),
    }
    .map_err(|_| bad())?;
    Ok(if neg {
        magnitude.wrapping_neg()
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ESBMC 8.4's witness for `x = nondet(); y = nondet(); if (y > 10 && x == -3) error`,
    /// shortened (metadata kept as ESBMC writes it).
    const ESBMC: &str = r#"- entry_type: "violation_sequence"
  metadata:
    format_version: "2.0"
    producer:
      name: "ESBMC"
      version: "8.4.0"
  content:
    - segment:
        - waypoint:
            type: "function_return"
            action: "follow"
            constraint:
              value: "\\result == -3"
              format: "ext_c_expression"
            location:
              file_name: "t.c"
              line: 5
              column: 3
              function: "main"
    - segment:
        - waypoint:
            type: "branching"
            action: "follow"
            constraint:
              value: "true"
            location:
              file_name: "t.c"
              line: 7
              column: 3
              function: "main"
    - segment:
        - waypoint:
            type: "function_return"
            action: "follow"
            constraint:
              value: "\\result == 2147483647"
              format: "ext_c_expression"
            location:
              file_name: "t.c"
              line: 6
              column: 3
              function: "main"
    - segment:
        - waypoint:
            type: "target"
            action: "follow"
            location:
              file_name: "t.c"
              line: 3
              column: 43
              function: "__VERIFIER_assert"
"#;

    #[test]
    fn return_values_come_in_path_order() {
        let at = |line, value| Returned {
            file: Some("t.c".into()),
            line,
            value,
        };
        assert_eq!(
            return_values(ESBMC),
            Ok(vec![at(5, (-3i64) as u64), at(6, 2147483647)])
        );
    }

    #[test]
    fn constraints_in_every_spelling_read_as_words() {
        assert_eq!(result_value("\\result == 7"), Ok(7));
        assert_eq!(result_value("42u == \\result"), Ok(42));
        assert_eq!(result_value("\\result == 0xffUL"), Ok(255));
        assert_eq!(result_value("\\result == (-1)"), Ok(u64::MAX));
        assert_eq!(result_value("\\result == -0x10"), Ok(16u64.wrapping_neg()));
        assert!(result_value("\\result == 1.5").is_err());
        assert!(result_value("\\result < 3").is_err());
        assert!(result_value("x == 3").is_err());
    }

    #[test]
    fn a_file_that_is_no_violation_witness_says_so() {
        assert!(return_values("- entry_type: invariant_set\n  content: []\n").is_err());
        assert!(return_values("not: [yaml").is_err());
    }
}
