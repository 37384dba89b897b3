//! From byte offsets in the preprocessed text to positions in the original source files.
//!
//! lang-c reports spans as byte offsets into the text it parsed (the output of `gcc -E`, or a
//! `.i` file). This module indexes that text once: the start of every line, and for every line
//! the original file and line it came from, following the preprocessor's line markers
//! (`# 12 "file.c" 1 3 4` and `#line 12 "file.c"`). Looking up an offset is a binary search.
//!
//! Invariant: [`SourceMap::locate`] is total: any offset (even past the end) maps to some
//! position with line ≥ 1 and column ≥ 1.

/// A position in an original source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// Index into [`SourceMap::files`].
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

pub struct SourceMap {
    /// Byte offset of the first byte of every line of the preprocessed text.
    line_starts: Vec<usize>,
    /// For every line: (file index, line number in that file).
    origin: Vec<(u32, u32)>,
    files: Vec<String>,
    text_len: usize,
}

impl SourceMap {
    /// Indexes `text`; lines before the first line marker belong to `default_file`.
    pub fn new(text: &str, default_file: &str) -> SourceMap {
        let mut files = vec![default_file.to_string()];
        let mut line_starts = Vec::new();
        let mut origin = Vec::new();
        let mut cur_file = 0u32;
        let mut cur_line = 1u32;
        let mut start = 0usize;
        let bytes = text.as_bytes();
        loop {
            let end = bytes[start..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|p| start + p)
                .unwrap_or(bytes.len());
            let line = &text[start..end];
            line_starts.push(start);
            origin.push((cur_file, cur_line));
            match parse_line_marker(line) {
                Some((n, name)) => {
                    if let Some(name) = name {
                        cur_file = match files.iter().position(|f| *f == name) {
                            Some(i) => i as u32,
                            None => {
                                files.push(name);
                                files.len() as u32 - 1
                            }
                        };
                    }
                    cur_line = n;
                }
                None => cur_line = cur_line.saturating_add(1),
            }
            if end >= bytes.len() {
                break;
            }
            start = end + 1;
        }
        SourceMap {
            line_starts,
            origin,
            files,
            text_len: text.len(),
        }
    }

    pub fn file_name(&self, idx: u32) -> &str {
        self.files
            .get(idx as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// The original position of byte `offset` of the preprocessed text.
    pub fn locate(&self, text: &str, offset: usize) -> Pos {
        let offset = offset.min(self.text_len);
        let i = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (file, line) = self.origin.get(i).copied().unwrap_or((0, 1));
        let start = self.line_starts.get(i).copied().unwrap_or(0);
        let col = match text.get(start..offset) {
            Some(s) => s.chars().count(),
            None => offset - start,
        } as u32
            + 1;
        Pos {
            file,
            line: line.max(1),
            col,
        }
    }
}

/// `# 12 "file" flags` or `#line 12 "file"` or `#line 12`: the line number the *next* line
/// has, and the file name if given.
fn parse_line_marker(line: &str) -> Option<(u32, Option<String>)> {
    let rest = line.trim_start().strip_prefix('#')?;
    let rest = rest.trim_start();
    let rest = match rest.strip_prefix("line") {
        Some(r) => r,
        None => rest,
    };
    let rest = rest.trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let name = rest.strip_prefix('"').and_then(unquote);
    Some((n, name))
}

/// The file name of a line marker (after its opening quote), with C escapes undone.
fn unquote(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// Line and column (1-based) of byte `offset` of raw bytes, for errors found before the text
/// is known to be UTF-8.
pub fn raw_line_col(bytes: &[u8], offset: usize) -> (u32, u32) {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let col = match before.iter().rposition(|&b| b == b'\n') {
        Some(p) => offset - p,
        None => offset + 1,
    } as u32;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_line_markers() {
        let text = "# 1 \"a.c\"\nint x;\n# 10 \"b.h\" 1 3 4\n  int y;\n# 3 \"a.c\" 2\nint z;\n";
        let m = SourceMap::new(text, "t.i");
        let at = |needle: &str| {
            let off = text.find(needle).unwrap();
            let p = m.locate(text, off);
            (m.file_name(p.file).to_string(), p.line, p.col)
        };
        assert_eq!(at("int x"), ("a.c".into(), 1, 1));
        assert_eq!(at("int y"), ("b.h".into(), 10, 3));
        assert_eq!(at("int z"), ("a.c".into(), 3, 1));
        let p = m.locate(text, 10_000);
        assert!(p.line >= 1 && p.col >= 1);
    }

    #[test]
    fn no_markers_means_default_file() {
        let text = "int a;\n\nint b;";
        let m = SourceMap::new(text, "x.i");
        let p = m.locate(text, text.find("int b").unwrap());
        assert_eq!((m.file_name(p.file), p.line, p.col), ("x.i", 3, 1));
        let q = m.locate(text, text.find('a').unwrap());
        assert_eq!((q.line, q.col), (1, 5));
    }

    #[test]
    fn hash_line_form_and_raw_positions() {
        let text = "#line 7 \"q.c\"\nx\n";
        let m = SourceMap::new(text, "t");
        let p = m.locate(text, text.find('x').unwrap());
        assert_eq!((m.file_name(p.file), p.line), ("q.c", 7));
        assert_eq!(raw_line_col(b"ab\ncd", 4), (2, 2));
        assert_eq!(raw_line_col(b"ab", 0), (1, 1));
    }
}
