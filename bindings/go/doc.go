// SPDX-License-Identifier: MIT OR Apache-2.0

// Package tensorcast is the Go binding of tensorcast, a library of exact, fast dtype
// conversions for ML tensors behind a C ABI: ONNX Cast (numbers and text), Expand and
// Bitcast.
//
// # Data
//
// Tensors are Go slices. The typed functions (CastSlice, ParseSlice, FormatSlice,
// ExpandSlice, BitcastSlice) take the Go types that have a tensorcast dtype of the same layout
// (Native: float32 is Float, float64 is Double, int8 ... uint64, bool, complex64,
// complex128), and the package's storage types for the floats Go lacks: Float16Bits,
// BFloat16Bits and the five float8 types (Float8E4M3FNBits ... Float8E8M0Bits) hold an
// element's raw bits, and a []Float16Bits is a FLOAT16 tensor where a []uint16 is
// UINT16. The packed dtypes (the float6 and float4 types, Int4/Uint4/Int2/Uint2)
// travel as bytes: sub-byte types packed with element 0 in the low bits, as in the
// C API; CastTensorSubByte also takes them one element per byte (SubByteUnpacked), as
// ml_dtypes stores them. The byte-level functions (CastBytes, CastToBytes, CastFromBytes,
// Expand, Bitcast) and the Tensor struct (which also takes strides) handle every dtype;
// AsBytes views a typed slice as bytes without copying. A nil or empty shape is a scalar of one element.
// DTypeFromDLPack and DTypeToDLPack map a DLPack DLDataType to a DType and back.
//
// Every call converts a whole slice in one cgo call; nothing is done per element across
// the boundary. Inputs are never written. Outputs are allocated by the function, or by
// the caller for CastSlice, CastTensor, CastTensorSubByte, ExpandTensor and
// ExpandTensorWithOptions.
//
// # Errors
//
// Failures are *Error values carrying the library's Status, the element Index the error
// is about (or -1) and its Message. Match them with errors.As, or test the status with
// errors.Is(err, tensorcast.ErrParse) or IsStatus(err, tensorcast.ErrParse).
//
// A function that allocates its result checks the sizes it was given first: an input
// smaller than its count or shape says is ErrBufferTooSmall, a result no Go slice can
// hold ErrInvalidShape, and one the process cannot get (beyond RAM plus swap, or the
// room below RLIMIT_AS, on Linux) ErrOutOfMemory, all before anything is allocated.
//
// # Prepared casts
//
// NewCastPlan checks a dtype pair and options and chooses the kernel once
// (tcast_cast_plan_create); the *CastPlan's Run, RunBytes and RunSlice then cast tensors
// of that pair as CastTensor, CastBytes and CastSlice do, for less per call. A plan is
// safe for concurrent use; Close it (a finalizer is only a safety net).
//
// # Text
//
// ParseStrings / ParseSlice parse text into numbers (tcast_cast from STRING);
// CastToStrings / FormatSlice write numbers as text (tcast_cast_to_strings);
// ExpandStrings broadcasts a []string. See capi.go for how STRING views are built
// without breaking cgo's pointer-passing rules.
//
// # Linking
//
// By default the package compiles against its own copy of the header (tensorcast.h,
// so that it also compiles vendored) and links ../../target/release/libtensorcast.so
// (with an rpath to it), so build the library first with `bash scripts/quickstart.sh`
// at the repository root, whose CMake build also makes the link libtensorcast.so.0 (the
// SONAME programs load; a plain `cargo build` does not make it); a vendored copy gets
// the library's directory from CGO_LDFLAGS. With the build tag
// tensorcast_pkgconfig it takes its flags from pkg-config's tensorcast.pc instead, for
// an installed library. The package needs cgo: without it the build fails with
// "tensorcast requires cgo (CGO_ENABLED=1) and a C compiler".
//
// # numpy casting rules
//
// numpy.can_cast and friends (the C API's section 7): ParseNumpyDType parses a numpy
// dtype spec ("<i4", "S5", "M8[ns]", "i4,(2,)f8") into a *NumpyDType handle (Close it;
// a finalizer is only a safety net), which CastingLevel and CanCast query;
// CanCastStr takes spec strings and numpy's casting name; CanCastPyInt, CanCastPyFloat,
// CanCastPyComplex, CanCastPyBool and CanCastScalar are the value-based forms;
// PromoteTypes and MinScalarTypePyInt/PyFloat/PyComplex return numpy's str() of the
// result dtype. Every query says which numpy it reproduces, Numpy1 (1.22: value-based
// scalars) or Numpy2 (NEP 50). CanCastDType answers the same question for tensorcast's
// own DType values; it is the check CastOptions.Casting makes before a cast.
//
// Levels are Casting values: CastingNo .. CastingUnsafe, and CastingNever, which only
// CastingLevel returns (and any failing CastingLevel or ParseCasting, so an ignored
// error never reads as a permissive level). Their order is numpy's, so
// `level, _ := CastingLevel(a, b, Numpy2); level <= CastingSafe` is CanCast at
// CastingSafe. The can_cast functions take a level and have no default.
// CastOptions.Casting is a plain Casting whose zero value, CastingDefault, means the
// cast's default, UNSAFE, so that a CastOptions literal that does not mention it refuses
// nothing; set a level with Casting: CastingSafe. A Casting's number is the C level
// plus one (CastingNo is 1, TCAST_CASTING_NO 0), which is what lets the zero value mean
// "not set"; the binding converts exactly. ParseCasting reads numpy's names
// ("same_kind").
package tensorcast
