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
 * The wheel has no headers: the few declarations used are written here. OrtApi is a table
 * of function pointers that only grows at its end; each function is read from its slot
 * (index), counted in onnxruntime_c_api.h of 1.31 and checked against ort-sys 2.0.0-rc.15's
 * generated OrtApi. The same numbers are in integrations/onnxruntime/src/ort.rs, and
 * test_ort_c.py checks that the two tables agree.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtValue OrtValue;
typedef struct OrtApi OrtApi;
typedef struct OrtEpDevice OrtEpDevice;

typedef struct OrtApiBase {
  const OrtApi *(*GetApi)(uint32_t version);
  const char *(*GetVersionString)(void);
} OrtApiBase;

enum { API_VERSION = 24 };
enum { TYPE_FLOAT = 1, TYPE_INT32 = 6 };

/* Slots (0-based) in OrtApi. */
enum {
  SLOT_GET_ERROR_MESSAGE = 2,
  SLOT_CREATE_ENV = 3,
  SLOT_CREATE_SESSION = 7,
  SLOT_RUN = 9,
  SLOT_CREATE_SESSION_OPTIONS = 10,
  SLOT_SET_SESSION_GRAPH_OPTIMIZATION_LEVEL = 23,
  SLOT_CREATE_TENSOR_WITH_DATA_AS_ORT_VALUE = 49,
  SLOT_GET_TENSOR_MUTABLE_DATA = 51,
  SLOT_CREATE_CPU_MEMORY_INFO = 69,
  SLOT_RELEASE_ENV = 92,
  SLOT_RELEASE_STATUS = 93,
  SLOT_RELEASE_MEMORY_INFO = 94,
  SLOT_RELEASE_SESSION = 95,
  SLOT_RELEASE_VALUE = 96,
  SLOT_RELEASE_SESSION_OPTIONS = 100,
  SLOT_REGISTER_CUSTOM_OPS_LIBRARY_V2 = 228,
  SLOT_REGISTER_EXECUTION_PROVIDER_LIBRARY = 301,
  SLOT_GET_EP_DEVICES = 303,
  SLOT_SESSION_OPTIONS_APPEND_EXECUTION_PROVIDER_V2 = 304,
  SLOT_EP_DEVICE_EP_NAME = 312,
};

typedef const char *(*GetErrorMessageFn)(const OrtStatus *);
typedef OrtStatus *(*CreateEnvFn)(int level, const char *logid, OrtEnv **out);
typedef OrtStatus *(*CreateSessionFn)(const OrtEnv *, const char *path, const OrtSessionOptions *,
                                      OrtSession **out);
typedef OrtStatus *(*RunFn)(OrtSession *, const void *run_options, const char *const *input_names,
                            const OrtValue *const *inputs, size_t input_len,
                            const char *const *output_names, size_t output_len, OrtValue **outputs);
typedef OrtStatus *(*CreateSessionOptionsFn)(OrtSessionOptions **out);
typedef OrtStatus *(*SetGraphOptimizationLevelFn)(OrtSessionOptions *, int level);
typedef OrtStatus *(*CreateTensorWithDataFn)(const OrtMemoryInfo *, void *data, size_t data_len,
                                             const int64_t *shape, size_t shape_len, int type,
                                             OrtValue **out);
typedef OrtStatus *(*GetTensorMutableDataFn)(OrtValue *, void **out);
typedef OrtStatus *(*CreateCpuMemoryInfoFn)(int allocator_type, int mem_type, OrtMemoryInfo **out);
typedef void (*ReleaseFn)(void *);
typedef OrtStatus *(*RegisterCustomOpsLibraryV2Fn)(OrtSessionOptions *, const char *path);
typedef OrtStatus *(*RegisterEpLibraryFn)(OrtEnv *, const char *name, const char *path);
typedef OrtStatus *(*GetEpDevicesFn)(const OrtEnv *, const OrtEpDevice *const **devices, size_t *count);
typedef OrtStatus *(*AppendEpV2Fn)(OrtSessionOptions *, OrtEnv *, const OrtEpDevice *const *devices,
                                   size_t count, const char *const *keys, const char *const *values,
                                   size_t options);
typedef const char *(*EpDeviceNameFn)(const OrtEpDevice *);

static const OrtApi *api;

static void *slot(int index) { return ((void *const *)api)[index]; }

/* Exits with the message of a failed onnxruntime call. */
static void check(OrtStatus *status, const char *what) {
  if (status) {
    fprintf(stderr, "FAIL: %s: %s\n", what, ((GetErrorMessageFn)slot(SLOT_GET_ERROR_MESSAGE))(status));
    ((ReleaseFn)slot(SLOT_RELEASE_STATUS))(status);
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
  api = base->GetApi(API_VERSION);
  if (!api) {
    fprintf(stderr, "FAIL: onnxruntime %s has no C API version %d\n", base->GetVersionString(), API_VERSION);
    return 1;
  }

  OrtEnv *env = NULL;
  check(((CreateEnvFn)slot(SLOT_CREATE_ENV))(3 /* ORT_LOGGING_LEVEL_ERROR */, "ort_c_test", &env), "CreateEnv");
  OrtSessionOptions *options = NULL;
  check(((CreateSessionOptionsFn)slot(SLOT_CREATE_SESSION_OPTIONS))(&options), "CreateSessionOptions");
  check(((SetGraphOptimizationLevelFn)slot(SLOT_SET_SESSION_GRAPH_OPTIMIZATION_LEVEL))(options, 0),
        "SetSessionGraphOptimizationLevel");
  check(((RegisterEpLibraryFn)slot(SLOT_REGISTER_EXECUTION_PROVIDER_LIBRARY))(env, "tensorcast",
                                                                                          argv[2]),
        "RegisterExecutionProviderLibrary");
  const OrtEpDevice *const *devices = NULL;
  size_t device_count = 0;
  check(((GetEpDevicesFn)slot(SLOT_GET_EP_DEVICES))(env, &devices, &device_count), "GetEpDevices");
  const OrtEpDevice *ours = NULL;
  for (size_t i = 0; i < device_count; i++) {
    if (strcmp(((EpDeviceNameFn)slot(SLOT_EP_DEVICE_EP_NAME))(devices[i]), "TensorcastExecutionProvider") == 0) {
      ours = devices[i];
    }
  }
  if (!ours) {
    fprintf(stderr, "FAIL: no TensorcastExecutionProvider among %zu devices\n", device_count);
    return 1;
  }
  check(((AppendEpV2Fn)slot(SLOT_SESSION_OPTIONS_APPEND_EXECUTION_PROVIDER_V2))(options, env, &ours, 1, NULL, NULL,
                                                                               0),
        "SessionOptionsAppendExecutionProvider_V2");
  check(((RegisterCustomOpsLibraryV2Fn)slot(SLOT_REGISTER_CUSTOM_OPS_LIBRARY_V2))(options, argv[2]),
        "RegisterCustomOpsLibrary_V2");
  OrtSession *session = NULL;
  check(((CreateSessionFn)slot(SLOT_CREATE_SESSION))(env, argv[3], options, &session), "CreateSession");

  OrtMemoryInfo *memory = NULL;
  check(((CreateCpuMemoryInfoFn)slot(SLOT_CREATE_CPU_MEMORY_INFO))(0 /* OrtDeviceAllocator */,
                                                                   0 /* OrtMemTypeDefault */, &memory),
        "CreateCpuMemoryInfo");
  float x[5] = {NAN, 1e10f, -1e10f, -2.5f, 3.7f};
  int64_t shape[1] = {5};
  OrtValue *input = NULL;
  check(((CreateTensorWithDataFn)slot(SLOT_CREATE_TENSOR_WITH_DATA_AS_ORT_VALUE))(
            memory, x, sizeof x, shape, 1, TYPE_FLOAT, &input),
        "CreateTensorWithDataAsOrtValue");

  const char *input_names[1] = {"x"};
  const char *output_names[2] = {"y", "z"};
  OrtValue *outputs[2] = {NULL, NULL};
  const OrtValue *inputs[1] = {input};
  check(((RunFn)slot(SLOT_RUN))(session, NULL, input_names, inputs, 1, output_names, 2, outputs), "Run");

  const int32_t want[5] = {0, INT32_MAX, INT32_MIN, -2, 3};
  int failures = 0;
  for (int o = 0; o < 2; o++) {
    int32_t *got = NULL;
    check(((GetTensorMutableDataFn)slot(SLOT_GET_TENSOR_MUTABLE_DATA))(outputs[o], (void **)&got),
          "GetTensorMutableData");
    for (int i = 0; i < 5; i++) {
      if (got[i] != want[i]) {
        fprintf(stderr, "FAIL: %s[%d] = %d, expected %d\n", output_names[o], i, got[i], want[i]);
        failures++;
      }
    }
    ((ReleaseFn)slot(SLOT_RELEASE_VALUE))(outputs[o]);
  }
  ((ReleaseFn)slot(SLOT_RELEASE_VALUE))(input);
  ((ReleaseFn)slot(SLOT_RELEASE_MEMORY_INFO))(memory);
  ((ReleaseFn)slot(SLOT_RELEASE_SESSION))(session);
  ((ReleaseFn)slot(SLOT_RELEASE_SESSION_OPTIONS))(options);
  ((ReleaseFn)slot(SLOT_RELEASE_ENV))(env);
  if (failures) return 1;
  printf("ok: onnxruntime %s ran Cast on tensorcast through the execution provider and the custom op\n", base->GetVersionString());
  return 0;
}
