//! Finds libcbor_fast for linking.
//!
//! 1. `CBOR_FAST_LIB_DIR`: the directory holding libcbor_fast.so (the ctest
//!    sets it to the plain, uninstrumented build of the library).
//! 2. Otherwise `pkg-config --libs-only-L cbor_fast` (the `pkg-config` command
//!    itself: no crates.io helper), honouring `PKG_CONFIG_PATH`.
//! 3. Otherwise only `-lcbor_fast`, for a library in the linker's default path.
//!
//! Each directory found also becomes an rpath, so `cargo test` runs the test
//! binaries without LD_LIBRARY_PATH.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CBOR_FAST_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");

    let dirs = match env::var_os("CBOR_FAST_LIB_DIR") {
        Some(dir) if !dir.is_empty() => vec![PathBuf::from(dir)],
        _ => pkg_config_dirs(),
    };
    if dirs.is_empty() {
        println!(
            "cargo:warning=libcbor_fast not located (set CBOR_FAST_LIB_DIR or PKG_CONFIG_PATH); \
             relying on the linker's default search path"
        );
    }
    for dir in &dirs {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
        // A rebuilt library (new symbols) must re-run this script and relink.
        let lib = dir.join("libcbor_fast.so");
        if lib.exists() {
            println!("cargo:rerun-if-changed={}", lib.display());
        }
    }
    println!("cargo:rustc-link-lib=dylib=cbor_fast");
}

/// The -L directories pkg-config reports for cbor_fast; empty if it fails.
fn pkg_config_dirs() -> Vec<PathBuf> {
    let output = match Command::new("pkg-config").args(["--libs-only-L", "cbor_fast"]).output() {
        Ok(o) if o.status.success() => o,
        _ => return Vec::new(),
    };
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .filter_map(|flag| flag.strip_prefix("-L"))
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .collect()
}
