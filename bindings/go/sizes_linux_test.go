// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// Under an address-space limit (`ulimit -v`, RLIMIT_AS), an allocation beyond the room
// left is refused before make() (which would end the process: the kernel refuses the
// mapping and Go's runtime dies of it), while one that fits still works. The limit also
// makes results of a few hundred MiB too large, so that the functions whose input is a Go
// slice (CastToBytes, FormatSlice) can be tested with inputs of real memory. Run in the
// child process of TestHugeSizesAreErrorsNotCrashes, the only process the limit
// applies to.
func init() {
	platformSizeCases = append(platformSizeCases,
		sizeCase{"ExpandSlice beyond the room left below RLIMIT_AS", tc.ErrOutOfMemory, func() error {
			if err := limitAddressSpace(256 << 20); err != nil {
				return err
			}
			// 32 MiB fits (and is above the size below which nothing is measured).
			small, _, err := tc.ExpandSlice([]float32{7}, []int64{1}, []int64{8 << 20})
			if err != nil {
				return fmt.Errorf("32 MiB within the limit: %w", err)
			}
			if len(small) != 8<<20 || small[0] != 7 || small[len(small)-1] != 7 {
				return errors.New("32 MiB within the limit: wrong result")
			}
			// 512 MiB does not.
			_, _, err = tc.ExpandSlice([]float32{7}, []int64{1}, []int64{128 << 20})
			return err
		}},
		sizeCase{"CastToBytes 32 MiB of INT8 to COMPLEX128 (512 MiB) below RLIMIT_AS", tc.ErrOutOfMemory, func() error {
			src := make([]int8, 32<<20)
			if err := limitAddressSpace(256 << 20); err != nil {
				return err
			}
			_, err := tc.CastToBytes(src, tc.Complex128, nil)
			return err
		}},
		sizeCase{"FormatSlice of 4M float64s (over 384 MiB of text and views) below RLIMIT_AS", tc.ErrOutOfMemory, func() error {
			src := make([]float64, 4<<20)
			if err := limitAddressSpace(256 << 20); err != nil {
				return err
			}
			_, err := tc.FormatSlice(src, tc.FormatShortest)
			return err
		}},
	)
}

// limitAddressSpace sets RLIMIT_AS to the address space in use plus room.
func limitAddressSpace(room uint64) error {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return err
	}
	pages, err := strconv.ParseUint(strings.Fields(string(b))[0], 10, 64)
	if err != nil {
		return err
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return err
	}
	rl.Cur = pages*uint64(os.Getpagesize()) + room
	return syscall.Setrlimit(syscall.RLIMIT_AS, &rl)
}
