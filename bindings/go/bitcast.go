// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// #include "tensorcast.h"
import "C"

import "unsafe"

// BitcastRules chooses whose bitcast rules apply.
type BitcastRules int32

// The rule sets (TCAST_BITCAST_*).
const (
	// BitcastTF is tf.bitcast: equal sizes keep the shape; a wider input type appends
	// a dimension of the size ratio; a narrower one needs a last dimension equal to
	// the ratio, which is dropped.
	BitcastTF BitcastRules = C.TCAST_BITCAST_TF
	// BitcastONNX is ONNX BitCast-26: equal bit widths (Bool and packed types
	// included), same shape.
	BitcastONNX BitcastRules = C.TCAST_BITCAST_ONNX
	// BitcastNumpyView is numpy's ndarray.view(dtype): byte-sized dtypes, the last
	// axis rescaled.
	BitcastNumpyView BitcastRules = C.TCAST_BITCAST_NUMPY_VIEW
)

// BitcastShape returns the shape a contiguous tensor of from and shape has when viewed
// as to under rules (tcast_bitcast_shape). Errors: ErrUnsupported (a dtype the rules
// refuse, or unequal widths under BitcastONNX), ErrIncompatibleShapes (the shape rule,
// e.g. "Cannot bitcast from FLOAT to COMPLEX128: shape [3]").
func BitcastShape(from, to DType, shape []int64, rules BitcastRules) ([]int64, error) {
	return bitcastShape(from, to, shape, rules)
}

// Bitcast views the contiguous tensor src of dtype from and shape as dtype to, without
// copying (tcast_bitcast). The returned Tensor's Data aliases src: writes through
// either are seen through the other.
func Bitcast(src []byte, from, to DType, shape []int64, rules BitcastRules) (Tensor, error) {
	return bitcastTensor(Tensor{Data: src, DType: from, Shape: shape}, to, rules)
}

// BitcastTensor is Bitcast for a Tensor. Strides are accepted when they describe the
// contiguous layout; other strides fail with ErrUnsupported, as a view has none.
func BitcastTensor(src Tensor, to DType, rules BitcastRules) (Tensor, error) {
	return bitcastTensor(src, to, rules)
}

// BitcastSlice views the tensor src of shape as elements of type To, without copying
// (tcast_bitcast with the dtypes DTypeOf[From]() and DTypeOf[To]()): the typed form of
// Bitcast, as ExpandSlice is of Expand. len(src) must be the element count of shape
// (nil or empty: a scalar), else ErrInvalidShape. It returns the view and its shape
// under rules: BitcastTF ([]float64 of shape [2] as int8 is [2 8]; []int8 of shape
// [3 4] as int32 is [3]), BitcastNumpyView (the last axis rescaled: [3 8] int8 as
// int32 is [3 2]) or BitcastONNX (equal widths, same shape: []float32 as []uint32).
// The result aliases src: writes through either are seen through the other.
//
// Two refusals are the binding's own: To of kind bool from another type
// (ErrUnsupported: a Go bool must hold 0 or 1, which other bytes need not; CastSlice
// converts), and src whose memory is not aligned for To (ErrInvalidArgument: Go may
// not read an int32 at an odd address; this happens only for a narrower From whose
// slice does not start at its allocation, e.g. b[1:], and copying src into a new
// slice fixes it). The library's errors are Bitcast's.
func BitcastSlice[From, To Native](src []From, shape []int64, rules BitcastRules) ([]To, []int64, error) {
	n, err := elementCount(shape)
	if err != nil {
		return nil, nil, err
	}
	if n != len(src) {
		return nil, nil, newError(ErrInvalidShape, "BitcastSlice: shape %v has %d elements but the slice has %d", shape, n, len(src))
	}
	from, to := DTypeOf[From](), DTypeOf[To]()
	if to == Bool && from != Bool {
		return nil, nil, newError(ErrUnsupported, "BitcastSlice: a %v slice cannot be viewed as []bool: a Go bool must hold 0 or 1; use CastSlice", from)
	}
	view, err := bitcastTensor(Tensor{Data: AsBytes(src), DType: from, Shape: shape}, to, rules)
	if err != nil {
		return nil, nil, err
	}
	var zero To
	size := int(unsafe.Sizeof(zero))
	if len(view.Data)%size != 0 {
		return nil, nil, newError(ErrInternal, "the bitcast view holds %d bytes, not a whole number of %d-byte elements", len(view.Data), size)
	}
	if len(view.Data) == 0 {
		return []To{}, view.Shape, nil
	}
	first := unsafe.Pointer(&view.Data[0])
	if uintptr(first)%unsafe.Alignof(zero) != 0 {
		return nil, nil, newError(ErrInvalidArgument, "BitcastSlice: the %v data at %p is not aligned for %v (%d bytes); copy it into a new slice first", from, first, to, unsafe.Alignof(zero))
	}
	return unsafe.Slice((*To)(first), len(view.Data)/size), view.Shape, nil
}
