// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

// Expectations come from docs/semantics-can-cast.md (numpy 1.22.4 / 2.4.6 as
// measured there), not from the library's answers.

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

var allLevels = []tc.Casting{tc.CastingNo, tc.CastingEquiv, tc.CastingSafe, tc.CastingSameKind, tc.CastingUnsafe}

func mustParse(t *testing.T, spec string) *tc.NumpyDType {
	t.Helper()
	d, err := tc.ParseNumpyDType(spec)
	if err != nil {
		t.Fatalf("ParseNumpyDType(%q): %v", spec, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestNumpyDTypeString(t *testing.T) {
	fields := make([]string, 20)
	specs := make([]string, 20)
	for i := range fields {
		fields[i] = fmt.Sprintf("('f%d', '<i4')", i)
		specs[i] = "i4"
	}
	tests := []struct{ spec, want string }{
		{"i4", "int32"},
		{"<i4", "int32"},
		{">i4", ">i4"},
		{"S5", "|S5"},
		{"U3", "<U3"},
		{"f8", "float64"},
		{"float64", "float64"},
		{"?", "bool"},
		{"M8[ns]", "datetime64[ns]"},
		{">M8[1000ns]", ">M8[1000ns]"},
		{"i4,f8", "[('f0', '<i4'), ('f1', '<f8')]"},
		{"(2,)i4", "('<i4', (2,))"},
		// Longer than the first buffer String tries: it has to grow.
		{strings.Join(specs, ","), "[" + strings.Join(fields, ", ") + "]"},
	}
	for _, tt := range tests {
		d := mustParse(t, tt.spec)
		if got := d.String(); got != tt.want {
			t.Errorf("str(dtype(%q)) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestParseNumpyDTypeErrors(t *testing.T) {
	_, err := tc.ParseNumpyDType("abc")
	e := wantStatus(t, err, tc.ErrParse)
	if e.Message != "data type 'abc' not understood" {
		t.Errorf("message %q", e.Message)
	}
	for _, spec := range []string{"", "<", "i16", "M8[s", "float64>", "i4\x00"} {
		_, err := tc.ParseNumpyDType(spec)
		wantStatus(t, err, tc.ErrParse)
	}
	_, err = tc.ParseNumpyDType("M8[s")
	if e := wantStatus(t, err, tc.ErrParse); !strings.Contains(e.Message, "Invalid datetime") {
		t.Errorf("M8[s: %q", e.Message)
	}
	// numpy raises ValueError here (1 day is not a multiple of 7 of any finer unit); the
	// semantics page maps every failure of the grammar to TCAST_ERR_PARSE.
	_, err = tc.ParseNumpyDType("M8[D/7]")
	if e := wantStatus(t, err, tc.ErrParse); !strings.Contains(e.Message, "divisor (7)") {
		t.Errorf("M8[D/7]: %q", e.Message)
	}
}

type levelCase struct {
	from, to string
	want     tc.Casting
}

// Pairs from the semantics page (sections 2-4); the same under both rule sets.
var levelCases = []levelCase{
	{">M8[1000ns]", "M8[us]", tc.CastingEquiv},
	{"M8[1000ns]", "M8[us]", tc.CastingNo},
	{"M8[2001ns]", "M8[2us]", tc.CastingNo},
	{"<i4", "=i4", tc.CastingNo},
	{"=i4", ">i4", tc.CastingEquiv},
	{">S5", "<S5", tc.CastingNo},
	{">O", "<O", tc.CastingNo},
	{"<i2", ">i4", tc.CastingSafe},
	{">i4", "<i2", tc.CastingSameKind},
	{">U5", "<U6", tc.CastingSafe},
	{"l", "q", tc.CastingNo},
	{"i8", "f4", tc.CastingSameKind},
	{"i8", "f8", tc.CastingSafe},
	{"u8", "i8", tc.CastingSameKind},
	{"i4", "u8", tc.CastingUnsafe},
	{"u4", "i8", tc.CastingSafe},
	{"i1", "?", tc.CastingUnsafe},
	{"?", "i1", tc.CastingSafe},
	{"f8", "i8", tc.CastingUnsafe},
	{"c8", "f8", tc.CastingUnsafe},
	{"f4", "c8", tc.CastingSafe},
	{"i4", "S11", tc.CastingSafe},
	{"i4", "S10", tc.CastingSameKind},
	{"f8", "S31", tc.CastingSameKind},
	{"f8", "S", tc.CastingSafe},
	{"U2", "S8", tc.CastingUnsafe},
	{"S4", "U4", tc.CastingSafe},
	{"U2", "V8", tc.CastingSafe},
	{"U2", "V7", tc.CastingUnsafe},
	{"M8[D]", "M8[ns]", tc.CastingSafe},
	{"M8[D]", "M8[ps]", tc.CastingSameKind},
	{"M8[ns]", "M8[s]", tc.CastingSameKind},
	{"M8[10s]", "M8[2s]", tc.CastingSafe},
	{"M8[2s]", "M8[10s]", tc.CastingSameKind},
	{"M8[Y]", "M8[D]", tc.CastingSafe},
	{"m8[Y]", "m8[D]", tc.CastingUnsafe},
	{"m8[Y]", "m8[M]", tc.CastingSafe},
	{"M8[6h]", "M8[3h]", tc.CastingSafe},
	{"M8[7h]", "M8[3h]", tc.CastingSameKind},
	{"M8", "M8[s]", tc.CastingSafe},
	{"u8", "m8", tc.CastingSameKind},
	{"u4", "m8[s]", tc.CastingSafe},
	{"i4", "(2,)i4", tc.CastingSafe},
	{"(2,)i4", "i4", tc.CastingUnsafe},
	{"i4,f8", ">i4,>f8", tc.CastingEquiv},
	{"i4,f8", "i8,f8", tc.CastingSafe},
	{"i4,f8", "i2,f8", tc.CastingSameKind},
	{"i4,f8", "i4,u8", tc.CastingUnsafe},
	{"i4,i4", "i4", tc.CastingNever},
	{"i4,i4", "V8", tc.CastingNever},
	{"i4", "i4,i4", tc.CastingUnsafe},
}

func TestCastingLevel(t *testing.T) {
	for _, rules := range []tc.NumpyRules{tc.Numpy1, tc.Numpy2} {
		for _, tt := range levelCases {
			from, to := mustParse(t, tt.from), mustParse(t, tt.to)
			got, err := tc.CastingLevel(from, to, rules)
			if err != nil {
				t.Errorf("%v: CastingLevel(%q, %q): %v", rules, tt.from, tt.to, err)
				continue
			}
			if got != tt.want {
				t.Errorf("%v: CastingLevel(%q, %q) = %v, want %v", rules, tt.from, tt.to, got, tt.want)
			}
			// can_cast is "level <= casting", at every level.
			for _, c := range allLevels {
				ok, err := tc.CanCast(from, to, c, rules)
				if err != nil || ok != (tt.want <= c) {
					t.Errorf("%v: CanCast(%q, %q, %v) = %v, %v; want %v", rules, tt.from, tt.to, c, ok, err, tt.want <= c)
				}
			}
		}
	}
}

// Where numpy 1.22 and 2.x differ on dtypes: struct field counts and removed aliases.
func TestCastingLevelRulesDiffer(t *testing.T) {
	a, b := mustParse(t, "i4,i4"), mustParse(t, "i4,i4,i4")
	if got, err := tc.CastingLevel(a, b, tc.Numpy1); err != nil || got != tc.CastingUnsafe {
		t.Errorf("Numpy1 'i4,i4' -> 'i4,i4,i4': %v, %v; want unsafe", got, err)
	}
	if got, err := tc.CastingLevel(a, b, tc.Numpy2); err != nil || got != tc.CastingNever {
		t.Errorf("Numpy2 'i4,i4' -> 'i4,i4,i4': %v, %v; want never", got, err)
	}
	int0, i8 := mustParse(t, "int0"), mustParse(t, "i8")
	if got, err := tc.CastingLevel(int0, i8, tc.Numpy1); err != nil || got != tc.CastingNo {
		t.Errorf("Numpy1 int0 -> i8: %v, %v; want no", got, err)
	}
	_, err := tc.CastingLevel(int0, i8, tc.Numpy2)
	if e := wantStatus(t, err, tc.ErrParse); !strings.Contains(e.Message, "int0") {
		t.Errorf("Numpy2 int0: %q", e.Message)
	}
}

func TestCanCastArgumentErrors(t *testing.T) {
	i4, f8 := mustParse(t, "i4"), mustParse(t, "f8")
	_, err := tc.CanCast(i4, f8, tc.Casting(-1), tc.Numpy2)
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCast(i4, f8, tc.CastingNever, tc.Numpy2)
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCast(i4, f8, tc.Casting(42), tc.Numpy2)
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCast(i4, f8, tc.CastingDefault, tc.Numpy2) // not a level: no default here
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCast(i4, f8, tc.CastingSafe, tc.NumpyRules(0))
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CastingLevel(i4, f8, tc.NumpyRules(3))
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CastingLevel(nil, f8, tc.Numpy2)
	wantStatus(t, err, tc.ErrNullArgument)
	_, err = tc.CanCast(i4, nil, tc.CastingSafe, tc.Numpy2)
	wantStatus(t, err, tc.ErrNullArgument)

	d, err := tc.ParseNumpyDType("u1")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := tc.CanCast(d, d, tc.CastingNo, tc.Numpy2); !ok || err != nil {
		t.Errorf("u1 -> itself: %v, %v", ok, err)
	}
	d.Close()
	d.Close() // twice is fine
	_, err = tc.CanCast(d, i4, tc.CastingSafe, tc.Numpy2)
	if e := wantStatus(t, err, tc.ErrNullArgument); !strings.Contains(e.Message, "closed") {
		t.Errorf("closed handle: %q", e.Message)
	}
	if s := d.String(); s != "NumpyDType(closed)" {
		t.Errorf("closed String() = %q", s)
	}
	var nilHandle *tc.NumpyDType
	if err := nilHandle.Close(); err != nil {
		t.Errorf("nil Close: %v", err)
	}
}

func TestCanCastStr(t *testing.T) {
	tests := []struct {
		from, to, casting string
		want              bool
	}{
		{"i8", "f4", "same_kind", true},
		{"i8", "f4", "safe", false},
		{"i8", "f8", "safe", true},
		{"f8", "S", "safe", true},
		{"u8", "i8", "safe", false},
		{"i4,i4", "i4", "unsafe", false},
		{">i4", "<i4", "no", false},
		{">i4", "<i4", "equiv", true},
		{"M8[ns]", "M8[s]", "safe", false},
		{"M8[ns]", "M8[s]", "same_kind", true},
	}
	for _, rules := range []tc.NumpyRules{tc.Numpy1, tc.Numpy2} {
		for _, tt := range tests {
			got, err := tc.CanCastStr(tt.from, tt.to, tt.casting, rules)
			if err != nil || got != tt.want {
				t.Errorf("%v: can_cast(%q, %q, %q) = %v, %v; want %v", rules, tt.from, tt.to, tt.casting, got, err, tt.want)
			}
		}
	}
	// numpy 2 dropped the "or" from the message.
	_, err := tc.CanCastStr("i4", "i8", "Safe", tc.Numpy1)
	if e := wantStatus(t, err, tc.ErrInvalidArgument); !strings.Contains(e.Message, "'same_kind', or 'unsafe' (got 'Safe')") {
		t.Errorf("Numpy1 casting message: %q", e.Message)
	}
	_, err = tc.CanCastStr("i4", "i8", "Safe", tc.Numpy2)
	if e := wantStatus(t, err, tc.ErrInvalidArgument); !strings.Contains(e.Message, "'same_kind', 'unsafe' (got 'Safe')") {
		t.Errorf("Numpy2 casting message: %q", e.Message)
	}
	_, err = tc.CanCastStr("abc", "i8", "safe", tc.Numpy2)
	if e := wantStatus(t, err, tc.ErrParse); !strings.HasPrefix(e.Message, "did not understand one of the types; 'None' not accepted") {
		t.Errorf("bad from: %q", e.Message)
	}
	_, err = tc.CanCastStr("i4", "abc", "safe", tc.Numpy2)
	if e := wantStatus(t, err, tc.ErrParse); e.Message != "data type 'abc' not understood" {
		t.Errorf("bad to: %q", e.Message)
	}
	_, err = tc.CanCastStr("i4", "i8", "safe\x00x", tc.Numpy2)
	wantStatus(t, err, tc.ErrInvalidArgument)
}

func TestParseCasting(t *testing.T) {
	for _, c := range allLevels {
		got, err := tc.ParseCasting(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCasting(%q) = %v, %v", c.String(), got, err)
		}
	}
	for _, name := range []string{"Safe", "never", "same_value", "", "default"} {
		_, err := tc.ParseCasting(name)
		wantStatus(t, err, tc.ErrInvalidArgument)
	}
	if tc.CastingNever.String() != "never" || !(tc.CastingUnsafe < tc.CastingNever) {
		t.Errorf("CastingNever: %q", tc.CastingNever.String())
	}
	if tc.Numpy1.String() != "Numpy1" || tc.Numpy2.String() != "Numpy2" || tc.NumpyRules(7).String() != "NumpyRules(7)" {
		t.Errorf("NumpyRules names")
	}
}

// The value-based results listed as checked on numpy 1.22.4 (section 5).
func TestCanCastPythonScalarsNumpy1(t *testing.T) {
	S, K, N, E, U := tc.CastingSafe, tc.CastingSameKind, tc.CastingNo, tc.CastingEquiv, tc.CastingUnsafe
	ints := []struct {
		v, to   string
		casting tc.Casting
		want    bool
	}{
		{"100", "i1", S, true}, {"150", "i1", S, false}, {"150", "i1", K, true}, {"150", "u1", S, true},
		{"-1", "u1", S, false}, {"-1", "u1", K, false}, {"-1", "u1", U, true},
		{"-128", "i1", S, true}, {"-129", "i1", S, false}, {"127", "i1", S, true}, {"128", "i1", S, false},
		{"255", "u1", S, true}, {"256", "u1", S, false}, {"300", "i1", S, false}, {"2147483648", "i4", S, false},
		{"9223372036854775807", "i8", S, true}, {"9223372036854775808", "i8", S, false},
		{"9223372036854775808", "u8", S, true}, {"18446744073709551616", "u8", S, false},
		{"18446744073709551616", "u8", K, false}, {"18446744073709551616", "O", S, true},
		{"100", "f2", S, true}, {"16777217", "f4", S, false}, {"2147483648", "f8", S, true},
		{"0", "?", S, false}, {"1", "?", K, false}, {"100", "?", S, false},
		{"100", "c8", S, true}, {"100", "S3", S, false}, {"200", "S3", S, true}, {"128", "S3", S, true},
		{"-100", "S4", S, true}, {"100", "m8[s]", S, true}, {"100", "M8[s]", S, false}, {"100", "V1", S, true},
		{"100", "i1", N, true}, {"300", ">i2", E, true},
	}
	for _, tt := range ints {
		got, err := tc.CanCastPyInt(tt.v, tt.to, tt.casting, tc.Numpy1)
		if err != nil || got != tt.want {
			t.Errorf("can_cast(%s, %q, %v) = %v, %v; want %v", tt.v, tt.to, tt.casting, got, err, tt.want)
		}
	}
	floats := []struct {
		v       float64
		to      string
		casting tc.Casting
		want    bool
	}{
		{3.5e100, "f4", S, false}, {1000, "f4", S, true}, {1000, "f2", S, true}, {64999, "f2", S, true},
		{65000, "f2", S, false}, {3.39e38, "f4", S, true}, {3.4e38, "f4", S, false},
		{math.Inf(1), "f2", S, true}, {math.NaN(), "f2", S, true}, {1, "i8", S, false},
		{1, "S32", S, true}, {1, "S31", S, false}, {1000, "f2", N, true},
	}
	for _, tt := range floats {
		got, err := tc.CanCastPyFloat(tt.v, tt.to, tt.casting, tc.Numpy1)
		if err != nil || got != tt.want {
			t.Errorf("can_cast(%g, %q, %v) = %v, %v; want %v", tt.v, tt.to, tt.casting, got, err, tt.want)
		}
	}
	complexes := []struct {
		v    complex128
		to   string
		want bool
	}{
		{1 + 1i, "c8", true}, {1e100i, "c8", false}, {1 + 0i, "f8", false}, {complex(math.NaN(), 0), "c8", false},
	}
	for _, tt := range complexes {
		got, err := tc.CanCastPyComplex(tt.v, tt.to, S, tc.Numpy1)
		if err != nil || got != tt.want {
			t.Errorf("can_cast(%v, %q, safe) = %v, %v; want %v", tt.v, tt.to, got, err, tt.want)
		}
	}
	for to, want := range map[string]bool{"i1": true, "u1": true, "f2": true, "S4": false} {
		got, err := tc.CanCastPyBool(true, to, S, tc.Numpy1)
		if err != nil || got != want {
			t.Errorf("can_cast(True, %q, safe) = %v, %v; want %v", to, got, err, want)
		}
	}
}

func TestCanCastPythonScalarsNumpy2(t *testing.T) {
	calls := map[string]func() (bool, error){
		"int":     func() (bool, error) { return tc.CanCastPyInt("300", "i1", tc.CastingSafe, tc.Numpy2) },
		"float":   func() (bool, error) { return tc.CanCastPyFloat(4, "f8", tc.CastingUnsafe, tc.Numpy2) },
		"complex": func() (bool, error) { return tc.CanCastPyComplex(4i, "c16", tc.CastingUnsafe, tc.Numpy2) },
		"bool":    func() (bool, error) { return tc.CanCastPyBool(true, "?", tc.CastingNo, tc.Numpy2) },
	}
	for name, call := range calls {
		_, err := call()
		e := wantStatus(t, err, tc.ErrUnsupported)
		if !strings.HasPrefix(e.Message, "can_cast() does not support Python ints, floats, and complex") {
			t.Errorf("%s: %q", name, e.Message)
		}
	}
}

func TestCanCastPythonScalarErrors(t *testing.T) {
	for _, bad := range []string{"3x0", "", "1.5", "12\x00"} {
		_, err := tc.CanCastPyInt(bad, "i8", tc.CastingSafe, tc.Numpy1)
		wantStatus(t, err, tc.ErrParse)
	}
	_, err := tc.CanCastPyInt("1", "abc", tc.CastingSafe, tc.Numpy1)
	wantStatus(t, err, tc.ErrParse)
	_, err = tc.CanCastPyFloat(1, "f8", tc.Casting(-1), tc.Numpy1)
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCastPyBool(true, "?", tc.CastingSafe, tc.NumpyRules(0))
	wantStatus(t, err, tc.ErrInvalidArgument)
}

func le64(v uint64) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	return b
}

func TestCanCastScalar(t *testing.T) {
	be100 := make([]byte, 8)
	binary.BigEndian.PutUint64(be100, 100)
	f32 := make([]byte, 4)
	binary.LittleEndian.PutUint32(f32, math.Float32bits(7e4))
	// 2**1100 as an x87 80-bit long double in 16 bytes: above float64's range.
	g := make([]byte, 16)
	binary.LittleEndian.PutUint64(g, 1<<63)
	binary.LittleEndian.PutUint16(g[8:], 16383+1100)
	abc := []byte{'a', 0, 0, 0, 'b', 0, 0, 0, 'c', 0, 0, 0} // np.str_('abc'), UCS-4
	tests := []struct {
		dtype   string
		value   []byte
		isArray bool
		to      string
		numpy1  bool
		numpy2  bool
	}{
		{"i8", le64(150), false, "u1", true, false},
		{"u1", []byte{200}, false, "i1", false, false},
		{"u8", le64(1<<63 - 1), false, "i8", true, false},
		{"f8", le64(math.Float64bits(1000)), false, "f2", true, false},
		{"f8", le64(math.Float64bits(1000)), false, "f4", true, false},
		{"f4", f32, false, "f2", false, false},
		{"g", g, false, "f8", false, false},
		{"f8", le64(math.Float64bits(1000)), true, "f4", true, false},
		{">i8", be100, true, "i1", true, false},
		{"i8", le64(100), false, "i1", true, false},
		{"i4", []byte{5, 0, 0, 0}, false, "S10", true, false},
		{"U3", abc, false, "S3", false, false},
		{"i4", []byte{5, 0, 0, 0}, false, "i8", true, true},
	}
	for _, tt := range tests {
		for _, r := range []struct {
			rules tc.NumpyRules
			want  bool
		}{{tc.Numpy1, tt.numpy1}, {tc.Numpy2, tt.numpy2}} {
			got, err := tc.CanCastScalar(tt.dtype, tt.value, tt.isArray, tt.to, tc.CastingSafe, r.rules)
			if err != nil || got != r.want {
				t.Errorf("%v: can_cast(%s scalar % x (array %v), %q, safe) = %v, %v; want %v",
					r.rules, tt.dtype, tt.value, tt.isArray, tt.to, got, err, r.want)
			}
		}
	}
	_, err := tc.CanCastScalar("i8", []byte{1, 2, 3, 4}, false, "i1", tc.CastingSafe, tc.Numpy1)
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCastScalar("i8", nil, false, "i1", tc.CastingSafe, tc.Numpy1)
	wantStatus(t, err, tc.ErrInvalidArgument)
	_, err = tc.CanCastScalar("abc", []byte{1}, false, "i1", tc.CastingSafe, tc.Numpy1)
	wantStatus(t, err, tc.ErrParse)
	// A zero-sized dtype takes an empty value: S0 -> S1 is safe (section 3).
	if ok, err := tc.CanCastScalar("S0", nil, false, "S1", tc.CastingSafe, tc.Numpy2); err != nil || !ok {
		t.Errorf("S0 scalar -> S1: %v, %v", ok, err)
	}
}

func TestPromoteTypes(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"i4", "u4", "int64"},
		{"i8", "u8", "float64"},
		{"i1", "u1", "int16"},
		{"?", "?", "bool"},
		{"e", "i2", "float32"},
		{"f4", "i8", "float64"},
		{"c8", "f8", "complex128"},
		{"g", "c8", "complex256"},
		{">i4", ">i4", "int32"},
		{"i8", "S", "|S21"},
		{"i4", "S3", "|S11"},
		{"f8", "U5", "<U32"},
		{"?", "S", "|S5"},
		{"S5", "U3", "<U5"},
		{"M8[2s]", "M8[3s]", "datetime64[s]"},
		{"M8[D]", "M8[M]", "datetime64[D]"},
		{"m8[s]", "i4", "timedelta64[s]"},
		{"O", "i4", "object"},
	}
	for _, tt := range tests {
		got, err := tc.PromoteTypes(tt.a, tt.b)
		if err != nil || got != tt.want {
			t.Errorf("promote_types(%q, %q) = %q, %v; want %q", tt.a, tt.b, got, err, tt.want)
		}
	}
	for _, pair := range [][2]string{{"M8", "i4"}, {"m8[Y]", "m8[D]"}, {"V8", "V4"}} {
		_, err := tc.PromoteTypes(pair[0], pair[1])
		wantStatus(t, err, tc.ErrUnsupported)
	}
	_, err := tc.PromoteTypes("abc", "i4")
	wantStatus(t, err, tc.ErrParse)
}

func TestMinScalarType(t *testing.T) {
	ints := map[string]string{
		"128": "uint8", "100": "uint8", "-129": "int16", "-1": "int8", "65536": "uint32",
		"18446744073709551616": "object", "-9223372036854775809": "object",
	}
	for v, want := range ints {
		got, err := tc.MinScalarTypePyInt(v)
		if err != nil || got != want {
			t.Errorf("min_scalar_type(%s) = %q, %v; want %q", v, got, err, want)
		}
	}
	_, err := tc.MinScalarTypePyInt("12a")
	wantStatus(t, err, tc.ErrParse)
	floats := []struct {
		v    float64
		want string
	}{{1, "float16"}, {64999, "float16"}, {65000, "float32"}, {65504, "float32"}, {1e39, "float64"},
		{math.Inf(-1), "float16"}, {math.NaN(), "float16"}, {3e38, "float32"}}
	for _, tt := range floats {
		got, err := tc.MinScalarTypePyFloat(tt.v)
		if err != nil || got != tt.want {
			t.Errorf("min_scalar_type(%g) = %q, %v; want %q", tt.v, got, err, tt.want)
		}
	}
	complexes := []struct {
		v    complex128
		want string
	}{{1i, "complex64"}, {1e100i, "complex128"}, {complex(math.NaN(), 0), "complex128"}}
	for _, tt := range complexes {
		got, err := tc.MinScalarTypePyComplex(tt.v)
		if err != nil || got != tt.want {
			t.Errorf("min_scalar_type(%v) = %q, %v; want %q", tt.v, got, err, tt.want)
		}
	}
}

// levelsFile is the measured matrix of section 0 (numpy 2.4 + ml_dtypes 0.6), from which
// the library's table and the docs' are made; go test runs in the package's directory.
const levelsFile = "../../src/np/ml_dtypes_levels.txt"

// readLevels returns the matrix's dtypes, in its row (and column) order, and its rows of
// digits.
func readLevels(t *testing.T) ([]tc.DType, []string) {
	data, err := os.ReadFile(levelsFile)
	if err != nil {
		t.Fatalf("the measured matrix: %v", err)
	}
	var order []tc.DType
	var rows []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			t.Fatalf("%s: %q is not a dtype name and digits", levelsFile, line)
		}
		dtype, err := tc.DTypeFromName(fields[0])
		if err != nil || dtype.String() != fields[0] {
			t.Fatalf("%s: %q is not a dtype's name (%v)", levelsFile, fields[0], err)
		}
		order = append(order, dtype)
		rows = append(rows, fields[1])
	}
	for i, row := range rows {
		if len(row) != len(rows) {
			t.Fatalf("%s: %v has %d digits for %d columns", levelsFile, order[i], len(row), len(rows))
		}
	}
	return order, rows
}

// The measured matrix of section 0, every pair, every level.
func TestCanCastDTypeMatrix(t *testing.T) {
	order, rows := readLevels(t)
	if len(order) < 27 {
		t.Fatalf("%s has %d dtypes, fewer than the 27 measured", levelsFile, len(order))
	}
	// The Casting of each C level, TCAST_CASTING_NO (0) .. TCAST_CASTING_NEVER (5).
	cLevels := append(append([]tc.Casting{}, allLevels...), tc.CastingNever)
	mismatches := 0
	for i, from := range order {
		for j, to := range order {
			level := cLevels[rows[i][j]-'0'] // the digit is the C level
			for _, c := range allLevels {
				got, err := tc.CanCastDType(from, to, c)
				if err != nil || got != (level <= c) {
					mismatches++
					if mismatches <= 20 {
						t.Errorf("can_cast(%v, %v, %v) = %v, %v; the matrix says level %v", from, to, c, got, err, level)
					}
				}
			}
		}
	}
	if mismatches > 20 {
		t.Errorf("... %d mismatches in all", mismatches)
	}
}

func TestCanCastDType(t *testing.T) {
	tests := []struct {
		from, to tc.DType
		casting  tc.Casting
		want     bool
	}{
		{tc.Double, tc.Int32, tc.CastingSafe, false},
		{tc.Double, tc.Int32, tc.CastingUnsafe, true},
		{tc.Int32, tc.Double, tc.CastingSafe, true},
		// STRING is numpy's unsized U; the TF quantized types are their storage integers.
		{tc.Double, tc.String, tc.CastingSafe, true},
		{tc.String, tc.Double, tc.CastingSameKind, false},
		{tc.String, tc.Double, tc.CastingUnsafe, true},
		{tc.String, tc.String, tc.CastingNo, true},
		{tc.QInt8, tc.Int16, tc.CastingSafe, true},
		{tc.QInt8, tc.Int8, tc.CastingNo, true},
		{tc.QUint8, tc.Int8, tc.CastingSafe, false},
		{tc.QInt32, tc.Double, tc.CastingSafe, true},
	}
	for _, tt := range tests {
		got, err := tc.CanCastDType(tt.from, tt.to, tt.casting)
		if err != nil || got != tt.want {
			t.Errorf("CanCastDType(%v, %v, %v) = %v, %v; want %v", tt.from, tt.to, tt.casting, got, err, tt.want)
		}
	}
	_, err := tc.CanCastDType(tc.Undefined, tc.Int32, tc.CastingSafe)
	wantStatus(t, err, tc.ErrInvalidDType)
	_, err = tc.CanCastDType(tc.Double, tc.Int32, tc.CastingNever)
	wantStatus(t, err, tc.ErrInvalidArgument)
}

// CastOptions.Casting refuses what CanCastDType refuses, with ErrCasting.
func TestCastOptionsCastingLevel(t *testing.T) {
	err := tc.CastSlice([]float64{1.5}, make([]int32, 1), &tc.CastOptions{Casting: tc.CastingSafe})
	e := wantStatus(t, err, tc.ErrCasting)
	if !strings.Contains(e.Message, "float64") || !strings.Contains(e.Message, "int32") {
		t.Errorf("message %q", e.Message)
	}
	err = tc.CastSlice([]float64{1.5}, make([]float32, 1), &tc.CastOptions{Casting: tc.CastingSafe})
	wantStatus(t, err, tc.ErrCasting)
	dst := make([]float32, 1)
	if err := tc.CastSlice([]float64{1.5}, dst, &tc.CastOptions{Casting: tc.CastingSameKind}); err != nil || dst[0] != 1.5 {
		t.Errorf("same_kind float64 -> float32: %v, %v", dst, err)
	}
	wide := make([]float64, 1)
	if err := tc.CastSlice([]int32{7}, wide, &tc.CastOptions{Casting: tc.CastingSafe}); err != nil || wide[0] != 7 {
		t.Errorf("safe int32 -> float64: %v, %v", wide, err)
	}
	err = tc.CastSlice([]int32{7}, wide, &tc.CastOptions{Casting: tc.CastingNever})
	wantStatus(t, err, tc.ErrInvalidArgument)
}

// One handle used from many goroutines at once, and Close racing with users.
func TestNumpyDTypeConcurrent(t *testing.T) {
	from, to := mustParse(t, ">M8[1000ns]"), mustParse(t, "M8[us]")
	var wg sync.WaitGroup
	failures := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				level, err := tc.CastingLevel(from, to, tc.Numpy2)
				same, err2 := tc.CanCast(to, to, tc.CastingNo, tc.Numpy1)
				s := from.String()
				if err != nil || err2 != nil || level != tc.CastingEquiv || !same || s != ">M8[1000ns]" {
					failures <- fmt.Sprint(level, err, same, err2, s)
					return
				}
			}
		}()
	}
	wg.Wait()

	shared, err := tc.ParseNumpyDType("i2")
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				ok, err := tc.CanCast(shared, to, tc.CastingUnsafe, tc.Numpy2)
				if err != nil {
					if !tc.IsStatus(err, tc.ErrNullArgument) {
						failures <- "after Close: " + err.Error()
					}
					return // closed
				}
				if !ok {
					failures <- "i2 -> M8[us] unsafe was false"
					return
				}
			}
		}()
	}
	shared.Close()
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// Handles dropped without Close are freed by their finalizer. This exercises that path
// (a double free or a use after free would crash here); it cannot see the C memory.
func TestNumpyDTypeFinalizer(t *testing.T) {
	for i := 0; i < 1000; i++ {
		if _, err := tc.ParseNumpyDType("i4,f8"); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
	d := mustParse(t, "f2")
	d.Close()
	runtime.GC() // Close removed the finalizer: nothing is freed twice
	if d.String() != "NumpyDType(closed)" {
		t.Errorf("closed: %q", d.String())
	}
}
