// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// #include "tensorcast.h"
import "C"

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// DType is an element type: an ONNX TensorProto.DataType code, or one of TensorFlow's
// quantized storage types (100-104).
type DType int32

// The dtypes, with the values of the header's TCAST_DTYPE_* macros.
const (
	Undefined      DType = C.TCAST_DTYPE_UNDEFINED // never valid as an argument
	Float          DType = C.TCAST_DTYPE_FLOAT     // IEEE binary32 (Go float32)
	Uint8          DType = C.TCAST_DTYPE_UINT8
	Int8           DType = C.TCAST_DTYPE_INT8
	Uint16         DType = C.TCAST_DTYPE_UINT16
	Int16          DType = C.TCAST_DTYPE_INT16
	Int32          DType = C.TCAST_DTYPE_INT32
	Int64          DType = C.TCAST_DTYPE_INT64
	String         DType = C.TCAST_DTYPE_STRING // text; see ParseStrings, CastToStrings and ExpandStrings
	Bool           DType = C.TCAST_DTYPE_BOOL   // one byte, 0 or 1 (Go bool)
	Float16        DType = C.TCAST_DTYPE_FLOAT16
	Double         DType = C.TCAST_DTYPE_DOUBLE // IEEE binary64 (Go float64)
	Uint32         DType = C.TCAST_DTYPE_UINT32
	Uint64         DType = C.TCAST_DTYPE_UINT64
	Complex64      DType = C.TCAST_DTYPE_COMPLEX64  // two FLOATs (Go complex64)
	Complex128     DType = C.TCAST_DTYPE_COMPLEX128 // two DOUBLEs (Go complex128)
	BFloat16       DType = C.TCAST_DTYPE_BFLOAT16
	Float8E4M3FN   DType = C.TCAST_DTYPE_FLOAT8E4M3FN
	Float8E4M3FNUZ DType = C.TCAST_DTYPE_FLOAT8E4M3FNUZ
	Float8E5M2     DType = C.TCAST_DTYPE_FLOAT8E5M2
	Float8E5M2FNUZ DType = C.TCAST_DTYPE_FLOAT8E5M2FNUZ
	Uint4          DType = C.TCAST_DTYPE_UINT4 // packed two per byte, element 0 in the low bits
	Int4           DType = C.TCAST_DTYPE_INT4  // packed two per byte, element 0 in the low bits
	Float4E2M1     DType = C.TCAST_DTYPE_FLOAT4E2M1
	Float8E8M0     DType = C.TCAST_DTYPE_FLOAT8E8M0
	Uint2          DType = C.TCAST_DTYPE_UINT2      // packed four per byte, element 0 in the low bits
	Int2           DType = C.TCAST_DTYPE_INT2       // packed four per byte, element 0 in the low bits
	Float6E2M3     DType = C.TCAST_DTYPE_FLOAT6E2M3 // packed four per three bytes
	Float6E3M2     DType = C.TCAST_DTYPE_FLOAT6E3M2 // packed four per three bytes
	QInt8          DType = C.TCAST_DTYPE_QINT8      // TensorFlow's quantized int8 storage
	QUint8         DType = C.TCAST_DTYPE_QUINT8     // TensorFlow's quantized uint8 storage
	QInt16         DType = C.TCAST_DTYPE_QINT16     // TensorFlow's quantized int16 storage
	QUint16        DType = C.TCAST_DTYPE_QUINT16    // TensorFlow's quantized uint16 storage
	QInt32         DType = C.TCAST_DTYPE_QINT32     // TensorFlow's quantized int32 storage
)

// MaxNDim is the largest rank a tensor may have (TCAST_MAX_NDIM).
const MaxNDim = C.TCAST_MAX_NDIM

// String returns the dtype's name as the library spells it ("FLOAT", "QINT8"), from
// tcast_dtype_name, or "DType(n)" for a code the library does not know.
func (d DType) String() string {
	if name, ok := dtypeName(d); ok {
		return name
	}
	return fmt.Sprintf("DType(%d)", int32(d))
}

// Bits returns the bits one element occupies: 32 for Float, 4 for Int4, 6 for the
// FLOAT6 types, 8 for Bool, 8*sizeof(tcast_string) for String; 0 for an unknown code.
func (d DType) Bits() int { return dtypeBits(d) }

// DTypeFromName looks a dtype up by name, ignoring case: the ONNX names ("FLOAT",
// "INT64", "FLOAT16"), and aliases such as "float32", "float64", "half", "bool",
// "complex64" and ml_dtypes' "float8_e4m3fn" or "int4" (tcast_dtype_from_name).
// An unknown name is an *Error with status ErrInvalidDType.
func DTypeFromName(name string) (DType, error) { return dtypeFromName(name) }

// TensorBytes returns the bytes a contiguous tensor of dtype and shape occupies, the
// sub-byte types packed (tcast_tensor_bytes). A nil or empty shape is a scalar.
// Errors: ErrInvalidDType, ErrInvalidShape (a negative extent, a rank above MaxNDim,
// or a size that overflows 64 bits or a Go int).
func TensorBytes(dtype DType, shape []int64) (int, error) {
	n, err := tensorBytes(dtype, shape)
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt {
		return 0, newError(ErrInvalidShape, "a %v tensor of shape %v needs %d bytes, more than a Go slice can hold", dtype, shape, n)
	}
	return int(n), nil
}

// OnnxCastSupported reports whether the ONNX Cast schema in force at opset lists both
// dtypes (tcast_onnx_cast_supported).
func OnnxCastSupported(from, to DType, opset int) bool { return onnxCastSupported(from, to, opset) }

// Version returns the version of the loaded C library, "MAJOR.MINOR.PATCH".
func Version() string { return libraryVersion() }

// CPUInfo returns one line saying what the library runs on this CPU (tcast_cpu_info):
// the architecture, the SIMD kernel families in use ("portable" when none), those the
// environment variable TCAST_DISABLE_CPU_FEATURES withdrew, and the names in it that no
// family knows, quoted, with every byte that is not printable ASCII (and `"`, `\`)
// written \xNN; "none" for an empty list:
//
//	arch=x86_64 kernels=sse2,erms withdrawn=avx2 unknown="avx3","\xff"
//
// The library reads the variable once per process, at the first call that needs the
// CPU's features, and never prints what it made of it: this is how a program learns it.
func CPUInfo() (string, error) { return cpuInfo() }

// Storage types for the floating-point dtypes Go has no type for. Each holds the raw
// bits of one element in the dtype's own layout (IEEE 754 binary16 for Float16Bits;
// bfloat16, the top half of a binary32; the OCP 8-bit float formats and ONNX's FNUZ
// variants for the float8 types), in host byte order. They are distinct types, so that
// the typed functions (CastSlice, CastToBytes, CastFromBytes, ParseSlice, FormatSlice,
// ExpandSlice, BitcastSlice) see their dtype: a []Float16Bits is a FLOAT16 tensor, while a []uint16
// stays UINT16 and a []uint8 UINT8. The library does all arithmetic on them; Go only
// stores and copies the bits (Float16Bits(0x3C00) is 1.0).
type (
	Float16Bits        uint16 // FLOAT16: IEEE binary16
	BFloat16Bits       uint16 // BFLOAT16: the top 16 bits of an IEEE binary32
	Float8E4M3FNBits   uint8  // FLOAT8E4M3FN: OCP E4M3, NaN only, no infinities
	Float8E4M3FNUZBits uint8  // FLOAT8E4M3FNUZ: E4M3, one NaN (0x80), no negative zero
	Float8E5M2Bits     uint8  // FLOAT8E5M2: OCP E5M2, with infinities
	Float8E5M2FNUZBits uint8  // FLOAT8E5M2FNUZ: E5M2, one NaN (0x80), no negative zero
	Float8E8M0Bits     uint8  // FLOAT8E8M0: OCP E8M0 scale, a power of two, 0xFF is NaN
)

// Native is the set of Go element types that have a tensorcast dtype of the same
// memory layout; DTypeOf gives it. Besides Go's numeric types and bool it includes the
// storage types above (Float16Bits, BFloat16Bits, Float8E4M3FNBits, ...). The packed
// dtypes (Int4, Float4E2M1, Float6E2M3, ...) have no element type: use the byte-level
// functions (CastBytes, CastToBytes, CastFromBytes) for them.
type Native interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128 | ~bool
}

// DTypeOf returns the dtype whose elements have T's layout: Float for float32, Double
// for float64, Int8 ... Uint64, Complex64, Complex128 and Bool; Float16 for
// Float16Bits, BFloat16 for BFloat16Bits, Float8E4M3FN for Float8E4M3FNBits and so on.
// Any other type is judged by its underlying type: a `type celsius float32` is Float,
// a plain uint16 is Uint16.
func DTypeOf[T Native]() DType {
	var zero T
	switch any(zero).(type) {
	case Float16Bits:
		return Float16
	case BFloat16Bits:
		return BFloat16
	case Float8E4M3FNBits:
		return Float8E4M3FN
	case Float8E4M3FNUZBits:
		return Float8E4M3FNUZ
	case Float8E5M2Bits:
		return Float8E5M2
	case Float8E5M2FNUZBits:
		return Float8E5M2FNUZ
	case Float8E8M0Bits:
		return Float8E8M0
	}
	switch reflect.TypeOf(zero).Kind() {
	case reflect.Int8:
		return Int8
	case reflect.Uint8:
		return Uint8
	case reflect.Int16:
		return Int16
	case reflect.Uint16:
		return Uint16
	case reflect.Int32:
		return Int32
	case reflect.Uint32:
		return Uint32
	case reflect.Int64:
		return Int64
	case reflect.Uint64:
		return Uint64
	case reflect.Float32:
		return Float
	case reflect.Float64:
		return Double
	case reflect.Complex64:
		return Complex64
	case reflect.Complex128:
		return Complex128
	case reflect.Bool:
		return Bool
	}
	panic("tensorcast: DTypeOf: not a Native type") // unreachable: Native lists only the kinds above
}

// AsBytes returns the memory of s as bytes, without copying: writes through either
// slice are seen through the other. Use it to hand typed Go slices to the byte-level
// functions, for example a []uint16 of FLOAT16 bit patterns read from a file to
// CastBytes (a []Float16Bits goes to CastSlice directly).
func AsBytes[T Native](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// elementCount returns the number of elements of shape, validated as the library does.
func elementCount(shape []int64) (int, error) {
	return TensorBytes(Uint8, shape)
}
