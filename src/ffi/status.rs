// SPDX-License-Identifier: MIT OR Apache-2.0
//! Status names and the library version.

use super::args::c_static;
use super::guard::guard_value;
use super::types::tcast_status;
use crate::error::Status;
use std::ffi::c_char;

/// Major version; equals Cargo.toml's (a test checks).
pub const TCAST_VERSION_MAJOR: u32 = 0;
/// Minor version; equals Cargo.toml's (a test checks).
pub const TCAST_VERSION_MINOR: u32 = 1;
/// Patch version; equals Cargo.toml's (a test checks).
pub const TCAST_VERSION_PATCH: u32 = 0;

/// The name of a status code ("TCAST_ERR_PARSE"), or "unknown" for a value that is not
/// one. The string is static. Thread-safe.
#[no_mangle]
pub extern "C" fn tcast_status_name(status: tcast_status) -> *const c_char {
    guard_value(c_static("unknown\0"), || {
        c_static(Status::from_code(status).map_or("unknown\0", Status::name_nul))
    })
}

/// The library version as "MAJOR.MINOR.PATCH" (a static string), the same as the
/// TCAST_VERSION_* macros of the header it was built with.
#[no_mangle]
pub extern "C" fn tcast_version() -> *const c_char {
    c_static(concat!(env!("CARGO_PKG_VERSION"), "\0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_constants_match_cargo_toml() {
        assert_eq!(
            TCAST_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            TCAST_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            TCAST_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
    }
}
