//! No input makes the front-end panic or report an internal error: random bytes, every
//! benchmark truncated at several offsets, and benchmarks with random byte mutations.

mod common;

use common::*;
use qicc_frontend::{lower_source, DiagKind, Options};
use qicc_ir::DataModel;

/// A small deterministic generator (xorshift) for reproducible fuzz inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn opts() -> Options {
    Options {
        data_model: DataModel::Ilp32,
        ..Default::default()
    }
}

/// Lowers preprocessed text; returns a description of the failure if the front-end panicked
/// or reported an internal error.
fn probe(name: &str, text: &str, preprocessed: bool) -> Option<String> {
    let t = text.to_string();
    let n = name.to_string();
    let r = std::panic::catch_unwind(move || lower_source(&n, &t, preprocessed, &opts()));
    match r {
        Err(_) => Some(format!("{name}: panic")),
        Ok(Err(d)) if d.kind == DiagKind::Internal => Some(format!("{name}: {d}")),
        Ok(Err(d)) if d.line == 0 || d.col == 0 => Some(format!("{name}: unlocated {d}")),
        _ => None,
    }
}

fn preprocessed_benchmarks() -> Vec<(String, String)> {
    let root = require_benchmarks_dir();
    let mut out = Vec::new();
    for t in task_files(&root) {
        let Ok(task) = qicc_frontend::task::load_task(&t) else {
            continue;
        };
        let p = &task.input_file;
        let text = if p.extension().and_then(|e| e.to_str()) == Some("i") {
            std::fs::read_to_string(p).ok()
        } else {
            std::process::Command::new("gcc")
                .args(["-E", "-m32"])
                .arg(p)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        };
        if let Some(text) = text {
            out.push((p.display().to_string(), text));
        }
    }
    out
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut bad = Vec::new();
    for i in 0..300 {
        let len = rng.below(400);
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() & 0xff) as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bad.extend(probe(&format!("random{i}.i"), &text, true));
        // Printable noise that looks more like C.
        let alphabet = b"int main(){}[]();,*&+-/%<>=!~^|?:.'\"0123456789abcxyz \n\t#struct if while for return";
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        bad.extend(probe(&format!("noise{i}.i"), &text, true));
    }
    for i in 0..10 {
        let len = rng.below(200);
        let text: String = (0..len)
            .map(|_| (b' ' + rng.below(95) as u8) as char)
            .collect();
        bad.extend(probe(&format!("cpp{i}.c"), &text, false));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn truncated_benchmarks_never_panic() {
    let mut bad = Vec::new();
    let mut n = 0;
    for (name, text) in preprocessed_benchmarks() {
        for k in 1..=6 {
            let mut cut = text.len() * k / 7;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            n += 1;
            bad.extend(probe(&format!("{name}@{cut}"), &text[..cut], true));
        }
    }
    println!("{n} truncations probed");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn mutated_benchmarks_never_panic() {
    let mut rng = Rng(0xfeed_f00d_dead_beef);
    let mut bad = Vec::new();
    let mut n = 0;
    let pieces: &[&str] = &[
        "*",
        "&",
        "(",
        ")",
        "{",
        "}",
        ";",
        "0",
        "-1",
        "x",
        "int",
        "char",
        "struct s",
        "[3]",
        "sizeof",
        "->",
        ".",
        "++",
        "=",
        "==",
        "/",
        "<<",
        "?",
        ":",
        ",",
        "\"s\"",
        "'c'",
        "goto L;",
        "L:",
        "return",
        "break;",
        "case 1:",
        "default:",
        "unsigned",
        "long",
        "void",
        "static",
        "0x80000000",
    ];
    for (name, text) in preprocessed_benchmarks() {
        for _ in 0..4 {
            let mut t = text.clone();
            for _ in 0..1 + rng.below(3) {
                let mut at = rng.below(t.len());
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                let piece = pieces[rng.below(pieces.len())];
                if rng.below(2) == 0 {
                    t.insert_str(at, piece);
                } else {
                    let mut end = (at + rng.below(8)).min(t.len());
                    while !t.is_char_boundary(end) {
                        end -= 1;
                    }
                    t.replace_range(at..end, piece);
                }
            }
            n += 1;
            bad.extend(probe(&format!("{name} (mutated {n})"), &t, true));
        }
    }
    println!("{n} mutations probed");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
