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

/// The values ESBMC's textual counterexample (`[Counterexample]`, then `State N file F line L
/// column C function G thread T`, a rule, and `  lhs = value (bits)` lines) assigns, in order,
/// with the state's file and line; the value is read from the bits in parentheses (exact for
/// integers and floats alike, up to 64 bits). ESBMC's witness 2.0 gives no value for a nondet
/// call assigned to a declared variable (`x = __VERIFIER_nondet_int();`), but its text trace
/// shows the assignment. Assignments of aggregates, or without bits, are skipped.
pub fn esbmc_trace_values(output: &str) -> Vec<Returned> {
    let Some(start) = output.find("[Counterexample]") else {
        return Vec::new();
    };
    let mut values = Vec::new();
    let mut at: Option<(String, u32)> = None;
    for line in output[start..].lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("State ") {
            at = state_location(rest);
            continue;
        }
        if t.starts_with("Violated property:") {
            break;
        }
        let (Some((file, l)), Some(bits)) = (&at, assignment_bits(t)) else {
            continue;
        };
        values.push(Returned {
            file: Some(file.clone()),
            line: *l,
            value: bits,
        });
    }
    values
}

/// `N file F line L column C ...` (after `State `): the file and line.
fn state_location(rest: &str) -> Option<(String, u32)> {
    let (_, after_file) = rest.split_once(" file ")?;
    let (file, after_line) = after_file.split_once(" line ")?;
    let line: String = after_line
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    Some((file.to_string(), line.parse().ok()?))
}

/// `lhs = value (b b b b)`: the bits in parentheses as a word (at most 64 of them).
fn assignment_bits(t: &str) -> Option<u64> {
    let (_, rhs) = t.split_once(" = ")?;
    let open = rhs.rfind('(')?;
    let bits: String = rhs[open + 1..]
        .strip_suffix(')')?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if bits.is_empty() || bits.len() > 64 || !bits.chars().all(|c| c == '0' || c == '1') {
        return None;
    }
    u64::from_str_radix(&bits, 2).ok()
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

    /// ESBMC 8.4's text counterexample for `x = nondet(); ...; float f = nondet_float();`
    /// (shortened): the values come from the bits, floats too; aggregates are skipped.
    #[test]
    fn esbmc_text_trace_values_come_from_the_bits() {
        let out = "Bug found\n[Counterexample]\n\n\n\
            State 1 file /t/a.c line 20 column 3 function main thread 0\n\
            ----------------------------------------------------\n\
            \x20 x = -1 (11111111 11111111 11111111 11111111)\n\n\
            State 3 file /t/a.c line 22 column 3 function main thread 0\n\
            ----------------------------------------------------\n\
            \x20 f = 1.5f (00111111 11000000 00000000 00000000)\n\
            \x20 s = { .a=1, .b=2 }\n\n\
            State 4 file /t/a.c line 7 column 26 function reach_error thread 0\n\
            ----------------------------------------------------\n\
            Violated property:\n  file /t/a.c line 7\n  x = 5 (00000101)\n";
        let at = |line, value| Returned {
            file: Some("/t/a.c".into()),
            line,
            value,
        };
        assert_eq!(
            esbmc_trace_values(out),
            vec![at(20, 0xffff_ffff), at(22, 1.5f32.to_bits() as u64)]
        );
        assert!(esbmc_trace_values("VERIFICATION SUCCESSFUL").is_empty());
    }

    #[test]
    fn a_file_that_is_no_violation_witness_says_so() {
        assert!(return_values("- entry_type: invariant_set\n  content: []\n").is_err());
        assert!(return_values("not: [yaml").is_err());
    }
}
