//! Diagnostics: every error and warning the front-end reports.
//!
//! Invariant: a [`Diagnostic`] always names a position in the *original* source file (after
//! following the preprocessor's line markers), and its `Display` is exactly one line, so that
//! tools and people can both read it.

use std::fmt;

/// What went wrong, coarsely: tools decide on this (e.g. only `Unsupported` is an honest
/// "we cannot model this program"; `Internal` is a bug of ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagKind {
    /// The file could not be read.
    Io,
    /// The preprocessor (`gcc -E`) failed.
    Preprocess,
    /// The text is not C (parse error, binary garbage).
    Syntax,
    /// The program is ill-typed (e.g. a missing struct member, a struct assigned to an int).
    Type,
    /// A C construct the front-end does not model (floating point, function pointers, ...).
    Unsupported,
    /// A bug of the front-end (e.g. it produced IR that `verify_program` rejects).
    Internal,
    /// Not an error: something the user should know about the model we built.
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagKind,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn new(
        kind: DiagKind,
        file: impl Into<String>,
        line: u32,
        col: u32,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            kind,
            file: file.into(),
            line,
            col,
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.kind != DiagKind::Warning
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.kind {
            DiagKind::Warning => "warning",
            DiagKind::Unsupported => "unsupported",
            _ => "error",
        };
        // One line, whatever the message holds.
        let msg: String = self
            .message
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        write!(
            f,
            "{}:{}:{}: {label}: {msg}",
            self.file, self.line, self.col
        )
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_line_with_the_right_label() {
        let d = Diagnostic::new(DiagKind::Unsupported, "a.c", 3, 7, "floating point\ntype");
        assert_eq!(d.to_string(), "a.c:3:7: unsupported: floating point type");
        let w = Diagnostic::new(DiagKind::Warning, "a.c", 1, 1, "w");
        assert_eq!(w.to_string(), "a.c:1:1: warning: w");
        let e = Diagnostic::new(DiagKind::Type, "a.c", 1, 2, "bad");
        assert_eq!(e.to_string(), "a.c:1:2: error: bad");
    }
}
