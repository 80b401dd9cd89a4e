# SPDX-License-Identifier: MIT OR Apache-2.0
"""The C test (ort_c_test.c): onnxruntime's C API from the wheel's libonnxruntime.so,
with tensorcast-ort registered as an execution-provider library and as a custom-op library."""

import glob
import os
import re
import shutil
import subprocess

import onnxruntime as ort
from onnx import TensorProto, helper

import ortnode

HERE = os.path.dirname(os.path.abspath(__file__))
# onnxruntime's headers of the oldest version tensorcast-ort supports, vendored with a
# suffix that keeps them out of the repository's own-source checks.
HEADERS = os.path.join(ortnode.ROOT, "integrations", "onnxruntime", "include", "onnxruntime-1.24")


def libonnxruntime():
    found = glob.glob(os.path.join(os.path.dirname(ort.__file__), "capi", "libonnxruntime.so*"))
    assert len(found) == 1, found
    return found[0]


def write_model(path):
    nodes = [helper.make_node("Cast", ["x"], ["y"], to=TensorProto.INT32),
             helper.make_node("Cast", ["x"], ["z"], to=TensorProto.INT32, domain="ai.tensorcast")]
    graph = helper.make_graph(nodes, "c_test", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5])],
                              [helper.make_tensor_value_info("y", TensorProto.INT32, [5]),
                               helper.make_tensor_value_info("z", TensorProto.INT32, [5])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21),
                                                    helper.make_opsetid("ai.tensorcast", 1)])
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def test_the_c_api_runs_a_model_on_tensorcast(tmp_path):
    cc = os.environ.get("CC") or shutil.which("cc")
    exe = tmp_path / "ort_c_test"
    include = tmp_path / "include"
    include.mkdir()
    vendored = sorted(glob.glob(os.path.join(HEADERS, "*.h.vendored")))
    assert [os.path.basename(p) for p in vendored] == ["onnxruntime_c_api.h.vendored",
                                                       "onnxruntime_ep_c_api.h.vendored"]
    for path in vendored:
        shutil.copyfile(path, include / os.path.basename(path).removesuffix(".vendored"))
    subprocess.run([cc, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-I", str(include),
                    os.path.join(HERE, "ort_c_test.c"), "-o", str(exe), "-ldl"], check=True)
    model = tmp_path / "cast.onnx"
    write_model(model)
    run = subprocess.run([str(exe), libonnxruntime(), ortnode.library(), str(model)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"ok: onnxruntime {ort.__version__} ran Cast"), run.stdout


def test_the_library_is_a_library_of_its_own():
    # Its own SONAME (not the core's libtensorcast.so.0, which would make a program's
    # dlopen("libtensorcast.so.0") find this plugin once onnxruntime has loaded it), and
    # only the entry points onnxruntime looks up are exported.
    dynamic = subprocess.run(["readelf", "-d", ortnode.library()], capture_output=True, text=True,
                             check=True).stdout
    assert re.findall(r"Library soname: \[([^\]]+)\]", dynamic) == ["libtensorcast_ort.so"]
    symbols = subprocess.run(["nm", "-D", "--defined-only", ortnode.library()], capture_output=True,
                             text=True, check=True).stdout
    exported = sorted(line.split()[-1] for line in symbols.splitlines() if line.strip())
    assert exported == ["CreateEpFactories", "RegisterCustomOps", "ReleaseEpFactory"]
