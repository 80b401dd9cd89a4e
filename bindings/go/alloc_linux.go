// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo && linux

package tensorcast

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// systemMemoryLimit returns the largest allocation the machine can grant this process,
// as far as can be known up front: RAM plus swap (Linux's default, heuristic overcommit
// refuses a mapping larger than that), and, under an address-space limit (RLIMIT_AS,
// `ulimit -v`), the room left below it (every mapping beyond it fails). The second
// result says which of them it is. It costs two system calls and a read of
// /proc/self/statm, which checkAlloc spends only on allocations of more than 16 MiB.
func systemMemoryLimit() (uint64, string) {
	limit, what := ^uint64(0), "no limit"
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) == nil {
		unit := uint64(info.Unit)
		if unit == 0 {
			unit = 1
		}
		total, ok := addSize(uint64(info.Totalram), uint64(info.Totalswap))
		if total, ok2 := mulSize(total, unit); ok && ok2 && total > 0 {
			limit, what = total, "this machine's RAM and swap"
		}
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && uint64(rl.Cur) < limit {
		room := uint64(rl.Cur)
		if used, ok := addressSpaceInUse(); ok {
			if used < room {
				room -= used
			} else {
				room = 0
			}
		}
		if room < limit {
			limit, what = room, "the room left below the address-space limit (RLIMIT_AS)"
		}
	}
	return limit, what
}

// addressSpaceInUse returns the process's mapped bytes (VmSize, the first field of
// /proc/self/statm, in pages), which RLIMIT_AS limits.
func addressSpaceInUse() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, false
	}
	pages, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return 0, false
	}
	return mulSize(pages, uint64(os.Getpagesize()))
}
