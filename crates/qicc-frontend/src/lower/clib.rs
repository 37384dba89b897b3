//! The C library: which functions it defines, which of them qicc models (and how), and which
//! it may treat as "arbitrary result, no other effect".
//!
//! A call of a function the program does not define normally gets an arbitrary result (with a
//! warning). For a function of the C standard library (or a common POSIX one) that model is
//! wrong: `strlen`, `memcmp`, `realloc`, `strcpy` … have a defined result and effect on memory,
//! and an arbitrary result gives wrong FALSE answers (and, where they write memory, wrong TRUE
//! ones). So a library function is one of:
//! - **modelled in C** ([`MODELS`], the file `clib_models.c`): the models are parsed in front
//!   of every program (see [`models_source`]) and a call of `NAME` (or `__builtin_NAME`) that
//!   the program does not define becomes a call of the model `__qicc_NAME`, lowered like any
//!   function of the program: every engine, the interpreter and the emitted C see its loops
//!   and memory accesses, and its writes get the same undefined-behaviour checks;
//! - **modelled by the front-end** (`call.rs` handles `malloc`, `calloc`, `free`, `memset`,
//!   `memcpy`, `memmove`, `alloca`, `abort`, `exit`, `_exit`, `_Exit`, `__assert_fail`,
//!   `__builtin_expect`, and rejects setjmp/longjmp, threads and exit handlers with messages of
//!   their own; those are matched before this list is consulted and are not in it);
//! - an **output function** ([`OUTPUT_ONLY`]) whose effect cannot change what the program
//!   reads; or
//! - **rejected** (`unsupported: library function NAME`): every other function of the list
//!   below, unless the program defines a function of that name itself (then it is not the
//!   library's).
//!
//! This file is the one list; nothing else in the front-end names library functions it does
//! not model.

use qicc_ir::DataModel;

/// The C source of the models (see the rules at its top).
pub(crate) const MODELS_C: &str = include_str!("clib_models.c");

/// The library functions `clib_models.c` defines (as `__qicc_NAME`).
pub const MODELS: &[&str] = &[
    "strlen",
    "strnlen",
    "strcpy",
    "stpcpy",
    "strncpy",
    "strcat",
    "strncat",
    "strcmp",
    "strncmp",
    "memcmp",
    "bcmp",
    "strchr",
    "strrchr",
    "memchr",
    "memrchr",
    "strstr",
    "strspn",
    "strcspn",
    "strpbrk",
    "strcasecmp",
    "strncasecmp",
    "strtok",
    "strtok_r",
    "strsep",
    "strchrnul",
    "memccpy",
    "bsearch",
    "qsort",
    "strdup",
    "strndup",
    "mempcpy",
    "bzero",
    "explicit_bzero",
    "realloc",
    "reallocarray",
    "abs",
    "labs",
    "llabs",
    "strtol",
    "strtoll",
    "strtoul",
    "strtoull",
    "atoi",
    "atol",
    "atoll",
    "__ctype_b_loc",
    "__ctype_tolower_loc",
    "__ctype_toupper_loc",
    "isupper",
    "islower",
    "isalpha",
    "isdigit",
    "isxdigit",
    "isspace",
    "isprint",
    "isgraph",
    "isblank",
    "iscntrl",
    "ispunct",
    "isalnum",
    "isascii",
    "toascii",
    "tolower",
    "toupper",
    "fdim",
    "fdimf",
    "remainder",
    "remainderf",
    "lround",
    "lroundf",
    "llround",
    "llroundf",
    "lrint",
    "lrintf",
    "llrint",
    "llrintf",
    "modf",
    "modff",
    "frexp",
    "frexpf",
    "nextafter",
    "nextafterf",
    "rand",
    "srand",
    "time",
    "getenv",
    "strtod",
    "strtof",
    "atof",
    "snprintf",
    "sprintf",
    "vsnprintf",
    "vsprintf",
];

/// The model of library function `name` (`__builtin_` spellings included), if there is one.
pub fn model_name(name: &str) -> Option<String> {
    let base = name.strip_prefix("__builtin_").unwrap_or(name);
    MODELS
        .contains(&base)
        .then(|| format!("{}{base}", qicc_ir::LIBRARY_MODEL_PREFIX))
}

/// The built-in allocation functions (`call.rs` lowers their calls to the memory model's
/// operations) as functions with a body, `__qicc_fn_NAME` in `clib_models.c`: what a pointer
/// to one of them calls (a table of allocation hooks, as JSON libraries keep).
const ADDRESS_WRAPPERS: &[&str] = &["malloc", "free", "calloc"];

/// The function a call through a pointer to library function `name` runs: its model, or the
/// wrapper of a built-in one ([`ADDRESS_WRAPPERS`]); `None`: it has neither.
pub fn callable_model(name: &str) -> Option<String> {
    model_name(name).or_else(|| {
        ADDRESS_WRAPPERS
            .contains(&name)
            .then(|| format!("{}fn_{name}", qicc_ir::LIBRARY_MODEL_PREFIX))
    })
}

/// The text parsed in front of every program: `__qicc_size_t` for the data model, glibc's
/// "C" locale <ctype.h> tables, then `clib_models.c`. Only the models a program calls are
/// lowered (the front-end lowers what `main` reaches), so the rest costs parsing only.
pub fn models_source(dm: DataModel) -> String {
    let size_t = match dm {
        DataModel::Ilp32 => "unsigned int",
        DataModel::Lp64 => "unsigned long",
    };
    let (b, lower, upper) = ctype_tables();
    let list = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "# 1 \"{MODELS_FILE}\"\n\
         typedef {size_t} __qicc_size_t;\n\
         static const unsigned short __qicc_ctype_b[384] = {{{}}};\n\
         static const int __qicc_ctype_tolower[384] = {{{}}};\n\
         static const int __qicc_ctype_toupper[384] = {{{}}};\n\
         {}",
        list(&b),
        list(&lower),
        list(&upper),
        without_comments(MODELS_C)
    )
}

/// `text` with its `/* … */` comments blanked out (lines kept, so positions stay right): the
/// parser reads preprocessed text, which has none. The models have no `/*` in a literal.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find("*/").map_or(after.len(), |e| e + 2);
        out.extend(after[..end].chars().filter(|&c| c == '\n'));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The file name positions inside the models report.
pub const MODELS_FILE: &str = qicc_ir::LIBRARY_MODELS_FILE;

/// glibc's `__ctype_b`, `__ctype_tolower` and `__ctype_toupper` for the "C" locale, for the
/// indices -128..=255: classification bits for 0..=127 only (as glibc: bytes above 127 and
/// negative `char`s are in no class), case mapping of ASCII letters, and the identity
/// elsewhere except that a negative `char` maps to its unsigned value (EOF, -1, to itself).
fn ctype_tables() -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    // glibc's bit for class `k` on a little-endian machine (`_ISbit` in <ctype.h>).
    let bit = |k: u32| -> i64 {
        if k < 8 {
            (1 << k) << 8
        } else {
            (1 << k) >> 8
        }
    };
    let (mut b, mut lower, mut upper) = (Vec::new(), Vec::new(), Vec::new());
    for i in -128i64..256 {
        let mut v = 0;
        if (0..128).contains(&i) {
            let c = i as u8;
            let classes = [
                c.is_ascii_uppercase(),
                c.is_ascii_lowercase(),
                c.is_ascii_alphabetic(),
                c.is_ascii_digit(),
                c.is_ascii_hexdigit(),
                c == b' ' || (b'\t'..=b'\r').contains(&c),
                (0x20..0x7f).contains(&c),
                c.is_ascii_graphic(),
                c == b' ' || c == b'\t',
                c < 0x20 || c == 0x7f,
                c.is_ascii_punctuation(),
                c.is_ascii_alphanumeric(),
            ];
            for (k, yes) in classes.iter().enumerate() {
                if *yes {
                    v |= bit(k as u32);
                }
            }
        }
        b.push(v);
        let unsigned = if (-128..-1).contains(&i) { i + 256 } else { i };
        let (l, u) = match u8::try_from(i) {
            Ok(c) if c.is_ascii_uppercase() => (i + 32, i),
            Ok(c) if c.is_ascii_lowercase() => (i, i - 32),
            _ => (unsigned, unsigned),
        };
        lower.push(l);
        upper.push(u);
    }
    (b, lower, upper)
}

/// Functions whose only effects are output the program cannot read back and a return value
/// (a count of characters or an error indicator). "Arbitrary return value, no effect on
/// memory" is a sound model for them, so they keep the default treatment of functions without
/// a body. The printf family writes memory only through `%n`: a call whose format is not a
/// string literal, or contains `%n`, is rejected instead (see [`printf_format_arg`]).
pub const OUTPUT_ONLY: &[&str] = &[
    "printf",
    "fprintf",
    "dprintf",
    "vprintf",
    "vfprintf",
    "__printf_chk",
    "__fprintf_chk",
    "puts",
    "fputs",
    "putchar",
    "putc",
    "fputc",
    "_IO_putc",
    "putchar_unlocked",
    "putc_unlocked",
    "fputc_unlocked",
    "fputs_unlocked",
    "perror",
    "fflush",
    "fflush_unlocked",
];

/// Whether `name` (or its `__builtin_` spelling) is an output function ([`OUTPUT_ONLY`]).
pub fn is_output_only(name: &str) -> bool {
    OUTPUT_ONLY.contains(&name.strip_prefix("__builtin_").unwrap_or(name))
}

/// For the printf family: which argument is the format.
pub fn printf_format_arg(name: &str) -> Option<usize> {
    match name {
        "printf" | "vprintf" => Some(0),
        "fprintf" | "dprintf" | "vfprintf" | "__printf_chk" => Some(1),
        "__fprintf_chk" => Some(2),
        _ => None,
    }
}

/// Whether a printf format writes memory (a `%n` conversion, with any flags, width,
/// precision or length modifier; `%%` is a literal percent sign).
pub fn format_writes_memory(format: &[u8]) -> bool {
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < format.len() && b"-+ #0'123456789.*$hlLqjztI".contains(&format[i]) {
            i += 1;
        }
        match format.get(i) {
            Some(b'n') => return true,
            Some(_) => i += 1,
            None => {}
        }
    }
    false
}

/// Whether `name` is a function of the C standard library (C11 headers), a common POSIX or
/// glibc one, or a `__builtin_` spelling of one, that qicc does not model. The functions
/// `call.rs` models are not in the list.
pub fn is_unmodelled_library_function(name: &str) -> bool {
    // <math.h>'s list names whole families; the members modelled in C are not rejected.
    if is_output_only(name) || model_name(name).is_some() {
        return false;
    }
    let base = name.strip_prefix("__builtin_").unwrap_or(name);
    if LIBRARY.contains(&base) || PREFIXES.iter().any(|p| base.starts_with(p)) {
        return true;
    }
    // <math.h>: each function also has `f` (float) and `l` (long double) variants.
    MATH.contains(&base)
        || base
            .strip_suffix('f')
            .or_else(|| base.strip_suffix('l'))
            .is_some_and(|b| MATH.contains(&b))
}

/// Families named by a common prefix.
const PREFIXES: &[&str] = &[
    "pthread_",
    "sem_",
    "thrd_",
    "mtx_",
    "cnd_",
    "tss_",
    "atomic_",
    "__atomic_",
    "__sync_",
    "__isoc99_",
    "__isoc23_",
];

/// <math.h> (without the `f`/`l` variants) and glibc's helpers behind its classification
/// macros.
const MATH: &[&str] = &[
    "acos",
    "asin",
    "atan",
    "atan2",
    "cos",
    "sin",
    "tan",
    "acosh",
    "asinh",
    "atanh",
    "cosh",
    "sinh",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "frexp",
    "ilogb",
    "ldexp",
    "log",
    "log10",
    "log1p",
    "log2",
    "logb",
    "modf",
    "scalbn",
    "scalbln",
    "cbrt",
    "fabs",
    "hypot",
    "pow",
    "sqrt",
    "erf",
    "erfc",
    "lgamma",
    "tgamma",
    "ceil",
    "floor",
    "nearbyint",
    "rint",
    "lrint",
    "llrint",
    "round",
    "lround",
    "llround",
    "trunc",
    "fmod",
    "remainder",
    "remquo",
    "copysign",
    "nan",
    "nextafter",
    "nexttoward",
    "fdim",
    "fmax",
    "fmin",
    "fma",
    "sincos",
    "exp10",
    "pow10",
    "__isnan",
    "__isinf",
    "__finite",
    "__fpclassify",
    "__signbit",
    "__issignaling",
    "isnan",
    "isinf",
    "finite",
];

/// Everything else, by header.
const LIBRARY: &[&str] = &[
    // <string.h> (memset, memcpy, memmove are modelled)
    "strcoll",
    "strerror",
    "strxfrm", // POSIX / BSD / glibc string functions
    "bcopy",
    "stpncpy",
    "rawmemchr",
    "index",
    "rindex",
    "strsignal",
    "strerror_r",
    "strlcpy",
    "strlcat",
    "strcasestr",
    "strverscmp",
    "__strdup",
    "__strndup",
    "__memcpy_chk",
    "__memmove_chk",
    "__memset_chk",
    "__strcpy_chk",
    "__strncpy_chk",
    "__strcat_chk",
    "__strncat_chk",
    "__stpcpy_chk",
    "__mempcpy_chk",
    "__explicit_bzero_chk",
    // <stdlib.h> (malloc, calloc, free, abort, exit, _Exit, atexit, at_quick_exit are
    // modelled or rejected in call.rs)
    "strtold",
    "aligned_alloc",
    "quick_exit",
    "system",
    "div",
    "ldiv",
    "lldiv",
    "mblen",
    "mbtowc",
    "wctomb",
    "mbstowcs",
    "wcstombs",
    "posix_memalign",
    "memalign",
    "valloc",
    "pvalloc",
    "random",
    "srandom",
    "rand_r",
    "drand48",
    "erand48",
    "lrand48",
    "nrand48",
    "mrand48",
    "jrand48",
    "srand48",
    "mkstemp",
    "mkdtemp",
    "mktemp",
    "setenv",
    "unsetenv",
    "putenv",
    "clearenv",
    "realpath",
    "secure_getenv",
    "__strtol_internal",
    "__strtoul_internal",
    "__strtoll_internal",
    "__strtoull_internal",
    "__assert_perror_fail",
    "__assert",
    // <inttypes.h>
    "imaxabs",
    "imaxdiv",
    "strtoimax",
    "strtoumax",
    "wcstoimax",
    "wcstoumax",
    // <stdio.h> input, files and formatting into memory (output-only functions: OUTPUT_ONLY)
    "remove",
    "rename",
    "tmpfile",
    "tmpnam",
    "fclose",
    "fopen",
    "freopen",
    "setbuf",
    "setvbuf",
    "fscanf",
    "scanf",
    "sscanf",
    "vfscanf",
    "vscanf",
    "vsscanf",
    "fgetc",
    "fgets",
    "getc",
    "getchar",
    "gets",
    "ungetc",
    "fread",
    "fwrite",
    "fgetpos",
    "fseek",
    "fsetpos",
    "ftell",
    "rewind",
    "clearerr",
    "feof",
    "ferror",
    "fdopen",
    "fileno",
    "getline",
    "getdelim",
    "popen",
    "pclose",
    "asprintf",
    "vasprintf",
    "fmemopen",
    "open_memstream",
    "fseeko",
    "ftello",
    "getchar_unlocked",
    "getc_unlocked",
    "_IO_getc",
    "__sprintf_chk",
    "__snprintf_chk",
    "__vsprintf_chk",
    "__vsnprintf_chk",
    "__uflow",
    "__overflow",
    // <ctype.h> and <wctype.h>
    "iswalnum",
    "iswalpha",
    "iswblank",
    "iswcntrl",
    "iswdigit",
    "iswgraph",
    "iswlower",
    "iswprint",
    "iswpunct",
    "iswspace",
    "iswupper",
    "iswxdigit",
    "iswctype",
    "towlower",
    "towupper",
    "wctype",
    "towctrans",
    "wctrans",
    // <errno.h> (errno is `*__errno_location()` in glibc)
    "__errno_location",
    // <fenv.h>
    "feclearexcept",
    "fegetexceptflag",
    "feraiseexcept",
    "fesetexceptflag",
    "fetestexcept",
    "fegetround",
    "fesetround",
    "fegetenv",
    "feholdexcept",
    "fesetenv",
    "feupdateenv",
    // <locale.h>
    "setlocale",
    "localeconv",
    // <setjmp.h> and <signal.h> (setjmp/longjmp have their own message in call.rs)
    "signal",
    "raise",
    "kill",
    "sigaction",
    "sigemptyset",
    "sigfillset",
    "sigaddset",
    "sigdelset",
    "sigismember",
    "sigprocmask",
    "alarm",
    "pause",
    // <stdarg.h> helpers
    "va_start",
    "va_end",
    "va_copy",
    "va_arg",
    // <time.h>
    "clock",
    "difftime",
    "mktime",
    "asctime",
    "ctime",
    "gmtime",
    "localtime",
    "strftime",
    "timespec_get",
    "asctime_r",
    "ctime_r",
    "gmtime_r",
    "localtime_r",
    "nanosleep",
    "clock_gettime",
    "clock_getres",
    "gettimeofday",
    "sleep",
    "usleep",
    "tzset",
    "strptime",
    "timegm",
    "clock_settime",
    "clock_nanosleep",
    "timer_create",
    "timer_delete",
    "timer_settime",
    "timer_gettime",
    "timer_getoverrun",
    "alarm",
    "setitimer",
    "getitimer",
    // <wchar.h> and <uchar.h>
    "wcslen",
    "wcscpy",
    "wcsncpy",
    "wcscat",
    "wcsncat",
    "wcscmp",
    "wcsncmp",
    "wcschr",
    "wcsrchr",
    "wcsstr",
    "wcsspn",
    "wcscspn",
    "wcspbrk",
    "wcstok",
    "wcscoll",
    "wcsxfrm",
    "wmemcpy",
    "wmemmove",
    "wmemset",
    "wmemcmp",
    "wmemchr",
    "wcstol",
    "wcstoll",
    "wcstoul",
    "wcstoull",
    "wcstod",
    "wcstof",
    "wcstold",
    "fwprintf",
    "wprintf",
    "swprintf",
    "vfwprintf",
    "vwprintf",
    "vswprintf",
    "fwscanf",
    "wscanf",
    "swscanf",
    "btowc",
    "wctob",
    "mbrtowc",
    "wcrtomb",
    "mbsrtowcs",
    "wcsrtombs",
    "mbrlen",
    "mbsinit",
    "fgetwc",
    "fgetws",
    "fputwc",
    "fputws",
    "getwc",
    "getwchar",
    "putwc",
    "putwchar",
    "ungetwc",
    "fwide",
    "wcsftime",
    "mbrtoc16",
    "c16rtomb",
    "mbrtoc32",
    "c32rtomb",
    "wcsdup",
    "wcsnlen",
    // POSIX <unistd.h>, <fcntl.h>, <sys/mman.h>, processes (fork etc. have their own message)
    "read",
    "write",
    "open",
    "openat",
    "creat",
    "close",
    "lseek",
    "pipe",
    "dup",
    "dup2",
    "getpid",
    "getppid",
    "getuid",
    "geteuid",
    "getgid",
    "getegid",
    "execve",
    "execv",
    "execvp",
    "execl",
    "execlp",
    "execle",
    "unlink",
    "access",
    "chdir",
    "getcwd",
    "sysconf",
    "mmap",
    "munmap",
    "mprotect",
    "brk",
    "sbrk",
    "wait",
    "waitpid",
    "ioctl",
    "fcntl",
    "stat",
    "fstat",
    "lstat",
    "pread",
    "pwrite",
    "fsync",
    "truncate",
    "ftruncate",
    "rmdir",
    "mkdir",
    "isatty",
    "select",
    "poll",
    "socket",
    "connect",
    "bind",
    "listen",
    "accept",
    "send",
    "recv",
    "sched_yield",
    "getopt",
    "getopt_long",
    // <threads.h> objects not caught by the prefixes
    "call_once",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_the_library_but_not_what_call_rs_models() {
        for f in [
            "read",
            "pthread_mutex_lock",
            "sqrtf",
            "floorl",
            "sin",
            "__isoc99_scanf",
            "asprintf",
            "random",
            "strerror",
            "__errno_location",
        ] {
            assert!(is_unmodelled_library_function(f), "{f}");
            assert!(model_name(f).is_none(), "{f}");
        }
        for f in [
            "malloc",
            "calloc",
            "free",
            "memset",
            "memcpy",
            "memmove",
            "alloca",
            "abort",
            "exit",
            "_exit",
            "_Exit",
            "__assert_fail",
            "__VERIFIER_assert",
            "__VERIFIER_nondet_int",
            "reach_error",
            "printf",
            "puts",
            "fprintf",
            "__builtin_expect",
            "strtok",
            "qsort",
            "my_strlen",
            "f",
            "lib",
            "half",
        ] {
            assert!(!is_unmodelled_library_function(f), "{f}");
        }
    }

    #[test]
    fn every_model_is_defined_in_the_c_file_and_not_in_the_rejected_list() {
        let source = without_comments(MODELS_C);
        for f in MODELS {
            assert!(
                !is_unmodelled_library_function(f),
                "{f} is modelled and rejected"
            );
            let model = model_name(f).expect("listed");
            assert!(
                source.contains(&format!(" {model}(")) || source.contains(&format!("*{model}(")),
                "{model} is not defined in clib_models.c"
            );
        }
        assert_eq!(
            model_name("__builtin_strlen").as_deref(),
            Some("__qicc_strlen")
        );
        assert!(!source.contains("/*"), "a comment survived");
        assert_eq!(source.lines().count(), MODELS_C.lines().count());
    }

    #[test]
    fn percent_n_is_found_in_every_spelling() {
        assert!(format_writes_memory(b"%n"));
        assert!(format_writes_memory(b"x=%d%n\n"));
        assert!(format_writes_memory(b"%hhn"));
        assert!(format_writes_memory(b"%-10lln"));
        assert!(!format_writes_memory(b"%%n"));
        assert!(!format_writes_memory(b"%d items\n"));
        assert!(!format_writes_memory(b"%s"));
        assert!(!format_writes_memory(b"100%"));
    }
}
