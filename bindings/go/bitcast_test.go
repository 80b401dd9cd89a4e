// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"unsafe"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

func TestBitcastShape(t *testing.T) {
	tests := []struct {
		name        string
		from, to    DType
		shape, want []int64
		rules       tc.BitcastRules
	}{
		// TensorFlow's own tests.
		{"tf f64 [3,2] -> i8", tc.Double, tc.Int8, []int64{3, 2}, []int64{3, 2, 8}, tc.BitcastTF},
		{"tf i8 [4,4] -> i32", tc.Int8, tc.Int32, []int64{4, 4}, []int64{4}, tc.BitcastTF},
		{"tf f64 [3,4] -> i64", tc.Double, tc.Int64, []int64{3, 4}, []int64{3, 4}, tc.BitcastTF},
		{"tf i32 scalar -> i8", tc.Int32, tc.Int8, nil, []int64{4}, tc.BitcastTF},
		{"tf u16 -> quint16", tc.Uint16, tc.QUint16, []int64{3, 4}, []int64{3, 4}, tc.BitcastTF},
		{"tf c128 [4,5] -> i8", tc.Complex128, tc.Int8, []int64{4, 5}, []int64{4, 5, 16}, tc.BitcastTF},
		{"tf u8 [8] -> u64 scalar", tc.Uint8, tc.Uint64, []int64{8}, []int64{}, tc.BitcastTF},
		{"tf empty [0] -> narrower", tc.Int32, tc.Int8, []int64{0}, []int64{0, 4}, tc.BitcastTF},
		{"tf [0,4] i8 -> i32", tc.Int8, tc.Int32, []int64{0, 4}, []int64{0}, tc.BitcastTF},
		// numpy's ndarray.view.
		{"np i32 [3] -> u8", tc.Int32, tc.Uint8, []int64{3}, []int64{12}, tc.BitcastNumpyView},
		{"np i8 [2,8] -> i32", tc.Int8, tc.Int32, []int64{2, 8}, []int64{2, 2}, tc.BitcastNumpyView},
		{"np i8 [0,4] -> i32", tc.Int8, tc.Int32, []int64{0, 4}, []int64{0, 1}, tc.BitcastNumpyView},
		{"np i8 [4,0] -> i32", tc.Int8, tc.Int32, []int64{4, 0}, []int64{4, 0}, tc.BitcastNumpyView},
		// ONNX BitCast-26: equal bit widths, same shape.
		{"onnx f32 -> i32", tc.Float, tc.Int32, []int64{2, 3}, []int64{2, 3}, tc.BitcastONNX},
		{"onnx bool -> i8", tc.Bool, tc.Int8, []int64{5}, []int64{5}, tc.BitcastONNX},
		{"onnx int4 -> uint4", tc.Int4, tc.Uint4, []int64{3}, []int64{3}, tc.BitcastONNX},
	}
	for _, tt := range tests {
		got, err := tc.BitcastShape(tt.from, tt.to, tt.shape, tt.rules)
		if err != nil || !equalShapes(got, tt.want) {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	errTests := []struct {
		name     string
		from, to DType
		shape    []int64
		rules    tc.BitcastRules
		want     tc.Status
	}{
		{"tf i8 [1,1] -> i32", tc.Int8, tc.Int32, []int64{1, 1}, tc.BitcastTF, tc.ErrIncompatibleShapes},
		{"tf i8 [4,0] -> i32", tc.Int8, tc.Int32, []int64{4, 0}, tc.BitcastTF, tc.ErrIncompatibleShapes},
		{"tf i8 scalar -> i32", tc.Int8, tc.Int32, nil, tc.BitcastTF, tc.ErrIncompatibleShapes},
		{"tf bool", tc.Bool, tc.Int8, []int64{4}, tc.BitcastTF, tc.ErrUnsupported},
		{"tf float8", tc.Float8E4M3FN, tc.Int8, []int64{4}, tc.BitcastTF, tc.ErrUnsupported},
		{"onnx unequal widths", tc.Float, tc.Float16, []int64{4}, tc.BitcastONNX, tc.ErrUnsupported},
		{"onnx string", tc.String, tc.String, []int64{4}, tc.BitcastONNX, tc.ErrUnsupported},
		{"np i8 [3] -> i32", tc.Int8, tc.Int32, []int64{3}, tc.BitcastNumpyView, tc.ErrIncompatibleShapes},
		{"np int4", tc.Int4, tc.Int8, []int64{4}, tc.BitcastNumpyView, tc.ErrUnsupported},
		{"unknown rules", tc.Int8, tc.Int8, []int64{4}, tc.BitcastRules(7), tc.ErrInvalidArgument},
		{"unknown dtype", tc.DType(55), tc.Int8, []int64{4}, tc.BitcastTF, tc.ErrInvalidDType},
		{"negative extent", tc.Int8, tc.Int8, []int64{-4}, tc.BitcastTF, tc.ErrInvalidShape},
	}
	for _, tt := range errTests {
		_, err := tc.BitcastShape(tt.from, tt.to, tt.shape, tt.rules)
		if !tc.IsStatus(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	_, err := tc.BitcastShape(tc.Float, tc.Complex128, []int64{3}, tc.BitcastTF)
	if e := wantStatus(t, err, tc.ErrIncompatibleShapes); e.Message != "Cannot bitcast from FLOAT to COMPLEX128: shape [3]" {
		t.Errorf("message %q", e.Message)
	}
}

func TestBitcastValuesAndAliasing(t *testing.T) {
	src := tc.AsBytes([]float32{0, 1, 1})
	view, err := tc.Bitcast(src, tc.Float, tc.Uint8, []int64{3}, tc.BitcastTF)
	if err != nil {
		t.Fatal(err)
	}
	if view.DType != tc.Uint8 || !equalShapes(view.Shape, []int64{3, 4}) || view.Strides != nil {
		t.Fatalf("view %v %v %v", view.DType, view.Shape, view.Strides)
	}
	if want := []byte{0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 128, 63}; string(view.Data) != string(want) {
		t.Errorf("bytes %v, want %v", view.Data, want)
	}
	// No copy: the view is the input's memory.
	if &view.Data[0] != &src[0] || len(view.Data) != len(src) || cap(view.Data) != len(src) {
		t.Fatalf("the view does not alias the input")
	}
	binary.LittleEndian.PutUint32(src[4:], math.Float32bits(-2))
	if view.Data[7] != 0xc0 {
		t.Errorf("a write to the input is not seen through the view: %v", view.Data)
	}

	// uint8 [8] of ones -> a uint64 scalar; uint64 scalar 1 -> uint8 [8].
	ones := []byte{1, 1, 1, 1, 1, 1, 1, 1}
	scalar, err := tc.Bitcast(ones, tc.Uint8, tc.Uint64, []int64{8}, tc.BitcastTF)
	if err != nil || len(scalar.Shape) != 0 || binary.LittleEndian.Uint64(scalar.Data) != 72340172838076673 {
		t.Errorf("u8[8] -> u64: %v %v %v", scalar.Shape, scalar.Data, err)
	}
	one, err := tc.Bitcast(tc.AsBytes([]uint64{1}), tc.Uint64, tc.Uint8, nil, tc.BitcastTF)
	if err != nil || !equalShapes(one.Shape, []int64{8}) || string(one.Data) != "\x01\x00\x00\x00\x00\x00\x00\x00" {
		t.Errorf("u64 1 -> u8: %v %v %v", one.Shape, one.Data, err)
	}
	// uint32 0xffffffff -> uint8 [255 255 255 255].
	all, err := tc.Bitcast(tc.AsBytes([]uint32{0xffffffff}), tc.Uint32, tc.Uint8, nil, tc.BitcastTF)
	if err != nil || !equalShapes(all.Shape, []int64{4}) || string(all.Data) != "\xff\xff\xff\xff" {
		t.Errorf("u32 -> u8: %v %v %v", all.Shape, all.Data, err)
	}
}

func TestBitcastErrorsAndEdges(t *testing.T) {
	// A buffer too short for the shape.
	_, err := tc.Bitcast(make([]byte, 7), tc.Float, tc.Int32, []int64{2}, tc.BitcastTF)
	wantStatus(t, err, tc.ErrBufferTooSmall)
	// The TF wording for a failed narrow -> wide bitcast.
	_, err = tc.Bitcast(make([]byte, 12), tc.Float, tc.Complex128, []int64{3}, tc.BitcastTF)
	if e := wantStatus(t, err, tc.ErrIncompatibleShapes); !strings.HasPrefix(e.Message, "Cannot bitcast from FLOAT to COMPLEX128") {
		t.Errorf("message %q", e.Message)
	}
	// Empty: no data, no error.
	empty, err := tc.Bitcast(nil, tc.Int8, tc.Int32, []int64{0, 4}, tc.BitcastTF)
	if err != nil || len(empty.Data) != 0 || !equalShapes(empty.Shape, []int64{0}) {
		t.Errorf("empty: %v %v", empty, err)
	}
	// Strides: the contiguous layout is accepted, a transposed one is refused.
	data := make([]byte, 24)
	view, err := tc.BitcastTensor(tc.Tensor{Data: data, DType: tc.Float, Shape: []int64{2, 3}, Strides: []int64{3, 1}},
		tc.Int32, tc.BitcastONNX)
	if err != nil || !equalShapes(view.Shape, []int64{2, 3}) || &view.Data[0] != &data[0] {
		t.Errorf("contiguous strides: %v %v", view.Shape, err)
	}
	_, err = tc.BitcastTensor(tc.Tensor{Data: data, DType: tc.Float, Shape: []int64{2, 3}, Strides: []int64{1, 2}},
		tc.Int32, tc.BitcastONNX)
	wantStatus(t, err, tc.ErrUnsupported)
}

func TestBitcastSlice(t *testing.T) {
	// ONNX: equal widths, same shape; the view is src's memory.
	floats := []float32{1, -2}
	bits, shape, err := tc.BitcastSlice[float32, uint32](floats, []int64{2}, tc.BitcastONNX)
	if err != nil || !equalShapes(shape, []int64{2}) || len(bits) != 2 ||
		bits[0] != math.Float32bits(1) || bits[1] != math.Float32bits(-2) {
		t.Fatalf("float32 -> uint32: %#x %v %v", bits, shape, err)
	}
	if unsafe.Pointer(&bits[0]) != unsafe.Pointer(&floats[0]) || cap(bits) != 2 {
		t.Errorf("the view does not alias the input")
	}
	bits[1] = math.Float32bits(0.5)
	if floats[1] != 0.5 {
		t.Errorf("a write through the view is not seen in the input: %v", floats)
	}

	// TF, wider -> narrower: a dimension of the size ratio is appended.
	one := []float64{1}
	b, shape, err := tc.BitcastSlice[float64, uint8](one, []int64{1}, tc.BitcastTF)
	if err != nil || !equalShapes(shape, []int64{1, 8}) || string(b) != "\x00\x00\x00\x00\x00\x00\xf0\x3f" {
		t.Errorf("float64 -> uint8: % x %v %v", b, shape, err)
	}
	// TF, narrower -> wider: the last dimension, the ratio, is dropped.
	bytes8 := []int8{1, 0, 0, 0, 2, 0, 0, 0}
	ints, shape, err := tc.BitcastSlice[int8, int32](bytes8, []int64{2, 4}, tc.BitcastTF)
	if err != nil || !equalShapes(shape, []int64{2}) || len(ints) != 2 || ints[0] != 1 || ints[1] != 2 {
		t.Errorf("int8 [2,4] -> int32: %v %v %v", ints, shape, err)
	}
	// numpy's view: the last axis rescaled.
	u8 := make([]uint8, 16)
	u8[4], u8[12] = 3, 5
	u32, shape, err := tc.BitcastSlice[uint8, uint32](u8, []int64{2, 8}, tc.BitcastNumpyView)
	if err != nil || !equalShapes(shape, []int64{2, 2}) || len(u32) != 4 || u32[1] != 3 || u32[3] != 5 {
		t.Errorf("uint8 [2,8] -> uint32 (numpy): %v %v %v", u32, shape, err)
	}
	// Storage types keep their dtype: UINT16 -> FLOAT16 bits under ONNX.
	half, _, err := tc.BitcastSlice[uint16, tc.Float16Bits]([]uint16{0x3c00}, []int64{1}, tc.BitcastONNX)
	if err != nil || len(half) != 1 || half[0] != 0x3c00 {
		t.Errorf("uint16 -> Float16Bits: %v %v", half, err)
	}
	// A scalar (nil shape) and an empty tensor.
	scalar, shape, err := tc.BitcastSlice[int64, uint64]([]int64{-1}, nil, tc.BitcastTF)
	if err != nil || len(shape) != 0 || len(scalar) != 1 || scalar[0] != math.MaxUint64 {
		t.Errorf("int64 scalar -> uint64: %v %v %v", scalar, shape, err)
	}
	empty, shape, err := tc.BitcastSlice[int8, int32](nil, []int64{0, 4}, tc.BitcastTF)
	if err != nil || len(empty) != 0 || !equalShapes(shape, []int64{0}) {
		t.Errorf("empty: %v %v %v", empty, shape, err)
	}
}

func TestBitcastSliceErrors(t *testing.T) {
	// The slice must hold the shape's elements.
	_, _, err := tc.BitcastSlice[float32, uint32](make([]float32, 3), []int64{2}, tc.BitcastONNX)
	wantStatus(t, err, tc.ErrInvalidShape)
	// The library's rules: unequal widths under ONNX, a last dimension that is not the
	// ratio under TF, a dtype TF does not bitcast.
	_, _, err = tc.BitcastSlice[float32, uint16](make([]float32, 2), []int64{2}, tc.BitcastONNX)
	wantStatus(t, err, tc.ErrUnsupported)
	_, _, err = tc.BitcastSlice[int8, int32](make([]int8, 6), []int64{2, 3}, tc.BitcastTF)
	wantStatus(t, err, tc.ErrIncompatibleShapes)
	_, _, err = tc.BitcastSlice[bool, int8](make([]bool, 2), []int64{2}, tc.BitcastTF)
	wantStatus(t, err, tc.ErrUnsupported)
	_, _, err = tc.BitcastSlice[int8, int8](make([]int8, 2), []int64{2}, tc.BitcastRules(9))
	wantStatus(t, err, tc.ErrInvalidArgument)
	// Bytes are not bools (the library would allow UINT8 -> BOOL under ONNX).
	_, _, err = tc.BitcastSlice[uint8, bool]([]uint8{2}, []int64{1}, tc.BitcastONNX)
	wantStatus(t, err, tc.ErrUnsupported)
	if same, _, err := tc.BitcastSlice[bool, bool]([]bool{true}, []int64{1}, tc.BitcastONNX); err != nil || !same[0] {
		t.Errorf("bool -> bool: %v %v", same, err)
	}
	// Memory not aligned for the wider type: refused, not read at an odd address.
	// (16 bytes: not the tiny allocator's, so the slice starts at a 16-byte boundary.)
	buf := make([]int8, 16)
	_, _, err = tc.BitcastSlice[int8, int32](buf[1:9], []int64{2, 4}, tc.BitcastTF)
	wantStatus(t, err, tc.ErrInvalidArgument)
	if _, _, err := tc.BitcastSlice[int8, int32](buf[:8], []int64{2, 4}, tc.BitcastTF); err != nil {
		t.Errorf("aligned int8 -> int32: %v", err)
	}
}
