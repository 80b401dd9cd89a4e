# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every code snippet of README.md, docs/python.md and integrations/onnxruntime/README.md,
run as its text stands (extracted from the document), or listed in NOT_RUN_HERE with what
runs it instead or why nothing can.

Python snippets run in a child interpreter (this one: the venv of the installed package),
one per document, in the document's order and one namespace, each followed by a check of
what it claims; shell snippets run with bash -e in a scratch directory holding what their
placeholders name (models, checkpoints), with the interpreter's bin directory first on
PATH (`pytensorcast`, `python`). A placeholder is replaced only where SUBSTITUTE says so,
and each replacement must find its text. A snippet that registers tensorcast-ort's
execution provider must show that the provider ran: the models they load hold a
FLOAT4E2M1 Cast, which onnxruntime 1.32 alone refuses (NOT_IMPLEMENTED), and the check
compares the session's providers and output.

    python -m pytest tests/docs      (scripts/test-python.sh runs it against the wheel)
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytensorcast
import pytest

import docs_fixtures as fixtures
from docs_snippets import DOCS, REPO, all_snippets

EP = "TensorcastExecutionProvider"
ORT_LIB = "/path/to/libtensorcast_ort.so"

# The snippets that are not run here, by key (document, language, first line), with what
# runs them or why they cannot run in this test (the step `python`: no Rust toolchain on
# PATH, and target/release belongs to the other lane of CI). native_snippets.py runs
# README.md's C, pkg-config, CMake and Go blocks against an installed prefix.
NOT_RUN_HERE = {
    ("README.md", "sh", "bash scripts/quickstart.sh"):
        "builds the library with cargo; scripts/test-readme.sh (step readme) runs it",
    ("README.md", "sh", "bash scripts/test.sh"):
        "the whole of CI (.ci/run execs it); scripts/test-readme.sh checks that",
    ("README.md", "c", "#include <stdint.h>"):
        "scripts/test-readme.sh (step readme) extracts it, compiles it with the README's cc "
        "line against target/release and compares its output with the README's comment; "
        "tests/docs/native_snippets.py builds it as the pkg-config and CMake blocks' app.c",
    ("README.md", "sh",
     'cc -Iinclude first.c -Ltarget/release -ltensorcast -Wl,-rpath,"$PWD/target/release" -o first'):
        "scripts/test-readme.sh (step readme) runs this line and ./first, and compares the output",
    ("README.md", "sh",
     "cmake -S . -B build/cmake -DTCAST_BUILD_TESTS=OFF   # the library only, no C/C++ tests"):
        "a CMake build compiles the core with cargo; scripts/test-newcomer.sh (step newcomer) "
        "builds and installs with this cmake -S line",
    ("README.md", "cmake",
     "find_package(tensorcast 0.1 CONFIG REQUIRED)   # -DCMAKE_PREFIX_PATH=$HOME/opt/tensorcast"):
        "two lines of a consumer's CMakeLists.txt, which need an installed prefix: "
        "tests/docs/native_snippets.py PREFIX builds a project with them (step install)",
    ("README.md", "sh", 'export PKG_CONFIG_PATH="$HOME/opt/tensorcast/lib/pkgconfig"'):
        "needs an installed prefix (the cmake --install above): "
        "tests/docs/native_snippets.py PREFIX runs it (step install)",
    ("README.md", "go",
     "half := make([]tensorcast.Float16Bits, 3)                  // FLOAT16's bits; []uint16 is UINT16"):
        "two statements of a cgo program, which needs the library: "
        "tests/docs/native_snippets.py PREFIX builds them into one against an install (step install)",
    ("docs/python.md", "sh",
     "pip install .                                  # builds the extension (release) and installs it"):
        "builds with cargo: scripts/test-python.sh (step python) runs each of these builds, and "
        "scripts/test-wheel-aarch64.sh (step python-aarch64) the aarch64 wheel",
    ("integrations/onnxruntime/README.md", "sh", "cargo build --release -p tensorcast-ort"):
        "builds with cargo; scripts/test-ort.sh (step ort) runs it",
    ("integrations/onnxruntime/README.md", "c",
     'api->RegisterExecutionProviderLibrary(env, "tensorcast", "/path/to/libtensorcast_ort.so");'):
        "statements of a C program, which needs onnxruntime's headers (the wheel ships none); "
        "tests/oracles/onnxruntime/ort_c_test.c is that program (step ort)",
}

# (document, first line) -> [(placeholder, what it stands for)]; each must occur.
SUBSTITUTE = {
    ("integrations/onnxruntime/README.md", "import onnxruntime as ort"): [(ORT_LIB, "{ort_lib}")],
    ("integrations/onnxruntime/README.md", "so = ort.SessionOptions()"): [(ORT_LIB, "{ort_lib}")],
    ("docs/python.md", "import subprocess"): [("/models/big-fp8", "big-fp8-py"), ("/models/big", "big")],
    ("docs/python.md", 'pytensorcast convert /models/big /models/big-fp8 --dtype float8_e4m3fn '
                       '--part "$SLURM_ARRAY_TASK_ID/8"'):
        [("/models/big-fp8", "big-fp8"), ("/models/big", "big")],
}

# (document, first line) -> the check run after a Python snippet, in its namespace.
PROVIDERS_EP = f"[{EP!r}, 'CPUExecutionProvider']"
CHECK = {
    ("README.md", "import numpy as np, pytensorcast as tc"):
        "import ml_dtypes\n"
        "assert _.dtype == ml_dtypes.float8_e4m3fn and _.astype(np.float32).tolist() == [1.0, 448.0], _",
    ("docs/python.md", "import numpy as np, pytensorcast as tc"):
        "assert float(_) == 448, _\n"
        "assert tc.promote_types('int8', 'uint8') == np.int16\n"
        "assert tc.promote_types(np.float32, 'bfloat16') == np.float32\n"
        "assert tc.min_scalar_type(300) == np.uint16",
    ("docs/python.md", "import numpy as np, ml_dtypes, pytensorcast as tc"):
        "assert _.shape == (2, 4) and _.dtype == np.uint8, _\n"
        "got = tc.cast(x, 'float8_e4m3fn').astype(np.float32)\n"
        "assert np.array_equal(got, [1, 448, np.nan, -3.25], equal_nan=True), got\n"
        "assert tc.cast(x, str).tolist() == ['1.0', '500.0', 'NaN', '-3.3']",
    ("docs/python.md", 'tc.astype(np.array([1.0, 500.0, np.nan]), "float8_e4m3fn")  # array([1, nan, nan]): astype\'s'):
        "got = tc.astype(np.array([1.0, 500.0, np.nan]), 'float8_e4m3fn').astype(np.float32)\n"
        "assert np.array_equal(got, [1, np.nan, np.nan], equal_nan=True), got\n"
        "assert np.array_equal(_.astype(np.float32), [1, 448, np.nan], equal_nan=True), _",
    ("docs/python.md", "import onnxruntime as ort, pytensorcast as tc"):
        f"assert _ == {PROVIDERS_EP}, _\n"
        f"import docs_fixtures; docs_fixtures.check_float4_session(session, {PROVIDERS_EP})",
    ("docs/python.md", "so = ort.SessionOptions()"):
        "import docs_fixtures; docs_fixtures.check_float4_session(session, ['CPUExecutionProvider'])",
    ("docs/python.md", "import subprocess"):
        "import docs_fixtures as fixtures\n"
        "assert set(fixtures.safetensors_dtypes('big-fp8-py/model-00001-of-00002.safetensors').values()) "
        "== {'F8_E4M3'}",
    ("integrations/onnxruntime/README.md", "import onnxruntime as ort"):
        f"assert _ == {PROVIDERS_EP}, _\n"
        f"import docs_fixtures; docs_fixtures.check_float4_session(session, {PROVIDERS_EP})",
    ("integrations/onnxruntime/README.md", "so = ort.SessionOptions()"):
        "import docs_fixtures; docs_fixtures.check_float4_session(session, ['CPUExecutionProvider'])",
}


def ort_lib():
    return pytensorcast.ort_library_path()


def prepared(snippet):
    text = snippet.text
    for placeholder, real in SUBSTITUTE.get((snippet.doc, snippet.key[2]), []):
        assert placeholder in text, f"{snippet.where()}: no {placeholder!r} to replace"
        text = text.replace(placeholder, real.format(ort_lib=ort_lib()))
    return text


def scratch(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    fixtures.write_models(tmp_path)
    fixtures.write_checkpoints(tmp_path)
    return tmp_path


def env():
    bindir = str(Path(sys.executable).parent)
    return dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))


def run(args, cwd, **kw):
    done = subprocess.run(args, cwd=cwd, env=kw.pop("env", env()), capture_output=True, text=True, **kw)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_every_snippet_is_run_or_listed():
    found = {s.key: s for s in all_snippets()}
    assert len(found) == len(all_snippets()), "two snippets with the same key"
    run_here = {k for k in found if k not in NOT_RUN_HERE}
    assert all(k[1] in ("python", "sh") for k in run_here), sorted(run_here)
    stale = set(NOT_RUN_HERE) - set(found)
    assert not stale, f"NOT_RUN_HERE lists snippets the documents no longer have: {sorted(stale)}"
    unknown = (set(SUBSTITUTE) | set(CHECK)) - {(k[0], k[2]) for k in run_here}
    assert not unknown, f"SUBSTITUTE/CHECK name no snippet run here: {sorted(unknown)}"
    # A Python snippet that registers tensorcast-ort must show that it ran.
    for key in run_here:
        if key[1] == "python" and "register_" in found[key].text:
            assert "check_float4_session(session" in CHECK.get((key[0], key[2]), ""), \
                f"{found[key].where()} registers tensorcast-ort, but no check shows that a session ran on it"
    for key, reason in NOT_RUN_HERE.items():
        for script in (w.strip("(),") for w in reason.split() if w.startswith(("scripts/", "tests/"))):
            assert (REPO / script).exists(), f"{key}: {script} does not exist"


@pytest.mark.parametrize("doc", DOCS)
def test_python_snippets(doc, tmp_path):
    steps = []
    for s in all_snippets():
        if s.doc != doc or s.lang != "python" or s.key in NOT_RUN_HERE:
            continue
        steps.append({"label": s.where(), "code": prepared(s), "check": False})
        check = CHECK.get((s.doc, s.key[2]))
        if check:
            steps.append({"label": f"the check of {s.where()}", "code": check, "check": True})
    assert steps
    (tmp_path / "steps.json").write_text(json.dumps(steps))
    work = scratch(tmp_path / "work")
    out = run([sys.executable, str(Path(__file__).with_name("run_blocks.py")), str(tmp_path / "steps.json")],
              cwd=work)
    assert out.count("ok: ") == len(steps), out


def sh_snippets():
    return [s for s in all_snippets() if s.lang == "sh" and s.key not in NOT_RUN_HERE]


def test_python_md_converter_lines(tmp_path):
    """docs/python.md's first converter block, then what its outputs hold."""
    (s,) = [s for s in sh_snippets() if s.text.startswith("pytensorcast convert model.safetensors ")]
    work = scratch(tmp_path)
    out = run(["bash", "-e", "-c", prepared(s)], cwd=work)
    assert out.strip().splitlines()[-1] == f"pytensorcast {pytensorcast.__version__}", out
    fp8 = fixtures.safetensors_dtypes(work / "model-fp8.safetensors")
    assert set(fp8.values()) == {"F8_E4M3"}, fp8
    bf16 = fixtures.safetensors_dtypes(work / "model-bf16.safetensors")
    assert set(bf16.values()) == {"BF16"}, bf16
    with np.load(work / "weights-bf16.npz") as npz:
        assert npz["encoder.0.weight"].dtype == np.dtype("V2"), npz["encoder.0.weight"].dtype
        assert npz["decoder.0.weight"].dtype == np.float32
        got = npz["encoder.0.weight"].view(ml_dtypes.bfloat16)
    with np.load(work / "weights.npz") as npz:
        assert np.array_equal(got, npz["encoder.0.weight"].astype(ml_dtypes.bfloat16))


def test_python_md_mxfp4_line(tmp_path):
    (s,) = [s for s in sh_snippets() if "--dtype mxfp4" in s.text]
    work = scratch(tmp_path)
    run(["bash", "-e", "-c", prepared(s)], cwd=work)
    got = fixtures.safetensors_dtypes(work / "model-mxfp4" / "model.safetensors")
    # --exclude copies, --rest casts the rest (rank 1), the [4, 64] weight is quantized
    assert got == {"embed.weight": "F32", "lm_head.weight": "F32", "layers.0.norm.weight": "BF16",
                   "layers.0.weight_blocks": "U8", "layers.0.weight_scales": "U8"}, got


def test_python_md_sharded_lines(tmp_path):
    (s,) = [s for s in sh_snippets() if s.text.startswith("pytensorcast convert Llama-3-8B/")]
    work = scratch(tmp_path)
    run(["bash", "-e", "-c", prepared(s)], cwd=work)
    for out, dtype in (("Llama-3-8B-bf16", "BF16"), ("out", "F8_E4M3")):
        index = json.loads((work / out / "model.safetensors.index.json").read_text())
        for shard in set(index["weight_map"].values()):
            assert set(fixtures.safetensors_dtypes(work / out / shard).values()) == {dtype}


def test_python_md_job_array(tmp_path):
    """The Slurm block: its first line as the 8 tasks of the array (at once, as the array
    runs them), then what follows "# then" once."""
    (s,) = [s for s in sh_snippets() if "SLURM_ARRAY_TASK_ID" in s.text]
    text = prepared(s)
    marker = "\n# then"
    assert marker in text, f"{s.where()}: no '# then' line between the tasks and the finish"
    tasks, finish = text.split(marker, 1)
    work = scratch(tmp_path)
    procs = [subprocess.Popen(["bash", "-e", "-c", tasks], cwd=work, env=dict(env(), SLURM_ARRAY_TASK_ID=str(k)),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for k in range(1, 9)]
    for k, p in enumerate(procs, 1):
        out, _ = p.communicate()
        assert p.returncode == 0, f"task {k}: exit {p.returncode}\n{out}"
    run(["bash", "-e", "-c", "#" + finish], cwd=work)
    index = json.loads((work / "big-fp8" / "model.safetensors.index.json").read_text())
    for shard in set(index["weight_map"].values()):
        assert set(fixtures.safetensors_dtypes(work / "big-fp8" / shard).values()) == {"F8_E4M3"}


def test_every_shell_snippet_has_its_test():
    tested = ("pytensorcast convert model.safetensors ", "pytensorcast convert model/ ",
              "pytensorcast convert Llama-3-8B/", "pytensorcast convert /models/big ")
    for s in sh_snippets():
        assert s.text.startswith(tested), f"{s.where()}: a shell snippet no test runs"
