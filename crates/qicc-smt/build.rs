//! Links Bitwuzla: `bitwuzla-sys` names only `libbitwuzla`, while the static library that
//! `scripts/install-bitwuzla.sh` builds also needs its internal archives, CaDiCaL, GMP and the
//! C++ runtime, which its pkg-config file lists in link order.
fn main() {
    if let Err(e) = pkg_config::Config::new()
        .atleast_version("0.8")
        .statik(true)
        .probe("bitwuzla")
    {
        println!(
            "cargo:warning=Bitwuzla not found through pkg-config ({e}); \
             run scripts/install-bitwuzla.sh (see the README's set-up)"
        );
        std::process::exit(1);
    }
}
