// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package tensorcast

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// meminfoBytes reads a "Name:   N kB" line of /proc/meminfo.
func meminfoBytes(t *testing.T, name string) uint64 {
	t.Helper()
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 3 && fields[0] == name+":" && fields[2] == "kB" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb * 1024
		}
	}
	t.Fatalf("no %s line in /proc/meminfo", name)
	return 0
}

// Without an address-space limit, the limit is the machine's RAM plus swap, as
// /proc/meminfo gives them, and checkAlloc refuses one byte more.
func TestAllocationLimitIsTheMachines(t *testing.T) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		t.Fatal(err)
	}
	limit, what := systemMemoryLimit()
	if rl.Cur == ^uint64(0) { // RLIM_INFINITY
		want := meminfoBytes(t, "MemTotal") + meminfoBytes(t, "SwapTotal")
		if limit != want {
			t.Errorf("systemMemoryLimit() = %d (%s), want MemTotal + SwapTotal = %d", limit, what, want)
		}
	} else if limit >= uint64(rl.Cur) {
		t.Errorf("systemMemoryLimit() = %d (%s), not below RLIMIT_AS = %d", limit, what, rl.Cur)
	}
	if limit >= maxGoAlloc || limit <= uncheckedBytes {
		t.Fatalf("limit %d is outside the range checkAlloc measures (%d, %d)", limit, uncheckedBytes, maxGoAlloc)
	}
	if err := checkAlloc("test", limit); err != nil {
		t.Errorf("checkAlloc(limit) = %v, want nil", err)
	}
	if err := checkAlloc("test", limit+1); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("checkAlloc(limit+1) = %v, want ErrOutOfMemory", err)
	}
}
