// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

// #include "tensorcast.h"
import "C"

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

// MxScaleRule is how an MX block's E8M0 scale follows from its largest magnitude amax
// (tcast_mx_options.scale_rule, docs/semantics-mx.md).
type MxScaleRule int32

const (
	// MxFloor is OCP MX v1.0's rule, 2^(floor(log2(amax)) - emax): the default.
	MxFloor MxScaleRule = C.TCAST_MX_SCALE_FLOOR
	// MxCeil is 2^(ceil(log2(amax)) - emax).
	MxCeil MxScaleRule = C.TCAST_MX_SCALE_CEIL
	// MxEven rounds amax to the element's mantissa first, then takes MxFloor.
	MxEven MxScaleRule = C.TCAST_MX_SCALE_EVEN
	// MxRceil is cuBLAS's 2^ceil(log2(amax / largest element)).
	MxRceil MxScaleRule = C.TCAST_MX_SCALE_RCEIL
)

// MxLayout is an MXFP4 layout of MxRepack (docs/semantics-mx.md, "Layouts").
type MxLayout int32

const (
	// MxLayoutONNX: FLOAT4E2M1 data [..., 32 nb], FLOAT8E8M0 scales [..., nb].
	MxLayoutONNX MxLayout = C.TCAST_MX_LAYOUT_ONNX
	// MxLayoutGptOss: UINT8 blocks [..., nb, 16], UINT8 scales [..., nb].
	MxLayoutGptOss MxLayout = C.TCAST_MX_LAYOUT_GPT_OSS
	// MxLayoutGGML: UINT8 block_mxfp4 [..., nb, 17], the scale inside (no scales tensor).
	MxLayoutGGML MxLayout = C.TCAST_MX_LAYOUT_GGML
)

// MxOptions are the options of MX / NVFP4 block quantization (tcast_mx_options). The
// zero value's Axis is the first axis, not the default last one: start from
// DefaultMxOptions.
type MxOptions struct {
	// ScaleRule of MX scales (NVFP4 ignores it).
	ScaleRule MxScaleRule
	// Axis the blocks run along (negative from the back; the default -1 is the last).
	Axis int64
	// BlockSize: values per block; 0 for the format's own (32 for MX, 16 for NVFP4).
	BlockSize int64
}

// DefaultMxOptions are the library's defaults: MxFloor, the last axis, the format's
// block size.
func DefaultMxOptions() MxOptions { return MxOptions{ScaleRule: MxFloor, Axis: -1} }

// MxQuantize is MX or NVFP4 quantization with the block scales computed from x
// (tcast_mx_quantize): it writes the elements y (x's shape; FLOAT8E4M3FN, FLOAT8E5M2,
// FLOAT6E2M3, FLOAT6E3M2, FLOAT4E2M1, or INT8 for MXINT8), the block scales (FLOAT8E8M0
// for MX, FLOAT8E4M3FN for NVFP4) and, for NVFP4 only, globalScale (a FLOAT [] or [1];
// nil for MX). Tensors are contiguous; sub-byte dtypes packed.
func MxQuantize(x, y, scale Tensor, globalScale *Tensor, opts MxOptions) error {
	return mxTensors(true, x, y, scale, globalScale, [3]string{"x", "y", "scale"}, opts)
}

// MxDequantize is the inverse of MxQuantize (tcast_mx_dequantize): y (FLOAT, FLOAT16
// or BFLOAT16, x's shape) = element times block scale (times globalScale for NVFP4; nil
// for MX). A NaN scale gives NaN.
func MxDequantize(x, scale Tensor, globalScale *Tensor, y Tensor, opts MxOptions) error {
	return mxTensors(false, x, scale, y, globalScale, [3]string{"x", "scale", "y"}, opts)
}

// MxRepack moves MXFP4 data between layouts bit for bit (tcast_mx_repack): from and
// fromScales in fromLayout into to and toScales in toLayout; the scales are nil for
// MxLayoutGGML, whose blocks hold them.
func MxRepack(fromLayout MxLayout, from Tensor, fromScales *Tensor, toLayout MxLayout, to Tensor, toScales *Tensor) error {
	return mxRepack(fromLayout, from, fromScales, toLayout, to, toScales)
}
