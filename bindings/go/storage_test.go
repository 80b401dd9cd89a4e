// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// The example: a typed float16 output, and a []uint16, which stays UINT16.
func TestCastSliceToFloat16Bits(t *testing.T) {
	src := []float32{1, 0.1, -2.5, 65504}
	half := make([]tc.Float16Bits, len(src))
	if err := tc.CastSlice(src, half, nil); err != nil {
		t.Fatal(err)
	}
	// Well-known binary16 patterns: 1.0, the nearest to 0.1, -2.5, the largest finite.
	want := []tc.Float16Bits{0x3C00, 0x2E66, 0xC100, 0x7BFF}
	if !reflect.DeepEqual(half, want) {
		t.Errorf("[]Float16Bits: %#04x, want %#04x", half, want)
	}
	plain := make([]uint16, len(src))
	if err := tc.CastSlice(src, plain, nil); err != nil {
		t.Fatal(err)
	}
	asUint16, err := tc.CastToBytes(src, tc.Uint16, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tc.AsBytes(plain), asUint16) || plain[0] != 1 || plain[3] != 65504 {
		t.Errorf("[]uint16 is not UINT16: %v, want the bytes % x", plain, asUint16)
	}
	bf := make([]tc.BFloat16Bits, 2)
	if err := tc.CastSlice([]float64{1, -2}, bf, nil); err != nil || bf[0] != 0x3F80 || bf[1] != 0xC000 {
		t.Errorf("[]BFloat16Bits: %#04x, %v; want [0x3f80 0xc000]", bf, err)
	}
}

func TestDTypeOfStorageTypes(t *testing.T) {
	type myHalf uint16          // a type of the caller's: judged by its underlying type
	type derived tc.Float16Bits // likewise: its underlying type is uint16
	tests := []struct{ got, want DType }{
		{tc.DTypeOf[tc.Float16Bits](), tc.Float16}, {tc.DTypeOf[tc.BFloat16Bits](), tc.BFloat16},
		{tc.DTypeOf[tc.Float8E4M3FNBits](), tc.Float8E4M3FN},
		{tc.DTypeOf[tc.Float8E4M3FNUZBits](), tc.Float8E4M3FNUZ},
		{tc.DTypeOf[tc.Float8E5M2Bits](), tc.Float8E5M2},
		{tc.DTypeOf[tc.Float8E5M2FNUZBits](), tc.Float8E5M2FNUZ},
		{tc.DTypeOf[tc.Float8E8M0Bits](), tc.Float8E8M0},
		{tc.DTypeOf[uint16](), tc.Uint16}, {tc.DTypeOf[uint8](), tc.Uint8},
		{tc.DTypeOf[myHalf](), tc.Uint16}, {tc.DTypeOf[derived](), tc.Uint16},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: %v, want %v", i, tt.got, tt.want)
		}
		if bits := tt.want.Bits(); bits != 8 && bits != 16 {
			t.Errorf("case %d: %v has %d bits", i, tt.want, bits)
		}
	}
}

// Every typed entry point, on a storage type, gives what the byte-level function gives
// for the dtype named explicitly: the library computes both sides.
func checkStorageType[S tc.Native](t *testing.T, dtype DType, src []float32) {
	t.Helper()
	n := len(src)
	shape := []int64{int64(n)}
	if got := tc.DTypeOf[S](); got != dtype {
		t.Fatalf("DTypeOf = %v, want %v", got, dtype)
	}
	ref, err := tc.CastToBytes(src, dtype, nil)
	if err != nil {
		t.Fatal(err)
	}

	typed := make([]S, n)
	if err := tc.CastSlice(src, typed, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tc.AsBytes(typed), ref) {
		t.Errorf("CastSlice: % x, want % x", tc.AsBytes(typed), ref)
	}
	fromBytes, err := tc.CastFromBytes[S](tc.AsBytes(src), tc.Float, n, nil)
	if err != nil || !bytes.Equal(tc.AsBytes(fromBytes), ref) {
		t.Errorf("CastFromBytes: % x, %v; want % x", tc.AsBytes(fromBytes), err, ref)
	}

	// Back to float32: the typed input is read as dtype.
	back := make([]float32, n)
	if err := tc.CastSlice(typed, back, nil); err != nil {
		t.Fatal(err)
	}
	wantBack, err := tc.CastFromBytes[float32](ref, dtype, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tc.AsBytes(back), tc.AsBytes(wantBack)) {
		t.Errorf("CastSlice back: %v, want %v", back, wantBack)
	}
	toDouble, err := tc.CastToBytes(typed, tc.Double, nil)
	if err != nil || !bytes.Equal(toDouble, mustCastBytes(t, ref, dtype, shape, tc.Double)) {
		t.Errorf("CastToBytes to Double: % x, %v", toDouble, err)
	}

	// Text.
	text := make([]string, n)
	for i, v := range src {
		text[i] = strconv.FormatFloat(float64(v), 'g', -1, 32)
	}
	parsed, err := tc.ParseSlice[S](text, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantParsed, err := tc.ParseStrings(text, dtype, nil)
	if err != nil || !bytes.Equal(tc.AsBytes(parsed), wantParsed) {
		t.Errorf("ParseSlice(%q): % x, want % x (%v)", text, tc.AsBytes(parsed), wantParsed, err)
	}
	formatted, err := tc.FormatSlice(typed, tc.FormatShortest)
	if err != nil {
		t.Fatal(err)
	}
	wantFormatted, err := tc.CastToStrings(ref, dtype, shape, tc.FormatShortest)
	if err != nil || !reflect.DeepEqual(formatted, wantFormatted) {
		t.Errorf("FormatSlice: %q, want %q (%v)", formatted, wantFormatted, err)
	}

	// Expand: two rows of the input.
	expanded, outShape, err := tc.ExpandSlice(typed, shape, []int64{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	wantExpanded, wantShape, err := tc.Expand(ref, dtype, shape, []int64{2, 1})
	if err != nil || !bytes.Equal(tc.AsBytes(expanded), wantExpanded) || !reflect.DeepEqual(outShape, wantShape) {
		t.Errorf("ExpandSlice: % x %v, want % x %v (%v)", tc.AsBytes(expanded), outShape, wantExpanded, wantShape, err)
	}
}

func mustCastBytes(t *testing.T, src []byte, from DType, shape []int64, to DType) []byte {
	t.Helper()
	size, err := tc.TensorBytes(to, shape)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, size)
	if err := tc.CastBytes(src, from, shape, dst, to, nil); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestStorageTypesThroughTheTypedFunctions(t *testing.T) {
	src := []float32{1, 0.1, -2.5, 65504, 1e-8, 3.14159, 0.47892547, 1e6, 448, -0.75, 2, 0.001}
	positive := []float32{1, 0.1, 2.5, 65504, 1e-8, 3.14159, 0.47892547, 1e6, 448, 0.75, 2, 0.001}
	t.Run("Float16", func(t *testing.T) { checkStorageType[tc.Float16Bits](t, tc.Float16, src) })
	t.Run("BFloat16", func(t *testing.T) { checkStorageType[tc.BFloat16Bits](t, tc.BFloat16, src) })
	t.Run("Float8E4M3FN", func(t *testing.T) { checkStorageType[tc.Float8E4M3FNBits](t, tc.Float8E4M3FN, src) })
	t.Run("Float8E4M3FNUZ", func(t *testing.T) { checkStorageType[tc.Float8E4M3FNUZBits](t, tc.Float8E4M3FNUZ, src) })
	t.Run("Float8E5M2", func(t *testing.T) { checkStorageType[tc.Float8E5M2Bits](t, tc.Float8E5M2, src) })
	t.Run("Float8E5M2FNUZ", func(t *testing.T) { checkStorageType[tc.Float8E5M2FNUZBits](t, tc.Float8E5M2FNUZ, src) })
	t.Run("Float8E8M0", func(t *testing.T) { checkStorageType[tc.Float8E8M0Bits](t, tc.Float8E8M0, positive) })
}

// Options reach a cast into a storage type: NoSaturate turns 1e6 into E4M3FN's NaN.
func TestStorageTypeWithOptions(t *testing.T) {
	f8 := make([]tc.Float8E4M3FNBits, 2)
	if err := tc.CastSlice([]float32{1e6, -1e6}, f8, &tc.CastOptions{NoSaturate: true}); err != nil {
		t.Fatal(err)
	}
	if f8[0] != 0x7F || f8[1] != 0xFF {
		t.Errorf("no-saturate E4M3FN: %#02x, want [0x7f 0xff]", f8)
	}
	if err := tc.CastSlice([]float32{1e6}, f8[:1], nil); err != nil || f8[0] != 0x7E {
		t.Errorf("saturating E4M3FN: %#02x, %v; want 0x7e (448)", f8[0], err)
	}
	// numpy (with ml_dtypes) does not call float32 -> float16 safe.
	err := tc.CastSlice([]float32{1}, make([]tc.Float16Bits, 1), &tc.CastOptions{Casting: tc.CastingSafe})
	wantStatus(t, err, tc.ErrCasting)
	if err := tc.CastSlice([]tc.Float16Bits{0x3C00}, make([]float32, 1), &tc.CastOptions{Casting: tc.CastingSafe}); err != nil {
		t.Errorf("float16 -> float32 under safe: %v", err)
	}
}

// A typed cast into a storage type is one cgo call with no allocation, like any other.
func TestTypedCastAllocatesNothing(t *testing.T) {
	src := make([]float32, 16)
	dst := make([]tc.Float16Bits, 16)
	allocs := testing.AllocsPerRun(100, func() {
		if err := tc.CastSlice(src, dst, nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("CastSlice float32 -> Float16Bits: %v allocations per call, want 0", allocs)
	}
}
