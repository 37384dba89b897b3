//! The C library: which functions it defines, and which of them qicc may treat as "arbitrary
//! result, no other effect".
//!
//! A call of a function the program does not define normally gets an arbitrary result (with a
//! warning). For a function of the C standard library (or a common POSIX one) that model is
//! wrong: `strlen`, `memcmp`, `realloc`, `strcpy` … have a defined result and effect on memory,
//! and an arbitrary result gives wrong FALSE answers (and, where they write memory, wrong TRUE
//! ones). So a call of such a function is rejected (`unsupported: library function NAME`)
//! unless
//! - the front-end models it itself (`call.rs` handles `malloc`, `calloc`, `free`, `memset`,
//!   `memcpy`, `memmove`, `alloca`, `abort`, `exit`, `_exit`, `_Exit`, `__assert_fail`,
//!   `__builtin_expect`, and rejects setjmp/longjmp, threads and exit handlers with messages of
//!   their own; those are matched before this list is consulted and are not in it), or
//! - it is an output function ([`OUTPUT_ONLY`]) whose effect cannot change what the program
//!   reads, or
//! - the program defines a function of that name itself (then it is not the library's).
//!
//! This file is the one list; nothing else in the front-end names library functions it does
//! not model.

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
    let base = name.strip_prefix("__builtin_").unwrap_or(name);
    if OUTPUT_ONLY.contains(&base) {
        return false;
    }
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
    "pthread_", "sem_", "thrd_", "mtx_", "cnd_", "tss_", "atomic_", "__atomic_", "__sync_",
    "__isoc99_", "__isoc23_",
];

/// <math.h> (without the `f`/`l` variants) and glibc's helpers behind its classification
/// macros.
const MATH: &[&str] = &[
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh", "asinh", "atanh", "cosh",
    "sinh", "tanh", "exp", "exp2", "expm1", "frexp", "ilogb", "ldexp", "log", "log10", "log1p",
    "log2", "logb", "modf", "scalbn", "scalbln", "cbrt", "fabs", "hypot", "pow", "sqrt", "erf",
    "erfc", "lgamma", "tgamma", "ceil", "floor", "nearbyint", "rint", "lrint", "llrint",
    "round", "lround", "llround", "trunc", "fmod", "remainder", "remquo", "copysign", "nan",
    "nextafter", "nexttoward", "fdim", "fmax", "fmin", "fma", "sincos", "exp10", "pow10",
    "__isnan", "__isinf", "__finite", "__fpclassify", "__signbit", "__issignaling", "isnan",
    "isinf", "finite",
];

/// Everything else, by header.
const LIBRARY: &[&str] = &[
    // <string.h> (memset, memcpy, memmove are modelled)
    "memchr", "memcmp", "strcat", "strncat", "strchr", "strcmp", "strcoll", "strcpy",
    "strcspn", "strerror", "strlen", "strncmp", "strncpy", "strpbrk", "strrchr", "strspn",
    "strstr", "strtok", "strxfrm", // POSIX / BSD / glibc string functions
    "strdup", "strndup", "memccpy", "bzero", "bcopy", "bcmp", "explicit_bzero", "strnlen",
    "stpcpy", "stpncpy", "strcasecmp", "strncasecmp", "strsep", "strtok_r", "mempcpy",
    "memrchr", "rawmemchr", "index", "rindex", "strsignal", "strerror_r", "strlcpy", "strlcat",
    "strchrnul", "strcasestr", "strverscmp", "__strdup", "__strndup", "__memcpy_chk",
    "__memmove_chk", "__memset_chk", "__strcpy_chk", "__strncpy_chk", "__strcat_chk",
    "__strncat_chk", "__stpcpy_chk", "__mempcpy_chk", "__explicit_bzero_chk",
    // <stdlib.h> (malloc, calloc, free, abort, exit, _Exit, atexit, at_quick_exit are
    // modelled or rejected in call.rs)
    "atof", "atoi", "atol", "atoll", "strtod", "strtof", "strtold", "strtol", "strtoll",
    "strtoul", "strtoull", "rand", "srand", "aligned_alloc", "realloc", "quick_exit",
    "getenv", "system", "bsearch", "qsort", "abs", "labs", "llabs", "div", "ldiv", "lldiv",
    "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs", "posix_memalign", "memalign",
    "valloc", "pvalloc", "reallocarray", "random", "srandom", "rand_r", "drand48", "erand48",
    "lrand48", "nrand48", "mrand48", "jrand48", "srand48", "mkstemp", "mkdtemp", "mktemp",
    "setenv", "unsetenv", "putenv", "clearenv", "realpath", "secure_getenv", "__strtol_internal",
    "__strtoul_internal", "__strtoll_internal", "__strtoull_internal", "__assert_perror_fail",
    "__assert",
    // <inttypes.h>
    "imaxabs", "imaxdiv", "strtoimax", "strtoumax", "wcstoimax", "wcstoumax",
    // <stdio.h> input, files and formatting into memory (output-only functions: OUTPUT_ONLY)
    "remove", "rename", "tmpfile", "tmpnam", "fclose", "fopen", "freopen", "setbuf", "setvbuf",
    "fscanf", "scanf", "sscanf", "snprintf", "sprintf", "vfscanf", "vscanf", "vsnprintf",
    "vsprintf", "vsscanf", "fgetc", "fgets", "getc", "getchar", "gets", "ungetc", "fread",
    "fwrite", "fgetpos", "fseek", "fsetpos", "ftell", "rewind", "clearerr", "feof", "ferror",
    "fdopen", "fileno", "getline", "getdelim", "popen", "pclose", "asprintf", "vasprintf",
    "fmemopen", "open_memstream", "fseeko", "ftello", "getchar_unlocked", "getc_unlocked",
    "_IO_getc", "__sprintf_chk", "__snprintf_chk", "__vsprintf_chk", "__vsnprintf_chk",
    "__uflow", "__overflow",
    // <ctype.h> and <wctype.h>
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint",
    "ispunct", "isspace", "isupper", "isxdigit", "tolower", "toupper", "isascii", "toascii",
    "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc", "iswalnum", "iswalpha",
    "iswblank", "iswcntrl", "iswdigit", "iswgraph", "iswlower", "iswprint", "iswpunct",
    "iswspace", "iswupper", "iswxdigit", "iswctype", "towlower", "towupper", "wctype",
    "towctrans", "wctrans",
    // <errno.h> (errno is `*__errno_location()` in glibc)
    "__errno_location",
    // <fenv.h>
    "feclearexcept", "fegetexceptflag", "feraiseexcept", "fesetexceptflag", "fetestexcept",
    "fegetround", "fesetround", "fegetenv", "feholdexcept", "fesetenv", "feupdateenv",
    // <locale.h>
    "setlocale", "localeconv",
    // <setjmp.h> and <signal.h> (setjmp/longjmp have their own message in call.rs)
    "signal", "raise", "kill", "sigaction", "sigemptyset", "sigfillset", "sigaddset",
    "sigdelset", "sigismember", "sigprocmask", "alarm", "pause",
    // <stdarg.h> helpers
    "va_start", "va_end", "va_copy", "va_arg",
    // <time.h>
    "clock", "difftime", "mktime", "time", "asctime", "ctime", "gmtime", "localtime",
    "strftime", "timespec_get", "asctime_r", "ctime_r", "gmtime_r", "localtime_r",
    "nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "sleep", "usleep",
    // <wchar.h> and <uchar.h>
    "wcslen", "wcscpy", "wcsncpy", "wcscat", "wcsncat", "wcscmp", "wcsncmp", "wcschr",
    "wcsrchr", "wcsstr", "wcsspn", "wcscspn", "wcspbrk", "wcstok", "wcscoll", "wcsxfrm",
    "wmemcpy", "wmemmove", "wmemset", "wmemcmp", "wmemchr", "wcstol", "wcstoll", "wcstoul",
    "wcstoull", "wcstod", "wcstof", "wcstold", "fwprintf", "wprintf", "swprintf", "vfwprintf",
    "vwprintf", "vswprintf", "fwscanf", "wscanf", "swscanf", "btowc", "wctob", "mbrtowc",
    "wcrtomb", "mbsrtowcs", "wcsrtombs", "mbrlen", "mbsinit", "fgetwc", "fgetws", "fputwc",
    "fputws", "getwc", "getwchar", "putwc", "putwchar", "ungetwc", "fwide", "wcsftime",
    "mbrtoc16", "c16rtomb", "mbrtoc32", "c32rtomb", "wcsdup", "wcsnlen",
    // POSIX <unistd.h>, <fcntl.h>, <sys/mman.h>, processes (fork etc. have their own message)
    "read", "write", "open", "openat", "creat", "close", "lseek", "pipe", "dup", "dup2",
    "getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "execve", "execv", "execvp",
    "execl", "execlp", "execle", "unlink", "access", "chdir", "getcwd", "sysconf", "mmap",
    "munmap", "mprotect", "brk", "sbrk", "wait", "waitpid", "ioctl", "fcntl", "stat", "fstat",
    "lstat", "pread", "pwrite", "fsync", "truncate", "ftruncate", "rmdir", "mkdir", "isatty",
    "select", "poll", "socket", "connect", "bind", "listen", "accept", "send", "recv",
    "sched_yield", "getopt", "getopt_long",
    // <threads.h> objects not caught by the prefixes
    "call_once",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_the_library_but_not_what_call_rs_models() {
        for f in [
            "realloc", "memcmp", "strcpy", "strlen", "strcmp", "strncpy", "strdup", "bzero",
            "read", "pthread_mutex_lock", "sqrtf", "floorl", "sin", "__builtin_strlen",
            "__isoc99_scanf", "sprintf", "abs", "rand", "toupper",
        ] {
            assert!(is_unmodelled_library_function(f), "{f}");
        }
        for f in [
            "malloc", "calloc", "free", "memset", "memcpy", "memmove", "alloca", "abort", "exit",
            "_exit", "_Exit", "__assert_fail", "__VERIFIER_assert", "__VERIFIER_nondet_int",
            "reach_error", "printf", "puts", "fprintf", "__builtin_expect", "my_strlen", "f",
            "lib", "half",
        ] {
            assert!(!is_unmodelled_library_function(f), "{f}");
        }
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
