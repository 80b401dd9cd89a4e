/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * onnxruntime's C API with tensorcast-ort: loads libonnxruntime.so (the one inside the
 * Python wheel) with dlopen, gets the API table through OrtGetApiBase, registers the
 * library both ways a C host can: as an execution-provider library
 * (RegisterExecutionProviderLibrary, GetEpDevices, SessionOptionsAppendExecutionProvider_V2)
 * and as a custom-op library (RegisterCustomOpsLibrary_V2), runs a model and checks the
 * result.
 *
 *   ort_c_test LIBONNXRUNTIME LIBTENSORCAST_ORT MODEL
 *
 * The model (written by test_ort_c.py) casts x = [NaN, 1e10, -1e10, -2.5, 3.7] to INT32
 * twice: with Cast in the ONNX domain (output "y", taken by the execution provider) and in
 * ai.tensorcast ("z", the custom op). Both must give tensorcast's [0, INT32_MAX, INT32_MIN, -2, 3]; onnxruntime's own kernel gives
 * INT32_MIN for NaN and 1e10.
 *
 * The wheel has no headers: this program includes onnxruntime's own, those of the oldest
 * onnxruntime tensorcast-ort supports (1.24), vendored in
 * integrations/onnxruntime/include/onnxruntime-1.24 and given their upstream names by
 * test_ort_c.py. Every function is a named member of OrtApi, which only grows at its end,
 * so the same program runs on every later onnxruntime.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnxruntime_c_api.h"

static const OrtApi *api;

/* Exits with the message of a failed onnxruntime call. */
static void check(OrtStatus *status, const char *what) {
  if (status) {
    fprintf(stderr, "FAIL: %s: %s\n", what, api->GetErrorMessage(status));
    api->ReleaseStatus(status);
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s LIBONNXRUNTIME LIBTENSORCAST_ORT MODEL\n", argv[0]);
    return 2;
  }
  void *ort = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!ort) {
    fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  const OrtApiBase *(*get_api_base)(void) = (const OrtApiBase *(*)(void))dlsym(ort, "OrtGetApiBase");
  if (!get_api_base) {
    fprintf(stderr, "FAIL: no OrtGetApiBase in %s\n", argv[1]);
    return 1;
  }
  const OrtApiBase *base = get_api_base();
  api = base->GetApi(ORT_API_VERSION);
  if (!api) {
    fprintf(stderr, "FAIL: onnxruntime %s has no C API version %d\n", base->GetVersionString(), ORT_API_VERSION);
    return 1;
  }

  OrtEnv *env = NULL;
  check(api->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "ort_c_test", &env), "CreateEnv");
  OrtSessionOptions *options = NULL;
  check(api->CreateSessionOptions(&options), "CreateSessionOptions");
  check(api->SetSessionGraphOptimizationLevel(options, ORT_DISABLE_ALL), "SetSessionGraphOptimizationLevel");
  check(api->RegisterExecutionProviderLibrary(env, "tensorcast", argv[2]), "RegisterExecutionProviderLibrary");
  const OrtEpDevice *const *devices = NULL;
  size_t device_count = 0;
  check(api->GetEpDevices(env, &devices, &device_count), "GetEpDevices");
  const OrtEpDevice *ours = NULL;
  for (size_t i = 0; i < device_count; i++) {
    if (strcmp(api->EpDevice_EpName(devices[i]), "TensorcastExecutionProvider") == 0) {
      ours = devices[i];
    }
  }
  if (!ours) {
    fprintf(stderr, "FAIL: no TensorcastExecutionProvider among %zu devices\n", device_count);
    return 1;
  }
  check(api->SessionOptionsAppendExecutionProvider_V2(options, env, &ours, 1, NULL, NULL, 0),
        "SessionOptionsAppendExecutionProvider_V2");
  check(api->RegisterCustomOpsLibrary_V2(options, argv[2]), "RegisterCustomOpsLibrary_V2");
  OrtSession *session = NULL;
  check(api->CreateSession(env, argv[3], options, &session), "CreateSession");

  OrtMemoryInfo *memory = NULL;
  check(api->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &memory), "CreateCpuMemoryInfo");
  float x[5] = {NAN, 1e10f, -1e10f, -2.5f, 3.7f};
  int64_t shape[1] = {5};
  OrtValue *input = NULL;
  check(api->CreateTensorWithDataAsOrtValue(memory, x, sizeof x, shape, 1, ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT,
                                            &input),
        "CreateTensorWithDataAsOrtValue");

  const char *input_names[1] = {"x"};
  const char *output_names[2] = {"y", "z"};
  OrtValue *outputs[2] = {NULL, NULL};
  const OrtValue *inputs[1] = {input};
  check(api->Run(session, NULL, input_names, inputs, 1, output_names, 2, outputs), "Run");

  const int32_t want[5] = {0, INT32_MAX, INT32_MIN, -2, 3};
  int failures = 0;
  for (int o = 0; o < 2; o++) {
    int32_t *got = NULL;
    check(api->GetTensorMutableData(outputs[o], (void **)&got), "GetTensorMutableData");
    for (int i = 0; i < 5; i++) {
      if (got[i] != want[i]) {
        fprintf(stderr, "FAIL: %s[%d] = %d, expected %d\n", output_names[o], i, got[i], want[i]);
        failures++;
      }
    }
    api->ReleaseValue(outputs[o]);
  }
  api->ReleaseValue(input);
  api->ReleaseMemoryInfo(memory);
  api->ReleaseSession(session);
  api->ReleaseSessionOptions(options);
  api->ReleaseEnv(env);
  if (failures) return 1;
  printf("ok: onnxruntime %s ran Cast on tensorcast through the execution provider and the custom op\n", base->GetVersionString());
  return 0;
}
