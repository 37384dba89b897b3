//! C identifiers for IR names.
//!
//! IR names may contain `.` (front-end inventions: `tmp.3`, `x.1`, `region.main.L6`), which no
//! C identifier does; they become `_`. Invariant: every identifier handed out is a valid C
//! identifier, differs from every other identifier handed out by the same [`Names`], and is
//! none of the names the emitted file declares itself (keywords, the SV-COMP functions, the
//! C library functions it calls, its own `qicc_`/`QICC_` names and `main`).

use std::collections::HashSet;

/// Names no IR entity may take in the emitted file.
const RESERVED: &[&str] = &[
    // C99 keywords and common extensions.
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "asm",
    "typeof",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    // What the emitted file declares or calls.
    "main",
    "abort",
    "exit",
    "malloc",
    "free",
    "memmove",
    "memset",
    "memcpy",
    "reach_error",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
];

/// Allocates distinct C identifiers.
#[derive(Clone, Debug, Default)]
pub struct Names {
    used: HashSet<String>,
}

impl Names {
    pub fn new() -> Names {
        Names::default()
    }

    /// A fresh identifier as close to `ir_name` as possible.
    pub fn fresh(&mut self, ir_name: &str) -> String {
        let mut base = sanitize(ir_name);
        // A reserved prefix would make every suffixed candidate reserved as well.
        if base.starts_with("qicc_") || base.starts_with("QICC_") || base.starts_with("__") {
            base.insert(0, 'u');
        }
        let mut name = base.clone();
        let mut i = 1;
        while !self.available(&name) {
            name = format!("{base}_{i}");
            i += 1;
        }
        self.used.insert(name.clone());
        name
    }

    fn available(&self, name: &str) -> bool {
        !self.used.contains(name)
            && !RESERVED.contains(&name)
            && !name.starts_with("qicc_")
            && !name.starts_with("QICC_")
            && !name.starts_with("__")
    }
}

/// `ir_name` as a C identifier (see [`qicc_ir::c_identifier`]).
pub fn sanitize(ir_name: &str) -> String {
    qicc_ir::c_identifier(ir_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_become_underscores_and_clashes_get_suffixes() {
        let mut n = Names::new();
        assert_eq!(n.fresh("region.main.L6"), "region_main_L6");
        assert_eq!(n.fresh("x.1"), "x_1");
        assert_eq!(n.fresh("x_1"), "x_1_1");
        assert_eq!(n.fresh("main"), "main_1");
        assert_eq!(n.fresh("int"), "int_1");
        assert_eq!(n.fresh("qicc_base"), "uqicc_base");
        assert_eq!(n.fresh("__x"), "u__x");
        assert_eq!(n.fresh("3d"), "v3d");
        assert_eq!(n.fresh(""), "v");
    }
}
