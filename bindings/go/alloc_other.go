// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo && !linux

package tensorcast

// systemMemoryLimit: elsewhere only what Go itself can allocate is checked (maxGoAlloc).
func systemMemoryLimit() (uint64, string) { return ^uint64(0), "no limit" }
