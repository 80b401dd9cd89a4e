//go:build cgo

package tensorcast

import "testing"

// These tests look at what the binding hands to C, which the black-box tests cannot see:
// defaultOptions is tcast_cast_options_default() as the C library returns it.

func TestCastingValuesAreTheCLevels(t *testing.T) {
	// docs/c-api.md section 5: TCAST_CASTING_NO 0 .. TCAST_CASTING_UNSAFE 4, NEVER 5.
	levels := []Casting{CastingNo, CastingEquiv, CastingSafe, CastingSameKind, CastingUnsafe, CastingNever}
	for want, c := range levels {
		if int32(c) != int32(want) {
			t.Errorf("%v = %d, want %d", c, int32(c), want)
		}
	}
	// And what the library reads from a name is the same value, with nothing added.
	for _, c := range levels[:5] {
		level, err := npCastingFromName(c.String())
		if err != nil || Casting(level) != c {
			t.Errorf("tcast_np_casting_from_name(%q) = %d, %v; want %d", c.String(), level, err, int32(c))
		}
	}
}

func TestDefaultCastOptionsMatchTheLibrary(t *testing.T) {
	d := DefaultCastOptions()
	if d.Casting == nil {
		t.Fatal("DefaultCastOptions().Casting is nil; it should spell out the level")
	}
	if d.NoSaturate != (defaultOptions.saturate == 0) ||
		int32(d.RoundMode) != int32(defaultOptions.round_mode) ||
		int32(d.StringFormat) != int32(defaultOptions.string_format) ||
		int32(*d.Casting) != int32(defaultOptions.casting) ||
		int64(d.Threads) != int64(defaultOptions.threads) {
		t.Errorf("DefaultCastOptions() = %+v (casting %v), tcast_cast_options_default() = %+v", d, *d.Casting, defaultOptions)
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
	// Each call gives its own level, so changing one result changes no other.
	*d.Casting = CastingSafe
	if again := DefaultCastOptions(); *again.Casting != CastingUnsafe {
		t.Errorf("DefaultCastOptions shares its Casting pointer")
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
	if Casting(zero.casting) != CastingUnsafe {
		t.Errorf("CastOptions{} passes casting %d, want UNSAFE (%d)", zero.casting, CastingUnsafe)
	}
	safe, err := castOptions(&CastOptions{Casting: CastingSafe.Ptr()})
	if err != nil || Casting(safe.casting) != CastingSafe {
		t.Errorf("Casting: CastingSafe.Ptr() passes casting %d, %v; want %d", safe.casting, err, CastingSafe)
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
