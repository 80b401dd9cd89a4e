// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !tensorcast_pkgconfig

package tensorcast

// In-tree linkage (the default): the package's own copy of the header (tensorcast.h,
// generated with include/tensorcast.h and checked by tests/header.rs, so that the
// package still compiles after `go mod vendor`), and the library cargo builds into target/release,
// found at run time through an rpath, so `go test` works right after
// `bash scripts/quickstart.sh` (whose CMake build also makes target/release/libtensorcast.so.0,
// the SONAME the loader looks for) with no install step and no LD_LIBRARY_PATH. A copy of the
// package outside the checkout (vendor/, the module cache) has no target/release next
// to it: give the library's directory in CGO_LDFLAGS, or use tensorcast_pkgconfig.

// #cgo CFLAGS: -I${SRCDIR}
// #cgo LDFLAGS: -L${SRCDIR}/../../target/release -ltensorcast -Wl,-rpath,${SRCDIR}/../../target/release
import "C"
