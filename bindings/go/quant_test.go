// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import (
	"testing"
	"unsafe"
)

// MXFP4 both ways: FLOAT4E2M1 codes with FLOAT8E8M0 scales, blocks of 2.
func TestQuantizeDequantizeMXFP4(t *testing.T) {
	packed := []byte{0x72, 0x9F} // codes 2 (1), 7 (6), 15 (-6), 9 (-0.5)
	scales := []byte{128, 126}   // 2, 0.5
	y := make([]byte, 16)
	opts := DefaultQdqOptions()
	opts.Axis, opts.BlockSize = 0, 2
	x := Tensor{Data: packed, DType: Float4E2M1, Shape: []int64{4}}
	s := Tensor{Data: scales, DType: Float8E8M0, Shape: []int64{2}}
	if err := DequantizeLinear(x, s, nil, Tensor{Data: y, DType: Float, Shape: []int64{4}}, opts); err != nil {
		t.Fatal(err)
	}
	want := []float32{2, 12, -3, -0.25}
	for i, w := range want {
		if got := *(*float32)(unsafe.Pointer(&y[4*i])); got != w {
			t.Errorf("element %d: got %v want %v", i, got, w)
		}
	}
	back := make([]byte, 2)
	if err := QuantizeLinear(Tensor{Data: y, DType: Float, Shape: []int64{4}}, s, nil,
		Tensor{Data: back, DType: Float4E2M1, Shape: []int64{4}}, opts); err != nil {
		t.Fatal(err)
	}
	if back[0] != 0x72 || back[1] != 0x9F {
		t.Errorf("round trip: % x", back)
	}
	opts.BlockSize = 0
	err := DequantizeLinear(x, s, nil, Tensor{Data: y, DType: Float, Shape: []int64{4}}, opts)
	if !IsStatus(err, ErrInvalidShape) {
		t.Errorf("per-axis scale of 2 for 4 elements: %v", err)
	}
}
