//! Finds or builds libcbor_fast.
//!
//! * Feature `bundled`: builds `libcbor_fast.a` from this repository's sources
//!   (two directories up: `capi/rust/cbor-fast-sys` -> repository root) with
//!   the `cmake` crate, in Release, and links it statically together with the
//!   C++ runtime (`libstdc++`). Nothing is needed at run time.
//! * Otherwise, the shared library, found in this order:
//!   1. `CBOR_FAST_LIB_DIR`: the directory holding `libcbor_fast.so` (the
//!      project's ctest sets it to the freshly built plain library);
//!   2. pkg-config (`cbor_fast`, at least 0.3, honouring `PKG_CONFIG_PATH`);
//!   3. `-lcbor_fast` alone, for a library in the linker's default path.
//!
//! The directory linked from is published to dependents' build scripts as
//! `DEP_CBOR_FAST_LIB_DIR` (`links = "cbor_fast"`), with `DEP_CBOR_FAST_STATIC`
//! = 1 or 0; the `cbor_fast` crate turns a shared library's directory into an
//! rpath for its own tests and examples.
use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CBOR_FAST_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    if env::var_os("CARGO_FEATURE_BUNDLED").is_some() {
        bundled();
        return;
    }
    println!("cargo:static=0");
    if let Some(dir) = env::var_os("CBOR_FAST_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=dylib=cbor_fast");
        println!("cargo:lib_dir={}", dir.display());
        // For this crate's own tests (dependents: see DEP_CBOR_FAST_LIB_DIR).
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
        // A rebuilt library (new symbols) must re-run this script and relink.
        let lib = dir.join("libcbor_fast.so");
        if lib.exists() {
            println!("cargo:rerun-if-changed={}", lib.display());
        }
        return;
    }
    // pkg-config prints the -L and -l flags for cargo itself.
    match pkg_config::Config::new().atleast_version("0.3").probe("cbor_fast") {
        Ok(lib) => {
            if let Some(dir) = lib.link_paths.first() {
                println!("cargo:lib_dir={}", dir.display());
            }
        }
        Err(e) => {
            println!(
                "cargo:warning=libcbor_fast not located (enable the `bundled` feature, or set \
                 CBOR_FAST_LIB_DIR or PKG_CONFIG_PATH: {}); relying on the linker's default path",
                e.to_string().lines().next().unwrap_or("")
            );
            println!("cargo:rustc-link-lib=dylib=cbor_fast");
        }
    }
}

#[cfg(feature = "bundled")]
fn bundled() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../../..");
    let root = root.canonicalize().unwrap_or(root);
    for sub in ["CMakeLists.txt", "cmake", "src", "include", "capi/include", "capi/src"] {
        println!("cargo:rerun-if-changed={}", root.join(sub).display());
    }
    // Only the static library: no tests, tools, install rules or benchmarks,
    // so none of their dependencies (GoogleTest, ...) is needed.
    let out = cmake::Config::new(&root)
        .profile("Release")
        .define("CBOR_FAST_BUILD_TESTS", "OFF")
        .define("CBOR_FAST_BUILD_TOOLS", "OFF")
        .define("CBOR_FAST_BUILD_BENCHMARKS", "OFF")
        .define("CBOR_FAST_BUILD_FUZZERS", "OFF")
        .define("CBOR_FAST_INSTALL", "OFF")
        .build_target("cbor_fast_static")
        .build();
    let lib_dir = out.join("build");
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=cbor_fast");
    // The core is C++: its runtime comes from the system compiler.
    let target = env::var("TARGET").unwrap_or_default();
    if target.contains("apple") || target.contains("freebsd") {
        println!("cargo:rustc-link-lib=dylib=c++");
    } else {
        println!("cargo:rustc-link-lib=dylib=stdc++");
    }
    println!("cargo:lib_dir={}", lib_dir.display());
    println!("cargo:static=1");
}

#[cfg(not(feature = "bundled"))]
fn bundled() {
    unreachable!("CARGO_FEATURE_BUNDLED without the bundled feature");
}
