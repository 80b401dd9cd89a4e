// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import (
	"errors"
	"math"
	"testing"
	"unsafe"
)

// These tests look at what the binding hands to C, which the black-box tests cannot see:
// defaultOptions is what tcast_cast_options_init fills for the package's struct size.

func TestCastingConvertsExactlyToTheCLevels(t *testing.T) {
	// docs/c-api.md section 5: TCAST_CASTING_NO 0 .. TCAST_CASTING_UNSAFE 4, NEVER 5. A
	// Go Casting is the C level plus one, the zero value being CastingDefault.
	levels := []Casting{CastingNo, CastingEquiv, CastingSafe, CastingSameKind, CastingUnsafe, CastingNever}
	for want, c := range levels {
		if level, ok := c.toC(); !ok || level != int32(want) {
			t.Errorf("%v.toC() = %d, %v; want %d", c, level, ok, want)
		}
		if back := castingFromC(int32(want)); back != c {
			t.Errorf("castingFromC(%d) = %v, want %v", want, back, c)
		}
	}
	// What the library reads from a name is the same C value.
	for _, c := range levels[:5] {
		level, err := npCastingFromName(c.String())
		if want, _ := c.toC(); err != nil || level != want {
			t.Errorf("tcast_np_casting_from_name(%q) = %d, %v; want %d", c.String(), level, err, want)
		}
	}
	if CastingDefault != 0 {
		t.Errorf("CastingDefault = %d, want the zero value", int32(CastingDefault))
	}
	// Values with no int32 C level are refused in Go, not wrapped.
	if _, ok := Casting(math.MinInt32).toC(); ok {
		t.Errorf("Casting(MinInt32).toC() reports a C level")
	}
}

func TestDefaultCastOptionsMatchTheLibrary(t *testing.T) {
	d := DefaultCastOptions()
	if d.Casting == CastingDefault {
		t.Fatal("DefaultCastOptions().Casting is CastingDefault; it should spell out the level")
	}
	level, ok := d.Casting.toC()
	if !ok || d.NoSaturate != (defaultOptions.saturate == 0) ||
		int32(d.RoundMode) != int32(defaultOptions.round_mode) ||
		int32(d.StringFormat) != int32(defaultOptions.string_format) ||
		level != int32(defaultOptions.casting) ||
		int64(d.Threads) != int64(defaultOptions.threads) {
		t.Errorf("DefaultCastOptions() = %+v (casting %v, C level %d), tcast_cast_options_init = %+v", d, d.Casting, level, defaultOptions)
	}
	if uintptr(defaultOptions.struct_size) != unsafe.Sizeof(defaultOptions) {
		t.Errorf("tcast_cast_options_init set struct_size %d for a %d-byte struct", defaultOptions.struct_size, unsafe.Sizeof(defaultOptions))
	}
	// The options struct built from it is the library's default struct, field by field.
	var built = defaultOptions
	built.saturate, built.round_mode, built.string_format, built.casting, built.threads = -1, -1, -1, -1, -1
	if err := fillOptions(&built, &d); err != nil {
		t.Fatal(err)
	}
	if built != defaultOptions {
		t.Errorf("fillOptions(DefaultCastOptions()) = %+v, want %+v", built, defaultOptions)
	}
}

func TestZeroCastOptionsAreTheDefaults(t *testing.T) {
	zero, err := castOptions(&CastOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultCastOptions()
	explicit, err := castOptions(&d)
	if err != nil {
		t.Fatal(err)
	}
	if zero != explicit {
		t.Errorf("CastOptions{} gives %+v, DefaultCastOptions() %+v", zero, explicit)
	}
	if zero.casting != defaultOptions.casting || castingFromC(int32(zero.casting)) != CastingUnsafe {
		t.Errorf("CastOptions{} passes casting %d, want UNSAFE (%d)", zero.casting, defaultOptions.casting)
	}
	safe, err := castOptions(&CastOptions{Casting: CastingSafe})
	if err != nil || castingFromC(int32(safe.casting)) != CastingSafe {
		t.Errorf("Casting: CastingSafe passes casting %d, %v; want %d", safe.casting, err, CastingSafe)
	}
	if _, err := castOptions(&CastOptions{Casting: math.MinInt32}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Casting: MinInt32: %v, want ErrInvalidArgument", err)
	}
}

// A nil *CastOptions reaches tcast_cast as a NULL pointer: the shims see with_options 0
// (gotc_cast_with then passes NULL), and cOptions, used by the text functions, is nil.
func TestNilOptionsArePassedAsNull(t *testing.T) {
	v, err := castOptions(nil)
	if err != nil || v.with_options != 0 {
		t.Errorf("castOptions(nil) = %+v, %v; want with_options 0", v, err)
	}
	p, err := cOptions(nil)
	if err != nil || p != nil {
		t.Errorf("cOptions(nil) = %p, %v; want a nil pointer", p, err)
	}
	v, err = castOptions(&CastOptions{})
	if err != nil || v.with_options != 1 {
		t.Errorf("castOptions(&CastOptions{}) = %+v, %v; want with_options 1", v, err)
	}
	p, err = cOptions(&CastOptions{})
	if err != nil || p == nil || *p != defaultOptions {
		t.Errorf("cOptions(&CastOptions{}) = %+v, %v; want the default struct", p, err)
	}
}

func TestDefaultMxOptionsMatchTheLibrary(t *testing.T) {
	lib, err := mxLibraryDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if d := DefaultMxOptions(); d != lib {
		t.Errorf("DefaultMxOptions() = %+v, tcast_mx_options_init fills %+v", d, lib)
	}
}
