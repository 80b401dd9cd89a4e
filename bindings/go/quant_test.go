// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import (
	"bytes"
	"errors"
	"math"
	"strings"
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

// The OCP MX rules written out for the tests below: an E8M0 FLOOR scale code
// floor(log2(amax)) - emax + 127 (emax 2 for E2M1, 8 for E4M3), and the E2M1 code of a
// value already divided by its scale: the nearest of the eight magnitudes, ties to the
// even code, saturating at 6.
var e2m1Values = [8]float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}

func e8m0Floor(amax float64, emax int) byte {
	_, e := math.Frexp(amax) // amax = m * 2^e, m in [0.5, 1): floor(log2(amax)) = e - 1
	return byte(e - 1 - emax + 127)
}

func e2m1Code(v float64) byte {
	m := math.Abs(v)
	best := 0
	for c := 1; c < 8; c++ {
		d, bd := math.Abs(e2m1Values[c]-m), math.Abs(e2m1Values[best]-m)
		if d < bd || (d == bd && c%2 == 0) {
			best = c
		}
	}
	if math.Signbit(v) {
		best |= 8
	}
	return byte(best)
}

func float32Bytes(v []float32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

// MXFP4 blocks of 32 along the last axis: a block with amax 5.5 (scale 2^(2-2) = 1; its
// quarters hold E2M1 ties, which go to the even code), one holding NaN (scale 0xFF,
// elements 0), one of zeros (2^-127); back to FLOAT.
func TestMxQuantizeDequantizeMXFP4(t *testing.T) {
	x := make([]float32, 96)
	for i := 0; i < 32; i++ {
		x[i] = float32(i-9) * 0.25 // -2.25 .. 5.5
	}
	for i := 32; i < 64; i++ {
		x[i] = -3
	}
	x[50] = float32(math.NaN())
	y, s := make([]byte, 48), make([]byte, 3)
	shape := []int64{96}
	err := MxQuantize(Tensor{Data: float32Bytes(x), DType: Float, Shape: shape},
		Tensor{Data: y, DType: Float4E2M1, Shape: shape},
		Tensor{Data: s, DType: Float8E8M0, Shape: []int64{3}}, nil, DefaultMxOptions())
	if err != nil {
		t.Fatal(err)
	}
	code0 := e8m0Floor(5.5, 2)
	if code0 != 127 || s[0] != code0 || s[1] != 0xFF || s[2] != 0 {
		t.Fatalf("scales % x, want %x ff 00", s, code0)
	}
	for i := 0; i < 32; i++ {
		want := e2m1Code(math.Ldexp(float64(x[i]), 127-int(code0)))
		if got := (y[i/2] >> (4 * (i % 2))) & 0xF; got != want {
			t.Errorf("element %d (%v): code %x, want %x", i, x[i], got, want)
		}
	}
	for i := 16; i < 48; i++ {
		if y[i] != 0 {
			t.Errorf("byte %d of the NaN and zero blocks is %x", i, y[i])
		}
	}
	back := make([]float32, 96)
	err = MxDequantize(Tensor{Data: y, DType: Float4E2M1, Shape: shape},
		Tensor{Data: s, DType: Float8E8M0, Shape: []int64{3}}, nil,
		Tensor{Data: float32Bytes(back), DType: Float, Shape: shape}, DefaultMxOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 32; i++ {
		code := (y[i/2] >> (4 * (i % 2))) & 0xF
		want := math.Ldexp(e2m1Values[code&7], int(code0)-127)
		if code&8 != 0 {
			want = -want
		}
		if float64(back[i]) != want {
			t.Errorf("back[%d] = %v, want %v", i, back[i], want)
		}
	}
	if !math.IsNaN(float64(back[32])) || !math.IsNaN(float64(back[63])) || back[64] != 0 {
		t.Errorf("NaN block %v %v, zero block %v", back[32], back[63], back[64])
	}
}

// MXFP8 E4M3 with RCEIL: amax 1000 gives 2^ceil(log2(1000 / 448)) = 2^2 (FLOOR: 2^1),
// 1000 / 4 = 250 rounds to 256 (0x78) and 3 / 4 = 0.75 is 0x34 (2^-1 * 1.5). An
// unknown scale rule is refused by name.
func TestMxQuantizeMXFP8Rules(t *testing.T) {
	x := make([]float32, 32)
	x[0], x[1] = 1000, 3
	y, s := make([]byte, 32), make([]byte, 1)
	tensors := func() (Tensor, Tensor, Tensor) {
		return Tensor{Data: float32Bytes(x), DType: Float, Shape: []int64{32}},
			Tensor{Data: y, DType: Float8E4M3FN, Shape: []int64{32}},
			Tensor{Data: s, DType: Float8E8M0, Shape: []int64{1}}
	}
	opts := DefaultMxOptions()
	opts.ScaleRule = MxRceil
	tx, ty, ts := tensors()
	if err := MxQuantize(tx, ty, ts, nil, opts); err != nil {
		t.Fatal(err)
	}
	if s[0] != 129 || y[0] != 0x78 || y[1] != 0x34 {
		t.Errorf("RCEIL: scale %d, elements %x %x; want 129, 78 34", s[0], y[0], y[1])
	}
	if err := MxQuantize(tx, ty, ts, nil, DefaultMxOptions()); err != nil {
		t.Fatal(err)
	}
	if want := e8m0Floor(1000, 8); s[0] != want || y[0] != 0x7E {
		t.Errorf("FLOOR: scale %d, element %x; want %d, 7e (500 saturates to 448)", s[0], y[0], want)
	}
	opts.ScaleRule = 9
	err := MxQuantize(tx, ty, ts, nil, opts)
	var e *Error
	if !errors.As(err, &e) || e.Status != ErrInvalidArgument || !strings.Contains(e.Message, "scale_rule is 9") {
		t.Errorf("scale rule 9: %v", err)
	}
}

// NVFP4: the global scale is amax / (6 * 448); without it the call fails naming it.
func TestMxQuantizeNVFP4(t *testing.T) {
	x := make([]float32, 16)
	for i := range x {
		x[i] = float32(i+1) * 0.25 // amax 4
	}
	y, s, g := make([]byte, 8), make([]byte, 1), make([]float32, 1)
	tx := Tensor{Data: float32Bytes(x), DType: Float, Shape: []int64{16}}
	ty := Tensor{Data: y, DType: Float4E2M1, Shape: []int64{16}}
	ts := Tensor{Data: s, DType: Float8E4M3FN, Shape: []int64{1}}
	tg := Tensor{Data: float32Bytes(g), DType: Float, Shape: []int64{}}
	if err := MxQuantize(tx, ty, ts, &tg, DefaultMxOptions()); err != nil {
		t.Fatal(err)
	}
	// The block scale 4 / 6 / g is 448 (0x7E), so 4 / (448 g) = 6: code 7.
	if g[0] != float32(4.0/2688.0) || s[0] != 0x7E || y[7]>>4 != 7 {
		t.Errorf("global %v, block scale %x, last element %x", g[0], s[0], y[7]>>4)
	}
	err := MxQuantize(tx, ty, ts, nil, DefaultMxOptions())
	if !IsStatus(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "global_scale") {
		t.Errorf("NVFP4 without global_scale: %v", err)
	}
}

// Two ONNX blocks repacked to gpt-oss (the same bytes, UINT8 scales) and to ggml's
// block_mxfp4 (byte e, then qs[j] = element j | element j+16 << 4), built by hand.
func TestMxRepack(t *testing.T) {
	codes := make([]byte, 64)
	for i := range codes {
		codes[i] = byte(i*5+2) & 0xF
	}
	onnx := make([]byte, 32)
	for j := range onnx {
		onnx[j] = codes[2*j] | codes[2*j+1]<<4
	}
	scales := []byte{131, 0xFF}
	ggmlWant := make([]byte, 34)
	for b := 0; b < 2; b++ {
		ggmlWant[17*b] = scales[b]
		for j := 0; j < 16; j++ {
			ggmlWant[17*b+1+j] = codes[32*b+j] | codes[32*b+j+16]<<4
		}
	}
	from := Tensor{Data: onnx, DType: Float4E2M1, Shape: []int64{64}}
	fromScales := Tensor{Data: scales, DType: Float8E8M0, Shape: []int64{2}}
	blocks, gptScales := make([]byte, 32), make([]byte, 2)
	if err := MxRepack(MxLayoutONNX, from, &fromScales, MxLayoutGptOss,
		Tensor{Data: blocks, DType: Uint8, Shape: []int64{2, 16}},
		&Tensor{Data: gptScales, DType: Uint8, Shape: []int64{2}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(blocks, onnx) || !bytes.Equal(gptScales, scales) {
		t.Errorf("gpt-oss: % x / % x", blocks, gptScales)
	}
	ggml := make([]byte, 34)
	to := Tensor{Data: ggml, DType: Uint8, Shape: []int64{2, 17}}
	if err := MxRepack(MxLayoutONNX, from, &fromScales, MxLayoutGGML, to, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ggml, ggmlWant) {
		t.Errorf("ggml: % x\nwant  % x", ggml, ggmlWant)
	}
	err := MxRepack(MxLayoutONNX, from, &fromScales, 7, to, nil)
	if !IsStatus(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "to_layout is 7") {
		t.Errorf("layout 7: %v", err)
	}
}
