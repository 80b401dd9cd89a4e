// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

// The line tcast_cpu_info writes (docs/c-api.md section 10): four fields, each list
// comma-separated or "none" ("portable" for no kernel family), unknown names quoted.
// More than 512 bytes of unknown names end in "..." wherever the cut falls: after a
// comma, inside a name or after its closing quote.
var cpuInfoLine = regexp.MustCompile(`^arch=(\S+) kernels=([a-z0-9_,]+) withdrawn=([a-z0-9_,]+) unknown=(none|"[^"]*"(,"[^"]*")*|("[^"]*",)*("[^"]*"?)?\.\.\.)$`)

// rustArch is Rust's name (std::env::consts::ARCH) for GOARCH, where they differ.
var rustArch = map[string]string{"amd64": "x86_64", "arm64": "aarch64", "386": "x86", "ppc64le": "powerpc64", "loong64": "loongarch64"}

const cpuInfoChildEnv = "TENSORCAST_GO_CPUINFO_CHILD"

// parseCPUInfo checks line against the format and returns its four fields.
func parseCPUInfo(t *testing.T, line string) (arch string, kernels, withdrawn []string, unknown string) {
	t.Helper()
	m := cpuInfoLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("CPUInfo() = %q: not arch=... kernels=... withdrawn=... unknown=...", line)
	}
	return m[1], strings.Split(m[2], ","), strings.Split(m[3], ","), m[4]
}

func contains(list []string, name string) bool {
	for _, x := range list {
		if x == name {
			return true
		}
	}
	return false
}

func TestCPUInfo(t *testing.T) {
	line, err := tc.CPUInfo()
	if os.Getenv(cpuInfoChildEnv) != "" {
		// The child: report the line to the parent.
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("CPUINFO:" + line + "\n")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("CPUInfo() = %s", line)
	arch, kernels, withdrawn, unknown := parseCPUInfo(t, line)
	want := runtime.GOARCH
	if name, ok := rustArch[want]; ok {
		want = name
	}
	if arch != want {
		t.Errorf("arch=%s, want %s (GOARCH %s)", arch, want, runtime.GOARCH)
	}
	if _, set := os.LookupEnv("TCAST_DISABLE_CPU_FEATURES"); !set {
		if !contains(withdrawn, "none") || unknown != "none" {
			t.Errorf("without TCAST_DISABLE_CPU_FEATURES: %q", line)
		}
	}
	if again, err := tc.CPUInfo(); err != nil || again != line {
		t.Errorf("a second call: %q, %v; the first said %q", again, err, line)
	}

	// What the variable did, in processes that start with it set (the library reads it
	// once per process). A family this CPU runs is withdrawn; unknown names are quoted
	// and escaped; a long one makes the line longer than the binding's first buffer
	// (64 bytes), which must be retried at the size the library asks for.
	if contains(kernels, "portable") {
		t.Logf("no kernel family on this CPU (%q): only unknown names are checked", line)
	}
	long := strings.Repeat("z", 200)
	cases := []struct {
		setting, withdrawn, unknown string
	}{
		{`avx3,` + "\xff", "", `"avx3","\xff"`},
		{long, "", `"` + long + `"`},
	}
	if !contains(kernels, "portable") {
		cases = append(cases, struct{ setting, withdrawn, unknown string }{kernels[0], kernels[0], "none"})
	}
	for _, c := range cases {
		child, ok := childCPUInfo(t, c.setting)
		if !ok {
			continue
		}
		_, childKernels, childWithdrawn, childUnknown := parseCPUInfo(t, child)
		if childUnknown != c.unknown {
			t.Errorf("TCAST_DISABLE_CPU_FEATURES=%q: unknown=%s, want %s", c.setting, childUnknown, c.unknown)
		}
		if c.withdrawn != "" && (!contains(childWithdrawn, c.withdrawn) || contains(childKernels, c.withdrawn)) {
			t.Errorf("TCAST_DISABLE_CPU_FEATURES=%q: %q does not withdraw %s", c.setting, child, c.withdrawn)
		}
		if c.withdrawn == "" && strings.Join(childKernels, ",") != strings.Join(kernels, ",") {
			t.Errorf("TCAST_DISABLE_CPU_FEATURES=%q: kernels %v, want this CPU's %v", c.setting, childKernels, kernels)
		}
	}
}

// A list of unknown names cut inside an escaped byte (issue 37) is printable text ending
// in "...": CPUInfo, which takes the line at the length the library says it needs, reads
// no NUL inside it.
func TestCPUInfoCutList(t *testing.T) {
	setting := "aa," + strings.Repeat("\x01", 10000)
	child, ok := childCPUInfo(t, setting)
	if !ok {
		return
	}
	_, _, _, unknown := parseCPUInfo(t, child)
	if !strings.HasPrefix(unknown, `"aa","\x01`) || !strings.HasSuffix(unknown, `\x01...`) {
		t.Errorf("unknown=%s, want \"aa\",\"\\x01...\\x01...", unknown)
	}
	for i := 0; i < len(child); i++ {
		if child[i] < 0x20 || child[i] > 0x7e {
			t.Fatalf("byte %d of the line is 0x%02x: %q", i, child[i], child)
		}
	}
}

// childCPUInfo runs TestCPUInfo's child with TCAST_DISABLE_CPU_FEATURES=setting and
// returns the line it got from CPUInfo.
func childCPUInfo(t *testing.T, setting string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCPUInfo$", "-test.count=1")
	cmd.Env = append(os.Environ(), cpuInfoChildEnv+"=1", "TCAST_DISABLE_CPU_FEATURES="+setting)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("TCAST_DISABLE_CPU_FEATURES=%q: the child failed (%v):\n%s", setting, err, out)
		return "", false
	}
	var child string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "CPUINFO:") {
			child = strings.TrimPrefix(l, "CPUINFO:")
		}
	}
	t.Logf("TCAST_DISABLE_CPU_FEATURES=%q: %s", setting, child)
	return child, true
}
