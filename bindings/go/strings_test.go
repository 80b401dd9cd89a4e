// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"errors"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

func TestParseFloat32(t *testing.T) {
	tests := []struct {
		in   string
		want float32
	}{
		{"1.5", 1.5},
		{" -2 ", -2},
		{"\t0.1\n", 0.1},
		{"inf", float32(math.Inf(1))},
		{"-INF", float32(math.Inf(-1))},
		{"+Infinity", float32(math.Inf(1))},
		{"1e-5", 1e-5},
		{"1E8", 1e8},
		{".5", 0.5},
		{"5.", 5},
		{"1e39", float32(math.Inf(1))}, // out of range: inf, not an error
		{"1e-50", 0},
		{"16777217", 16777216}, // correctly rounded in float32
	}
	in := make([]string, len(tests))
	for i, tt := range tests {
		in[i] = tt.in
	}
	got, err := tc.ParseSlice[float32](in, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		if math.Float32bits(got[i]) != math.Float32bits(tt.want) {
			t.Errorf("%q -> %g, want %g", tt.in, got[i], tt.want)
		}
	}
	nans, err := tc.ParseSlice[float64]([]string{"NaN", "nan", "-nan"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range nans {
		if !math.IsNaN(v) {
			t.Errorf("element %d: %g, want NaN", i, v)
		}
	}
}

func TestParseIntegersAndBool(t *testing.T) {
	u8, err := tc.ParseSlice[uint8]([]string{"-1", "300", "100.5", "1e3", " 7\t", "2.718"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint8{0, 255, 100, 255, 7, 2}; string(u8) != string(want) {
		t.Errorf("uint8: got %v, want %v", u8, want)
	}
	i64, err := tc.ParseSlice[int64]([]string{"9223372036854775807", "9223372036854775808", "-9223372036854775809", "-42"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{math.MaxInt64, math.MaxInt64, math.MinInt64, -42}; !equalShapes(i64, want) {
		t.Errorf("int64: got %v, want %v", i64, want)
	}
	flags, err := tc.ParseSlice[bool]([]string{"true", "FALSE", "0", "0.0", "2", "nan"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, false, false, true, true} {
		if flags[i] != want {
			t.Errorf("bool element %d: %v, want %v", i, flags[i], want)
		}
	}
	// Packed and 16-bit targets through the byte-level function.
	b, err := tc.ParseStrings([]string{"-8", "7", "1", "-1"}, tc.Int4, nil)
	if err != nil || string(b) != "\x78\xf1" {
		t.Errorf("INT4: got %x, %v; want 78f1", b, err)
	}
	b, err = tc.ParseStrings([]string{"1", "65504", "-inf"}, tc.Float16, nil)
	if err != nil || string(b) != "\x00\x3c\xff\x7b\x00\xfc" {
		t.Errorf("FLOAT16: got %x, %v", b, err)
	}
	// Options reach the parse: float8 saturation.
	sat, err := tc.ParseStrings([]string{"1e6"}, tc.Float8E4M3FN, nil)
	if err != nil || sat[0] != 0x7e {
		t.Errorf("1e6 -> FLOAT8E4M3FN saturated: %x, %v", sat, err)
	}
	nosat, err := tc.ParseStrings([]string{"1e6"}, tc.Float8E4M3FN, &tc.CastOptions{NoSaturate: true})
	if err != nil || nosat[0] != 0x7f {
		t.Errorf("1e6 -> FLOAT8E4M3FN not saturated: %x, %v", nosat, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"", "   ", "3.14abc", "1,5", "0x10", "abc", "1e", "--1", "in f"} {
		t.Run(strconv.Quote(bad), func(t *testing.T) {
			_, err := tc.ParseSlice[float32]([]string{"1", "2.5", bad, "x"}, nil)
			var e *tc.Error
			if !errors.As(err, &e) {
				t.Fatalf("no *Error: %v", err)
			}
			if e.Status != tc.ErrParse || e.Index != 2 {
				t.Errorf("status %v index %d, want TCAST_ERR_PARSE at element 2 (%s)", e.Status, e.Index, e.Message)
			}
			if strings.TrimSpace(bad) != "" && !strings.Contains(e.Message, bad) {
				t.Errorf("message %q does not show the text", e.Message)
			}
		})
	}
	// The first bad element is reported, also for integer targets and a shaped input.
	_, err := tc.ParseStringsShape([]string{"1", "2", "3", "4", "five", "six"}, []int64{2, 3}, tc.Int32, nil)
	if e := wantStatus(t, err, tc.ErrParse); e.Index != 4 {
		t.Errorf("index %d, want 4", e.Index)
	}
	_, err = tc.ParseStringsShape([]string{"1", "2"}, []int64{3}, tc.Int32, nil)
	wantStatus(t, err, tc.ErrInvalidShape)
	_, err = tc.ParseStrings([]string{"1"}, tc.String, nil)
	wantStatus(t, err, tc.ErrUnsupported)
	_, err = tc.ParseStrings([]string{"1"}, tc.Complex64, nil)
	wantStatus(t, err, tc.ErrUnsupported)
}

// Error details are per call: goroutines failing at the same time see their own.
func TestParseErrorsConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	failures := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			in := make([]string, 16)
			for i := range in {
				in[i] = "1"
			}
			bad := "bad" + strconv.Itoa(g)
			in[g] = bad
			for iter := 0; iter < 200; iter++ {
				_, err := tc.ParseSlice[float64](in, nil)
				var e *tc.Error
				if !errors.As(err, &e) || e.Index != int64(g) || !strings.Contains(e.Message, bad) {
					failures <- err.Error()
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

func TestFormatShortest(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	f32 := []struct {
		in   float32
		want string
	}{
		{float32(math.NaN()), "NaN"}, {float32(math.Inf(1)), "INF"}, {float32(math.Inf(-1)), "-INF"},
		{0.1, "0.1"}, {1e-4, "1e-04"}, {1e-5, "1e-05"}, {999999, "999999.0"}, {1e6, "1e+06"},
		{1234567, "1.234567e+06"}, {100, "100.0"}, {negZero, "-0.0"}, {0, "0.0"}, {-2.5, "-2.5"},
	}
	in := make([]float32, len(f32))
	for i, tt := range f32 {
		in[i] = tt.in
	}
	got, err := tc.FormatSlice(in, tc.FormatShortest)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range f32 {
		if got[i] != tt.want {
			t.Errorf("float32 %g -> %q, want %q", tt.in, got[i], tt.want)
		}
	}

	f64, err := tc.FormatSlice([]float64{1e15, 1e16, 0.1, 1.0 / 3}, tc.FormatShortest)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1000000000000000.0", "1e+16", "0.1", "0.3333333333333333"}; strings.Join(f64, "|") != strings.Join(want, "|") {
		t.Errorf("float64: got %q, want %q", f64, want)
	}

	// FLOAT16 through bytes: 1000 (0x63d0), 65504 (0x7bff), 999.5 (0x63cf).
	f16, err := tc.CastToStrings(tc.AsBytes([]uint16{0x63d0, 0x7bff, 0x63cf}), tc.Float16, []int64{3}, tc.FormatShortest)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1e+03", "6.55e+04", "999.5"}; strings.Join(f16, "|") != strings.Join(want, "|") {
		t.Errorf("float16: got %q, want %q", f16, want)
	}

	ints, err := tc.FormatSlice([]int8{-128, 0, 127}, tc.FormatShortest)
	if err != nil || strings.Join(ints, " ") != "-128 0 127" {
		t.Errorf("int8: %q, %v", ints, err)
	}
	u64, err := tc.FormatSlice([]uint64{math.MaxUint64}, tc.FormatShortest)
	if err != nil || u64[0] != "18446744073709551615" {
		t.Errorf("uint64: %q, %v", u64, err)
	}
	flags, err := tc.FormatSlice([]bool{true, false}, tc.FormatShortest)
	if err != nil || strings.Join(flags, " ") != "True False" {
		t.Errorf("bool: %q, %v", flags, err)
	}
}

func TestFormatPrintf8G(t *testing.T) {
	got, err := tc.FormatSlice([]float32{0.1, 1e-5, 1, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), 123456789},
		tc.FormatPrintf8G)
	if err != nil {
		t.Fatal(err)
	}
	if want := "0.1|9.9999997e-06|1|-0|NaN|-INF|1.2345679e+08"; strings.Join(got, "|") != want {
		t.Errorf("float32: got %q, want %s", got, want)
	}
	d, err := tc.FormatSlice([]float64{0.1}, tc.FormatPrintf8G)
	if err != nil || d[0] != "0.10000000000000001" { // %.17g for DOUBLE
		t.Errorf("float64: %q, %v", d, err)
	}
}

// Shortest text reads back to the same bits, by the library's parser and by Go's.
func TestFormatRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	f32 := make([]float32, 20000)
	for i := range f32 {
		for {
			f32[i] = math.Float32frombits(rng.Uint32())
			if !math.IsNaN(float64(f32[i])) {
				break
			}
		}
	}
	text, err := tc.FormatSlice(f32, tc.FormatShortest)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tc.ParseSlice[float32](text, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range f32 {
		if math.Float32bits(back[i]) != math.Float32bits(x) {
			t.Fatalf("%#08x -> %q -> %#08x", math.Float32bits(x), text[i], math.Float32bits(back[i]))
		}
		goText := strings.NewReplacer("INF", "Inf").Replace(text[i])
		v, err := strconv.ParseFloat(goText, 32)
		if err != nil || math.Float32bits(float32(v)) != math.Float32bits(x) {
			t.Fatalf("%#08x -> %q, which Go reads as %g (%v)", math.Float32bits(x), text[i], v, err)
		}
	}

	f64 := make([]float64, 20000)
	for i := range f64 {
		f64[i] = rng.NormFloat64() * math.Pow(10, float64(rng.Intn(40)-20))
	}
	text, err = tc.FormatSlice(f64, tc.FormatShortest)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range f64 {
		v, err := strconv.ParseFloat(text[i], 64)
		if err != nil || v != x {
			t.Fatalf("%v -> %q -> %v (%v)", x, text[i], v, err)
		}
	}
}

func TestFormatStridedAndErrors(t *testing.T) {
	// A 2x2 int32 matrix stored column by column, formatted in row-major order.
	got, err := tc.CastTensorToStrings(tc.Tensor{Data: tc.AsBytes([]int32{1, 3, 2, 4}), DType: tc.Int32,
		Shape: []int64{2, 2}, Strides: []int64{1, 2}}, nil)
	if err != nil || strings.Join(got, " ") != "1 2 3 4" {
		t.Errorf("strided: %q, %v", got, err)
	}
	_, err = tc.FormatSlice([]complex64{1}, tc.FormatShortest)
	wantStatus(t, err, tc.ErrUnsupported)
	_, err = tc.FormatSlice([]float32{1}, tc.StringFormat(9))
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CastToStrings(make([]byte, 3), tc.Float, []int64{1}, tc.FormatShortest)
	wantStatus(t, err, tc.ErrBufferTooSmall)
	_, err = tc.CastToStrings(nil, tc.String, []int64{0}, tc.FormatShortest)
	wantStatus(t, err, tc.ErrUnsupported)
}

func TestStringsEmpty(t *testing.T) {
	if got, err := tc.FormatSlice([]float32{}, tc.FormatShortest); err != nil || len(got) != 0 {
		t.Errorf("FormatSlice(empty) = %q, %v", got, err)
	}
	if got, err := tc.CastToStrings(nil, tc.Double, []int64{3, 0}, tc.FormatShortest); err != nil || len(got) != 0 {
		t.Errorf("CastToStrings(shape [3 0]) = %q, %v", got, err)
	}
	if got, err := tc.ParseSlice[int8](nil, nil); err != nil || len(got) != 0 {
		t.Errorf("ParseSlice(nil) = %v, %v", got, err)
	}
	if got, err := tc.ParseStrings(nil, tc.Int4, nil); err != nil || len(got) != 0 {
		t.Errorf("ParseStrings(nil, INT4) = %v, %v", got, err)
	}
	// Every element empty text: a parse error at element 0, not a crash.
	_, err := tc.ParseSlice[float32]([]string{"", ""}, nil)
	if e := wantStatus(t, err, tc.ErrParse); e.Index != 0 {
		t.Errorf("index %d", e.Index)
	}
	// A scalar.
	got, err := tc.CastToStrings(tc.AsBytes([]float64{2.5}), tc.Double, nil, tc.FormatShortest)
	if err != nil || len(got) != 1 || got[0] != "2.5" {
		t.Errorf("scalar: %q, %v", got, err)
	}
}
