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

// The DType values (Undefined, Float, Uint8, ...) are in tables_generated.go.

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

// DLPackCode is a DLPack 1.1 type code, DLDataType.code (TCAST_DLPACK_*).
type DLPackCode uint8

// The DLPack type codes; those marked "none" have no tensorcast dtype.
const (
	DLPackInt               DLPackCode = C.TCAST_DLPACK_INT                // kDLInt: 2, 4, 8, 16, 32, 64 bits
	DLPackUint              DLPackCode = C.TCAST_DLPACK_UINT               // kDLUInt: 2, 4, 8, 16, 32, 64 bits
	DLPackFloat             DLPackCode = C.TCAST_DLPACK_FLOAT              // kDLFloat: 16, 32, 64 bits
	DLPackOpaqueHandle      DLPackCode = C.TCAST_DLPACK_OPAQUE_HANDLE      // kDLOpaqueHandle: none
	DLPackBfloat            DLPackCode = C.TCAST_DLPACK_BFLOAT             // kDLBfloat: 16 bits
	DLPackComplex           DLPackCode = C.TCAST_DLPACK_COMPLEX            // kDLComplex: 64, 128 bits
	DLPackBool              DLPackCode = C.TCAST_DLPACK_BOOL               // kDLBool: 8 bits
	DLPackFloat8E3M4        DLPackCode = C.TCAST_DLPACK_FLOAT8_E3M4        // none
	DLPackFloat8E4M3        DLPackCode = C.TCAST_DLPACK_FLOAT8_E4M3        // none
	DLPackFloat8E4M3B11FNUZ DLPackCode = C.TCAST_DLPACK_FLOAT8_E4M3B11FNUZ // none
	DLPackFloat8E4M3FN      DLPackCode = C.TCAST_DLPACK_FLOAT8_E4M3FN      // Float8E4M3FN
	DLPackFloat8E4M3FNUZ    DLPackCode = C.TCAST_DLPACK_FLOAT8_E4M3FNUZ    // Float8E4M3FNUZ
	DLPackFloat8E5M2        DLPackCode = C.TCAST_DLPACK_FLOAT8_E5M2        // Float8E5M2
	DLPackFloat8E5M2FNUZ    DLPackCode = C.TCAST_DLPACK_FLOAT8_E5M2FNUZ    // Float8E5M2FNUZ
	DLPackFloat8E8M0FNU     DLPackCode = C.TCAST_DLPACK_FLOAT8_E8M0FNU     // Float8E8M0
	DLPackFloat6E2M3FN      DLPackCode = C.TCAST_DLPACK_FLOAT6_E2M3FN      // Float6E2M3
	DLPackFloat6E3M2FN      DLPackCode = C.TCAST_DLPACK_FLOAT6_E3M2FN      // Float6E3M2
	DLPackFloat4E2M1FN      DLPackCode = C.TCAST_DLPACK_FLOAT4_E2M1FN      // Float4E2M1
)

// DLPackType is a DLPack DLDataType's three fields.
type DLPackType struct {
	Code  DLPackCode
	Bits  uint8  // bits per lane: 4 for Int4, 8 for Bool
	Lanes uint16 // 1; vector types (more lanes) have no tensorcast dtype
}

// DTypeFromDLPack returns the dtype of a DLPack type (tcast_dtype_from_dlpack). DLPack
// packs sub-byte types as tensorcast does, unless the producer flags them as padded.
// Errors: ErrUnsupported (Lanes not 1, or a code and width no dtype has; the message
// names them).
func DTypeFromDLPack(t DLPackType) (DType, error) { return dtypeFromDLPack(t) }

// DTypeToDLPack returns the DLPack type of dtype, Lanes 1 (tcast_dtype_to_dlpack): the
// inverse of DTypeFromDLPack. Errors: ErrInvalidDType (an unknown code), ErrUnsupported
// (String and the TF quantized types, which DLPack has no code for).
func DTypeToDLPack(dtype DType) (DLPackType, error) { return dtypeToDLPack(dtype) }

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

// The storage types for the floating-point dtypes Go has no type for (Float16Bits,
// BFloat16Bits, the float8 formats' ...Bits types) are in tables_generated.go.

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
	if dtype, ok := storageDType(any(zero)); ok {
		return dtype
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
