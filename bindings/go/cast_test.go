// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"encoding/hex"
	"math"
	"math/rand"
	"strings"
	"testing"
	"unsafe"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// refHalfToFloat64 decodes an IEEE binary16 bit pattern, written from the format's
// definition (independent of the library).
func refHalfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	man := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * man * math.Ldexp(1, -24)
	case 31:
		if man == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * (1 + man/1024) * math.Ldexp(1, exp-15)
}

// refFloat32ToHalf rounds x to binary16, nearest with ties to even, by searching the
// (monotone) positive bit patterns for x's neighbours.
func refFloat32ToHalf(x float32) uint16 {
	v := float64(x)
	if math.IsNaN(v) {
		if math.Signbit(v) {
			return 0xfe00
		}
		return 0x7e00
	}
	var sign uint16
	if math.Signbit(v) {
		sign, v = 0x8000, -v
	}
	// The largest pattern below inf whose value is <= v; inf (0x7c00) acts as 65536
	// for rounding, which is where binary16 would put the next value.
	value := func(h uint16) float64 {
		if h == 0x7c00 {
			return 65536
		}
		return refHalfToFloat64(h)
	}
	lo, hi := uint16(0), uint16(0x7c00)
	if v >= 65536 {
		return sign | 0x7c00
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if value(mid) <= v {
			lo = mid
		} else {
			hi = mid
		}
	}
	below, above := value(lo), value(hi)
	switch {
	case v-below < above-v:
		return sign | lo
	case v-below > above-v:
		return sign | hi
	case lo%2 == 0:
		return sign | lo
	}
	return sign | hi
}

func TestFloat32ToFloat16KnownValues(t *testing.T) {
	tests := []struct {
		name string
		in   float32
		want uint16
	}{
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"0.1", 0.1, 0x2e66},
		{"pi", 3.14159, 0x4248},
		{"max", 65504, 0x7bff},
		{"below the overflow tie", 65519.996, 0x7bff},
		{"overflow tie rounds to even = inf", 65520, 0x7c00},
		{"smallest normal", float32(math.Ldexp(1, -14)), 0x0400},
		{"smallest subnormal", float32(math.Ldexp(1, -24)), 0x0001},
		{"half the smallest subnormal ties to 0", float32(math.Ldexp(1, -25)), 0x0000},
		{"just above that tie", float32(math.Ldexp(1.0000001, -25)), 0x0001},
		{"1e-8 underflows", 1e-8, 0x0000},
		{"tie 1+2^-11 to even", 1 + float32(math.Ldexp(1, -11)), 0x3c00},
		{"tie 1+3*2^-11 to even", 1 + float32(math.Ldexp(3, -11)), 0x3c02},
		{"+inf", float32(math.Inf(1)), 0x7c00},
		{"-inf", float32(math.Inf(-1)), 0xfc00},
		{"nan", float32(math.NaN()), 0x7e00},
		{"-nan", float32(math.Copysign(math.NaN(), -1)), 0xfe00},
		{"-0", float32(math.Copysign(0, -1)), 0x8000},
	}
	in := make([]float32, len(tests))
	for i, tt := range tests {
		in[i] = tt.in
	}
	got, err := tc.Float32ToFloat16(in)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		if got[i] != tt.want {
			t.Errorf("%s: %g -> %#04x, want %#04x", tt.name, tt.in, got[i], tt.want)
		}
		if ref := refFloat32ToHalf(tt.in); ref != tt.want {
			t.Errorf("%s: the test's reference gives %#04x, want %#04x", tt.name, ref, tt.want)
		}
	}
}

func TestFloat16ToFloat32Exhaustive(t *testing.T) {
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	wide, err := tc.Float16ToFloat32(all)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tc.Float32ToFloat16(wide)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range all {
		want := refHalfToFloat64(h)
		if math.IsNaN(want) {
			if !math.IsNaN(float64(wide[i])) || math.Signbit(float64(wide[i])) != (h&0x8000 != 0) {
				t.Fatalf("%#04x -> %g, want a NaN of the same sign", h, wide[i])
			}
			continue
		}
		if math.Float32bits(wide[i]) != math.Float32bits(float32(want)) {
			t.Fatalf("%#04x -> %g (%#08x), want %g", h, wide[i], math.Float32bits(wide[i]), want)
		}
		if back[i] != h {
			t.Fatalf("round trip %#04x -> %g -> %#04x", h, wide[i], back[i])
		}
	}
}

func TestFloat32ToFloat16Random(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	in := make([]float32, 100000)
	for i := range in {
		switch i % 3 {
		case 0: // any bit pattern
			in[i] = math.Float32frombits(rng.Uint32())
		case 1: // binary16's range, where the rounding happens
			in[i] = float32((rng.Float64()*2 - 1) * 70000)
		default: // the subnormal range
			in[i] = float32((rng.Float64()*2 - 1) * math.Ldexp(1, -14))
		}
	}
	got, err := tc.Float32ToFloat16(in)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range in {
		want := refFloat32ToHalf(x)
		if math.IsNaN(float64(x)) {
			if got[i]&0x7c00 != 0x7c00 || got[i]&0x3ff == 0 || got[i]&0x8000 != want&0x8000 {
				t.Fatalf("%#08x (NaN) -> %#04x, want a NaN of the same sign", math.Float32bits(x), got[i])
			}
			continue
		}
		if got[i] != want {
			t.Fatalf("%g (%#08x) -> %#04x, want %#04x", x, math.Float32bits(x), got[i], want)
		}
	}
}

func TestBFloat16(t *testing.T) {
	tests := []struct {
		in   uint32 // float32 bits
		want uint16
	}{
		{0x3f800000, 0x3f80}, // 1.0
		{0x3f808000, 0x3f80}, // tie, to even (down)
		{0x3f818000, 0x3f82}, // tie, to even (up)
		{0x3f808001, 0x3f81}, // above the tie
		{0x7f7fffff, 0x7f80}, // max float32 rounds to inf
		{0xff800000, 0xff80}, // -inf
		{0x7fc00000, 0x7fc0}, // NaN
		{0x00000001, 0x0000}, // the smallest subnormal rounds to 0
	}
	in := make([]float32, len(tests))
	for i, tt := range tests {
		in[i] = math.Float32frombits(tt.in)
	}
	got, err := tc.Float32ToBFloat16(in)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		if got[i] != tt.want {
			t.Errorf("%#08x -> %#04x, want %#04x", tt.in, got[i], tt.want)
		}
	}
	// Widening is exact: the bits move to the top half.
	patterns := []uint16{0x0000, 0x8000, 0x3f80, 0x4049, 0x0001, 0x7f7f, 0xff80}
	wide, err := tc.BFloat16ToFloat32(patterns)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range patterns {
		if got := math.Float32bits(wide[i]); got != uint32(p)<<16 {
			t.Errorf("%#04x -> %#08x, want %#08x", p, got, uint32(p)<<16)
		}
	}
}

func TestCastSliceSemantics(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	t.Run("float64 to int32 truncates and saturates, NaN to 0", func(t *testing.T) {
		dst := make([]int32, 7)
		if err := tc.CastSlice([]float64{3.9, -3.9, 1e10, -1e10, nan, inf, -inf}, dst, nil); err != nil {
			t.Fatal(err)
		}
		want := []int32{3, -3, math.MaxInt32, math.MinInt32, 0, math.MaxInt32, math.MinInt32}
		for i := range want {
			if dst[i] != want[i] {
				t.Errorf("element %d: %d, want %d", i, dst[i], want[i])
			}
		}
	})
	t.Run("int16 to int8 wraps", func(t *testing.T) {
		dst := make([]int8, 3)
		if err := tc.CastSlice([]int16{200, -129, 127}, dst, nil); err != nil {
			t.Fatal(err)
		}
		if dst[0] != -56 || dst[1] != 127 || dst[2] != 127 {
			t.Errorf("got %v, want [-56 127 127]", dst)
		}
	})
	t.Run("int64 to float32 rounds to nearest even", func(t *testing.T) {
		dst := make([]float32, 2)
		if err := tc.CastSlice([]int64{1<<24 + 1, 1<<24 + 3}, dst, nil); err != nil {
			t.Fatal(err)
		}
		if dst[0] != 16777216 || dst[1] != 16777220 {
			t.Errorf("got %v", dst)
		}
	})
	t.Run("float to bool and back", func(t *testing.T) {
		flags := make([]bool, 5)
		if err := tc.CastSlice([]float32{0, float32(math.Copysign(0, -1)), 0.5, float32(nan), -2}, flags, nil); err != nil {
			t.Fatal(err)
		}
		want := []bool{false, false, true, true, true}
		for i := range want {
			if flags[i] != want[i] {
				t.Errorf("element %d: %v, want %v", i, flags[i], want[i])
			}
		}
		back := make([]float64, 2)
		if err := tc.CastSlice([]bool{true, false}, back, nil); err != nil || back[0] != 1 || back[1] != 0 {
			t.Errorf("bool -> float64 = %v, %v", back, err)
		}
	})
	t.Run("complex to real keeps the real part, real to complex adds 0i", func(t *testing.T) {
		re := make([]float32, 2)
		if err := tc.CastSlice([]complex64{3 + 4i, -1.5 - 2i}, re, nil); err != nil || re[0] != 3 || re[1] != -1.5 {
			t.Errorf("complex64 -> float32 = %v, %v", re, err)
		}
		c := make([]complex128, 1)
		if err := tc.CastSlice([]float32{2.5}, c, nil); err != nil || c[0] != 2.5 {
			t.Errorf("float32 -> complex128 = %v, %v", c, err)
		}
	})
	t.Run("float64 to float16 rounds once", func(t *testing.T) {
		got, err := tc.CastToBytes([]float64{1.00048828125 + 1e-12, 65519.99999}, tc.Float16, nil)
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(got) != "013cff7b" { // 0x3c01, 0x7bff little-endian
			t.Errorf("got %x, want 013cff7b", got)
		}
	})
	t.Run("bool from bytes is 0 or 1", func(t *testing.T) {
		got, err := tc.CastFromBytes[bool]([]byte{0, 1, 2, 255}, tc.Bool, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []bool{false, true, true, true} {
			if got[i] != want || *(*byte)(unsafe.Pointer(&got[i])) > 1 {
				t.Errorf("element %d: %v", i, got[i])
			}
		}
	})
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The ONNX (onnx 1.22) float8 test vector with and without saturation.
func TestFloat8Saturation(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	in := []float32{0.47892547, 0.48033667, 0.49968487, 0.81910545, 0.47031248, 0.7229038,
		1e6, 1e-7, nan, inf, +inf, -inf, -1e-7, 1e-7, -1e6}
	tests := []struct {
		dtype          DType
		saturate, wrap string
	}{
		{tc.Float8E4M3FN, "2f2f30352f347e007f7e7efe8000fe", "2f2f30352f347f007f7f7fff8000ff"},
		{tc.Float8E4M3FNUZ, "3737383d373c7f00807f7fff0000ff", "3737383d373c800080808080000080"},
		{tc.Float8E5M2, "3838383b383a7b007e7b7bfb8000fb", "3838383b383a7c007e7c7cfc8000fc"},
		{tc.Float8E5M2FNUZ, "3c3c3c3f3c3e7f00807f7fff0000ff", "3c3c3c3f3c3e800080808080000080"},
	}
	for _, tt := range tests {
		t.Run(tt.dtype.String(), func(t *testing.T) {
			for _, opts := range []*tc.CastOptions{nil, {}, {NoSaturate: true}} {
				want := tt.saturate
				if opts != nil && opts.NoSaturate {
					want = tt.wrap
				}
				got, err := tc.CastToBytes(in, tt.dtype, opts)
				if err != nil {
					t.Fatal(err)
				}
				if hex.EncodeToString(got) != want {
					t.Errorf("options %+v: got %x, want %s", opts, got, want)
				}
			}
		})
	}
}

func TestPackedTargets(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	t.Run("FLOAT4E2M1 (onnx 1.22 vector)", func(t *testing.T) {
		in := []float32{0.48, 0.25, 1.05, -3.5, -8, 9, 1e6, 1e-7, nan, inf, +inf, -inf, -4, 0.01,
			float32(math.Copysign(0, -1))}
		got, err := tc.CastToBytes(in, tc.Float4E2M1, nil)
		if err != nil || hex.EncodeToString(got) != "01e27f0778f70e08" {
			t.Errorf("got %x, %v; want 01e27f0778f70e08", got, err)
		}
	})
	var from9 []int32 // -9 .. 15
	for v := int32(-9); v <= 15; v++ {
		from9 = append(from9, v)
	}
	for _, d := range []DType{tc.Int4, tc.Uint4} {
		got, err := tc.CastToBytes(from9, d, nil)
		if err != nil || hex.EncodeToString(got) != "87a9cbed0f21436587a9cbed0f" {
			t.Errorf("%v: got %x, %v", d, got, err)
		}
	}
	for _, d := range []DType{tc.Int2, tc.Uint2} {
		got, err := tc.CastToBytes([]int8{-3, -2, -1, 0, 1, 2, 3}, d, nil)
		if err != nil || hex.EncodeToString(got) != "3939" {
			t.Errorf("%v: got %x, %v", d, got, err)
		}
	}
	t.Run("INT4 back to int8 sign-extends", func(t *testing.T) {
		got, err := tc.CastFromBytes[int8]([]byte{0x78, 0x0f}, tc.Int4, 3, nil)
		if err != nil || got[0] != -8 || got[1] != 7 || got[2] != -1 {
			t.Errorf("got %v, %v; want [-8 7 -1]", got, err)
		}
	})
}

func TestRoundModeFloat8E8M0(t *testing.T) {
	in := []float32{0, 0.124, 0.25, 0.5, 1.1, 2, 4, 8}
	tests := []struct {
		opts tc.CastOptions
		want string
	}{
		{tc.CastOptions{}, "007c7d7e80808182"},
		{tc.CastOptions{RoundMode: tc.RoundUp}, "007c7d7e80808182"},
		{tc.CastOptions{RoundMode: tc.RoundDown}, "007b7d7e7f808182"},
		{tc.CastOptions{RoundMode: tc.RoundNearest}, "007c7d7e7f808182"},
		{tc.CastOptions{NoSaturate: true}, "ff7c7d7e80808182"}, // 0 has no code: NaN
	}
	for _, tt := range tests {
		opts := tt.opts
		got, err := tc.CastToBytes(in, tc.Float8E8M0, &opts)
		if err != nil || hex.EncodeToString(got) != tt.want {
			t.Errorf("%+v: got %x, %v; want %s", tt.opts, got, err, tt.want)
		}
	}
}

func TestInvalidOptions(t *testing.T) {
	src, dst := []float32{1, 2}, make([]float32, 2)
	tests := []struct {
		name string
		opts tc.CastOptions
	}{
		{"round mode", tc.CastOptions{RoundMode: 7}},
		{"string format", tc.CastOptions{StringFormat: -1}},
		{"negative threads", tc.CastOptions{Threads: -1}},
		{"threads beyond int32", tc.CastOptions{Threads: math.MaxInt32 + 1}},
		{"casting level", tc.CastOptions{Casting: tc.Casting(42)}},
		{"casting never", tc.CastOptions{Casting: tc.CastingNever}},
		{"casting below no", tc.CastOptions{Casting: tc.Casting(-1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			wantStatus(t, tc.CastSlice(src, dst, &opts), tc.ErrInvalidArgument)
		})
	}
	t.Run("casting levels", func(t *testing.T) {
		if err := tc.CastSlice(src, dst, &tc.CastOptions{Casting: tc.CastingUnsafe}); err != nil {
			t.Errorf("CastingUnsafe: %v", err)
		}
		// float64 -> float32 is not a safe cast in numpy: ErrCasting (more in numpy_test.go).
		err := tc.CastSlice([]float64{1}, make([]float32, 1), &tc.CastOptions{Casting: tc.CastingSafe})
		if !tc.IsStatus(err, tc.ErrCasting) {
			t.Errorf("CastingSafe float64 -> float32: %v", err)
		}
		// CastingNo is the strictest level.
		err = tc.CastSlice([]float32{1}, make([]float64, 1), &tc.CastOptions{Casting: tc.CastingNo})
		if !tc.IsStatus(err, tc.ErrCasting) {
			t.Errorf("CastingNo float32 -> float64: %v", err)
		}
		// Options that leave Casting unset (its zero value, CastingDefault) keep the
		// default, UNSAFE: nothing is refused.
		for _, opts := range []*tc.CastOptions{nil, {}, {Threads: 2}, {NoSaturate: true}, {Casting: tc.CastingDefault}} {
			if err := tc.CastSlice([]float64{1.5}, make([]int32, 1), opts); err != nil {
				t.Errorf("float64 -> int32 with %+v: %v", opts, err)
			}
		}
	})
	names := map[tc.Casting]string{tc.CastingNo: "no", tc.CastingEquiv: "equiv", tc.CastingSafe: "safe",
		tc.CastingSameKind: "same_kind", tc.CastingUnsafe: "unsafe", tc.CastingNever: "never", tc.CastingDefault: "default", 9: "Casting(9)", -1: "Casting(-1)"}
	for c, want := range names {
		if c.String() != want {
			t.Errorf("Casting %d: %q, want %q", int32(c), c.String(), want)
		}
	}
}

func TestThreadsGiveIdenticalResults(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	in := make([]float32, 1<<20)
	for i := range in {
		in[i] = math.Float32frombits(rng.Uint32())
	}
	one, err := tc.CastToBytes(in, tc.Float8E5M2, nil)
	if err != nil {
		t.Fatal(err)
	}
	four, err := tc.CastToBytes(in, tc.Float8E5M2, &tc.CastOptions{Threads: 4})
	if err != nil {
		t.Fatal(err)
	}
	if string(one) != string(four) {
		t.Errorf("Threads: 4 differs from one thread")
	}
}

func TestStridedCast(t *testing.T) {
	// A 2x3 matrix stored column by column: element (i, j) is at i + 2j.
	colMajor := []float32{11, 21, 12, 22, 13, 23}
	dst := make([]float64, 6)
	err := tc.CastTensor(
		tc.Tensor{Data: tc.AsBytes(colMajor), DType: tc.Float, Shape: []int64{2, 3}, Strides: []int64{1, 2}},
		tc.Tensor{Data: tc.AsBytes(dst), DType: tc.Double, Shape: []int64{2, 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{11, 12, 13, 21, 22, 23}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("got %v, want %v", dst, want)
		}
	}
	// Stride 0 repeats an element.
	rep := make([]int32, 4)
	err = tc.CastTensor(tc.Tensor{Data: tc.AsBytes([]float32{7.5}), DType: tc.Float, Shape: []int64{4}, Strides: []int64{0}},
		tc.Tensor{Data: tc.AsBytes(rep), DType: tc.Int32, Shape: []int64{4}}, nil)
	if err != nil || rep[0] != 7 || rep[3] != 7 {
		t.Errorf("stride 0: %v, %v", rep, err)
	}
	// Strides must have one entry per dimension (checked before the C call).
	err = tc.CastTensor(tc.Tensor{Data: tc.AsBytes(colMajor), DType: tc.Float, Shape: []int64{2, 3}, Strides: []int64{1}},
		tc.Tensor{Data: tc.AsBytes(dst), DType: tc.Double, Shape: []int64{2, 3}}, nil)
	wantStatus(t, err, tc.ErrInvalidShape)
	// Sub-byte dtypes cannot be strided.
	err = tc.CastTensor(tc.Tensor{Data: []byte{0x21}, DType: tc.Int4, Shape: []int64{2}, Strides: []int64{1}},
		tc.Tensor{Data: make([]byte, 2), DType: tc.Int8, Shape: []int64{2}}, nil)
	if err == nil {
		t.Errorf("strided INT4 input accepted")
	}
}

func TestShapeAndBufferMismatch(t *testing.T) {
	e := wantStatus(t, tc.CastSlice([]float32{1, 2, 3}, make([]float64, 2), nil), tc.ErrInvalidShape)
	if e.Index != -1 || e.Message == "" {
		t.Errorf("Index %d, Message %q", e.Index, e.Message)
	}
	// A destination too short for the shape.
	err := tc.CastBytes(make([]byte, 12), tc.Float, []int64{3}, make([]byte, 5), tc.Float16, nil)
	wantStatus(t, err, tc.ErrBufferTooSmall)
	// A source too short for the shape.
	err = tc.CastBytes(make([]byte, 11), tc.Float, []int64{3}, make([]byte, 6), tc.Float16, nil)
	wantStatus(t, err, tc.ErrBufferTooSmall)
	// Too few bytes for the element count.
	_, err = tc.CastFromBytes[float32]([]byte{0x21}, tc.Int4, 3, nil)
	wantStatus(t, err, tc.ErrBufferTooSmall)
	_, err = tc.CastFromBytes[float32](nil, tc.Int4, -1, nil)
	wantStatus(t, err, tc.ErrInvalidShape)
	// Unknown dtypes and STRING in a byte slice.
	wantStatus(t, tc.CastBytes([]byte{1}, tc.DType(77), []int64{1}, make([]byte, 4), tc.Float, nil), tc.ErrInvalidDType)
	wantStatus(t, tc.CastBytes(make([]byte, 16), tc.String, nil, make([]byte, 4), tc.Float, nil), tc.ErrUnsupported)
	wantStatus(t, tc.CastBytes(make([]byte, 4), tc.Float, nil, make([]byte, 16), tc.String, nil), tc.ErrUnsupported)
	// Overlapping input and output.
	buf := make([]byte, 16)
	wantStatus(t, tc.CastBytes(buf[:8], tc.Float, []int64{2}, buf[4:12], tc.Int32, nil), tc.ErrInvalidArgument)
	// Outputs are contiguous: transposed output strides are refused.
	err = tc.CastTensor(tc.Tensor{Data: make([]byte, 24), DType: tc.Float, Shape: []int64{2, 3}},
		tc.Tensor{Data: make([]byte, 24), DType: tc.Int32, Shape: []int64{2, 3}, Strides: []int64{1, 2}}, nil)
	wantStatus(t, err, tc.ErrInvalidShape)
	// Rank above MaxNDim.
	big := make([]int64, tc.MaxNDim+1)
	wantStatus(t, tc.CastBytes(nil, tc.Float, big, nil, tc.Float, nil), tc.ErrInvalidShape)
}

func TestEmptyAndScalar(t *testing.T) {
	if err := tc.CastSlice([]float32(nil), []float64(nil), nil); err != nil {
		t.Errorf("nil slices: %v", err)
	}
	if err := tc.CastSlice([]float32{}, []int8{}, nil); err != nil {
		t.Errorf("empty slices: %v", err)
	}
	if h, err := tc.Float32ToFloat16(nil); err != nil || len(h) != 0 {
		t.Errorf("Float32ToFloat16(nil) = %v, %v", h, err)
	}
	if b, err := tc.CastToBytes([]float32{}, tc.Int4, nil); err != nil || len(b) != 0 {
		t.Errorf("CastToBytes(empty) = %v, %v", b, err)
	}
	// Zero-element shapes need no data at all.
	if err := tc.CastBytes(nil, tc.Float, []int64{0, 5}, nil, tc.Int4, nil); err != nil {
		t.Errorf("shape [0 5]: %v", err)
	}
	// A nil shape is a scalar: one element, which needs data.
	out := make([]byte, 8)
	if err := tc.CastBytes(tc.AsBytes([]float32{1.5}), tc.Float, nil, out, tc.Double, nil); err != nil {
		t.Fatal(err)
	}
	if got := math.Float64frombits(leU64(out)); got != 1.5 {
		t.Errorf("scalar cast gave %g", got)
	}
	// ... and nil data for it is a NULL data pointer in C.
	wantStatus(t, tc.CastBytes(nil, tc.Float, nil, out, tc.Double, nil), tc.ErrNullArgument)
}

func leU64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// packedCode is element i of a packed sub-byte tensor of the given width: the bits
// i*bits .. (i+1)*bits of the bytes read as one stream, lowest bits first (docs/c-api.md
// section 4).
func packedCode(packed []byte, i, bits int) byte {
	var code byte
	for b := 0; b < bits; b++ {
		at := i*bits + b
		code |= (packed[at/8] >> (at % 8) & 1) << b
	}
	return code
}

func TestCastTensorSubByte(t *testing.T) {
	shape := []int64{4}
	f32 := func(v ...float32) tc.Tensor {
		return tc.Tensor{Data: tc.AsBytes(v), DType: tc.Float, Shape: []int64{int64(len(v))}}
	}
	t.Run("FLOAT -> INT4 unpacked", func(t *testing.T) {
		// Rounded to the nearest even integer, then the low 4 bits: -9 -> 7, -1 -> -1
		// (0xF), 0.5 -> 0, 7.6 -> 8 -> -8 (0x8); one byte each, high bits 0.
		src := f32(-9, -1, 0.5, 7.6)
		unpacked := make([]byte, 4)
		if err := tc.CastTensorSubByte(src, tc.Tensor{Data: unpacked, DType: tc.Int4, Shape: shape}, nil, tc.SubByteUnpacked); err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(unpacked) != "070f0008" {
			t.Errorf("unpacked: got %x, want 070f0008", unpacked)
		}
		// The same codes, packed two to a byte, from both packed paths.
		for name, cast := range map[string]func(dst tc.Tensor) error{
			"CastTensor":                       func(dst tc.Tensor) error { return tc.CastTensor(src, dst, nil) },
			"CastTensorSubByte(SubBytePacked)": func(dst tc.Tensor) error { return tc.CastTensorSubByte(src, dst, nil, tc.SubBytePacked) },
		} {
			packed := make([]byte, 2)
			if err := cast(tc.Tensor{Data: packed, DType: tc.Int4, Shape: shape}); err != nil || hex.EncodeToString(packed) != "f780" {
				t.Errorf("%s: got %x, %v; want f780", name, packed, err)
			}
		}
	})
	t.Run("every sub-byte dtype agrees with the packed path", func(t *testing.T) {
		in := []float32{-9, -7.5, -3, -1.75, -1, -0.5, -0.25, 0, 0.25, 0.4, 0.5, 1, 1.5, 2.5, 3, 5, 6, 7.6, 100, float32(math.NaN()), float32(math.Inf(-1))}
		n := int64(len(in))
		for _, d := range []DType{tc.Int4, tc.Uint4, tc.Float4E2M1, tc.Int2, tc.Uint2, tc.Float6E2M3, tc.Float6E3M2} {
			size, _ := tc.TensorBytes(d, []int64{n})
			packed, unpacked := make([]byte, size), make([]byte, n)
			if err := tc.CastTensor(f32(in...), tc.Tensor{Data: packed, DType: d, Shape: []int64{n}}, nil); err != nil {
				t.Fatalf("%v packed: %v", d, err)
			}
			if err := tc.CastTensorSubByte(f32(in...), tc.Tensor{Data: unpacked, DType: d, Shape: []int64{n}}, nil, tc.SubByteUnpacked); err != nil {
				t.Fatalf("%v unpacked: %v", d, err)
			}
			for i := range in {
				if want := packedCode(packed, i, d.Bits()); unpacked[i] != want {
					t.Errorf("%v %v: unpacked %#02x, packed code %#02x", d, in[i], unpacked[i], want)
				}
			}
			// And back: the unpacked codes read as the packed ones do.
			fromPacked, fromUnpacked := make([]float32, n), make([]float32, n)
			if err := tc.CastTensor(tc.Tensor{Data: packed, DType: d, Shape: []int64{n}}, tc.Tensor{Data: tc.AsBytes(fromPacked), DType: tc.Float, Shape: []int64{n}}, nil); err != nil {
				t.Fatal(err)
			}
			if err := tc.CastTensorSubByte(tc.Tensor{Data: unpacked, DType: d, Shape: []int64{n}}, tc.Tensor{Data: tc.AsBytes(fromUnpacked), DType: tc.Float, Shape: []int64{n}}, nil, tc.SubByteUnpacked); err != nil {
				t.Fatal(err)
			}
			if string(tc.AsBytes(fromPacked)) != string(tc.AsBytes(fromUnpacked)) {
				t.Errorf("%v -> FLOAT: unpacked %v, packed %v", d, fromUnpacked, fromPacked)
			}
		}
	})
	t.Run("-1.0 as FLOAT4E2M1 and FLOAT6E2M3", func(t *testing.T) {
		for d, want := range map[DType]byte{tc.Float4E2M1: 0x0a, tc.Float6E2M3: 0x28} {
			out := make([]byte, 1)
			err := tc.CastTensorSubByte(f32(-1), tc.Tensor{Data: out, DType: d, Shape: []int64{1}}, nil, tc.SubByteUnpacked)
			if err != nil || out[0] != want {
				t.Errorf("%v: got %#02x, %v; want %#02x", d, out[0], err, want)
			}
		}
	})
	t.Run("unpacked input: high bits ignored, strides in bytes", func(t *testing.T) {
		// Every other byte of in is an element; 0xF1 as INT4 is 1.
		in := []byte{0xf1, 0xee, 0x0f, 0xee, 0x08, 0xee, 0x77, 0xee}
		out := make([]int8, 4)
		err := tc.CastTensorSubByte(tc.Tensor{Data: in, DType: tc.Int4, Shape: shape, Strides: []int64{2}},
			tc.Tensor{Data: tc.AsBytes(out), DType: tc.Int8, Shape: shape}, nil, tc.SubByteUnpacked)
		if err != nil || out[0] != 1 || out[1] != -1 || out[2] != -8 || out[3] != 7 {
			t.Errorf("got %v, %v; want [1 -1 -8 7]", out, err)
		}
	})
	t.Run("threads", func(t *testing.T) {
		rng := rand.New(rand.NewSource(3))
		in := make([]float32, 1<<20)
		for i := range in {
			in[i] = rng.Float32()*40 - 20
		}
		src := tc.Tensor{Data: tc.AsBytes(in), DType: tc.Float, Shape: []int64{int64(len(in))}}
		one, four := make([]byte, len(in)), make([]byte, len(in))
		if err := tc.CastTensorSubByte(src, tc.Tensor{Data: one, DType: tc.Float4E2M1, Shape: src.Shape}, nil, tc.SubByteUnpacked); err != nil {
			t.Fatal(err)
		}
		if err := tc.CastTensorSubByte(src, tc.Tensor{Data: four, DType: tc.Float4E2M1, Shape: src.Shape}, &tc.CastOptions{Threads: 4}, tc.SubByteUnpacked); err != nil {
			t.Fatal(err)
		}
		if string(one) != string(four) {
			t.Errorf("Threads: 4 differs from one thread")
		}
	})
	t.Run("errors", func(t *testing.T) {
		src := f32(1, 2, 3, 4)
		// An unpacked output holds one byte per element: the packed size is short.
		e := wantStatus(t, tc.CastTensorSubByte(src, tc.Tensor{Data: make([]byte, 3), DType: tc.Int4, Shape: shape}, nil, tc.SubByteUnpacked), tc.ErrBufferTooSmall)
		if !strings.Contains(e.Message, "4") {
			t.Errorf("message should give the 4 bytes needed: %q", e.Message)
		}
		e = wantStatus(t, tc.CastTensorSubByte(src, tc.Tensor{Data: make([]byte, 4), DType: tc.Int4, Shape: shape}, nil, tc.SubByteLayout(2)), tc.ErrInvalidArgument)
		const want = "sub_byte_layout is 2; the valid values are 0 (TCAST_SUB_BYTE_PACKED), 1 (TCAST_SUB_BYTE_UNPACKED)"
		if e.Message != want {
			t.Errorf("message %q, want %q", e.Message, want)
		}
		// Checked with the options, on any pair: also for dtypes that are not sub-byte.
		wantStatus(t, tc.CastTensorSubByte(src, f32(0, 0, 0, 0), nil, tc.SubByteLayout(-1)), tc.ErrInvalidArgument)
		wantStatus(t, tc.CastTensorSubByte(src, tc.Tensor{Data: make([]byte, 4), DType: tc.Int4, Shape: shape}, &tc.CastOptions{Threads: -1}, tc.SubByteUnpacked), tc.ErrInvalidArgument)
		wantStatus(t, tc.CastTensorSubByte(src, tc.Tensor{DType: tc.String, Shape: shape}, nil, tc.SubByteUnpacked), tc.ErrUnsupported)
	})
}
