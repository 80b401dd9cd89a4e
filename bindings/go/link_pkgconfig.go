// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build tensorcast_pkgconfig

package tensorcast

// Linkage against an installed library (build with -tags tensorcast_pkgconfig): the
// compiler and linker flags come from tensorcast.pc through pkg-config. Set
// PKG_CONFIG_PATH when the .pc file is not in pkg-config's default search path. The
// .pc file gives no rpath: unless the library is in the dynamic loader's path, add
// CGO_LDFLAGS="-Wl,-rpath,$(pkg-config --variable=libdir tensorcast)" (or set
// LD_LIBRARY_PATH when running).

// #cgo pkg-config: tensorcast
import "C"
