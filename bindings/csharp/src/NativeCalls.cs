// SPDX-License-Identifier: MIT OR Apache-2.0
// How the wrapper reaches the externs of NativeMethods: Native.tcast_x loads the library
// (NativeLibraryResolver.EnsureLoaded, cheap once loaded) and then calls Bound.tcast_x,
// which calls the extern. The two steps are two methods because Mono binds the externs a
// method calls when it compiles that method, before the method runs, and a failed binding
// stays failed for the process: the method that names an extern must not be compiled
// before the library is found, so it must not be the one that finds it, nor be inlined
// into it (NoInlining). Outside NativeMethods.cs, only Bound names NativeMethods.tcast_*
// (a test checks it); tcast_cast_options_default, which the wrapper does not call, has no
// entry here.

using System;
using System.Runtime.CompilerServices;

namespace TensorcastSharp.Interop
{
    /// <summary>The externs of NativeMethods, each after NativeLibraryResolver.EnsureLoaded.</summary>
    internal static unsafe class Native
    {
        public static IntPtr tcast_status_name(int status)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_status_name(status);
        }

        public static IntPtr tcast_version()
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_version();
        }

        public static int tcast_cpu_info(byte* buf, ulong capacity, ulong* needed, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cpu_info(buf, capacity, needed, err);
        }

        public static IntPtr tcast_dtype_name(int dtype)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_dtype_name(dtype);
        }

        public static uint tcast_dtype_bits(int dtype)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_dtype_bits(dtype);
        }

        public static int tcast_dtype_from_name(byte* name, int* dtype, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_dtype_from_name(name, dtype, err);
        }

        public static int tcast_tensor_bytes(int dtype, long* shape, int ndim, ulong* outBytes,
                                             TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_tensor_bytes(dtype, shape, ndim, outBytes, err);
        }

        public static int tcast_onnx_cast_supported(int from, int to, int opset)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_onnx_cast_supported(from, to, opset);
        }

        public static int tcast_cast_options_init(TcastCastOptions* opts, UIntPtr size)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cast_options_init(opts, size);
        }

        public static int tcast_cast(TcastTensor* input, TcastTensor* output,
                                     TcastCastOptions* options, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cast(input, output, options, err);
        }

        public static int tcast_cast_sub_byte(TcastTensor* input, TcastTensor* output,
                                              TcastCastOptions* options, int subByteLayout,
                                              TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cast_sub_byte(input, output, options, subByteLayout, err);
        }

        public static ulong tcast_string_max_bytes(int dtype)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_string_max_bytes(dtype);
        }

        public static int tcast_cast_to_strings(TcastTensor* input, TcastTensor* output,
                                                TcastStringArena* arena, TcastCastOptions* options,
                                                TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cast_to_strings(input, output, arena, options, err);
        }

        public static int tcast_expand_shape(long* inputShape, int inputNDim, long* shape,
                                             int shapeLen, long* outShape, int outCapacity,
                                             int* outNDim, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_expand_shape(inputShape, inputNDim, shape, shapeLen, outShape,
                                            outCapacity, outNDim, err);
        }

        public static int tcast_cast_plan_create(int from, int to, TcastCastOptions* options,
                                                 IntPtr* plan, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cast_plan_create(from, to, options, plan, err);
        }

        public static int tcast_cast_plan_run(IntPtr plan, TcastTensor* input, TcastTensor* output,
                                              TcastExecutor* executor, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_cast_plan_run(plan, input, output, executor, err);
        }

        public static void tcast_cast_plan_free(IntPtr plan)
        {
            NativeLibraryResolver.EnsureLoaded();
            Bound.tcast_cast_plan_free(plan);
        }

        public static int tcast_qdq_options_init(TcastQdqOptions* opts, UIntPtr size)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_qdq_options_init(opts, size);
        }

        public static int tcast_quantize_linear(TcastTensor* x, TcastTensor* scale,
                                                TcastTensor* zeroPoint, TcastTensor* y,
                                                TcastQdqOptions* options, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_quantize_linear(x, scale, zeroPoint, y, options, err);
        }

        public static int tcast_dequantize_linear(TcastTensor* x, TcastTensor* scale,
                                                  TcastTensor* zeroPoint, TcastTensor* y,
                                                  TcastQdqOptions* options, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_dequantize_linear(x, scale, zeroPoint, y, options, err);
        }

        public static int tcast_mx_options_init(TcastMxOptions* opts, UIntPtr size)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_mx_options_init(opts, size);
        }

        public static int tcast_mx_quantize(TcastTensor* x, TcastTensor* y, TcastTensor* scale,
                                            TcastTensor* globalScale, TcastMxOptions* options,
                                            TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_mx_quantize(x, y, scale, globalScale, options, err);
        }

        public static int tcast_mx_dequantize(TcastTensor* x, TcastTensor* scale,
                                              TcastTensor* globalScale, TcastTensor* y,
                                              TcastMxOptions* options, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_mx_dequantize(x, scale, globalScale, y, options, err);
        }

        public static int tcast_mx_repack(int fromLayout, TcastTensor* from, TcastTensor* fromScales,
                                          int toLayout, TcastTensor* to, TcastTensor* toScales,
                                          TcastMxOptions* options, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_mx_repack(fromLayout, from, fromScales, toLayout, to, toScales,
                                         options, err);
        }

        public static int tcast_expand(TcastTensor* input, TcastTensor* output, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_expand(input, output, err);
        }

        public static int tcast_expand_ex(TcastTensor* input, TcastTensor* output,
                                          TcastCastOptions* options, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_expand_ex(input, output, options, err);
        }

        public static int tcast_dtype_from_dlpack(byte code, byte bits, ushort lanes, int* dtype,
                                                  TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_dtype_from_dlpack(code, bits, lanes, dtype, err);
        }

        public static int tcast_dtype_to_dlpack(int dtype, byte* code, byte* bits, ushort* lanes,
                                                TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_dtype_to_dlpack(dtype, code, bits, lanes, err);
        }

        public static int tcast_bitcast_shape(int from, long* shape, int ndim, int to, int rules,
                                              long* outShape, int outCapacity, int* outNDim,
                                              TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_bitcast_shape(from, shape, ndim, to, rules, outShape, outCapacity,
                                             outNDim, err);
        }

        public static int tcast_bitcast(TcastTensor* input, int to, int rules, TcastTensor* view,
                                        long* shapeStorage, int shapeCapacity, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_bitcast(input, to, rules, view, shapeStorage, shapeCapacity, err);
        }

        public static int tcast_np_dtype_parse(byte* spec, IntPtr* dtype, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_dtype_parse(spec, dtype, err);
        }

        public static void tcast_np_dtype_free(IntPtr dtype)
        {
            NativeLibraryResolver.EnsureLoaded();
            Bound.tcast_np_dtype_free(dtype);
        }

        public static int tcast_np_dtype_str(IntPtr dtype, byte* buf, ulong capacity, ulong* needed,
                                             TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_dtype_str(dtype, buf, capacity, needed, err);
        }

        public static int tcast_np_casting_from_name(byte* name, int* casting, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_casting_from_name(name, casting, err);
        }

        public static int tcast_np_casting_level(IntPtr from, IntPtr to, int rules, int* level,
                                                 TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_casting_level(from, to, rules, level, err);
        }

        public static int tcast_np_can_cast(IntPtr from, IntPtr to, int casting, int rules,
                                            int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast(from, to, casting, rules, result, err);
        }

        public static int tcast_np_can_cast_str(byte* from, byte* to, byte* casting, int rules,
                                                int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast_str(from, to, casting, rules, result, err);
        }

        public static int tcast_np_can_cast_pyint(byte* decimalText, byte* to, int casting, int rules,
                                                  int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast_pyint(decimalText, to, casting, rules, result, err);
        }

        public static int tcast_np_can_cast_pyfloat(double value, byte* to, int casting, int rules,
                                                    int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast_pyfloat(value, to, casting, rules, result, err);
        }

        public static int tcast_np_can_cast_pycomplex(double re, double im, byte* to, int casting,
                                                      int rules, int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast_pycomplex(re, im, to, casting, rules, result, err);
        }

        public static int tcast_np_can_cast_pybool(int value, byte* to, int casting, int rules,
                                                   int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast_pybool(value, to, casting, rules, result, err);
        }

        public static int tcast_np_can_cast_scalar(byte* dtype, void* value, ulong valueBytes,
                                                   int isArray, byte* to, int casting, int rules,
                                                   int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_can_cast_scalar(dtype, value, valueBytes, isArray, to, casting,
                                                  rules, result, err);
        }

        public static int tcast_np_promote_types(byte* a, byte* b, byte* buf, ulong capacity,
                                                 ulong* needed, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_promote_types(a, b, buf, capacity, needed, err);
        }

        public static int tcast_np_min_scalar_type_pyint(byte* decimalText, byte* buf, ulong capacity,
                                                         ulong* needed, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_min_scalar_type_pyint(decimalText, buf, capacity, needed, err);
        }

        public static int tcast_np_min_scalar_type_pyfloat(double value, byte* buf, ulong capacity,
                                                           ulong* needed, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_min_scalar_type_pyfloat(value, buf, capacity, needed, err);
        }

        public static int tcast_np_min_scalar_type_pycomplex(double re, double im, byte* buf,
                                                             ulong capacity, ulong* needed,
                                                             TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_np_min_scalar_type_pycomplex(re, im, buf, capacity, needed, err);
        }

        public static int tcast_can_cast(int from, int to, int casting, int* result, TcastError* err)
        {
            NativeLibraryResolver.EnsureLoaded();
            return Bound.tcast_can_cast(from, to, casting, result, err);
        }

        static class Bound
        {
            [MethodImpl(MethodImplOptions.NoInlining)]
            public static IntPtr tcast_status_name(int status) => NativeMethods.tcast_status_name(status);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static IntPtr tcast_version() => NativeMethods.tcast_version();

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cpu_info(byte* buf, ulong capacity, ulong* needed, TcastError* err)
                => NativeMethods.tcast_cpu_info(buf, capacity, needed, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static IntPtr tcast_dtype_name(int dtype) => NativeMethods.tcast_dtype_name(dtype);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static uint tcast_dtype_bits(int dtype) => NativeMethods.tcast_dtype_bits(dtype);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_dtype_from_name(byte* name, int* dtype, TcastError* err)
                => NativeMethods.tcast_dtype_from_name(name, dtype, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_tensor_bytes(int dtype, long* shape, int ndim, ulong* outBytes,
                                                 TcastError* err)
                => NativeMethods.tcast_tensor_bytes(dtype, shape, ndim, outBytes, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_onnx_cast_supported(int from, int to, int opset)
                => NativeMethods.tcast_onnx_cast_supported(from, to, opset);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cast_options_init(TcastCastOptions* opts, UIntPtr size)
                => NativeMethods.tcast_cast_options_init(opts, size);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cast(TcastTensor* input, TcastTensor* output,
                                         TcastCastOptions* options, TcastError* err)
                => NativeMethods.tcast_cast(input, output, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static ulong tcast_string_max_bytes(int dtype)
                => NativeMethods.tcast_string_max_bytes(dtype);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cast_to_strings(TcastTensor* input, TcastTensor* output,
                                                    TcastStringArena* arena, TcastCastOptions* options,
                                                    TcastError* err)
                => NativeMethods.tcast_cast_to_strings(input, output, arena, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_expand_shape(long* inputShape, int inputNDim, long* shape,
                                                 int shapeLen, long* outShape, int outCapacity,
                                                 int* outNDim, TcastError* err)
                => NativeMethods.tcast_expand_shape(inputShape, inputNDim, shape, shapeLen, outShape,
                                                    outCapacity, outNDim, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cast_plan_create(int from, int to, TcastCastOptions* options,
                                                     IntPtr* plan, TcastError* err)
                => NativeMethods.tcast_cast_plan_create(from, to, options, plan, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cast_plan_run(IntPtr plan, TcastTensor* input, TcastTensor* output,
                                                  TcastExecutor* executor, TcastError* err)
                => NativeMethods.tcast_cast_plan_run(plan, input, output, executor, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static void tcast_cast_plan_free(IntPtr plan) => NativeMethods.tcast_cast_plan_free(plan);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_qdq_options_init(TcastQdqOptions* opts, UIntPtr size)
                => NativeMethods.tcast_qdq_options_init(opts, size);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_quantize_linear(TcastTensor* x, TcastTensor* scale,
                                                    TcastTensor* zeroPoint, TcastTensor* y,
                                                    TcastQdqOptions* options, TcastError* err)
                => NativeMethods.tcast_quantize_linear(x, scale, zeroPoint, y, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_dequantize_linear(TcastTensor* x, TcastTensor* scale,
                                                      TcastTensor* zeroPoint, TcastTensor* y,
                                                      TcastQdqOptions* options, TcastError* err)
                => NativeMethods.tcast_dequantize_linear(x, scale, zeroPoint, y, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_mx_options_init(TcastMxOptions* opts, UIntPtr size)
                => NativeMethods.tcast_mx_options_init(opts, size);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_mx_quantize(TcastTensor* x, TcastTensor* y, TcastTensor* scale,
                                                TcastTensor* globalScale, TcastMxOptions* options,
                                                TcastError* err)
                => NativeMethods.tcast_mx_quantize(x, y, scale, globalScale, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_mx_dequantize(TcastTensor* x, TcastTensor* scale,
                                                  TcastTensor* globalScale, TcastTensor* y,
                                                  TcastMxOptions* options, TcastError* err)
                => NativeMethods.tcast_mx_dequantize(x, scale, globalScale, y, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_mx_repack(int fromLayout, TcastTensor* from, TcastTensor* fromScales,
                                              int toLayout, TcastTensor* to, TcastTensor* toScales,
                                              TcastMxOptions* options, TcastError* err)
                => NativeMethods.tcast_mx_repack(fromLayout, from, fromScales, toLayout, to, toScales,
                                                 options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_expand(TcastTensor* input, TcastTensor* output, TcastError* err)
                => NativeMethods.tcast_expand(input, output, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_cast_sub_byte(TcastTensor* input, TcastTensor* output,
                                                  TcastCastOptions* options, int subByteLayout,
                                                  TcastError* err)
                => NativeMethods.tcast_cast_sub_byte(input, output, options, subByteLayout, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_expand_ex(TcastTensor* input, TcastTensor* output,
                                              TcastCastOptions* options, TcastError* err)
                => NativeMethods.tcast_expand_ex(input, output, options, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_dtype_from_dlpack(byte code, byte bits, ushort lanes, int* dtype,
                                                      TcastError* err)
                => NativeMethods.tcast_dtype_from_dlpack(code, bits, lanes, dtype, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_dtype_to_dlpack(int dtype, byte* code, byte* bits, ushort* lanes,
                                                    TcastError* err)
                => NativeMethods.tcast_dtype_to_dlpack(dtype, code, bits, lanes, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_bitcast_shape(int from, long* shape, int ndim, int to, int rules,
                                                  long* outShape, int outCapacity, int* outNDim,
                                                  TcastError* err)
                => NativeMethods.tcast_bitcast_shape(from, shape, ndim, to, rules, outShape,
                                                     outCapacity, outNDim, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_bitcast(TcastTensor* input, int to, int rules, TcastTensor* view,
                                            long* shapeStorage, int shapeCapacity, TcastError* err)
                => NativeMethods.tcast_bitcast(input, to, rules, view, shapeStorage, shapeCapacity,
                                               err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_dtype_parse(byte* spec, IntPtr* dtype, TcastError* err)
                => NativeMethods.tcast_np_dtype_parse(spec, dtype, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static void tcast_np_dtype_free(IntPtr dtype) => NativeMethods.tcast_np_dtype_free(dtype);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_dtype_str(IntPtr dtype, byte* buf, ulong capacity,
                                                 ulong* needed, TcastError* err)
                => NativeMethods.tcast_np_dtype_str(dtype, buf, capacity, needed, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_casting_from_name(byte* name, int* casting, TcastError* err)
                => NativeMethods.tcast_np_casting_from_name(name, casting, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_casting_level(IntPtr from, IntPtr to, int rules, int* level,
                                                     TcastError* err)
                => NativeMethods.tcast_np_casting_level(from, to, rules, level, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast(IntPtr from, IntPtr to, int casting, int rules,
                                                int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast(from, to, casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast_str(byte* from, byte* to, byte* casting, int rules,
                                                    int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast_str(from, to, casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast_pyint(byte* decimalText, byte* to, int casting,
                                                      int rules, int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast_pyint(decimalText, to, casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast_pyfloat(double value, byte* to, int casting, int rules,
                                                        int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast_pyfloat(value, to, casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast_pycomplex(double re, double im, byte* to, int casting,
                                                          int rules, int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast_pycomplex(re, im, to, casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast_pybool(int value, byte* to, int casting, int rules,
                                                       int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast_pybool(value, to, casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_can_cast_scalar(byte* dtype, void* value, ulong valueBytes,
                                                       int isArray, byte* to, int casting, int rules,
                                                       int* result, TcastError* err)
                => NativeMethods.tcast_np_can_cast_scalar(dtype, value, valueBytes, isArray, to,
                                                          casting, rules, result, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_promote_types(byte* a, byte* b, byte* buf, ulong capacity,
                                                     ulong* needed, TcastError* err)
                => NativeMethods.tcast_np_promote_types(a, b, buf, capacity, needed, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_min_scalar_type_pyint(byte* decimalText, byte* buf,
                                                             ulong capacity, ulong* needed,
                                                             TcastError* err)
                => NativeMethods.tcast_np_min_scalar_type_pyint(decimalText, buf, capacity, needed,
                                                                err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_min_scalar_type_pyfloat(double value, byte* buf, ulong capacity,
                                                               ulong* needed, TcastError* err)
                => NativeMethods.tcast_np_min_scalar_type_pyfloat(value, buf, capacity, needed, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_np_min_scalar_type_pycomplex(double re, double im, byte* buf,
                                                                 ulong capacity, ulong* needed,
                                                                 TcastError* err)
                => NativeMethods.tcast_np_min_scalar_type_pycomplex(re, im, buf, capacity, needed, err);

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int tcast_can_cast(int from, int to, int casting, int* result,
                                             TcastError* err)
                => NativeMethods.tcast_can_cast(from, to, casting, result, err);
        }
    }
}
