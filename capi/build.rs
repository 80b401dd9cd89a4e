// SPDX-License-Identifier: MIT OR Apache-2.0
//! Gives the shared library a SONAME on Linux, `libtensorcast.so.<major>`, so that a
//! program records the major version it was linked against, and a packaged
//! libtensorcast.so.0.1.0 can sit beside a later libtensorcast.so.1.y.z. All 0.x releases
//! share the SONAME libtensorcast.so.0, so they must stay ABI-compatible with one another
//! (docs/c-api.md allows only additions); a breaking change takes a new major version.
//! Other platforms keep rustc's defaults. Only this package's cdylib gets it: a crate that
//! links the core into a shared library of its own (integrations/onnxruntime) does not.
//!
//! On Linux it also versions the exports, `tcast_cast@@TENSORCAST_<major>`, in a plain
//! `cargo build -p tensorcast-c` as the CMake build does (docs/c-api.md, section 11): the
//! C compiler driver runs the linker through capi/symbol-versions.sh (GCC's `-wrapper`),
//! which names the node of rustc's version script. The CMake build links through
//! cmake/tensorcast-linker.sh, which names it already; the wrapper then leaves it alone,
//! and is not added at all when that script is cargo's linker. A linker driver that is
//! not GCC (clang, zig cc) has no `-wrapper`: the exports are then unversioned, and a
//! warning says so (the CMake build versions them with any driver).

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=symbol-versions.sh");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libtensorcast.so.{major}");
    version_exports(&format!("TENSORCAST_{major}"));
}

/// Adds `-wrapper sh,capi/symbol-versions.sh,<node>` to the cdylib's link when the linker
/// driver is GCC and not cmake/tensorcast-linker.sh.
fn version_exports(node: &str) {
    let target = std::env::var("TARGET").expect("cargo sets TARGET");
    let linker_var = format!(
        "CARGO_TARGET_{}_LINKER",
        target.to_uppercase().replace(['-', '.'], "_")
    );
    println!("cargo:rerun-if-env-changed={linker_var}");
    // The linker cargo resolved (configuration or environment), else rustc's default.
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_string());
    if Path::new(&linker).file_name() == Some("tensorcast-linker.sh".as_ref()) {
        return;
    }
    let is_gcc = Command::new(&linker)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).contains("Free Software Foundation"))
        .unwrap_or(false);
    let wrapper = concat!(env!("CARGO_MANIFEST_DIR"), "/symbol-versions.sh");
    if !is_gcc || wrapper.contains(',') {
        println!(
            "cargo:warning=libtensorcast.so's exports are not versioned ({node}): the linker \
             driver {linker} is not GCC, or the source path has a comma; the CMake build \
             versions them"
        );
        return;
    }
    println!("cargo:rustc-cdylib-link-arg=-wrapper");
    println!("cargo:rustc-cdylib-link-arg=sh,{wrapper},{node}");
}
