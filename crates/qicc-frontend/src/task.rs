//! SV-COMP task definitions (formats 2.0, and 1.0/1.1 still in SV-COMP's collection, which
//! name no data model) and property files: which file to verify, the data
//! model, the properties a task lists with their expected verdicts, and what a `.prp` file
//! asks ([`load_property`]: qicc checks `unreach-call` only and names any other property).

use crate::diag::{DiagKind, Diagnostic};
use qicc_ir::DataModel;
use serde_yaml::Value;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task file itself.
    pub path: PathBuf,
    /// The program (its first file), resolved relative to the task file.
    pub input_file: PathBuf,
    /// Every file of the program (`input_files`, in order), resolved relative to the task
    /// file: each a translation unit.
    pub input_files: Vec<PathBuf>,
    /// `format_version` as written (`2.0`; `1.0` and `1.1` name no data model).
    pub format_version: String,
    pub data_model: Option<DataModel>,
    /// The task has the `unreach-call` property.
    pub unreach_call: bool,
    /// Expected verdict of the property being checked (`true`: it holds): `unreach-call`'s
    /// entry, or the entry [`Task::select_property`] chose.
    pub expected_verdict: Option<bool>,
    /// Every entry of the task's `properties` list, in order.
    pub properties: Vec<TaskProperty>,
}

/// One entry of a task's `properties` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// The property file, resolved relative to the task file.
    pub property_file: PathBuf,
    pub expected_verdict: Option<bool>,
}

impl Task {
    /// Makes the entry for the property file `prp` (as given to `--property`) the one whose
    /// expected verdict is reported. The same file may be named by different paths (BenchExec
    /// passes its own), so paths are compared resolved, then by file name; a property the
    /// task does not list has no expected verdict.
    pub fn select_property(&mut self, prp: &Path) {
        let resolved = |p: &Path| std::fs::canonicalize(p).ok();
        let wanted = resolved(prp);
        let entry = self
            .properties
            .iter()
            .find(|e| wanted.is_some() && resolved(&e.property_file) == wanted)
            .or_else(|| {
                self.properties
                    .iter()
                    .find(|e| e.property_file.file_name() == prp.file_name())
            });
        self.expected_verdict = entry.and_then(|e| e.expected_verdict);
    }
}

pub fn load_task(path: &Path) -> Result<Task, Diagnostic> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        Diagnostic::new(DiagKind::Io, &shown, 1, 1, format!("cannot read file: {e}"))
    })?;
    let doc: Value = serde_yaml::from_str(&text).map_err(|e| {
        let (l, c) = e
            .location()
            .map(|l| (l.line() as u32, l.column() as u32))
            .unwrap_or((1, 1));
        Diagnostic::new(
            DiagKind::Syntax,
            &shown,
            l.max(1),
            c.max(1),
            format!("not a valid task file: {e}"),
        )
    })?;
    let bad = |msg: &str| Diagnostic::new(DiagKind::Syntax, &shown, 1, 1, msg);
    let line_of = |key: &str| -> u32 {
        text.lines()
            .position(|l| l.trim_start().starts_with(key))
            .map(|i| i as u32 + 1)
            .unwrap_or(1)
    };
    let get = |k: &str| doc.get(k);
    let format_version = match get("format_version") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => String::new(),
        None => "2.0".to_string(),
    };
    if !matches!(format_version.as_str(), "1.0" | "1.1" | "2.0") {
        return Err(Diagnostic::new(
            DiagKind::Unsupported,
            &shown,
            line_of("format_version"),
            1,
            format!("task format version '{format_version}' (supported: 1.0, 1.1 and 2.0)"),
        ));
    }
    let inputs: Vec<String> = match get("input_files") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Sequence(xs)) => xs
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => return Err(bad("task file has no 'input_files'")),
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    let input_files: Vec<PathBuf> = inputs.iter().map(|i| dir.join(i)).collect();
    let Some(input_file) = input_files.first().cloned() else {
        return Err(bad("task file has no 'input_files'"));
    };
    let data_model = match get("options").and_then(|o| o.get("data_model")) {
        Some(Value::String(s)) => Some(DataModel::from_name(s).ok_or_else(|| {
            Diagnostic::new(
                DiagKind::Unsupported,
                &shown,
                line_of("data_model"),
                1,
                format!("data model '{s}'"),
            )
        })?),
        _ => None,
    };
    let mut unreach_call = false;
    let mut expected_verdict = None;
    let mut properties = Vec::new();
    if let Some(Value::Sequence(props)) = get("properties") {
        for p in props {
            let file = p.get("property_file").and_then(Value::as_str).unwrap_or("");
            let verdict = p.get("expected_verdict").and_then(Value::as_bool);
            let name = Path::new(file)
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or("");
            if name == "unreach-call.prp" {
                unreach_call = true;
                expected_verdict = verdict;
            }
            if !file.is_empty() {
                properties.push(TaskProperty {
                    property_file: dir.join(file),
                    expected_verdict: verdict,
                });
            }
        }
    }
    Ok(Task {
        path: path.to_path_buf(),
        input_file,
        input_files,
        format_version,
        data_model,
        unreach_call,
        expected_verdict,
        properties,
    })
}

/// A property qicc checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Property {
    /// No call of `reach_error()` is reachable from `main`.
    #[default]
    UnreachCall,
    /// No operation whose result type is a signed integer type produces a value outside it
    /// (`qicc_ir::property::check_overflow` makes each a property assertion).
    NoOverflow,
    /// `valid-memsafety`: `valid-free`, `valid-deref` and `valid-memtrack`
    /// (`qicc_ir::property::check_memsafety`).
    MemSafety,
    /// `valid-memcleanup`: `valid-free`, `valid-deref` and every heap object freed when the
    /// program ends.
    MemCleanup,
    /// No conversion to a signed integer type changes the value (CBMC's `--conversion-check`;
    /// not an SV-COMP property: C makes such a conversion implementation-defined, not
    /// undefined, and SV-COMP's `no-overflow` does not count it). The front-end checks each
    /// conversion (`Options::conversion_checks`).
    Conversion,
}

impl Property {
    /// The name SV-COMP gives it (its property file's stem).
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::NoOverflow => "no-overflow",
            Property::MemSafety => "valid-memsafety",
            Property::MemCleanup => "valid-memcleanup",
            Property::Conversion => "conversion",
        }
    }

    /// Why a TRUE holds when the program has nothing this property could be violated by.
    pub fn vacuous(self) -> &'static str {
        match self {
            Property::UnreachCall => "the program has no assertion",
            Property::NoOverflow => "the program has no signed arithmetic that could overflow",
            Property::MemSafety | Property::MemCleanup => {
                "the program has no memory access, free or end that could violate it"
            }
            Property::Conversion => {
                "the program has no conversion to a signed type that could change a value"
            }
        }
    }

    /// The property a violated property assertion of `kind` belongs to, when this property
    /// is checked.
    fn owns(self, kind: qicc_ir::AssertKind) -> bool {
        use qicc_ir::AssertKind as K;
        match self {
            Property::UnreachCall => {
                matches!(kind, K::ReachError | K::AssertFail | K::VerifierAssert)
            }
            Property::NoOverflow => kind == K::Overflow,
            Property::MemSafety | Property::MemCleanup => matches!(kind, K::Memory(_)),
            Property::Conversion => kind == K::Conversion,
        }
    }

    /// The LTL formula, as witnesses state the specification: of the property, or of the
    /// sub-property a violation names (`G valid-deref`).
    pub fn formula(self, violated: Option<qicc_ir::MemProp>) -> String {
        match (self, violated) {
            (Property::MemSafety | Property::MemCleanup, Some(m)) => format!("G {}", m.sv_name()),
            (Property::UnreachCall, _) => "G ! call(reach_error())".into(),
            (Property::NoOverflow, _) => "G ! overflow".into(),
            // Not an SV-COMP formula (none exists): named as CBMC names the check.
            (Property::Conversion, _) => "G ! conversion-overflow".into(),
            (Property::MemSafety, None) => "G valid-free; G valid-deref; G valid-memtrack".into(),
            (Property::MemCleanup, None) => {
                "G valid-free; G valid-deref; G valid-memcleanup".into()
            }
        }
    }
}

/// The properties one run checks: one or more [`Property`], in a fixed order, each once;
/// unreach-call alone by default. `valid-memsafety` and `valid-memcleanup` exclude each
/// other (they differ only in what the program's end requires).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Properties(Vec<Property>);

impl Default for Properties {
    fn default() -> Self {
        Properties(vec![Property::UnreachCall])
    }
}

impl From<Property> for Properties {
    fn from(p: Property) -> Self {
        Properties(vec![p])
    }
}

impl Properties {
    /// The set of `list` (the default when it is empty), or why it cannot be checked at once.
    pub fn new(list: &[Property]) -> Result<Properties, String> {
        let mut v = list.to_vec();
        v.sort_by_key(|p| *p as u8);
        v.dedup();
        if v.contains(&Property::MemSafety) && v.contains(&Property::MemCleanup) {
            return Err(
                "valid-memsafety and valid-memcleanup in one run (memcleanup is memsafety with every heap object freed at the end: choose one)".into(),
            );
        }
        Ok(if v.is_empty() {
            Properties::default()
        } else {
            Properties(v)
        })
    }

    pub fn contains(&self, p: Property) -> bool {
        self.0.contains(&p)
    }

    pub fn iter(&self) -> impl Iterator<Item = Property> + '_ {
        self.0.iter().copied()
    }

    /// Whether unreach-call is the only property: what SV-COMP's default run checks, and
    /// what another verifier run on the user's files checks.
    pub fn is_unreach_call(&self) -> bool {
        self.0 == [Property::UnreachCall]
    }

    /// The one property checked, when there is one.
    pub fn single(&self) -> Option<Property> {
        match self.0.as_slice() {
            [p] => Some(*p),
            _ => None,
        }
    }

    /// Whether a memory-safety property is checked, and which end it requires.
    pub fn memory(&self) -> Option<Property> {
        self.iter()
            .find(|p| matches!(p, Property::MemSafety | Property::MemCleanup))
    }

    /// SV-COMP's names, comma-separated (`no-overflow,valid-memsafety`).
    pub fn name(&self) -> String {
        self.iter()
            .map(Property::name)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The checked property a violated property assertion of `kind` belongs to.
    pub fn of(&self, kind: qicc_ir::AssertKind) -> Property {
        self.iter()
            .find(|p| p.owns(kind))
            .unwrap_or(Property::UnreachCall)
    }

    /// SV-COMP's name of what a violated assertion of `kind` violates: its property, or the
    /// memory-safety sub-property (`valid-deref`).
    pub fn violated_name(&self, kind: qicc_ir::AssertKind) -> String {
        match kind {
            qicc_ir::AssertKind::Memory(m) => m.sv_name().to_string(),
            k => self.of(k).name().to_string(),
        }
    }

    /// The witness's specification: the violated property's formula (`violated`: the
    /// assertion's kind), else every property's, `;`-separated.
    pub fn formula(&self, violated: Option<qicc_ir::AssertKind>) -> String {
        match violated {
            Some(k @ qicc_ir::AssertKind::Memory(m)) => self.of(k).formula(Some(m)),
            Some(k) => self.of(k).formula(None),
            None => self
                .iter()
                .map(|p| p.formula(None))
                .collect::<Vec<_>>()
                .join("; "),
        }
    }

    /// Why a TRUE holds when the program has nothing any of them could be violated by.
    pub fn vacuous(&self) -> String {
        match self.single() {
            Some(p) => p.vacuous().to_string(),
            None => format!("the program has nothing that could violate {}", self.name()),
        }
    }
}

/// Reads a property file (`CHECK( init(main()), LTL(G ! call(reach_error())) )`, one
/// `CHECK`/`COVER` per line). qicc checks `unreach-call`, `no-overflow`, `valid-memsafety`
/// (its three lines `G valid-free`, `G valid-deref`, `G valid-memtrack`) and
/// `valid-memcleanup` (`G valid-memcleanup`, alone or with the free and deref lines); a file
/// that asks for anything else is an `Unsupported` diagnostic naming that property (never
/// answered as if it were another), and text that is not a property is a `Syntax` one.
pub fn load_property(path: &Path) -> Result<Property, Diagnostic> {
    let shown = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| {
        Diagnostic::new(
            DiagKind::Io,
            &shown,
            1,
            1,
            format!("cannot read property file: {e}"),
        )
    })?;
    let text = String::from_utf8(text).map_err(|_| {
        Diagnostic::new(
            DiagKind::Syntax,
            &shown,
            1,
            1,
            "not a property file: the text is not UTF-8",
        )
    })?;
    let mut any = false;
    let mut found: Option<Property> = None;
    // The memory-safety sub-properties named so far, and the line of the first.
    let mut memory: Vec<String> = Vec::new();
    let mut memory_line = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        // Whitespace inside a formula is not significant (`G ! overflow` == `G !overflow`).
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            continue;
        }
        any = true;
        let check = parse_check(&compact).ok_or_else(|| {
            Diagnostic::new(
                DiagKind::Syntax,
                &shown,
                line_no,
                1,
                format!(
                    "not a property: `{}` (expected e.g. `CHECK( init(main()), LTL(G ! call(reach_error())) )`)",
                    line.trim()
                ),
            )
        })?;
        let unsupported = |what: String| {
            Diagnostic::new(
                DiagKind::Unsupported,
                &shown,
                line_no,
                1,
                format!("property {what} (qicc checks unreach-call, no-overflow, valid-memsafety and valid-memcleanup)"),
            )
        };
        if check.entry != "main" {
            return Err(unsupported(format!(
                "with entry function `{}` (qicc starts at main)",
                check.entry
            )));
        }
        let p = match check.name.as_str() {
            "unreach-call" => Property::UnreachCall,
            "no-overflow" => Property::NoOverflow,
            sub if MEMORY_SUBPROPERTIES.contains(&sub) => {
                if memory.is_empty() {
                    memory_line = line_no;
                }
                if !memory.iter().any(|m| m == sub) {
                    memory.push(sub.to_string());
                }
                continue;
            }
            _ => return Err(unsupported(check.name)),
        };
        if found.is_some_and(|f| f != p) {
            return Err(unsupported(format!(
                "file asking for both {} and {} (one property per run)",
                found.map_or("", Property::name),
                p.name()
            )));
        }
        found = Some(p);
    }
    if !any {
        return Err(Diagnostic::new(
            DiagKind::Syntax,
            &shown,
            1,
            1,
            "not a property file: it is empty",
        ));
    }
    if !memory.is_empty() {
        memory.sort_unstable();
        let subs: Vec<&str> = memory.iter().map(String::as_str).collect();
        let p = match subs.as_slice() {
            ["valid-deref", "valid-free", "valid-memtrack"] => Property::MemSafety,
            ["valid-deref", "valid-free", "valid-memcleanup"] | ["valid-memcleanup"] => {
                Property::MemCleanup
            }
            subs => {
                return Err(Diagnostic::new(
                    DiagKind::Unsupported,
                    &shown,
                    memory_line,
                    1,
                    format!(
                        "property {} (qicc checks memory safety as valid-memsafety: valid-free, valid-deref and valid-memtrack together; or valid-memcleanup)",
                        subs.join(" and ")
                    ),
                ))
            }
        };
        if let Some(f) = found {
            return Err(Diagnostic::new(
                DiagKind::Unsupported,
                &shown,
                memory_line,
                1,
                format!(
                    "property file asking for both {} and {} (one property per run)",
                    f.name(),
                    p.name()
                ),
            ));
        }
        return Ok(p);
    }
    Ok(found.unwrap_or_default())
}

/// The memory-safety sub-properties a property file may name.
const MEMORY_SUBPROPERTIES: [&str; 4] = [
    "valid-free",
    "valid-deref",
    "valid-memtrack",
    "valid-memcleanup",
];

/// One line of a property file, whitespace removed.
struct Check {
    entry: String,
    /// SV-COMP's name of the property the formula belongs to (or the formula itself).
    name: String,
}

fn parse_check(compact: &str) -> Option<Check> {
    let mut depth = 0i32;
    for c in compact.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return None;
        }
    }
    if depth != 0 {
        return None;
    }
    let (cover, body) = if let Some(b) = compact.strip_prefix("CHECK(") {
        (false, b)
    } else {
        (true, compact.strip_prefix("COVER(")?)
    };
    let body = body.strip_suffix(')')?;
    let (init, spec) = body.split_once(',')?;
    let entry = init.strip_prefix("init(")?.strip_suffix("())")?;
    let formula = if cover {
        spec.strip_prefix("FQL(")?
    } else {
        spec.strip_prefix("LTL(")?
    }
    .strip_suffix(')')?;
    if entry.is_empty() || formula.is_empty() {
        return None;
    }
    let name = match (cover, formula) {
        (false, "G!call(reach_error())") => "unreach-call",
        (false, "G!overflow" | "G!underflow") => "no-overflow",
        (false, "Gvalid-free") => "valid-free",
        (false, "Gvalid-deref") => "valid-deref",
        (false, "Gvalid-memtrack") => "valid-memtrack",
        (false, "Gvalid-memcleanup") => "valid-memcleanup",
        (false, "Fend") => "termination",
        (false, "Gdef-behavior") => "def-behavior",
        (false, "G!data-race") => "no-data-race",
        (true, "COVEREDGES(@CALL(reach_error))") => "coverage-error-call",
        (true, "COVEREDGES(@DECISIONEDGE)") => "coverage-branches",
        (true, "COVEREDGES(@CONDITIONEDGE)") => "coverage-conditions",
        (true, "COVEREDGES(@BASICBLOCKENTRY)") => "coverage-statements",
        (false, f) => {
            return Some(Check {
                entry: entry.into(),
                name: format!("LTL({f})"),
            })
        }
        (true, f) => {
            return Some(Check {
                entry: entry.into(),
                name: format!("FQL({f})"),
            })
        }
    };
    Some(Check {
        entry: entry.into(),
        name: name.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_a_set_and_name_the_violated_one() {
        use qicc_ir::{AssertKind, MemProp};
        let p = Properties::new(&[
            Property::MemSafety,
            Property::NoOverflow,
            Property::UnreachCall,
            Property::NoOverflow,
        ])
        .expect("compatible");
        assert_eq!(p.name(), "unreach-call,no-overflow,valid-memsafety");
        assert_eq!(p.single(), None);
        assert!(!p.is_unreach_call());
        assert_eq!(p.of(AssertKind::Overflow), Property::NoOverflow);
        assert_eq!(p.of(AssertKind::VerifierAssert), Property::UnreachCall);
        assert_eq!(
            p.violated_name(AssertKind::Memory(MemProp::Deref)),
            "valid-deref"
        );
        assert_eq!(p.formula(Some(AssertKind::Overflow)), "G ! overflow");
        assert_eq!(
            p.formula(Some(AssertKind::Memory(MemProp::Free))),
            "G valid-free"
        );
        assert_eq!(
            p.formula(None),
            "G ! call(reach_error()); G ! overflow; G valid-free; G valid-deref; G valid-memtrack"
        );
        assert_eq!(Properties::new(&[]), Ok(Properties::default()));
        assert!(Properties::default().is_unreach_call());
        let err = Properties::new(&[Property::MemSafety, Property::MemCleanup]).unwrap_err();
        assert!(err.contains("choose one"), "{err}");
        let c = Properties::from(Property::Conversion);
        assert_eq!(c.violated_name(AssertKind::Conversion), "conversion");
        assert_eq!(c.vacuous(), Property::Conversion.vacuous());
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("temp dir is writable");
        p
    }

    #[test]
    fn reads_sv_comp_tasks() {
        let dir = std::env::temp_dir().join(format!("qicc-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = write(
            &dir,
            "t.yml",
            "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
        );
        let t = load_task(&p).unwrap();
        assert_eq!(t.input_file, dir.join("prog.c"));
        assert_eq!(t.data_model, Some(DataModel::Ilp32));
        assert!(t.unreach_call);
        assert_eq!(t.expected_verdict, Some(false));

        let p = write(
            &dir,
            "u.yml",
            "format_version: '2.0'\ninput_files: ['a.c']\nproperties:\n  - property_file: ../properties/valid-memsafety.prp\noptions:\n  data_model: LP64\n",
        );
        let t = load_task(&p).unwrap();
        assert!(!t.unreach_call);
        assert_eq!(t.expected_verdict, None);
        assert_eq!(t.data_model, Some(DataModel::Lp64));

        let p = write(
            &dir,
            "m.yml",
            "format_version: '2.0'\ninput_files:\n  - a.c\n  - b.c\nproperties: []\n",
        );
        let t = load_task(&p).unwrap();
        assert_eq!(t.input_files, vec![dir.join("a.c"), dir.join("b.c")]);
        assert_eq!(t.input_file, dir.join("a.c"));

        let p = write(&dir, "bad.yml", "input_files: [unclosed\n");
        assert_eq!(load_task(&p).unwrap_err().kind, DiagKind::Syntax);
        let d = load_task(&dir.join("missing.yml")).unwrap_err();
        assert_eq!(d.kind, DiagKind::Io);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn property_files() {
        let dir = std::env::temp_dir().join(format!("qicc-prp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = write(
            &dir,
            "unreach-call.prp",
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n\n",
        );
        assert_eq!(load_property(&ok), Ok(Property::UnreachCall));
        // SV-COMP's no-overflow.prp (one line), and the older two-line text.
        for text in [
            "CHECK( init(main()), LTL(G ! overflow) )\n",
            "CHECK( init(main()), LTL(G ! overflow) )\nCHECK( init(main()), LTL(G ! underflow) )\n",
        ] {
            let p = write(&dir, "no-overflow.prp", text);
            assert_eq!(load_property(&p), Ok(Property::NoOverflow), "{text}");
        }
        // SV-COMP's valid-memsafety.prp (three lines, in any order) and valid-memcleanup.prp
        // (alone, or with valid-free and valid-deref as the later SV-COMP text has it).
        let free = "CHECK( init(main()), LTL(G valid-free) )\n";
        let deref = "CHECK( init(main()), LTL(G valid-deref) )\n";
        let memtrack = "CHECK( init(main()), LTL(G valid-memtrack) )\n";
        let cleanup = "CHECK( init(main()), LTL(G valid-memcleanup) )\n";
        for (text, want) in [
            (format!("{free}{deref}{memtrack}\n"), Property::MemSafety),
            (format!("{memtrack}{free}{deref}"), Property::MemSafety),
            (cleanup.to_string(), Property::MemCleanup),
            (format!("{free}{deref}{cleanup}"), Property::MemCleanup),
        ] {
            let p = write(&dir, "mem.prp", &text);
            assert_eq!(load_property(&p), Ok(want), "{text}");
        }
        // SV-COMP's own texts of the properties qicc does not check, and the name each gets.
        for (text, name, line) in [
            ("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n", "valid-deref and valid-free", 1),
            ("CHECK( init(main()), LTL(G ! call(reach_error())) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n", "valid-memtrack", 2),
            ("CHECK( init(main()), LTL(F end) )\n", "termination", 1),
            ("COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )\n", "coverage-branches", 1),
            ("COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n", "coverage-error-call", 1),
            // One unsupported line is enough: its property is named, with its line.
            ("CHECK( init(main()), LTL(G ! call(reach_error())) )\nCHECK( init(main()), LTL(F end) )\n", "termination", 2),
            // Two properties in one file: one run checks one.
            ("CHECK( init(main()), LTL(G ! call(reach_error())) )\nCHECK( init(main()), LTL(G ! overflow) )\n", "file asking for both unreach-call and no-overflow", 2),
            ("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n", "LTL(G!call(__VERIFIER_error()))", 1),
            ("CHECK( init(start()), LTL(G ! call(reach_error())) )\n", "with entry function `start`", 1),
        ] {
            let p = write(&dir, "other.prp", text);
            let d = load_property(&p).unwrap_err();
            assert_eq!((d.kind, d.line), (DiagKind::Unsupported, line), "{text}");
            assert!(d.message.starts_with(&format!("property {name} ")), "{}", d.message);
        }
        for text in [
            "",
            "\n  \n",
            "hello",
            "CHECK( init(main()), LTL(G ! call(reach_error()))",
            "CHECK( main(), LTL(G ! call(reach_error())) )",
            "CHECK( init(main()), CTL(x) )",
            "CHECK( init(main()), LTL() )",
        ] {
            let p = write(&dir, "garbled.prp", text);
            assert_eq!(
                load_property(&p).unwrap_err().kind,
                DiagKind::Syntax,
                "{text}"
            );
        }
        let p = dir.join("binary.prp");
        std::fs::write(&p, [0xff, 0xfe, 0x00]).unwrap();
        assert_eq!(load_property(&p).unwrap_err().kind, DiagKind::Syntax);
        let d = load_property(&dir.join("missing.prp")).unwrap_err();
        assert_eq!(d.kind, DiagKind::Io);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn selected_property_gives_the_expected_verdict() {
        let dir = std::env::temp_dir().join(format!("qicc-sel-{}", std::process::id()));
        let props = dir.join("properties");
        std::fs::create_dir_all(dir.join("tasks")).unwrap();
        std::fs::create_dir_all(&props).unwrap();
        let unreach = write(&props, "unreach-call.prp", "");
        let overflow = write(&props, "no-overflow.prp", "");
        let p = write(
            &dir.join("tasks"),
            "t.yml",
            "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n",
        );
        let mut t = load_task(&p).unwrap();
        assert_eq!(t.properties.len(), 2);
        assert_eq!(t.expected_verdict, Some(false));
        t.select_property(&overflow);
        assert_eq!(t.expected_verdict, Some(true));
        t.select_property(&unreach);
        assert_eq!(t.expected_verdict, Some(false));
        // Another copy of the file is found by its name; an unlisted property has no verdict.
        t.select_property(Path::new("/elsewhere/no-overflow.prp"));
        assert_eq!(t.expected_verdict, Some(true));
        t.select_property(Path::new("termination.prp"));
        assert_eq!(t.expected_verdict, None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
