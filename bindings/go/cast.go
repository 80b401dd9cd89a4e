// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// #include "tensorcast.h"
import "C"

import (
	"math"
	"strconv"
	"unsafe"
)

// RoundMode is ONNX Cast's round_mode, used for FLOAT8E8M0 targets only.
type RoundMode int32

// The round modes (TCAST_ROUND_*). The zero value is the ONNX default, RoundUp.
const (
	RoundUp      RoundMode = C.TCAST_ROUND_UP      // the next power of two when any mantissa bit is set
	RoundDown    RoundMode = C.TCAST_ROUND_DOWN    // floor to a power of two
	RoundNearest RoundMode = C.TCAST_ROUND_NEAREST // nearest power of two, ties up
)

// StringFormat chooses how numbers are written as text.
type StringFormat int32

// The text formats (TCAST_FORMAT_*). The zero value is FormatShortest.
const (
	// FormatShortest is the shortest text that reads back to the same value, laid out
	// as numpy's str() ("0.1", "1e-05", "100.0"); NaN and infinities are "NaN", "INF", "-INF".
	FormatShortest StringFormat = C.TCAST_FORMAT_SHORTEST
	// FormatPrintf8G is C's "%.8g" ("%.17g" for Double), as onnxruntime writes.
	FormatPrintf8G StringFormat = C.TCAST_FORMAT_PRINTF_8G
)

// Casting is a numpy casting level: the level argument of the can_cast functions
// (CanCast, CanCastDType, ...), the result of CastingLevel, and CastOptions.Casting.
// The order is numpy's, strictest first, so `level <= CastingSafe` means "allowed at
// safe". The zero value, CastingDefault, is not a level: it is what a CastOptions
// literal that does not name Casting holds, and means the cast's default, CastingUnsafe.
//
// A Casting's number is the C level (the header's TCAST_CASTING_*) plus one, so that
// the zero value can mean "not set": CastingNo is 1 where TCAST_CASTING_NO is 0. The
// binding converts exactly in both directions; use the constants, ParseCasting or
// String, not the numbers.
type Casting int32

// The casting levels, strictest first, after the zero value.
const (
	// CastingDefault is the zero value: in CastOptions the cast's default,
	// CastingUnsafe (tcast_cast_options_default's casting). It is not a level: the
	// can_cast functions refuse it with ErrInvalidArgument.
	CastingDefault  Casting = 0
	CastingNo       Casting = C.TCAST_CASTING_NO + 1        // numpy's "no": identical dtypes only
	CastingEquiv    Casting = C.TCAST_CASTING_EQUIV + 1     // "equiv": byte order may differ
	CastingSafe     Casting = C.TCAST_CASTING_SAFE + 1      // "safe": every value is kept
	CastingSameKind Casting = C.TCAST_CASTING_SAME_KIND + 1 // "same_kind": safe, or within a kind
	CastingUnsafe   Casting = C.TCAST_CASTING_UNSAFE + 1    // "unsafe": any cast (the cast's default)
	// CastingNever is what CastingLevel returns when numpy allows the cast at no level,
	// not even "unsafe" (for example a two-field struct to a plain int32); it sorts after
	// CastingUnsafe. It is a result only: as an argument it is ErrInvalidArgument.
	CastingNever Casting = C.TCAST_CASTING_NEVER + 1
)

// castingFromC converts a level the library returned (TCAST_CASTING_NO ..
// TCAST_CASTING_NEVER) to a Casting.
func castingFromC(level int32) Casting { return Casting(int64(level) + 1) }

// toC converts c to the C level, and false when c has no C value of int32 range
// (which no valid level lacks: the library refuses the values it does not know).
func (c Casting) toC() (int32, bool) {
	v := int64(c) - 1
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}

// String returns "no", "equiv", "safe", "same_kind" or "unsafe" (numpy's spellings),
// "never" for CastingNever and "default" for CastingDefault.
func (c Casting) String() string {
	switch c {
	case CastingDefault:
		return "default"
	case CastingNo:
		return "no"
	case CastingEquiv:
		return "equiv"
	case CastingSafe:
		return "safe"
	case CastingSameKind:
		return "same_kind"
	case CastingUnsafe:
		return "unsafe"
	case CastingNever:
		return "never"
	}
	return "Casting(" + strconv.Itoa(int(c)) + ")"
}

// CastOptions mirrors tcast_cast_options. The zero value, like a nil *CastOptions,
// gives the library's defaults: a literal sets only the fields it names
// (&CastOptions{Threads: 2} still allows every cast). Values outside the documented
// sets (an unknown round mode, a negative Threads, ...) fail with ErrInvalidArgument.
type CastOptions struct {
	// NoSaturate sets ONNX's saturate=0: float8 targets then turn overflow and
	// infinities into NaN or infinity instead of the largest finite value
	// (FLOAT8E8M0 also values below 2^-127, zero and negatives into NaN).
	// Ignored for other targets.
	NoSaturate bool
	// RoundMode applies to FLOAT8E8M0 targets only.
	RoundMode RoundMode
	// StringFormat applies to number -> text conversions.
	StringFormat StringFormat
	// Casting, when set, refuses with ErrCasting and numpy's message every cast
	// CanCastDType refuses at that level (float64 -> int32 under CastingSafe):
	// Casting: CastingSafe. The zero value, CastingDefault, is the library's
	// default, CastingUnsafe, which refuses nothing. CastingNever and unknown values
	// are ErrInvalidArgument.
	Casting Casting
	// Threads: 0 or 1 run on the calling goroutine's thread only; n > 1 lets the
	// library use up to n threads, with results bit-identical to one thread.
	Threads int
}

// DefaultCastOptions returns the library's defaults (tcast_cast_options_default) with
// every field spelled out: saturating, RoundUp, FormatShortest, Casting CastingUnsafe,
// Threads 0. Casting with it is casting with a nil *CastOptions or a zero CastOptions;
// it is a starting point for options that change one field of a complete set.
func DefaultCastOptions() CastOptions {
	return CastOptions{RoundMode: RoundUp, StringFormat: FormatShortest, Casting: CastingUnsafe}
}

// Tensor describes a tensor's memory for the lower-level functions (CastTensor,
// ExpandTensor, CastTensorToStrings, BitcastTensor). It cannot hold STRING elements:
// use the []string functions for text.
type Tensor struct {
	// Data holds the elements, host byte order, sub-byte dtypes packed. It must hold
	// at least the bytes Shape (and Strides) need; an output holds exactly
	// TensorBytes(DType, Shape) bytes or more.
	Data  []byte
	DType DType
	// Shape gives the extents; nil or empty is a scalar of one element.
	Shape []int64
	// Strides, in elements, are optional and for inputs only: nil means C-contiguous.
	// When given they have one entry per dimension, each >= 0 (0 repeats an element).
	// Not allowed for packed sub-byte dtypes (unpacked ones, CastTensorSubByte's, may
	// have them).
	Strides []int64
}

func refuseString(op string, dtypes ...DType) error {
	for _, d := range dtypes {
		if d == String {
			return newError(ErrUnsupported, "%s: STRING elements cannot be held in a byte slice; use ParseStrings, CastToStrings or ExpandStrings", op)
		}
	}
	return nil
}

// CastTensor converts src into dst element by element (ONNX Cast; tcast_cast).
// dst.Shape must equal src.Shape, dst.DType is the target and dst.Strides must be nil;
// the two buffers must not overlap. opts may be nil.
func CastTensor(src, dst Tensor, opts *CastOptions) error {
	if err := refuseString("CastTensor", src.DType, dst.DType); err != nil {
		return err
	}
	return castTensor(src, dst, opts)
}

// SubByteLayout says how CastTensorSubByte's sub-byte tensors (Int4, Uint4, Float4E2M1,
// Int2, Uint2, Float6E2M3, Float6E3M2) hold their elements (TCAST_SUB_BYTE_*).
type SubByteLayout int32

const (
	// SubBytePacked is the layout of every other function: packed, element 0 in the
	// lowest bits (CastTensorSubByte with it is CastTensor).
	SubBytePacked SubByteLayout = C.TCAST_SUB_BYTE_PACKED
	// SubByteUnpacked is one element per byte, as ml_dtypes' arrays hold them: the code
	// in the low bits, read with the high bits ignored (0xF1 as Int4 is 1) and written
	// with them 0 (Int4 -1 is 0x0F, Float4E2M1 -1.0 is 0x0A). Such a tensor's Data
	// holds one byte per element (TensorBytes(Uint8, Shape)), and an input may have
	// Strides.
	SubByteUnpacked SubByteLayout = C.TCAST_SUB_BYTE_UNPACKED
)

// CastTensorSubByte is CastTensor with the sub-byte tensors of the call, src and dst
// alike, held as layout says (tcast_cast_sub_byte); tensors of other dtypes are the same
// in both layouts, and the results are CastTensor's. A layout other than the two is
// ErrInvalidArgument; with SubByteUnpacked a Data shorter than the element count is
// ErrBufferTooSmall.
func CastTensorSubByte(src, dst Tensor, opts *CastOptions, layout SubByteLayout) error {
	if err := refuseString("CastTensorSubByte", src.DType, dst.DType); err != nil {
		return err
	}
	return castTensorSubByte(src, dst, opts, layout)
}

// CastBytes converts the contiguous tensor src of srcType and shape into dst as
// dstType. dst must hold at least TensorBytes(dstType, shape) bytes. opts may be nil.
func CastBytes(src []byte, srcType DType, shape []int64, dst []byte, dstType DType, opts *CastOptions) error {
	if len(shape) == 1 {
		// The common 1-D case, without building two Tensor descriptors.
		if err := refuseString("CastTensor", srcType, dstType); err != nil {
			return err
		}
		return castFlat(src, srcType, shape[0], dst, dstType, shape[0], opts)
	}
	return CastTensor(Tensor{Data: src, DType: srcType, Shape: shape},
		Tensor{Data: dst, DType: dstType, Shape: shape}, opts)
}

// CastSlice converts src into dst, which must have the same length (else
// ErrInvalidShape). The dtypes follow from the element types (DTypeOf).
func CastSlice[T, U Native](src []T, dst []U, opts *CastOptions) error {
	return castFlat(AsBytes(src), DTypeOf[T](), int64(len(src)), AsBytes(dst), DTypeOf[U](), int64(len(dst)), opts)
}

// CastToBytes converts src into a new byte slice of dtype to (1-D, len(src) elements,
// sub-byte dtypes packed). A result larger than the process can allocate is
// ErrOutOfMemory, returned before anything is allocated.
func CastToBytes[T Native](src []T, to DType, opts *CastOptions) ([]byte, error) {
	if err := refuseString("CastToBytes", to); err != nil {
		return nil, err
	}
	shape := []int64{int64(len(src))}
	n, err := TensorBytes(to, shape)
	if err != nil {
		return nil, err
	}
	if err := checkAlloc("CastToBytes", uint64(n)); err != nil {
		return nil, err
	}
	dst := make([]byte, n)
	if err := CastTensor(Tensor{Data: AsBytes(src), DType: DTypeOf[T](), Shape: shape},
		Tensor{Data: dst, DType: to, Shape: shape}, opts); err != nil {
		return nil, err
	}
	return dst, nil
}

// CastFromBytes converts the n elements of dtype from in src (1-D, sub-byte dtypes
// packed) into a new []U. Before anything is allocated, src must hold the n elements
// (else ErrBufferTooSmall), and a result larger than the process can allocate is
// ErrOutOfMemory.
func CastFromBytes[U Native](src []byte, from DType, n int, opts *CastOptions) ([]U, error) {
	if n < 0 {
		return nil, newError(ErrInvalidShape, "CastFromBytes: negative element count %d", n)
	}
	if err := refuseString("CastFromBytes", from); err != nil {
		return nil, err
	}
	shape := []int64{int64(n)}
	input := Tensor{Data: src, DType: from, Shape: shape}
	if err := checkInput(input, "CastFromBytes: input"); err != nil {
		return nil, err
	}
	var zero U
	size, err := checkResultBytes("CastFromBytes", uint64(n), uint64(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, err
	}
	if err := checkAlloc("CastFromBytes", size); err != nil {
		return nil, err
	}
	if from == Bool && DTypeOf[U]() == Bool {
		// BOOL -> BOOL copies bytes, and a byte other than 0 or 1 is not a valid Go
		// bool: read the input as UINT8, which the cast maps to 0 and 1.
		input.DType = Uint8
	}
	dst := make([]U, n)
	if err := CastTensor(input, Tensor{Data: AsBytes(dst), DType: DTypeOf[U](), Shape: shape}, opts); err != nil {
		return nil, err
	}
	return dst, nil
}

// Float32ToFloat16 rounds each value to IEEE binary16 (nearest, ties to even) and
// returns the bit patterns as a []uint16, for code that stores them so. The typed
// path is CastSlice into a []Float16Bits.
func Float32ToFloat16(src []float32) ([]uint16, error) { return castToUint16s(src, Float16) }

// Float16ToFloat32 widens IEEE binary16 bit patterns to float32 (exact).
func Float16ToFloat32(src []uint16) ([]float32, error) {
	return CastFromBytes[float32](AsBytes(src), Float16, len(src), nil)
}

// Float32ToBFloat16 rounds each value to bfloat16 (nearest, ties to even) and returns
// the bit patterns.
func Float32ToBFloat16(src []float32) ([]uint16, error) { return castToUint16s(src, BFloat16) }

// BFloat16ToFloat32 widens bfloat16 bit patterns to float32 (exact).
func BFloat16ToFloat32(src []uint16) ([]float32, error) {
	return CastFromBytes[float32](AsBytes(src), BFloat16, len(src), nil)
}

func castToUint16s(src []float32, to DType) ([]uint16, error) {
	dst := make([]uint16, len(src))
	shape := []int64{int64(len(src))}
	if err := castTensor(Tensor{Data: AsBytes(src), DType: Float, Shape: shape},
		Tensor{Data: AsBytes(dst), DType: to, Shape: shape}, nil); err != nil {
		return nil, err
	}
	return dst, nil
}
