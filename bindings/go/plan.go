// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// #include "tensorcast.h"
import "C"

import (
	"runtime"
	"sync"
)

// CastPlan is a prepared cast (a tcast_cast_plan handle, docs/c-api.md section 5): one
// dtype pair and one set of options, checked and given their kernel once by
// NewCastPlan, then any number of casts of tensors of that pair. For code that casts
// many small tensors of the same types: the plan saves the library's checks of the pair
// and the options and its choice of kernel on every call (bindings/go/README.md, "Prepared casts",
// has the figures); the cgo call costs what it costs.
//
// A run gives the results and errors CastTensor gives with the plan's options; a tensor
// of another dtype is ErrInvalidDType, naming the plan's types. The plan's options
// decide the threads (the binding passes no executor).
//
// The handle is immutable: one CastPlan may be used from many goroutines at once. Close
// frees it; it waits for runs in progress to return, and later runs fail with
// ErrNullArgument. A finalizer frees a plan that is garbage collected without Close,
// but as the C memory is invisible to the garbage collector, call Close (typically with
// defer) when you are done.
type CastPlan struct {
	mu       sync.RWMutex       // read-held by runs using h, write-held by Close
	h        *C.tcast_cast_plan // nil after Close
	from, to DType
}

// NewCastPlan prepares the cast of tensors of dtype from into tensors of dtype to with
// opts (nil: the library's defaults), as CastTensor would make it
// (tcast_cast_plan_create). Everything CastTensor checks of the pair and the options is
// checked here, with the same errors: ErrInvalidDType (a code that is no dtype, named
// "from" or "to"), ErrUnsupported (a pair the library does not cast, and STRING, which
// a byte slice cannot hold: use ParseStrings or CastToStrings), ErrInvalidArgument (a
// bad option), ErrCasting (a pair opts.Casting refuses).
func NewCastPlan(from, to DType, opts *CastOptions) (*CastPlan, error) {
	if err := refuseString("NewCastPlan", from, to); err != nil {
		return nil, err
	}
	h, err := castPlanCreate(from, to, opts)
	if err != nil {
		return nil, err
	}
	p := &CastPlan{h: h, from: from, to: to}
	runtime.SetFinalizer(p, (*CastPlan).finalize)
	return p, nil
}

func (p *CastPlan) finalize() {
	// Unreachable, so nobody holds the lock.
	if p.h != nil {
		castPlanFree(p.h)
		p.h = nil
	}
}

// Close frees the plan. It is safe to call more than once, and on nil; it always
// returns nil (the error result lets a CastPlan be used as an io.Closer).
func (p *CastPlan) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h != nil {
		castPlanFree(p.h)
		p.h = nil
		runtime.SetFinalizer(p, nil)
	}
	return nil
}

// From returns the dtype of the tensors the plan casts from.
func (p *CastPlan) From() DType { return p.from }

// To returns the dtype of the tensors the plan casts into.
func (p *CastPlan) To() DType { return p.to }

// String returns "CastPlan(FLOAT -> FLOAT16)", or "CastPlan(closed)" after Close.
func (p *CastPlan) String() string {
	if p == nil {
		return "CastPlan(closed)"
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.h == nil {
		return "CastPlan(closed)"
	}
	return "CastPlan(" + p.from.String() + " -> " + p.to.String() + ")"
}

// acquire read-locks the plan and returns its handle, or ErrNullArgument for a nil or
// closed plan (the lock is then not held).
func (p *CastPlan) acquire() (*C.tcast_cast_plan, error) {
	if p == nil {
		return nil, newError(ErrNullArgument, "the plan is a nil *CastPlan")
	}
	p.mu.RLock()
	if p.h == nil {
		p.mu.RUnlock()
		return nil, newError(ErrNullArgument, "the plan is a closed CastPlan")
	}
	return p.h, nil
}

// Run casts src into dst with the plan (tcast_cast_plan_run), as CastTensor(src, dst,
// opts) does with the plan's options: src.DType and dst.DType must be the plan's
// (else ErrInvalidDType), dst.Shape must equal src.Shape, dst.Strides must be nil and
// the two buffers must not overlap.
func (p *CastPlan) Run(src, dst Tensor) error {
	h, err := p.acquire()
	if err != nil {
		return err
	}
	defer p.mu.RUnlock()
	return castPlanRun(h, src, dst)
}

// RunBytes casts the contiguous tensor src of the plan's source dtype and shape into
// dst, as CastBytes does with the plan's dtypes and options. dst must hold at least
// TensorBytes(p.To(), shape) bytes.
func (p *CastPlan) RunBytes(src []byte, shape []int64, dst []byte) error {
	if len(shape) != 1 {
		return p.Run(Tensor{Data: src, DType: p.from, Shape: shape},
			Tensor{Data: dst, DType: p.to, Shape: shape})
	}
	// The common 1-D case, without building two Tensor descriptors.
	h, err := p.acquire()
	if err != nil {
		return err
	}
	defer p.mu.RUnlock()
	return castPlanRunFlat(h, src, p.from, shape[0], dst, p.to, shape[0])
}

// RunSlice casts src into dst with plan p, as CastSlice does: dst must have the same
// length (else ErrInvalidShape), and the dtypes the element types stand for (DTypeOf)
// must be the plan's (else ErrInvalidDType: a plan of FLOAT -> FLOAT16 takes a
// []float32 and a []Float16Bits, not a []uint16).
func RunSlice[T, U Native](p *CastPlan, src []T, dst []U) error {
	h, err := p.acquire()
	if err != nil {
		return err
	}
	defer p.mu.RUnlock()
	return castPlanRunFlat(h, AsBytes(src), DTypeOf[T](), int64(len(src)), AsBytes(dst), DTypeOf[U](), int64(len(dst)))
}
