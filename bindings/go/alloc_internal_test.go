// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import (
	"errors"
	"testing"
)

// inputBytes decides, before anything is allocated, whether an input holds what its
// shape and strides need. It must agree with the library, which checks the same thing
// again in the call: never stricter (a valid call refused), never laxer where it is meant
// to protect. For each layout, the library accepts exactly inputBytes bytes and refuses
// one byte fewer.
func TestInputBytesAgreesWithTheLibrary(t *testing.T) {
	tests := []struct {
		dtype          DType
		shape, strides []int64
	}{
		{Float, []int64{3, 4}, nil},
		{Float, nil, nil},
		{Float, []int64{3, 4}, []int64{4, 1}}, // strides of the contiguous layout
		{Float, []int64{3, 4}, []int64{1, 3}}, // transposed
		{Float, []int64{3, 4}, []int64{0, 1}}, // a broadcast row
		{Float, []int64{5}, []int64{0}},
		{Double, []int64{2, 3}, []int64{7, 2}}, // gaps
		{Complex128, []int64{3}, []int64{2}},
		{Uint8, []int64{4, 1, 2}, []int64{9, 100, 4}}, // an extent of 1 ignores its stride
		{Int16, []int64{0, 4}, []int64{4, 1}},         // no elements
		{Int4, []int64{5}, nil},
		{Float6E2M3, []int64{5}, nil},
		{Uint2, []int64{9}, nil},
	}
	for _, tt := range tests {
		src := Tensor{DType: tt.dtype, Shape: tt.shape, Strides: tt.strides}
		need, err := inputBytes(src, "input")
		if err != nil {
			t.Errorf("%v %v strides %v: inputBytes: %v", tt.dtype, tt.shape, tt.strides, err)
			continue
		}
		outBytes, err := tensorBytes(tt.dtype, tt.shape)
		if err != nil {
			t.Fatal(err)
		}
		dst := Tensor{Data: make([]byte, outBytes), DType: tt.dtype, Shape: tt.shape}
		src.Data = make([]byte, need)
		if err := checkInput(src, "input"); err != nil {
			t.Errorf("%v %v strides %v: checkInput refuses %d bytes: %v", tt.dtype, tt.shape, tt.strides, need, err)
		}
		if err := castTensor(src, dst, nil); err != nil {
			t.Errorf("%v %v strides %v: the library refuses the %d bytes inputBytes gives: %v", tt.dtype, tt.shape, tt.strides, need, err)
		}
		if need == 0 {
			continue
		}
		src.Data = src.Data[:need-1]
		if err := checkInput(src, "input"); !errors.Is(err, ErrBufferTooSmall) {
			t.Errorf("%v %v strides %v: checkInput of %d bytes: %v, want ErrBufferTooSmall", tt.dtype, tt.shape, tt.strides, need-1, err)
		}
		if err := castTensor(src, dst, nil); !errors.Is(err, ErrBufferTooSmall) {
			t.Errorf("%v %v strides %v: the library accepts %d bytes, one fewer than inputBytes gives: %v", tt.dtype, tt.shape, tt.strides, need-1, err)
		}
	}
}

// When the C helper's malloc of string views fails, the error is ErrOutOfMemory (it
// was ErrInternal, which says "a bug").
func TestCMallocFailureIsOutOfMemory(t *testing.T) {
	if err := toError(goNoMemory, nil); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("toError(GOTC_NO_MEMORY) = %v, want ErrOutOfMemory", err)
	}
}

func TestCheckAllocBounds(t *testing.T) {
	if err := checkAlloc("test", uncheckedBytes); err != nil {
		t.Errorf("checkAlloc(%d) = %v; sizes up to uncheckedBytes are not refused", uncheckedBytes, err)
	}
	if err := checkAlloc("test", maxGoAlloc+1); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("checkAlloc(maxGoAlloc+1) = %v, want ErrOutOfMemory", err)
	}
	if err := checkAlloc("test", ^uint64(0)); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("checkAlloc(2^64-1) = %v, want ErrOutOfMemory", err)
	}
}
