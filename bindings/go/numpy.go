// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// #include "tensorcast.h"
import "C"

import (
	"runtime"
	"strconv"
	"sync"
	"unsafe"
)

// NumpyRules chooses which numpy the casting queries reproduce (TCAST_NUMPY_*). Its
// values are the C ones; the zero value is not a rule set and fails with
// ErrInvalidArgument, so the version is always stated.
type NumpyRules int32

const (
	// Numpy1 is numpy 1.x as documented for 1.22: Python and numpy scalars (and 0-d
	// arrays) are judged by their value, structured dtypes are matched by field name.
	Numpy1 NumpyRules = C.TCAST_NUMPY_1
	// Numpy2 is numpy >= 2 (NEP 50): the can_cast functions refuse Python scalars (with
	// ErrUnsupported and numpy's TypeError text), numpy scalars are judged by their
	// dtype only, structured dtypes are matched by position.
	Numpy2 NumpyRules = C.TCAST_NUMPY_2
)

// String returns "Numpy1", "Numpy2" or "NumpyRules(n)".
func (r NumpyRules) String() string {
	switch r {
	case Numpy1:
		return "Numpy1"
	case Numpy2:
		return "Numpy2"
	}
	return "NumpyRules(" + strconv.Itoa(int(r)) + ")"
}

// cLevel converts a level argument of the can_cast functions to its C value.
func (c Casting) cLevel() (C.int32_t, error) {
	level, ok := c.toC()
	if c < CastingNo || c > CastingUnsafe || !ok {
		return 0, newError(ErrInvalidArgument, "casting is %v: expected CastingNo .. CastingUnsafe", c)
	}
	return C.int32_t(level), nil
}

// ParseCasting returns the level numpy spells name: exactly "no", "equiv", "safe",
// "same_kind" or "unsafe" (tcast_np_casting_from_name). Anything else, other case
// included, is ErrInvalidArgument with numpy 2's message (and CastingNever, which no
// function takes as an argument).
func ParseCasting(name string) (Casting, error) {
	level, err := npCastingFromName(name)
	if err != nil {
		return CastingNever, err
	}
	return castingFromC(level), nil
}

// NumpyDType is a parsed numpy dtype spec (a tcast_np_dtype handle): "<i4", "S5",
// "M8[ns]", "i4,(2,)f8", "float64", ... Parse it once and use it in many queries.
//
// The handle is immutable: one NumpyDType may be used from many goroutines at once.
// Close frees it; it waits for calls that are using the handle to return, and later
// calls fail with ErrNullArgument. A finalizer frees a handle that is garbage
// collected without Close, but as the C memory is invisible to the garbage collector,
// call Close (typically with defer) when you are done.
type NumpyDType struct {
	mu sync.RWMutex      // read-held by calls using h, write-held by Close
	h  *C.tcast_np_dtype // nil after Close
}

// ParseNumpyDType parses a numpy dtype spec as numpy.dtype(spec) does, accepting what
// numpy 1.22 or numpy 2 accepts (tcast_np_dtype_parse); a spelling only one of them
// knows is refused later, by the queries made under the other's rules. A spec that
// does not parse is ErrParse with numpy's message (`data type 'abc' not understood`,
// `Invalid datetime metadata string "[s"`), numpy's ValueErrors included (a datetime
// divisor that does not divide evenly, "M8[D/7]"), as docs/semantics-can-cast.md maps them.
func ParseNumpyDType(spec string) (*NumpyDType, error) {
	h, err := npDTypeParse(spec)
	if err != nil {
		return nil, err
	}
	d := &NumpyDType{h: h}
	runtime.SetFinalizer(d, (*NumpyDType).finalize)
	return d, nil
}

func (d *NumpyDType) finalize() {
	// Unreachable, so nobody holds the lock.
	if d.h != nil {
		npDTypeFree(d.h)
		d.h = nil
	}
}

// Close frees the handle. It is safe to call more than once, and on nil; it always
// returns nil (the error result lets a NumpyDType be used as an io.Closer).
func (d *NumpyDType) Close() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.h != nil {
		npDTypeFree(d.h)
		d.h = nil
		runtime.SetFinalizer(d, nil)
	}
	return nil
}

// String returns Python's str(numpy.dtype(spec)) for the handle (tcast_np_dtype_str):
// "int32", ">i4", "|S5", "<U3", "datetime64[ns]", "[('f0', '<i4'), ('f1', '<f8')]".
// Where numpy 1 and 2 read the spec differently it prints numpy 2's reading. A nil or
// closed handle prints as "NumpyDType(closed)".
func (d *NumpyDType) String() string {
	h, unlock, err := lockHandles("dtype", d)
	if err != nil {
		return "NumpyDType(closed)"
	}
	defer unlock()
	s, err := npDTypeStr(h[0])
	if err != nil {
		return "NumpyDType(" + err.Error() + ")"
	}
	return s
}

// lockHandles read-locks the distinct handles among ds, in address order so that two
// goroutines locking the same pair cannot deadlock with a pending Close, and returns
// their C pointers (in the order of ds) and the function that unlocks them. A nil or
// closed handle is ErrNullArgument, named by what (and its position when there are two).
func lockHandles(what string, ds ...*NumpyDType) ([]*C.tcast_np_dtype, func(), error) {
	names := []string{what}
	if len(ds) == 2 {
		names = []string{"from", "to"}
	}
	for i, d := range ds {
		if d == nil {
			return nil, nil, newError(ErrNullArgument, "%s is a nil *NumpyDType", names[i])
		}
	}
	order := append([]*NumpyDType{}, ds...)
	if len(order) == 2 {
		if order[0] == order[1] {
			order = order[:1]
		} else if uintptr(unsafe.Pointer(order[1])) < uintptr(unsafe.Pointer(order[0])) {
			order[0], order[1] = order[1], order[0]
		}
	}
	for _, d := range order {
		d.mu.RLock()
	}
	unlock := func() {
		for _, d := range order {
			d.mu.RUnlock()
		}
	}
	hs := make([]*C.tcast_np_dtype, len(ds))
	for i, d := range ds {
		if d.h == nil {
			unlock()
			return nil, nil, newError(ErrNullArgument, "%s is a closed NumpyDType", names[i])
		}
		hs[i] = d.h
	}
	return hs, unlock, nil
}

// CastingLevel returns the lowest level at which numpy casts from to to
// (tcast_np_casting_level): CastingNo .. CastingUnsafe, or CastingNever when no level
// allows it. An unsized S, U or V target means "that kind, sized for the source", as in
// numpy.can_cast. Errors: ErrNullArgument (a nil or closed handle), ErrInvalidArgument
// (bad rules), ErrParse (a spelling these rules refuse, e.g. "int0" under Numpy2).
func CastingLevel(from, to *NumpyDType, rules NumpyRules) (Casting, error) {
	h, unlock, err := lockHandles("", from, to)
	if err != nil {
		return CastingNever, err
	}
	defer unlock()
	level, err := npCastingLevel(h[0], h[1], rules)
	if err != nil {
		return CastingNever, err
	}
	return castingFromC(level), nil
}

// CanCast is numpy.can_cast(from, to, casting) on parsed dtypes (tcast_np_can_cast):
// CastingLevel(from, to, rules) <= casting. casting must be CastingNo .. CastingUnsafe
// (else ErrInvalidArgument); other errors as CastingLevel.
func CanCast(from, to *NumpyDType, casting Casting, rules NumpyRules) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	h, unlock, err := lockHandles("", from, to)
	if err != nil {
		return false, err
	}
	defer unlock()
	return npCanCast(h[0], h[1], level, rules)
}

// CanCastStr is numpy.can_cast(from, to, casting) on spec strings and numpy's casting
// name (tcast_np_can_cast_str), e.g. CanCastStr("i8", "f4", "same_kind", Numpy2).
// Errors: ErrParse for a bad to (the parser's message) or from (numpy's
// `did not understand one of the types; 'None' not accepted`, then the parser's
// message), ErrInvalidArgument for a bad casting name (numpy's message for these rules).
func CanCastStr(from, to, casting string, rules NumpyRules) (bool, error) {
	return npCanCastStr(from, to, casting, rules)
}

// CanCastPyInt is numpy.can_cast(int(decimal), to, casting): a Python int of any size,
// given as decimal text (an optional sign and digits; strconv.FormatInt or
// (*big.Int).String give it). Under Numpy1 the value decides (numpy 1.22's value-based
// rule: CanCastPyInt("100", "i1", CastingSafe, Numpy1) is true, "300" is false); under
// Numpy2 it is ErrUnsupported with numpy 2's TypeError text. Errors: ErrParse (a bad
// decimal or to), ErrInvalidArgument (casting, rules).
func CanCastPyInt(decimal, to string, casting Casting, rules NumpyRules) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	return npCanCastPyInt(decimal, to, level, rules)
}

// CanCastPyFloat is numpy.can_cast(float(value), to, casting); rules and errors as for
// CanCastPyInt.
func CanCastPyFloat(value float64, to string, casting Casting, rules NumpyRules) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	return npCanCastPyFloat(value, to, level, rules)
}

// CanCastPyComplex is numpy.can_cast(complex(value), to, casting); rules and errors as
// for CanCastPyInt.
func CanCastPyComplex(value complex128, to string, casting Casting, rules NumpyRules) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	return npCanCastPyComplex(value, to, level, rules)
}

// CanCastPyBool is numpy.can_cast(bool(value), to, casting); rules and errors as for
// CanCastPyInt (numpy 2 refuses Python bools too).
func CanCastPyBool(value bool, to string, casting Casting, rules NumpyRules) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	return npCanCastPyBool(value, to, level, rules)
}

// CanCastScalar is numpy.can_cast(x, to, casting) for a numpy scalar (isArray false,
// e.g. np.int64(150)) or a 0-d array (isArray true) of the given dtype spec, whose value
// is value: exactly the dtype's itemsize in bytes, in the dtype's byte order (for "<i8",
// binary.LittleEndian.PutUint64). Under Numpy1 the value decides for numeric dtypes;
// under Numpy2 only the dtype does. Errors: ErrParse (dtype, to), ErrInvalidArgument
// (casting, rules, a value whose length is not the itemsize).
func CanCastScalar(dtype string, value []byte, isArray bool, to string, casting Casting, rules NumpyRules) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	return npCanCastScalar(dtype, value, isArray, to, level, rules)
}

// PromoteTypes returns str(numpy.promote_types(a, b)), in native byte order and numpy 2's
// reading of the specs: PromoteTypes("i4", "u4") is "int64", ("i8", "S") "<S21".
// Errors: ErrParse, ErrUnsupported when numpy finds no common dtype (datetime64 and
// int32).
func PromoteTypes(a, b string) (string, error) { return npPromoteTypes(a, b) }

// MinScalarTypePyInt returns str(numpy.min_scalar_type(int(decimal))): "uint8" for
// "128", "int16" for "-129", "object" beyond 64 bits. Errors: ErrParse (a bad decimal).
func MinScalarTypePyInt(decimal string) (string, error) { return npMinScalarTypePyInt(decimal) }

// MinScalarTypePyFloat returns str(numpy.min_scalar_type(value)): "float16", "float32"
// or "float64".
func MinScalarTypePyFloat(value float64) (string, error) { return npMinScalarTypePyFloat(value) }

// MinScalarTypePyComplex returns str(numpy.min_scalar_type(value)): "complex64" or
// "complex128".
func MinScalarTypePyComplex(value complex128) (string, error) {
	return npMinScalarTypePyComplex(value)
}

// CanCastDType is numpy.can_cast on tensorcast dtypes (tcast_can_cast), as numpy 2.4 with
// ml_dtypes 0.6 answers it: numpy's rules for the classic types, ml_dtypes' registered
// casts for the ML types (Float8E4M3FN, Int4, ...), String as numpy's unsized "U", the TF
// quantized types as their storage integers. It is the check a cast makes for
// CastOptions.Casting. Errors: ErrInvalidDType, ErrInvalidArgument (casting not
// CastingNo .. CastingUnsafe).
func CanCastDType(from, to DType, casting Casting) (bool, error) {
	level, err := casting.cLevel()
	if err != nil {
		return false, err
	}
	return dtypeCanCast(from, to, level)
}
