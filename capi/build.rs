// SPDX-License-Identifier: MIT OR Apache-2.0
//! Gives the shared library a SONAME on Linux, `libtensorcast.so.<major>`, so that a
//! program records the major version it was linked against, and a packaged
//! libtensorcast.so.0.1.0 can sit beside a later libtensorcast.so.1.y.z. All 0.x releases
//! share the SONAME libtensorcast.so.0, so they must stay ABI-compatible with one another
//! (docs/c-api.md allows only additions); a breaking change takes a new major version.
//! Other platforms keep rustc's defaults. Only this package's cdylib gets it: a crate that
//! links the core into a shared library of its own (integrations/onnxruntime) does not.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libtensorcast.so.{major}");
    }
}
