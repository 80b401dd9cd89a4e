// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import "unsafe"

// ExpandShape returns the shape ONNX Expand produces: the numpy broadcast of inShape
// with shape, aligned on the right (tcast_expand_shape). Equal extents stay; an extent
// of 1 takes the other side's, 0 included. Errors: ErrIncompatibleShapes (the message
// names both shapes and the dimension), ErrInvalidShape (a negative extent).
func ExpandShape(inShape, shape []int64) ([]int64, error) { return expandShape(inShape, shape) }

// Expand broadcasts the contiguous tensor src of dtype and inShape with shape (ONNX
// Expand, numpy broadcast_to) and returns the new tensor's bytes and shape. Every
// numeric dtype works, packed ones bit-exactly; for text use ExpandStrings.
func Expand(src []byte, dtype DType, inShape, shape []int64) ([]byte, []int64, error) {
	return expandStrided(Tensor{Data: src, DType: dtype, Shape: inShape}, shape)
}

// ExpandStrided is Expand for a Tensor, which may be strided (stride 0 included).
func ExpandStrided(src Tensor, shape []int64) ([]byte, []int64, error) {
	return expandStrided(src, shape)
}

func expandStrided(src Tensor, shape []int64) ([]byte, []int64, error) {
	if err := refuseString("Expand", src.DType); err != nil {
		return nil, nil, err
	}
	if err := checkInput(src, "Expand: input"); err != nil {
		return nil, nil, err
	}
	outShape, err := ExpandShape(src.Shape, shape)
	if err != nil {
		return nil, nil, err
	}
	n, err := TensorBytes(src.DType, outShape)
	if err != nil {
		return nil, nil, err
	}
	if err := checkAlloc("Expand", uint64(n)); err != nil {
		return nil, nil, err
	}
	dst := make([]byte, n)
	if err := expandTensor(src, Tensor{Data: dst, DType: src.DType, Shape: outShape}); err != nil {
		return nil, nil, err
	}
	return dst, outShape, nil
}

// ExpandTensor writes the broadcast of src into dst (tcast_expand). dst.DType must
// equal src.DType, dst.Shape must be ExpandShape(src.Shape, dst.Shape), dst.Strides
// must be nil, and the buffers must not overlap.
func ExpandTensor(src, dst Tensor) error {
	if err := refuseString("ExpandTensor", src.DType, dst.DType); err != nil {
		return err
	}
	return expandTensor(src, dst)
}

// ExpandTensorWithOptions is ExpandTensor with opts (tcast_expand_ex): opts.Threads > 1
// lets the library split a large expansion over up to that many threads, with the
// result ExpandTensor gives; the other fields are checked (a bad value is
// ErrInvalidArgument) and otherwise ignored. A nil opts is ExpandTensor.
func ExpandTensorWithOptions(src, dst Tensor, opts *CastOptions) error {
	if err := refuseString("ExpandTensorWithOptions", src.DType, dst.DType); err != nil {
		return err
	}
	return expandTensorWith(src, dst, opts)
}

// ExpandSlice is Expand for a typed slice, whose length must be the element count of
// inShape (else ErrInvalidShape).
func ExpandSlice[T Native](src []T, inShape, shape []int64) ([]T, []int64, error) {
	return expandSlice(src, inShape, shape, "ExpandSlice", 0)
}

// expandSlice is ExpandSlice for op, whose caller goes on to allocate extraPerElement
// more bytes for each element of the result (counted in the memory check).
func expandSlice[T Native](src []T, inShape, shape []int64, op string, extraPerElement uint64) ([]T, []int64, error) {
	n, err := elementCount(inShape)
	if err != nil {
		return nil, nil, err
	}
	if n != len(src) {
		return nil, nil, newError(ErrInvalidShape, "%s: input shape %v has %d elements but the slice has %d", op, inShape, n, len(src))
	}
	outShape, err := ExpandShape(inShape, shape)
	if err != nil {
		return nil, nil, err
	}
	count, err := elementCount(outShape)
	if err != nil {
		return nil, nil, err
	}
	var zero T
	size, err := checkResultBytes(op, uint64(count), uint64(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, nil, err
	}
	extra, ok := mulSize(uint64(count), extraPerElement)
	need, ok2 := addSize(size, extra)
	if !ok || !ok2 {
		need = ^uint64(0)
	}
	if err := checkAlloc(op, need); err != nil {
		return nil, nil, err
	}
	dtype := DTypeOf[T]()
	dst := make([]T, count)
	if err := expandTensor(Tensor{Data: AsBytes(src), DType: dtype, Shape: inShape},
		Tensor{Data: AsBytes(dst), DType: dtype, Shape: outShape}); err != nil {
		return nil, nil, err
	}
	return dst, outShape, nil
}

// ExpandStrings is Expand for text: the result's elements are src's strings (shared,
// not copied), placed as the broadcast places them. The library expands the element
// indices (an INT64 tensor); the binding then picks the strings, so no string data
// crosses into C.
func ExpandStrings(src []string, inShape, shape []int64) ([]string, []int64, error) {
	n, err := elementCount(inShape)
	if err != nil {
		return nil, nil, err
	}
	if n != len(src) {
		return nil, nil, newError(ErrInvalidShape, "ExpandStrings: input shape %v has %d elements but the slice has %d", inShape, n, len(src))
	}
	indices := make([]int64, len(src))
	for i := range indices {
		indices[i] = int64(i)
	}
	// The expanded indices and the result's string headers are alive together.
	expanded, outShape, err := expandSlice(indices, inShape, shape, "ExpandStrings", stringHeaderBytes)
	if err != nil {
		return nil, nil, err
	}
	out := make([]string, len(expanded))
	for i, k := range expanded {
		out[i] = src[k]
	}
	return out, outShape, nil
}
