// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// wantStatus fails the test unless err is an *Error with the given status; it returns
// the *Error for further checks.
func wantStatus(t *testing.T, err error, want tc.Status) *tc.Error {
	t.Helper()
	var e *tc.Error
	if !errors.As(err, &e) {
		t.Fatalf("want an *Error with status %v, got %v (%T)", want, err, err)
	}
	if e.Status != want {
		t.Fatalf("want status %v, got %v: %s", want, e.Status, e.Message)
	}
	return e
}

func equalShapes(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDTypeNamesCodesBits(t *testing.T) {
	const stringBits = 128 // 8 * sizeof(tcast_string) on a 64-bit target
	tests := []struct {
		dtype DType
		name  string
		code  int32
		bits  int
	}{
		{tc.Float, "FLOAT", 1, 32}, {tc.Uint8, "UINT8", 2, 8}, {tc.Int8, "INT8", 3, 8},
		{tc.Uint16, "UINT16", 4, 16}, {tc.Int16, "INT16", 5, 16}, {tc.Int32, "INT32", 6, 32},
		{tc.Int64, "INT64", 7, 64}, {tc.String, "STRING", 8, stringBits}, {tc.Bool, "BOOL", 9, 8},
		{tc.Float16, "FLOAT16", 10, 16}, {tc.Double, "DOUBLE", 11, 64}, {tc.Uint32, "UINT32", 12, 32},
		{tc.Uint64, "UINT64", 13, 64}, {tc.Complex64, "COMPLEX64", 14, 64},
		{tc.Complex128, "COMPLEX128", 15, 128}, {tc.BFloat16, "BFLOAT16", 16, 16},
		{tc.Float8E4M3FN, "FLOAT8E4M3FN", 17, 8}, {tc.Float8E4M3FNUZ, "FLOAT8E4M3FNUZ", 18, 8},
		{tc.Float8E5M2, "FLOAT8E5M2", 19, 8}, {tc.Float8E5M2FNUZ, "FLOAT8E5M2FNUZ", 20, 8},
		{tc.Uint4, "UINT4", 21, 4}, {tc.Int4, "INT4", 22, 4}, {tc.Float4E2M1, "FLOAT4E2M1", 23, 4},
		{tc.Float8E8M0, "FLOAT8E8M0", 24, 8}, {tc.Uint2, "UINT2", 25, 2}, {tc.Int2, "INT2", 26, 2},
		{tc.Float6E2M3, "FLOAT6E2M3", 27, 6}, {tc.Float6E3M2, "FLOAT6E3M2", 28, 6},
		{tc.QInt8, "QINT8", 100, 8}, {tc.QUint8, "QUINT8", 101, 8}, {tc.QInt16, "QINT16", 102, 16},
		{tc.QUint16, "QUINT16", 103, 16}, {tc.QInt32, "QINT32", 104, 32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if int32(tt.dtype) != tt.code {
				t.Errorf("code %d, want %d", int32(tt.dtype), tt.code)
			}
			if got := tt.dtype.String(); got != tt.name {
				t.Errorf("String() = %q", got)
			}
			if got := tt.dtype.Bits(); got != tt.bits {
				t.Errorf("Bits() = %d, want %d", got, tt.bits)
			}
			for _, name := range []string{tt.name, strings.ToLower(tt.name)} {
				d, err := tc.DTypeFromName(name)
				if err != nil || d != tt.dtype {
					t.Errorf("DTypeFromName(%q) = %v, %v", name, d, err)
				}
			}
		})
	}
}

type DType = tc.DType

func TestDTypeUnknown(t *testing.T) {
	for _, code := range notDTypeCodes {
		d := DType(code)
		if got, want := d.String(), fmt.Sprintf("DType(%d)", int32(d)); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
		if d.Bits() != 0 {
			t.Errorf("%v.Bits() = %d, want 0", d, d.Bits())
		}
	}
}

func TestDTypeFromNameAliases(t *testing.T) {
	tests := []struct {
		name string
		want DType
	}{
		{"float32", tc.Float}, {"Float64", tc.Double}, {"half", tc.Float16}, {"bfloat16", tc.BFloat16},
		{"int8", tc.Int8}, {"uint64", tc.Uint64}, {"bool", tc.Bool}, {"string", tc.String},
		{"complex128", tc.Complex128}, {"qint8", tc.QInt8}, {"float8_e4m3fn", tc.Float8E4M3FN},
		{"int4", tc.Int4},
	}
	for _, tt := range tests {
		if d, err := tc.DTypeFromName(tt.name); err != nil || d != tt.want {
			t.Errorf("DTypeFromName(%q) = %v, %v; want %v", tt.name, d, err, tt.want)
		}
	}
	for _, bad := range []string{"", "float128", "FLOAT\x00", "FLOAT\x00garbage", " float"} {
		_, err := tc.DTypeFromName(bad)
		wantStatus(t, err, tc.ErrInvalidDType)
	}
}

func TestDTypeOf(t *testing.T) {
	type celsius float32 // a named type: Native uses ~ constraints
	tests := []struct {
		got, want DType
	}{
		{tc.DTypeOf[float32](), tc.Float}, {tc.DTypeOf[float64](), tc.Double},
		{tc.DTypeOf[int8](), tc.Int8}, {tc.DTypeOf[uint8](), tc.Uint8},
		{tc.DTypeOf[int16](), tc.Int16}, {tc.DTypeOf[uint16](), tc.Uint16},
		{tc.DTypeOf[int32](), tc.Int32}, {tc.DTypeOf[uint32](), tc.Uint32},
		{tc.DTypeOf[int64](), tc.Int64}, {tc.DTypeOf[uint64](), tc.Uint64},
		{tc.DTypeOf[complex64](), tc.Complex64}, {tc.DTypeOf[complex128](), tc.Complex128},
		{tc.DTypeOf[bool](), tc.Bool}, {tc.DTypeOf[celsius](), tc.Float},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: %v, want %v", i, tt.got, tt.want)
		}
	}
}

func TestAsBytesAliases(t *testing.T) {
	s := []uint32{0x04030201, 0x08070605}
	b := tc.AsBytes(s)
	if len(b) != 8 || b[0] != 1 || b[7] != 8 {
		t.Fatalf("AsBytes = %v", b)
	}
	b[0] = 0xff
	if s[0] != 0x040302ff {
		t.Errorf("write through AsBytes not seen: %#x", s[0])
	}
	if tc.AsBytes([]float64{}) != nil {
		t.Errorf("AsBytes of an empty slice should be nil")
	}
}

func TestTensorBytes(t *testing.T) {
	tests := []struct {
		dtype DType
		shape []int64
		want  int
	}{
		{tc.Float, []int64{2, 3}, 24},
		{tc.Double, nil, 8}, // a scalar
		{tc.Double, []int64{}, 8},
		{tc.Float, []int64{0}, 0},
		{tc.Int4, []int64{3}, 2}, // packed two per byte
		{tc.Int4, []int64{4}, 2},
		{tc.Int2, []int64{5}, 2}, // four per byte
		{tc.Float6E2M3, []int64{4}, 3},
		{tc.Float6E2M3, []int64{5}, 4}, // 30 bits
		{tc.Bool, []int64{7}, 7},
		{tc.Complex128, []int64{2, 2}, 64},
	}
	for _, tt := range tests {
		got, err := tc.TensorBytes(tt.dtype, tt.shape)
		if err != nil || got != tt.want {
			t.Errorf("TensorBytes(%v, %v) = %d, %v; want %d", tt.dtype, tt.shape, got, err, tt.want)
		}
	}
	errTests := []struct {
		dtype DType
		shape []int64
		want  tc.Status
	}{
		{tc.Float, []int64{-1}, tc.ErrInvalidShape},
		{tc.Float, []int64{1 << 62, 4}, tc.ErrInvalidShape}, // 2^64 bytes
		{tc.Float, make([]int64, tc.MaxNDim+1), tc.ErrInvalidShape},
		{tc.DType(999), []int64{1}, tc.ErrInvalidDType},
		{tc.Undefined, []int64{1}, tc.ErrInvalidDType},
	}
	for _, tt := range errTests {
		_, err := tc.TensorBytes(tt.dtype, tt.shape)
		wantStatus(t, err, tt.want)
	}
}

func TestStatusNames(t *testing.T) {
	tests := []struct {
		status tc.Status
		code   int32
		name   string
	}{
		{tc.OK, 0, "TCAST_OK"},
		{tc.ErrNullArgument, 1, "TCAST_ERR_NULL_ARGUMENT"},
		{tc.ErrInvalidDType, 2, "TCAST_ERR_INVALID_DTYPE"},
		{tc.ErrUnsupported, 3, "TCAST_ERR_UNSUPPORTED"},
		{tc.ErrInvalidShape, 4, "TCAST_ERR_INVALID_SHAPE"},
		{tc.ErrIncompatibleShapes, 5, "TCAST_ERR_INCOMPATIBLE_SHAPES"},
		{tc.ErrBufferTooSmall, 6, "TCAST_ERR_BUFFER_TOO_SMALL"},
		{tc.ErrParse, 7, "TCAST_ERR_PARSE"},
		{tc.ErrInvalidArgument, 8, "TCAST_ERR_INVALID_ARGUMENT"},
		{tc.ErrCasting, 9, "TCAST_ERR_CASTING"},
		{tc.ErrOutOfMemory, 10, "TCAST_ERR_OUT_OF_MEMORY"},
		{tc.ErrInternal, 99, "TCAST_ERR_INTERNAL"},
		{tc.Status(42), 42, "unknown"},
	}
	for _, tt := range tests {
		if int32(tt.status) != tt.code || tt.status.String() != tt.name || tt.status.Error() != tt.name {
			t.Errorf("status %d: String() %q, want code %d name %q", int32(tt.status), tt.status, tt.code, tt.name)
		}
	}
}

func TestErrorMatching(t *testing.T) {
	_, err := tc.ParseSlice[float32]([]string{"1", "2", "x"}, nil)
	wrapped := fmt.Errorf("loading weights: %w", err)

	var e *tc.Error
	if !errors.As(wrapped, &e) {
		t.Fatalf("errors.As found no *Error in %v", wrapped)
	}
	if e.Status != tc.ErrParse || e.Index != 2 {
		t.Errorf("Status %v Index %d, want TCAST_ERR_PARSE 2", e.Status, e.Index)
	}
	if !errors.Is(wrapped, tc.ErrParse) || !tc.IsStatus(wrapped, tc.ErrParse) {
		t.Errorf("errors.Is / IsStatus do not see ErrParse")
	}
	if errors.Is(wrapped, tc.ErrInvalidShape) || tc.IsStatus(wrapped, tc.ErrInvalidShape) {
		t.Errorf("errors.Is matches the wrong status")
	}
	if tc.IsStatus(nil, tc.OK) || tc.IsStatus(errors.New("other"), tc.ErrParse) {
		t.Errorf("IsStatus matches a non-tensorcast error")
	}
	var st tc.Status
	if !errors.As(wrapped, &st) || st != tc.ErrParse {
		t.Errorf("errors.As into a Status gives %v", st)
	}
	want := "tensorcast: TCAST_ERR_PARSE: " + e.Message
	if e.Error() != want || !strings.Contains(e.Message, `"x"`) {
		t.Errorf("Error() = %q; message should quote the bad text", e.Error())
	}
}

func TestOnnxCastSupported(t *testing.T) {
	tests := []struct {
		from, to DType
		opset    int
		want     bool
	}{
		{tc.Float, tc.Float16, 1, true},
		{tc.Float, tc.String, 6, false},
		{tc.Float, tc.String, 9, true},
		{tc.Float, tc.BFloat16, 12, false},
		{tc.Float, tc.BFloat16, 13, true},
		{tc.Float, tc.Float8E4M3FN, 18, false},
		{tc.Float, tc.Float8E4M3FN, 19, true},
		{tc.Int4, tc.Float, 21, true},
		{tc.Float, tc.Float6E2M3, 27, false},
		{tc.Float, tc.Float6E2M3, 28, true},
		{tc.Float, tc.Float6E2M3, 1000, true},
		{tc.Complex64, tc.Float, 28, false},
		{tc.QInt8, tc.Float, 28, false},
		{tc.Float, tc.Float, 0, false},
		{tc.Float, tc.Float, -1 << 40, false},
	}
	for _, tt := range tests {
		if got := tc.OnnxCastSupported(tt.from, tt.to, tt.opset); got != tt.want {
			t.Errorf("OnnxCastSupported(%v, %v, %d) = %v", tt.from, tt.to, tt.opset, got)
		}
	}
}

func TestVersion(t *testing.T) {
	v := tc.Version()
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(v) {
		t.Fatalf("Version() = %q", v)
	}
	// In the source tree the library must be the one Cargo.toml describes.
	manifest, err := os.ReadFile("../../Cargo.toml")
	if err != nil {
		t.Skipf("no Cargo.toml beside the bindings: %v", err)
	}
	m := regexp.MustCompile(`(?m)^version = "([^"]+)"`).FindSubmatch(manifest)
	if m == nil || string(m[1]) != v {
		t.Errorf("Version() = %q, Cargo.toml says %q", v, m)
	}
}

func TestDLPack(t *testing.T) {
	type dl = tc.DLPackType
	// DLPack 1.1's DLDataType of every dtype that has one (docs/c-api.md section 3).
	want := map[DType]dl{
		tc.Int8: {tc.DLPackInt, 8, 1}, tc.Int16: {tc.DLPackInt, 16, 1}, tc.Int32: {tc.DLPackInt, 32, 1},
		tc.Int64: {tc.DLPackInt, 64, 1}, tc.Int4: {tc.DLPackInt, 4, 1}, tc.Int2: {tc.DLPackInt, 2, 1},
		tc.Uint8: {tc.DLPackUint, 8, 1}, tc.Uint16: {tc.DLPackUint, 16, 1}, tc.Uint32: {tc.DLPackUint, 32, 1},
		tc.Uint64: {tc.DLPackUint, 64, 1}, tc.Uint4: {tc.DLPackUint, 4, 1}, tc.Uint2: {tc.DLPackUint, 2, 1},
		tc.Float16: {tc.DLPackFloat, 16, 1}, tc.Float: {tc.DLPackFloat, 32, 1}, tc.Double: {tc.DLPackFloat, 64, 1},
		tc.BFloat16: {tc.DLPackBfloat, 16, 1}, tc.Complex64: {tc.DLPackComplex, 64, 1},
		tc.Complex128: {tc.DLPackComplex, 128, 1}, tc.Bool: {tc.DLPackBool, 8, 1},
		tc.Float8E4M3FN: {tc.DLPackFloat8E4M3FN, 8, 1}, tc.Float8E4M3FNUZ: {tc.DLPackFloat8E4M3FNUZ, 8, 1},
		tc.Float8E5M2: {tc.DLPackFloat8E5M2, 8, 1}, tc.Float8E5M2FNUZ: {tc.DLPackFloat8E5M2FNUZ, 8, 1},
		tc.Float8E8M0: {tc.DLPackFloat8E8M0FNU, 8, 1}, tc.Float6E2M3: {tc.DLPackFloat6E2M3FN, 6, 1},
		tc.Float6E3M2: {tc.DLPackFloat6E3M2FN, 6, 1}, tc.Float4E2M1: {tc.DLPackFloat4E2M1FN, 4, 1},
	}
	// The header's codes (DLPack's kDL* values).
	codes := []tc.DLPackCode{tc.DLPackInt, tc.DLPackUint, tc.DLPackFloat, tc.DLPackOpaqueHandle,
		tc.DLPackBfloat, tc.DLPackComplex, tc.DLPackBool, tc.DLPackFloat8E3M4, tc.DLPackFloat8E4M3,
		tc.DLPackFloat8E4M3B11FNUZ, tc.DLPackFloat8E4M3FN, tc.DLPackFloat8E4M3FNUZ, tc.DLPackFloat8E5M2,
		tc.DLPackFloat8E5M2FNUZ, tc.DLPackFloat8E8M0FNU, tc.DLPackFloat6E2M3FN, tc.DLPackFloat6E3M2FN,
		tc.DLPackFloat4E2M1FN}
	for i, c := range codes {
		if int(c) != i {
			t.Errorf("DLPack code %d is %d", i, c)
		}
	}
	// Every code the library knows as a dtype: a round trip, or UNSUPPORTED (STRING and
	// the TF quantized types).
	seen := 0
	for code := int32(-1); code <= 300; code++ {
		d := DType(code)
		if _, err := tc.DTypeFromName(d.String()); err != nil {
			e := wantStatus(t, func() error { _, err := tc.DTypeToDLPack(d); return err }(), tc.ErrInvalidDType)
			if !strings.Contains(e.Message, fmt.Sprint(code)) {
				t.Errorf("DTypeToDLPack(%d): the message should name the code: %q", code, e.Message)
			}
			continue
		}
		seen++
		got, err := tc.DTypeToDLPack(d)
		w, ok := want[d]
		if !ok {
			e := wantStatus(t, err, tc.ErrUnsupported)
			if msg := d.String() + " has no DLPack type code"; e.Message != msg {
				t.Errorf("%v: message %q, want %q", d, e.Message, msg)
			}
			continue
		}
		if err != nil || got != w {
			t.Errorf("DTypeToDLPack(%v) = %+v, %v; want %+v", d, got, err, w)
			continue
		}
		if back, err := tc.DTypeFromDLPack(got); err != nil || back != d {
			t.Errorf("DTypeFromDLPack(%+v) = %v, %v; want %v", got, back, err, d)
		}
	}
	if seen != 33 || len(want) != 27 {
		t.Errorf("%d dtypes seen (want 33), %d with a DLPack type (want 27)", seen, len(want))
	}
	for _, tt := range []struct {
		in  dl
		msg string
	}{
		{dl{tc.DLPackFloat, 32, 4}, "DLPack lanes is 4: only lanes 1 (no vector types) has a tensorcast dtype"},
		{dl{tc.DLPackFloat, 32, 0}, "DLPack lanes is 0: only lanes 1 (no vector types) has a tensorcast dtype"},
		{dl{tc.DLPackFloat, 8, 1}, "DLPack type code 2 (kDLFloat) with bits 8 has no tensorcast dtype"},
		{dl{tc.DLPackFloat8E3M4, 8, 1}, "DLPack type code 7 (kDLFloat8_e3m4) with bits 8 has no tensorcast dtype"},
		{dl{200, 32, 1}, "DLPack type code 200 (not a DLPack 1.1 code) with bits 32 has no tensorcast dtype"},
	} {
		d, err := tc.DTypeFromDLPack(tt.in)
		e := wantStatus(t, err, tc.ErrUnsupported)
		if d != tc.Undefined || e.Message != tt.msg {
			t.Errorf("DTypeFromDLPack(%+v) = %v, message %q; want Undefined, %q", tt.in, d, e.Message, tt.msg)
		}
	}
}
