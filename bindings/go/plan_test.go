// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"strings"
	"sync"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// planInputs returns n float32 values like a real tensor's (magnitudes over
// 2^-10..2^10, half negative) followed by the values a cast treats specially: zeros,
// infinities, NaN, the float8 and float16 overflows, a subnormal.
func planInputs(n int, seed int64) []float32 {
	r := rand.New(rand.NewSource(seed))
	out := make([]float32, 0, n+9)
	for i := 0; i < n; i++ {
		v := float32(math.Ldexp(1+r.Float64(), r.Intn(21)-10))
		if r.Intn(2) == 0 {
			v = -v
		}
		out = append(out, v)
	}
	return append(out, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 1e6, -1e6, 70000, 1e-40)
}

func mustPlan(t *testing.T, from, to tc.DType, opts *tc.CastOptions) *tc.CastPlan {
	t.Helper()
	p, err := tc.NewCastPlan(from, to, opts)
	if err != nil {
		t.Fatalf("NewCastPlan(%v, %v): %v", from, to, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// A plan's run writes the bytes the plain cast writes, through each of its forms (Run
// on a Tensor, RunBytes, RunSlice), for pairs the library's plain path takes and for a
// packed pair, strides and a 2-D shape, which take the general one.
func TestCastPlanSameBytesAsCast(t *testing.T) {
	src := planInputs(991, 1) // 1000 elements
	n := int64(len(src))
	r := rand.New(rand.NewSource(2))
	ints := make([]int32, n)
	for i := range ints {
		ints[i] = int32(r.Uint32())
	}
	pairs := []struct {
		name     string
		input    []byte
		from, to tc.DType
		opts     *tc.CastOptions
	}{
		{"FLOAT -> FLOAT16", tc.AsBytes(src), tc.Float, tc.Float16, nil},
		{"FLOAT -> FLOAT8E4M3FN saturate=0", tc.AsBytes(src), tc.Float, tc.Float8E4M3FN, &tc.CastOptions{NoSaturate: true}},
		{"FLOAT -> FLOAT8E4M3FN saturate=1", tc.AsBytes(src), tc.Float, tc.Float8E4M3FN, nil},
		{"INT32 -> FLOAT", tc.AsBytes(ints), tc.Int32, tc.Float, nil},
		{"FLOAT -> INT4", tc.AsBytes(src), tc.Float, tc.Int4, nil},
		{"INT4 -> FLOAT", tc.AsBytes(ints)[:(n+1)/2], tc.Int4, tc.Float, nil},
		{"FLOAT -> FLOAT8E8M0 round=nearest", tc.AsBytes(src), tc.Float, tc.Float8E8M0, &tc.CastOptions{RoundMode: tc.RoundNearest}},
	}
	for _, pc := range pairs {
		t.Run(pc.name, func(t *testing.T) {
			size, err := tc.TensorBytes(pc.to, []int64{n})
			if err != nil {
				t.Fatal(err)
			}
			want := make([]byte, size)
			if err := tc.CastBytes(pc.input, pc.from, []int64{n}, want, pc.to, pc.opts); err != nil {
				t.Fatal(err)
			}
			p := mustPlan(t, pc.from, pc.to, pc.opts)
			got := make([]byte, size)
			if err := p.RunBytes(pc.input, []int64{n}, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("RunBytes differs from CastBytes")
			}
			got = make([]byte, size)
			if err := p.Run(tc.Tensor{Data: pc.input, DType: pc.from, Shape: []int64{n}},
				tc.Tensor{Data: got, DType: pc.to, Shape: []int64{n}}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Run differs from CastBytes")
			}
			// 2-D, which RunBytes hands to Run.
			shape := []int64{2, n / 2}
			got = make([]byte, size)
			if err := p.RunBytes(pc.input, shape, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("RunBytes 2-D differs from CastBytes")
			}
		})
	}

	// RunSlice beside CastSlice, typed.
	p := mustPlan(t, tc.Float, tc.Float16, nil)
	want, got := make([]tc.Float16Bits, n), make([]tc.Float16Bits, n)
	if err := tc.CastSlice(src, want, nil); err != nil {
		t.Fatal(err)
	}
	if err := tc.RunSlice(p, src, got); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("RunSlice element %d: %#04x, want %#04x", i, got[i], want[i])
		}
	}
	wantF, gotF := make([]float32, n), make([]float32, n)
	if err := tc.CastSlice(ints, wantF, nil); err != nil {
		t.Fatal(err)
	}
	if err := tc.RunSlice(mustPlan(t, tc.Int32, tc.Float, nil), ints, gotF); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tc.AsBytes(gotF), tc.AsBytes(wantF)) {
		t.Errorf("RunSlice INT32 -> FLOAT differs from CastSlice")
	}

	// Strides on the input (every other element), which the general path takes.
	strided := tc.Tensor{Data: tc.AsBytes(src), DType: tc.Float, Shape: []int64{n / 2}, Strides: []int64{2}}
	wantS, gotS := make([]byte, n), make([]byte, n)
	if err := tc.CastTensor(strided, tc.Tensor{Data: wantS, DType: tc.Float16, Shape: []int64{n / 2}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Run(strided, tc.Tensor{Data: gotS, DType: tc.Float16, Shape: []int64{n / 2}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotS, wantS) {
		t.Errorf("strided Run differs from CastTensor")
	}
}

// The options are the plan's: saturate=0 turns float8 overflow into NaN where the
// default saturates, and a 1e6 through each plan says which it is.
func TestCastPlanKeepsItsOptions(t *testing.T) {
	opts := &tc.CastOptions{NoSaturate: true}
	nonSat := mustPlan(t, tc.Float, tc.Float8E4M3FN, opts)
	opts.NoSaturate = false // the plan copied the options
	sat := mustPlan(t, tc.Float, tc.Float8E4M3FN, nil)
	out := make([]tc.Float8E4M3FNBits, 1)
	if err := tc.RunSlice(nonSat, []float32{1e6}, out); err != nil || out[0] != 0x7f {
		t.Errorf("saturate=0: %#02x, %v; want 0x7f (NaN)", out, err)
	}
	if err := tc.RunSlice(sat, []float32{1e6}, out); err != nil || out[0] != 0x7e {
		t.Errorf("saturate=1: %#02x, %v; want 0x7e (448)", out, err)
	}
}

// A run refuses tensors whose dtypes are not the plan's, naming both, and the errors a
// cast makes (lengths, buffer sizes) as CastSlice and CastBytes make them.
func TestCastPlanRunErrors(t *testing.T) {
	p := mustPlan(t, tc.Float, tc.Float16, nil)
	err := tc.RunSlice(p, []float64{1}, make([]tc.Float16Bits, 1))
	e := wantStatus(t, err, tc.ErrInvalidDType)
	if !strings.Contains(e.Message, "DOUBLE") || !strings.Contains(e.Message, "FLOAT -> FLOAT16") {
		t.Errorf("input of another dtype: %q", e.Message)
	}
	err = tc.RunSlice(p, []float32{1}, make([]uint16, 1)) // UINT16, not FLOAT16
	e = wantStatus(t, err, tc.ErrInvalidDType)
	if !strings.Contains(e.Message, "UINT16") || !strings.Contains(e.Message, "FLOAT -> FLOAT16") {
		t.Errorf("output of another dtype: %q", e.Message)
	}
	err = p.Run(tc.Tensor{Data: make([]byte, 8), DType: tc.Int32, Shape: []int64{2}},
		tc.Tensor{Data: make([]byte, 4), DType: tc.Float16, Shape: []int64{2}})
	wantStatus(t, err, tc.ErrInvalidDType)

	// The same errors as the plain cast.
	for _, c := range []struct {
		name    string
		src     []float32
		dst     []tc.Float16Bits
		wantErr tc.Status
	}{
		{"lengths differ", make([]float32, 3), make([]tc.Float16Bits, 2), tc.ErrInvalidShape},
	} {
		planErr := tc.RunSlice(p, c.src, c.dst)
		castErr := tc.CastSlice(c.src, c.dst, nil)
		pe, ce := wantStatus(t, planErr, c.wantErr), wantStatus(t, castErr, c.wantErr)
		if pe.Message != ce.Message {
			t.Errorf("%s: plan says %q, cast says %q", c.name, pe.Message, ce.Message)
		}
	}
	planErr := p.RunBytes(make([]byte, 8), []int64{2}, make([]byte, 3))
	castErr := tc.CastBytes(make([]byte, 8), tc.Float, []int64{2}, make([]byte, 3), tc.Float16, nil)
	pe, ce := wantStatus(t, planErr, tc.ErrBufferTooSmall), wantStatus(t, castErr, tc.ErrBufferTooSmall)
	if pe.Message != ce.Message {
		t.Errorf("output too small: plan says %q, cast says %q", pe.Message, ce.Message)
	}
}

// NewCastPlan refuses what the cast refuses, with its errors, and returns no plan.
func TestNewCastPlanErrors(t *testing.T) {
	cases := []struct {
		name       string
		from, to   tc.DType
		opts       *tc.CastOptions
		want       tc.Status
		inMsg      string
		sameAsCast bool // the plain cast's message for the same mistake
	}{
		{"unknown from", tc.DType(250), tc.Float, nil, tc.ErrInvalidDType, "from", false},
		{"unknown to", tc.Float, tc.DType(-3), nil, tc.ErrInvalidDType, "to", false},
		{"STRING", tc.Float, tc.String, nil, tc.ErrUnsupported, "STRING", false},
		{"round mode", tc.Float, tc.Float8E8M0, &tc.CastOptions{RoundMode: 9}, tc.ErrInvalidArgument, "9", true},
		{"threads", tc.Float, tc.Float16, &tc.CastOptions{Threads: -1}, tc.ErrInvalidArgument, "-1", true},
		{"casting never", tc.Float, tc.Float16, &tc.CastOptions{Casting: tc.CastingNever}, tc.ErrInvalidArgument, "", true},
		{"casting safe", tc.Double, tc.Int32, &tc.CastOptions{Casting: tc.CastingSafe}, tc.ErrCasting, "'safe'", true},
	}
	for _, c := range cases {
		p, err := tc.NewCastPlan(c.from, c.to, c.opts)
		if p != nil {
			t.Errorf("%s: a plan with the error", c.name)
		}
		e := wantStatus(t, err, c.want)
		if !strings.Contains(e.Message, c.inMsg) {
			t.Errorf("%s: message %q does not name %q", c.name, e.Message, c.inMsg)
		}
		if c.sameAsCast {
			castErr := tc.CastBytes(make([]byte, 8), c.from, []int64{1}, make([]byte, 8), c.to, c.opts)
			if ce := wantStatus(t, castErr, c.want); ce.Message != e.Message {
				t.Errorf("%s: plan says %q, cast says %q", c.name, e.Message, ce.Message)
			}
		}
	}
}

// Close twice, Close on nil, and runs after Close: errors, not crashes.
func TestCastPlanClose(t *testing.T) {
	p, err := tc.NewCastPlan(tc.Float, tc.Float16, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.String(); s != "CastPlan(FLOAT -> FLOAT16)" {
		t.Errorf("String() = %q", s)
	}
	if p.From() != tc.Float || p.To() != tc.Float16 {
		t.Errorf("From, To = %v, %v", p.From(), p.To())
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := p.Close(); err != nil { // twice is fine
		t.Errorf("second Close: %v", err)
	}
	src, dst := []float32{1}, make([]tc.Float16Bits, 1)
	e := wantStatus(t, tc.RunSlice(p, src, dst), tc.ErrNullArgument)
	if !strings.Contains(e.Message, "closed") {
		t.Errorf("RunSlice after Close: %q", e.Message)
	}
	wantStatus(t, p.RunBytes(tc.AsBytes(src), []int64{1}, tc.AsBytes(dst)), tc.ErrNullArgument)
	wantStatus(t, p.Run(tc.Tensor{Data: tc.AsBytes(src), DType: tc.Float},
		tc.Tensor{Data: tc.AsBytes(dst), DType: tc.Float16}), tc.ErrNullArgument)
	if s := p.String(); s != "CastPlan(closed)" {
		t.Errorf("closed String() = %q", s)
	}
	var nilPlan *tc.CastPlan
	if err := nilPlan.Close(); err != nil {
		t.Errorf("nil Close: %v", err)
	}
	wantStatus(t, tc.RunSlice(nilPlan, src, dst), tc.ErrNullArgument)
}

// One plan run from many goroutines at once, each checking its own results, and a
// Close racing with runs: a run either casts or fails with ErrNullArgument.
func TestCastPlanConcurrent(t *testing.T) {
	p := mustPlan(t, tc.Float, tc.Float8E4M3FN, &tc.CastOptions{NoSaturate: true})
	var wg sync.WaitGroup
	failures := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			src := planInputs(16+g, int64(g))
			want := make([]tc.Float8E4M3FNBits, len(src))
			if err := tc.CastSlice(src, want, &tc.CastOptions{NoSaturate: true}); err != nil {
				failures <- err.Error()
				return
			}
			got := make([]tc.Float8E4M3FNBits, len(src))
			for i := 0; i < 2000; i++ {
				for j := range got {
					got[j] = 0
				}
				if err := tc.RunSlice(p, src, got); err != nil {
					failures <- err.Error()
					return
				}
				if !bytes.Equal(tc.AsBytes(got), tc.AsBytes(want)) {
					failures <- fmt.Sprintf("goroutine %d run %d: % x, want % x", g, i, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()

	shared, err := tc.NewCastPlan(tc.Int32, tc.Float, nil)
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]float32, 3)
			for i := 0; i < 2000; i++ {
				if err := tc.RunSlice(shared, []int32{1, -2, 1 << 24}, out); err != nil {
					if !tc.IsStatus(err, tc.ErrNullArgument) {
						failures <- "after Close: " + err.Error()
					}
					return // closed
				}
				if out[0] != 1 || out[1] != -2 || out[2] != 1<<24 {
					failures <- fmt.Sprint("INT32 -> FLOAT: ", out)
					return
				}
			}
		}()
	}
	shared.Close()
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// Plans dropped without Close are freed by their finalizer (a double free or a use
// after free would crash here; the C memory itself is not visible).
func TestCastPlanFinalizer(t *testing.T) {
	for i := 0; i < 1000; i++ {
		if _, err := tc.NewCastPlan(tc.Float, tc.BFloat16, nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
	p, err := tc.NewCastPlan(tc.Float, tc.BFloat16, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	runtime.GC() // Close removed the finalizer: nothing is freed twice
	if p.String() != "CastPlan(closed)" {
		t.Errorf("closed: %q", p.String())
	}
}
