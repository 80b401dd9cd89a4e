// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// Sizes the binding must refuse before it allocates: an input too small for the element
// count or shape it is given (ErrBufferTooSmall), a layout that cannot exist
// (ErrInvalidShape), and a valid result too large for this process's memory
// (ErrOutOfMemory). Before the binding checked them, each of these calls went straight
// to make(): `fatal error: runtime: out of memory` (which no recover catches) or a
// `makeslice: len out of range` panic.
//
// Each case runs in a child process (this test binary again, with childEnv naming the
// case), so that a regression fails that case with the child's output rather than
// killing the whole test binary.

const childEnv = "TENSORCAST_GO_SIZES_CHILD"

// huge is an element count whose result needs terabytes: 4 TiB as FLOAT, more than the
// test machines have (and the limit is checked, not assumed, in
// TestAllocationLimitIsTheMachines).
const huge = int64(1) << 40

// sizeCase is one call and the status it must return.
type sizeCase struct {
	name string
	want tc.Status
	call func() error
}

// platformSizeCases are cases that need one operating system (sizes_linux_test.go).
var platformSizeCases []sizeCase

func sizeCases() []sizeCase {
	four := make([]byte, 4) // one FLOAT
	return append(platformSizeCases, []sizeCase{
		// The cases.
		{"CastFromBytes 4 bytes as 1<<40 FLOATs", tc.ErrBufferTooSmall, func() error {
			_, err := tc.CastFromBytes[float32](four, tc.Float, 1<<40, nil)
			return err
		}},
		{"CastFromBytes 4 bytes as 1<<50 FLOATs", tc.ErrBufferTooSmall, func() error {
			_, err := tc.CastFromBytes[float32](four, tc.Float, 1<<50, nil)
			return err
		}},
		{"Expand [1] to [1<<40]", tc.ErrOutOfMemory, func() error {
			_, _, err := tc.Expand(four, tc.Float, []int64{1}, []int64{huge})
			return err
		}},
		{"ExpandSlice [1] to [1<<40]", tc.ErrOutOfMemory, func() error {
			_, _, err := tc.ExpandSlice([]float32{1}, []int64{1}, []int64{huge})
			return err
		}},
		{"ExpandSlice [1] to [1<<50]", tc.ErrOutOfMemory, func() error {
			_, _, err := tc.ExpandSlice([]float32{1}, []int64{1}, []int64{1 << 50})
			return err
		}},
		// The same checks in the other functions that allocate from a caller's sizes.
		{"CastFromBytes 4 bytes as 9 INT4s", tc.ErrBufferTooSmall, func() error {
			_, err := tc.CastFromBytes[int8](four, tc.Int4, 9, nil)
			return err
		}},
		{"CastFromBytes from STRING", tc.ErrUnsupported, func() error {
			_, err := tc.CastFromBytes[float32](four, tc.String, 1<<40, nil)
			return err
		}},
		{"CastFromBytes of an unknown dtype", tc.ErrInvalidDType, func() error {
			_, err := tc.CastFromBytes[float32](four, tc.DType(77), 1<<40, nil)
			return err
		}},
		{"CastToBytes to STRING", tc.ErrUnsupported, func() error {
			_, err := tc.CastToBytes([]int8{1}, tc.String, nil)
			return err
		}},
		{"Expand of a contiguous input too small for its shape", tc.ErrBufferTooSmall, func() error {
			_, _, err := tc.Expand(four, tc.Float, []int64{huge}, []int64{huge})
			return err
		}},
		{"ExpandStrided stride 0 to [1<<40]", tc.ErrOutOfMemory, func() error {
			_, _, err := tc.ExpandStrided(tc.Tensor{Data: four, DType: tc.Float, Shape: []int64{huge}, Strides: []int64{0}}, nil)
			return err
		}},
		{"ExpandStrided strides past the data", tc.ErrBufferTooSmall, func() error {
			_, _, err := tc.ExpandStrided(tc.Tensor{Data: four, DType: tc.Float, Shape: []int64{huge}, Strides: []int64{2}}, nil)
			return err
		}},
		{"ExpandStrided strides whose span overflows", tc.ErrInvalidShape, func() error {
			_, _, err := tc.ExpandStrided(tc.Tensor{Data: four, DType: tc.Float, Shape: []int64{2, 2}, Strides: []int64{1 << 62, 1 << 62}}, nil)
			return err
		}},
		{"ExpandStrided negative stride", tc.ErrInvalidShape, func() error {
			_, _, err := tc.ExpandStrided(tc.Tensor{Data: four, DType: tc.Float, Shape: []int64{huge}, Strides: []int64{-1}}, nil)
			return err
		}},
		{"ExpandStrided strides of a packed dtype", tc.ErrInvalidShape, func() error {
			_, _, err := tc.ExpandStrided(tc.Tensor{Data: four, DType: tc.Int4, Shape: []int64{huge}, Strides: []int64{0}}, nil)
			return err
		}},
		{"ExpandStrings [1] to [1<<40]", tc.ErrOutOfMemory, func() error {
			_, _, err := tc.ExpandStrings([]string{"a"}, []int64{1}, []int64{huge})
			return err
		}},
		{"CastToStrings of a contiguous input too small for its shape", tc.ErrBufferTooSmall, func() error {
			_, err := tc.CastToStrings(four, tc.Float, []int64{huge}, tc.FormatShortest)
			return err
		}},
		{"CastTensorToStrings stride 0 over [1<<40]", tc.ErrOutOfMemory, func() error {
			_, err := tc.CastTensorToStrings(tc.Tensor{Data: four, DType: tc.Float, Shape: []int64{huge}, Strides: []int64{0}}, nil)
			return err
		}},
	}...)
}

func TestHugeSizesAreErrorsNotCrashes(t *testing.T) {
	if name := os.Getenv(childEnv); name != "" {
		// The child: run the one case named.
		for _, c := range sizeCases() {
			if c.name != name {
				continue
			}
			err := c.call()
			var e *tc.Error
			if !errors.As(err, &e) || e.Status != c.want {
				t.Fatalf("got %v, want status %v", err, c.want)
			}
			t.Logf("%v", err)
			return
		}
		t.Fatalf("no case named %q", name)
	}
	for _, c := range sizeCases() {
		c := c
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHugeSizesAreErrorsNotCrashes$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"="+c.name)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the child process running the case failed (%v):\n%s", err, out)
			}
			t.Logf("child:\n%s", out)
		})
	}
}
