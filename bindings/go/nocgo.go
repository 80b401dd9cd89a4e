// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build !cgo

package tensorcast

// Every function of this package calls the C library through cgo. Without cgo
// (CGO_ENABLED=0, or no C compiler found) the build would otherwise fail with
// "undefined: DType" and the like; the files that need cgo carry a cgo build
// constraint, so this file is all that is compiled and its one error says why:
//
//	cannot use "tensorcast requires cgo (CGO_ENABLED=1) and a C compiler" (untyped string constant) as int value
var _ int = "tensorcast requires cgo (CGO_ENABLED=1) and a C compiler"
