// SPDX-License-Identifier: MIT OR Apache-2.0
//! Helpers shared by the integration tests that drive a C compiler.

/// The target triple the tests were built for (a C compiler they drive must match it).
pub fn target_triple() -> String {
    let arch = std::env::consts::ARCH;
    if cfg!(target_os = "linux") {
        let env = if cfg!(target_env = "musl") {
            "musl"
        } else {
            "gnu"
        };
        format!("{arch}-unknown-linux-{env}")
    } else if cfg!(target_os = "macos") {
        format!("{arch}-apple-darwin")
    } else {
        format!("{arch}-unknown-{}", std::env::consts::OS)
    }
}
