// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

// Text conversions. The C library describes STRING elements as views (pointer and
// length), which cannot be built in Go memory under cgo's pointer-passing rules; see
// capi.go for how the binding passes texts in (one Go byte slice of all the texts plus
// their offsets, the views built by C in malloc'd memory for the duration of the call)
// and gets them out (the library writes into a Go byte arena; C reports each element's
// offset and length in it).

// CastToStrings formats each element of the contiguous numeric tensor src of dtype and
// shape as text, in row-major order (tcast_cast_to_strings). Integers are decimal, Bool
// is "True"/"False", NaN and infinities are "NaN", "INF" and "-INF". The returned
// strings share one backing allocation holding all of the text.
// Every numeric dtype formats except the complex ones (ErrUnsupported).
func CastToStrings(src []byte, dtype DType, shape []int64, format StringFormat) ([]string, error) {
	return CastTensorToStrings(Tensor{Data: src, DType: dtype, Shape: shape}, &CastOptions{StringFormat: format})
}

// CastTensorToStrings is CastToStrings for a Tensor, which may be strided; only
// opts.StringFormat (and invalid values of the other options) matter. opts may be nil.
func CastTensorToStrings(src Tensor, opts *CastOptions) ([]string, error) {
	if err := refuseString("CastTensorToStrings", src.DType); err != nil {
		return nil, err
	}
	n, err := elementCount(src.Shape)
	if err != nil {
		return nil, err
	}
	if err := checkInput(src, "CastTensorToStrings: input"); err != nil {
		return nil, err
	}
	return formatTensor("CastTensorToStrings", src, n, opts)
}

// FormatSlice formats each element of src as text (CastToStrings of a 1-D tensor).
func FormatSlice[T Native](src []T, format StringFormat) ([]string, error) {
	return formatTensor("FormatSlice", Tensor{Data: AsBytes(src), DType: DTypeOf[T](), Shape: []int64{int64(len(src))}},
		len(src), &CastOptions{StringFormat: format})
}

// ParseStrings parses each string as a value of dtype and returns the 1-D tensor's
// bytes (sub-byte dtypes packed), via tcast_cast with a STRING input. Surrounding
// whitespace (C's isspace: space, \t, \n, \v, \f, \r) is ignored; "inf", "infinity" and
// "nan" in any case, with an optional sign, are accepted; integers parse exactly and
// saturate (Int4, Uint4, Int2, Uint2 keep the low bits: "20" -> Uint4 4); Bool also
// takes "true"/"false".
// A string that is not a number fails with an *Error of status ErrParse whose Index is
// the first bad element. opts may be nil.
func ParseStrings(src []string, dtype DType, opts *CastOptions) ([]byte, error) {
	return ParseStringsShape(src, []int64{int64(len(src))}, dtype, opts)
}

// ParseStringsShape is ParseStrings for a tensor of the given shape, whose element
// count must be len(src).
func ParseStringsShape(src []string, shape []int64, dtype DType, opts *CastOptions) ([]byte, error) {
	if err := refuseString("ParseStrings", dtype); err != nil {
		return nil, err
	}
	n, err := elementCount(shape)
	if err != nil {
		return nil, err
	}
	if n != len(src) {
		return nil, newError(ErrInvalidShape, "ParseStrings: shape %v has %d elements but %d strings were given", shape, n, len(src))
	}
	size, err := TensorBytes(dtype, shape)
	if err != nil {
		return nil, err
	}
	dst := make([]byte, size)
	if err := parseStrings(src, shape, dst, dtype, opts); err != nil {
		return nil, err
	}
	return dst, nil
}

// ParseSlice parses each string as a T (ParseStrings into DTypeOf[T]()).
func ParseSlice[T Native](src []string, opts *CastOptions) ([]T, error) {
	dst := make([]T, len(src))
	if err := parseStrings(src, []int64{int64(len(src))}, AsBytes(dst), DTypeOf[T](), opts); err != nil {
		return nil, err
	}
	return dst, nil
}
