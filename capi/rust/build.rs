//! The native library is linked by `cbor-fast-sys`. When it links a shared
//! library from a known directory (`DEP_CBOR_FAST_LIB_DIR`, static = 0), this
//! crate's own tests, examples and benchmarks get that directory as an rpath,
//! so `cargo test` runs them without LD_LIBRARY_PATH. (A bundled, static
//! build needs nothing at run time.)
use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let is_static = env::var("DEP_CBOR_FAST_STATIC").map(|s| s == "1").unwrap_or(false);
    if is_static {
        return;
    }
    if let Some(dir) = env::var_os("DEP_CBOR_FAST_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = std::path::PathBuf::from(dir);
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    }
}
