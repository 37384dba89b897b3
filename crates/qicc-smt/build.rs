//! Links Bitwuzla: `bitwuzla-sys` names only `libbitwuzla`, while the static library that
//! `scripts/install-bitwuzla.sh` builds also needs its internal archives, CaDiCaL, GMP and the
//! C++ runtime, which its pkg-config file lists in link order. The library must carry qicc's
//! patches (the pkg-config variable `qicc_patches`, see the script): without `terminate`,
//! checks overrun their time limit by seconds on large queries; without `value-cache`, model
//! values over a large query cost quadratic time.
fn main() {
    const PATCHES: &[&str] = &["terminate", "value-cache"];
    let lib = match pkg_config::Config::new()
        .atleast_version("0.8")
        .statik(true)
        .probe("bitwuzla")
    {
        Ok(lib) => lib,
        Err(e) => fail(&format!("Bitwuzla not found through pkg-config ({e})")),
    };
    let have = pkg_config::get_variable("bitwuzla", "qicc_patches").unwrap_or_default();
    for p in PATCHES {
        if !have.split_whitespace().any(|h| h == *p) {
            fail(&format!("the Bitwuzla found lacks qicc's `{p}` patch"));
        }
    }
    // A reinstalled library relinks qicc (cargo does not look at what pkg-config names).
    for dir in &lib.link_paths {
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("libbitwuzla.a").display()
        );
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("pkgconfig/bitwuzla.pc").display()
        );
    }
}

fn fail(why: &str) -> ! {
    println!("cargo:warning={why}; run scripts/install-bitwuzla.sh (see the README's set-up)");
    std::process::exit(1);
}
