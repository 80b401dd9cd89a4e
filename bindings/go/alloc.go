// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import (
	"math"
	"math/bits"
	"unsafe"
)

// Sizes checked before allocating. The functions that return new slices (CastToBytes,
// CastFromBytes, Expand, ExpandSlice, ExpandStrided, ExpandStrings, CastToStrings,
// CastTensorToStrings, FormatSlice) size them from what the caller passes: an element
// count, a shape, a broadcast. They check that size before make() sees it, because make()
// does not fail politely: a length above what the runtime can address panics
// ("makeslice: len out of range"), and memory the operating system refuses ends the
// process ("fatal error: runtime: out of memory"), which no recover catches. So, in this
// order and before anything is allocated:
//
//   - the input must hold what its shape (and strides) say, as the library will check
//     it (checkInput: ErrBufferTooSmall, ErrInvalidShape);
//   - the result must fit in a Go slice (ErrInvalidShape, as TensorBytes says);
//   - the memory the call allocates must be memory the process can get (checkAlloc:
//     ErrOutOfMemory).

// uncheckedBytes: allocations up to this size are not measured against the machine's
// memory (one or two system calls); a process that cannot get 16 MiB has failed already.
const uncheckedBytes = 16 << 20

// maxGoAlloc is a bound on what Go's make() can allocate at all: the runtime's heap
// addresses 48 bits on 64-bit platforms (47 here, to stay clear of it), and a slice on a
// 32-bit platform holds at most MaxInt32 bytes.
var maxGoAlloc = func() uint64 {
	if bits.UintSize == 64 {
		return 1 << 47
	}
	return math.MaxInt32
}()

// stringHeaderBytes is the size of one Go string header (16 bytes on 64-bit platforms).
const stringHeaderBytes = uint64(unsafe.Sizeof(""))

// mulSize returns a*b, and false when the product overflows 64 bits.
func mulSize(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0
}

// addSize returns a+b, and false when the sum overflows 64 bits.
func addSize(a, b uint64) (uint64, bool) {
	sum, carry := bits.Add64(a, b, 0)
	return sum, carry == 0
}

// checkAlloc returns ErrOutOfMemory when op's allocations of need bytes in all cannot
// succeed: more than Go can allocate, or (on Linux) more than the machine's RAM and swap
// together, which the kernel's default overcommit policy refuses to map in one piece,
// or more than the process's address-space limit (RLIMIT_AS). What it cannot foresee
// (memory other processes hold, a cgroup limit, the strict overcommit policy) it
// leaves to the runtime, as any Go allocation does.
func checkAlloc(op string, need uint64) error {
	if need <= uncheckedBytes {
		return nil
	}
	limit, what := maxGoAlloc, "what Go can allocate"
	if sys, sysWhat := systemMemoryLimit(); sys < limit {
		limit, what = sys, sysWhat
	}
	if need > limit {
		return newError(ErrOutOfMemory, "%s needs %d bytes, more than %s (%d bytes)", op, need, what, limit)
	}
	return nil
}

// checkResultBytes refuses a result of count elements of elemBytes each that a Go slice
// cannot hold (ErrInvalidShape, as TensorBytes does), and returns its size in bytes.
func checkResultBytes(op string, count, elemBytes uint64) (uint64, error) {
	size, ok := mulSize(count, elemBytes)
	if !ok || size > math.MaxInt {
		return 0, newError(ErrInvalidShape, "%s: %d elements of %d bytes are more than a Go slice can hold", op, count, elemBytes)
	}
	return size, nil
}

// inputBytes returns the bytes the library requires of t.Data: TensorBytes for a
// contiguous tensor, the span of the strides for a strided one. Its errors are the
// library's for the same tensor (ErrInvalidDType, ErrInvalidShape), so that a tensor
// the library would refuse is refused before anything is allocated for it.
func inputBytes(t Tensor, what string) (uint64, error) {
	contiguous, err := tensorBytes(t.DType, t.Shape)
	if err != nil || t.Strides == nil {
		return contiguous, err
	}
	if len(t.Strides) != len(t.Shape) {
		return 0, newError(ErrInvalidShape, "%s has %d strides for a shape of rank %d", what, len(t.Strides), len(t.Shape))
	}
	for _, s := range t.Strides {
		if s < 0 {
			return 0, newError(ErrInvalidShape, "%s strides %v: a stride is negative", what, t.Strides)
		}
	}
	elemBits := uint64(dtypeBits(t.DType))
	if elemBits%8 != 0 {
		return 0, newError(ErrInvalidShape, "%s strides %v are not allowed for the packed dtype %v", what, t.Strides, t.DType)
	}
	if contiguous == 0 {
		return 0, nil // no elements (an extent is 0): nothing is read
	}
	// The last element's index, 1 + sum((extent-1) * stride), then in bytes.
	last, ok := uint64(0), true
	for i, d := range t.Shape {
		term, termOK := mulSize(uint64(d-1), uint64(t.Strides[i]))
		sum, sumOK := addSize(last, term)
		last, ok = sum, ok && termOK && sumOK
	}
	span, spanOK := addSize(last, 1)
	size, sizeOK := mulSize(span, elemBits/8)
	if !ok || !spanOK || !sizeOK {
		return 0, newError(ErrInvalidShape, "%s shape %v with strides %v of %v: the byte span overflows 64 bits", what, t.Shape, t.Strides, t.DType)
	}
	return size, nil
}

// checkInput refuses, with the library's statuses, an input whose Data is smaller than
// its shape and strides need (ErrBufferTooSmall) or whose layout is invalid.
func checkInput(t Tensor, what string) error {
	need, err := inputBytes(t, what)
	if err != nil {
		return err
	}
	if uint64(len(t.Data)) < need {
		if t.Strides != nil {
			return newError(ErrBufferTooSmall, "%s data holds %d bytes but shape %v with strides %v of %v needs %d", what, len(t.Data), t.Shape, t.Strides, t.DType, need)
		}
		return newError(ErrBufferTooSmall, "%s data holds %d bytes but shape %v of %v needs %d", what, len(t.Data), t.Shape, t.DType, need)
	}
	return nil
}
