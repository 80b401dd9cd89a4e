// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// refBroadcast computes numpy's broadcast_to of a row-major input by index arithmetic:
// each output index, aligned on the right with the input's, reads index 0 of the
// input's size-1 dimensions.
func refBroadcast[T any](in []T, inShape, outShape []int64) []T {
	count := int64(1)
	for _, d := range outShape {
		count *= d
	}
	out := make([]T, 0, count)
	offset := len(outShape) - len(inShape)
	idx := make([]int64, len(outShape))
	for k := int64(0); k < count; k++ {
		rem := k
		for d := len(outShape) - 1; d >= 0; d-- {
			idx[d] = rem % outShape[d]
			rem /= outShape[d]
		}
		src := int64(0)
		for d := range inShape {
			i := idx[d+offset]
			if inShape[d] == 1 {
				i = 0
			}
			src = src*inShape[d] + i
		}
		out = append(out, in[src])
	}
	return out
}

func TestExpandShape(t *testing.T) {
	tests := []struct {
		in, shape, want []int64
	}{
		{[]int64{3, 1}, []int64{2, 1, 6}, []int64{2, 3, 6}}, // the ONNX examples
		{[]int64{3, 1}, []int64{3, 4}, []int64{3, 4}},
		{[]int64{3, 1}, []int64{1, 1}, []int64{3, 1}},
		{[]int64{3, 1}, []int64{4}, []int64{3, 4}},
		{[]int64{3, 1}, nil, []int64{3, 1}},
		{nil, []int64{2, 3}, []int64{2, 3}},
		{nil, nil, []int64{}},
		{[]int64{1, 3}, []int64{0, 1}, []int64{0, 3}}, // 1 against 0 gives 0
		{[]int64{5, 1, 2}, []int64{4, 1}, []int64{5, 4, 2}},
	}
	for _, tt := range tests {
		got, err := tc.ExpandShape(tt.in, tt.shape)
		if err != nil || !equalShapes(got, tt.want) {
			t.Errorf("ExpandShape(%v, %v) = %v, %v; want %v", tt.in, tt.shape, got, err, tt.want)
		}
	}
	errTests := []struct {
		in, shape []int64
		want      tc.Status
	}{
		{[]int64{0, 1}, []int64{3, 4}, tc.ErrIncompatibleShapes},
		{[]int64{3, 2}, []int64{4}, tc.ErrIncompatibleShapes},
		{[]int64{3}, []int64{-1}, tc.ErrInvalidShape},
		{[]int64{3}, make([]int64, tc.MaxNDim+1), tc.ErrInvalidShape},
	}
	for _, tt := range errTests {
		_, err := tc.ExpandShape(tt.in, tt.shape)
		wantStatus(t, err, tt.want)
	}
	_, err := tc.ExpandShape([]int64{3, 2}, []int64{4})
	if e := wantStatus(t, err, tc.ErrIncompatibleShapes); !strings.Contains(e.Message, "[3,2]") || !strings.Contains(e.Message, "[4]") {
		t.Errorf("message should name both shapes: %q", e.Message)
	}
}

func TestExpandAgainstReference(t *testing.T) {
	tests := []struct {
		inShape, shape []int64
	}{
		{[]int64{3, 1}, []int64{2, 1, 6}},
		{[]int64{3, 1}, []int64{3, 4}},
		{nil, []int64{2, 3}}, // a scalar fills
		{[]int64{2, 1, 3}, []int64{4, 2, 5, 3}},
		{[]int64{1, 4}, []int64{3, 1}},
		{[]int64{2, 3}, nil},
		{[]int64{1, 3}, []int64{0, 3}}, // empty result
	}
	for _, tt := range tests {
		n := int64(1)
		for _, d := range tt.inShape {
			n *= d
		}
		in := make([]float32, n)
		for i := range in {
			in[i] = float32(i+1) * 1.5
		}
		got, outShape, err := tc.ExpandSlice(in, tt.inShape, tt.shape)
		if err != nil {
			t.Errorf("%v with %v: %v", tt.inShape, tt.shape, err)
			continue
		}
		want := refBroadcast(in, tt.inShape, outShape)
		if len(got) != len(want) {
			t.Errorf("%v with %v: %d elements, want %d", tt.inShape, tt.shape, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%v with %v: element %d is %g, want %g", tt.inShape, tt.shape, i, got[i], want[i])
				break
			}
		}
		// The byte-level function agrees.
		b, shape2, err := tc.Expand(tc.AsBytes(in), tc.Float, tt.inShape, tt.shape)
		if err != nil || !equalShapes(shape2, outShape) || string(b) != string(tc.AsBytes(got)) {
			t.Errorf("%v with %v: Expand differs from ExpandSlice (%v)", tt.inShape, tt.shape, err)
		}
	}
}

func TestExpandONNXExample(t *testing.T) {
	got, shape, err := tc.ExpandSlice([]float32{1, 2, 3}, []int64{3, 1}, []int64{3, 4})
	if err != nil || !equalShapes(shape, []int64{3, 4}) {
		t.Fatalf("shape %v, %v", shape, err)
	}
	want := []float32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestExpandPackedAndStrided(t *testing.T) {
	// INT4 [1, 2, 3] packed (0x21, 0x03) expanded to [2, 3]: 1 2 3 1 2 3 -> 21 13 32.
	got, shape, err := tc.Expand([]byte{0x21, 0x03}, tc.Int4, []int64{3}, []int64{2, 3})
	if err != nil || !equalShapes(shape, []int64{2, 3}) || string(got) != "\x21\x13\x32" {
		t.Errorf("INT4: %x %v %v; want 211332", got, shape, err)
	}
	// A 2x3 matrix stored column by column (strides [1, 2]) expanded to [2, 2, 3].
	colMajor := []int16{11, 21, 12, 22, 13, 23}
	b, shape, err := tc.ExpandStrided(tc.Tensor{Data: tc.AsBytes(colMajor), DType: tc.Int16, Shape: []int64{2, 3},
		Strides: []int64{1, 2}}, []int64{2, 1, 1})
	if err != nil || !equalShapes(shape, []int64{2, 2, 3}) {
		t.Fatalf("strided: %v %v", shape, err)
	}
	rowMajor := []int16{11, 12, 13, 21, 22, 23}
	if want := tc.AsBytes(refBroadcast(rowMajor, []int64{2, 3}, shape)); string(b) != string(want) {
		t.Errorf("strided: got %v, want %v", b, want)
	}
	// ExpandTensor into a caller's buffer, stride 0 input.
	dst := make([]uint64, 6)
	err = tc.ExpandTensor(tc.Tensor{Data: tc.AsBytes([]uint64{7, 8}), DType: tc.Uint64, Shape: []int64{3}, Strides: []int64{0}},
		tc.Tensor{Data: tc.AsBytes(dst), DType: tc.Uint64, Shape: []int64{2, 3}})
	if err != nil || dst[0] != 7 || dst[5] != 7 {
		t.Errorf("stride 0: %v, %v", dst, err)
	}
}

func TestExpandErrors(t *testing.T) {
	_, _, err := tc.ExpandSlice([]int32{1, 2}, []int64{3}, []int64{2, 3})
	wantStatus(t, err, tc.ErrInvalidShape) // slice length vs input shape (Go check)
	_, _, err = tc.ExpandSlice([]int32{1, 2}, []int64{2}, []int64{3})
	wantStatus(t, err, tc.ErrIncompatibleShapes)
	_, _, err = tc.Expand([]byte{1, 2}, tc.Int32, []int64{2}, []int64{2, 2})
	wantStatus(t, err, tc.ErrBufferTooSmall)
	_, _, err = tc.Expand(make([]byte, 16), tc.String, nil, []int64{2})
	wantStatus(t, err, tc.ErrUnsupported)
	// The output shape must be the broadcast.
	err = tc.ExpandTensor(tc.Tensor{Data: make([]byte, 4), DType: tc.Float, Shape: []int64{1}},
		tc.Tensor{Data: make([]byte, 16), DType: tc.Float, Shape: []int64{2, 2}})
	if err != nil {
		t.Errorf("[1] -> [2 2]: %v", err)
	}
	err = tc.ExpandTensor(tc.Tensor{Data: make([]byte, 8), DType: tc.Float, Shape: []int64{2}},
		tc.Tensor{Data: make([]byte, 16), DType: tc.Double, Shape: []int64{2}})
	wantStatus(t, err, tc.ErrInvalidArgument) // different dtypes
}

func TestExpandStrings(t *testing.T) {
	in := []string{"a", "bb", ""}
	got, shape, err := tc.ExpandStrings(in, []int64{3, 1}, []int64{2, 1, 2})
	if err != nil || !equalShapes(shape, []int64{2, 3, 2}) {
		t.Fatalf("%v %v", shape, err)
	}
	want := refBroadcast(in, []int64{3, 1}, shape)
	if strings.Join(got, ",") != strings.Join(want, ",") || len(got) != 12 {
		t.Errorf("got %q, want %q", got, want)
	}
	_, _, err = tc.ExpandStrings(in, []int64{2}, []int64{2})
	wantStatus(t, err, tc.ErrInvalidShape)
	empty, shape, err := tc.ExpandStrings(nil, []int64{0}, []int64{4, 1})
	if err != nil || len(empty) != 0 || !equalShapes(shape, []int64{4, 0}) {
		t.Errorf("empty: %q %v %v", empty, shape, err)
	}
}

func TestExpandTensorWithOptions(t *testing.T) {
	// 8 MiB of FLOAT output, enough for the library to split over two threads.
	inShape, outShape := []int64{1, 1024}, []int64{2048, 1024}
	in := make([]float32, 1024)
	for i := range in {
		in[i] = float32(i) - 0.5
	}
	src := tc.Tensor{Data: tc.AsBytes(in), DType: tc.Float, Shape: inShape}
	want := make([]float32, 2048*1024)
	if err := tc.ExpandTensor(src, tc.Tensor{Data: tc.AsBytes(want), DType: tc.Float, Shape: outShape}); err != nil {
		t.Fatal(err)
	}
	if ref := refBroadcast(in, inShape, outShape); string(tc.AsBytes(ref)) != string(tc.AsBytes(want)) {
		t.Fatal("ExpandTensor differs from the reference broadcast")
	}
	for _, opts := range []*tc.CastOptions{nil, {}, {Threads: 2}, {Threads: 8, NoSaturate: true}} {
		got := make([]float32, len(want))
		if err := tc.ExpandTensorWithOptions(src, tc.Tensor{Data: tc.AsBytes(got), DType: tc.Float, Shape: outShape}, opts); err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if string(tc.AsBytes(got)) != string(tc.AsBytes(want)) {
			t.Errorf("%+v: differs from ExpandTensor", opts)
		}
	}
	t.Run("packed dtype, strided input", func(t *testing.T) {
		// INT4 [2] packed as 0x21 (1, 2), broadcast to [3, 2]: 1, 2 in each row.
		out := make([]byte, 3)
		err := tc.ExpandTensorWithOptions(tc.Tensor{Data: []byte{0x21}, DType: tc.Int4, Shape: []int64{2}},
			tc.Tensor{Data: out, DType: tc.Int4, Shape: []int64{3, 2}}, &tc.CastOptions{Threads: 2})
		if err != nil || hex.EncodeToString(out) != "212121" {
			t.Errorf("got %x, %v; want 212121", out, err)
		}
		col := []int16{7, -1, 9}
		got := make([]int16, 6)
		err = tc.ExpandTensorWithOptions(tc.Tensor{Data: tc.AsBytes(col), DType: tc.Int16, Shape: []int64{2, 1}, Strides: []int64{2, 0}},
			tc.Tensor{Data: tc.AsBytes(got), DType: tc.Int16, Shape: []int64{2, 3}}, &tc.CastOptions{Threads: 2})
		if err != nil || fmt.Sprint(got) != "[7 7 7 9 9 9]" {
			t.Errorf("got %v, %v; want [7 7 7 9 9 9]", got, err)
		}
	})
	t.Run("errors", func(t *testing.T) {
		dst := tc.Tensor{Data: make([]byte, 8), DType: tc.Float, Shape: []int64{2}}
		one := tc.Tensor{Data: tc.AsBytes([]float32{1}), DType: tc.Float, Shape: []int64{1}}
		for _, opts := range []tc.CastOptions{{Threads: -1}, {RoundMode: 7}, {Casting: tc.CastingNever}} {
			opts := opts
			wantStatus(t, tc.ExpandTensorWithOptions(one, dst, &opts), tc.ErrInvalidArgument)
		}
		wantStatus(t, tc.ExpandTensorWithOptions(one, tc.Tensor{Data: make([]byte, 4), DType: tc.Float, Shape: []int64{2}}, &tc.CastOptions{Threads: 2}), tc.ErrBufferTooSmall)
		e := wantStatus(t, tc.ExpandTensorWithOptions(tc.Tensor{Data: make([]byte, 12), DType: tc.Float, Shape: []int64{3}}, dst, &tc.CastOptions{Threads: 2}), tc.ErrIncompatibleShapes)
		if !strings.Contains(e.Message, "[3]") || !strings.Contains(e.Message, "[2]") {
			t.Errorf("message should name both shapes: %q", e.Message)
		}
		wantStatus(t, tc.ExpandTensorWithOptions(tc.Tensor{DType: tc.String}, tc.Tensor{DType: tc.String}, nil), tc.ErrUnsupported)
	})
}
