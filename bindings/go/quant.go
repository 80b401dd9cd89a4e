// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

// QdqOptions are ONNX QuantizeLinear / DequantizeLinear's attributes
// (docs/semantics-quantize.md). The zero value is not ONNX's default axis: start from
// DefaultQdqOptions.
type QdqOptions struct {
	// NoSaturate: float8 element types give infinity (E5M2) or NaN out of range.
	NoSaturate bool
	// Axis of per-axis and blocked scales (ONNX's default 1; negative from the back).
	Axis int64
	// BlockSize: 0 for per-tensor / per-axis scales, > 0 for blocked ones.
	BlockSize int64
	// Precision: 0 (x / scale not rounded before the element rounding) or the DType
	// ONNX's `precision` attribute names (Float, Float16, BFloat16, Double).
	Precision DType
}

// DefaultQdqOptions are ONNX's defaults: saturate, axis 1, no blocks, no precision.
func DefaultQdqOptions() QdqOptions { return QdqOptions{Axis: 1} }

// QuantizeLinear computes y = saturate(round(x / scale) + zeroPoint) into y's dtype
// (tcast_quantize_linear); zeroPoint may be nil. Tensors are contiguous; sub-byte
// dtypes packed.
func QuantizeLinear(x, scale Tensor, zeroPoint *Tensor, y Tensor, opts QdqOptions) error {
	return qdqTensors(true, x, scale, zeroPoint, y, opts)
}

// DequantizeLinear computes y = (x - zeroPoint) * scale, rounded once into y's dtype
// (tcast_dequantize_linear); zeroPoint may be nil.
func DequantizeLinear(x, scale Tensor, zeroPoint *Tensor, y Tensor, opts QdqOptions) error {
	return qdqTensors(false, x, scale, zeroPoint, y, opts)
}
