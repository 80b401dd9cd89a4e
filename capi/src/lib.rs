// SPDX-License-Identifier: MIT OR Apache-2.0
//! libtensorcast.so and libtensorcast.a: the core's C ABI (`tensorcast::ffi`), linked.
//!
//! rustc exports the `#[no_mangle] extern "C"` functions of every crate a cdylib or
//! staticlib links; the re-export below makes the core one of them. The SONAME is
//! build.rs's, from this package's version, which must be the core's (the test below).

pub use tensorcast_core::ffi::*;

#[cfg(test)]
mod tests {
    /// capi/Cargo.toml's version gives the SONAME (build.rs); `tcast_version()` reports
    /// the core's, from the root's Cargo.toml: they must be the same.
    #[test]
    fn the_c_library_has_the_core_s_version() {
        // SAFETY: tcast_version returns a pointer to a static NUL-terminated string.
        let core = unsafe { std::ffi::CStr::from_ptr(super::tcast_version()) };
        assert_eq!(
            core.to_str().expect("the version is ASCII"),
            env!("CARGO_PKG_VERSION"),
            "tcast_version() (Cargo.toml) and capi/Cargo.toml name different versions"
        );
    }
}
