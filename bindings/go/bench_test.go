// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import "testing"

// The per-call cost of a small cast through the binding, beside a bare cgo call (one
// that does no work in C), in the same run: `go test -bench . -benchmem -run '^$'`.
// The CastPlan benchmarks run the same 16-element casts through a prepared plan; the
// ratio to the plain call is in README.md ("Prepared casts").

func BenchmarkBareCgoCall(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = dtypeBits(Float)
	}
}

func BenchmarkCastBytes16Float32ToFloat16(b *testing.B) {
	src := AsBytes(make([]float32, 16))
	dst := make([]byte, 32)
	shape := []int64{16}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := CastBytes(src, Float, shape, dst, Float16, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastSlice16Float32ToInt32(b *testing.B) {
	src := make([]float32, 16)
	dst := make([]int32, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := CastSlice(src, dst, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastSlice16WithOptions(b *testing.B) {
	src := make([]float32, 16)
	dst := make([]int32, 16)
	opts := &CastOptions{Threads: 2, Casting: CastingUnsafe}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := CastSlice(src, dst, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastSlice16Float32ToFloat16Bits(b *testing.B) {
	src := make([]float32, 16)
	dst := make([]Float16Bits, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := CastSlice(src, dst, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastTensor16Float32ToFloat16(b *testing.B) {
	shape := []int64{16}
	src := Tensor{Data: AsBytes(make([]float32, 16)), DType: Float, Shape: shape}
	dst := Tensor{Data: make([]byte, 32), DType: Float16, Shape: shape}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := CastTensor(src, dst, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func benchPlan(b *testing.B, from, to DType) *CastPlan {
	p, err := NewCastPlan(from, to, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

func BenchmarkCastPlanRun16Float32ToFloat16(b *testing.B) {
	p := benchPlan(b, Float, Float16)
	shape := []int64{16}
	src := Tensor{Data: AsBytes(make([]float32, 16)), DType: Float, Shape: shape}
	dst := Tensor{Data: make([]byte, 32), DType: Float16, Shape: shape}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Run(src, dst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastPlanRunBytes16Float32ToFloat16(b *testing.B) {
	p := benchPlan(b, Float, Float16)
	src := AsBytes(make([]float32, 16))
	dst := make([]byte, 32)
	shape := []int64{16}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.RunBytes(src, shape, dst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastPlanRunSlice16Float32ToFloat16Bits(b *testing.B) {
	p := benchPlan(b, Float, Float16)
	src := make([]float32, 16)
	dst := make([]Float16Bits, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := RunSlice(p, src, dst); err != nil {
			b.Fatal(err)
		}
	}
}
