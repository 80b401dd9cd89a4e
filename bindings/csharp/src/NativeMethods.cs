// SPDX-License-Identifier: MIT OR Apache-2.0
// Raw P/Invoke layer over include/tensorcast.h: blittable struct mirrors and one extern
// per exported function. Everything here passes pointers, so no marshalling happens at
// the boundary; the idiomatic wrapper in Tensorcast.cs pins managed memory with `fixed`.
//
// The native library is "tensorcast". The wrapper never calls these externs before
// NativeLibraryResolver.EnsureLoaded has found it (it calls them through Native, in
// NativeCalls.cs): Mono binds an extern when it compiles a method that calls it, and a
// binding that failed stays failed for the process. Code that calls them directly should
// call NativeLibraryResolver.EnsureLoaded() first, from another method (see
// bindings/csharp/README.md, "Finding the native library").

using System;
using System.Runtime.InteropServices;

namespace TensorcastSharp.Interop
{
    /// <summary>Mirror of <c>tcast_error</c> (272 bytes on x86-64).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct TcastError
    {
        public const int MessageBytes = 256; // TCAST_ERROR_MESSAGE_BYTES

        public int Status;
        public long Index;
        public fixed byte Message[MessageBytes];
    }

    /// <summary>Mirror of <c>tcast_tensor</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct TcastTensor
    {
        public void* Data;
        public ulong DataBytes;
        public long* Shape;
        public long* Strides;
        public int NDim;
        public int DType;
    }

    /// <summary>Mirror of <c>tcast_cast_options</c> (with <c>executor</c>, 32 bytes on
    /// 64-bit targets).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct TcastCastOptions
    {
        public uint StructSize;
        public int Saturate;
        public int RoundMode;
        public int StringFormat;
        public int Casting;
        public int Threads;
        /// <summary><c>const tcast_executor *</c>: IntPtr.Zero for the library's own threads.</summary>
        public IntPtr Executor;
    }

    /// <summary>Mirror of <c>tcast_qdq_options</c> (32 bytes): QuantizeLinear /
    /// DequantizeLinear's attributes.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct TcastQdqOptions
    {
        public uint StructSize;
        public int Saturate;
        public long Axis;
        public long BlockSize;
        public int Precision;
        public int Reserved;
    }

    /// <summary>Mirror of <c>tcast_mx_options</c> (32 bytes): MX / NVFP4 block quantization's
    /// options.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct TcastMxOptions
    {
        public uint StructSize;
        public int ScaleRule;
        public long Axis;
        public long BlockSize;
        public int Reserved0;
        public int Reserved1;
    }

    /// <summary>Mirror of <c>tcast_executor</c>: a host thread pool (docs/c-api.md section 9).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct TcastExecutor
    {
        public IntPtr Ctx;
        /// <summary><c>void (*)(void *ctx, uint64_t n_tasks, tcast_task_fn task, void *task_ctx)</c>.</summary>
        public IntPtr ParallelFor;
    }

    /// <summary>Mirror of <c>tcast_string</c>: bytes, not NUL-terminated.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct TcastString
    {
        public byte* Data;
        public ulong Len;
    }

    /// <summary>Mirror of <c>tcast_string_arena</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct TcastStringArena
    {
        public byte* Data;
        public ulong Capacity;
        public ulong Used;
    }

    /// <summary>The exported functions, one to one with the header.</summary>
    public static unsafe class NativeMethods
    {
        public const string Library = "tensorcast";
        public const int MaxNDim = 64; // TCAST_MAX_NDIM

        // Runs before the first call of any extern below: on .NET the resolver must be in
        // place before the runtime resolves "tensorcast". (It never throws: a static
        // constructor that throws would make the class unusable for the process.)
        static NativeMethods()
        {
            NativeLibraryResolver.Register();
        }

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr tcast_status_name(int status);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr tcast_version();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cpu_info(byte* buf, ulong capacity, ulong* needed, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr tcast_dtype_name(int dtype);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern uint tcast_dtype_bits(int dtype);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_dtype_from_name(byte* name, int* dtype, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_tensor_bytes(int dtype, long* shape, int ndim,
                                                    ulong* outBytes, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_onnx_cast_supported(int from, int to, int opset);

        // The documented way to start options: fills the defaults for `size` bytes, the
        // caller's struct (struct_size = size), and writes nothing past them.
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cast_options_init(TcastCastOptions* opts, UIntPtr size);

        // Deprecated in the C docs: returns the struct by value, at the library's size. The
        // wrapper does not call it (a library whose options struct has grown would write
        // past this binding's return slot). The tests check it agrees.
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern TcastCastOptions tcast_cast_options_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cast(TcastTensor* input, TcastTensor* output,
                                            TcastCastOptions* options, TcastError* err);

        // sub_byte_layout is a TCAST_SUB_BYTE_* value (SubByteLayout).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cast_sub_byte(TcastTensor* input, TcastTensor* output,
                                                     TcastCastOptions* options, int subByteLayout,
                                                     TcastError* err);

        // Prepared casts (docs/c-api.md section 5). A tcast_cast_plan* is an IntPtr; the
        // wrapper keeps it in CastPlan, a SafeHandle.
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cast_plan_create(int from, int to, TcastCastOptions* options,
                                                        IntPtr* plan, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cast_plan_run(IntPtr plan, TcastTensor* input,
                                                     TcastTensor* output, TcastExecutor* executor,
                                                     TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern void tcast_cast_plan_free(IntPtr plan);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_qdq_options_init(TcastQdqOptions* opts, UIntPtr size);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_quantize_linear(TcastTensor* x, TcastTensor* scale,
                                                       TcastTensor* zeroPoint, TcastTensor* y,
                                                       TcastQdqOptions* options, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_dequantize_linear(TcastTensor* x, TcastTensor* scale,
                                                         TcastTensor* zeroPoint, TcastTensor* y,
                                                         TcastQdqOptions* options, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_mx_options_init(TcastMxOptions* opts, UIntPtr size);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_mx_quantize(TcastTensor* x, TcastTensor* y, TcastTensor* scale,
                                                   TcastTensor* globalScale, TcastMxOptions* options,
                                                   TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_mx_dequantize(TcastTensor* x, TcastTensor* scale,
                                                     TcastTensor* globalScale, TcastTensor* y,
                                                     TcastMxOptions* options, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_mx_repack(int fromLayout, TcastTensor* from,
                                                 TcastTensor* fromScales, int toLayout,
                                                 TcastTensor* to, TcastTensor* toScales,
                                                 TcastMxOptions* options, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern ulong tcast_string_max_bytes(int dtype);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_cast_to_strings(TcastTensor* input, TcastTensor* output,
                                                       TcastStringArena* arena,
                                                       TcastCastOptions* options, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_expand_shape(long* inputShape, int inputNDim,
                                                    long* shape, int shapeLen,
                                                    long* outShape, int outCapacity,
                                                    int* outNDim, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_expand(TcastTensor* input, TcastTensor* output,
                                              TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_expand_ex(TcastTensor* input, TcastTensor* output,
                                                 TcastCastOptions* options, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_bitcast_shape(int from, long* shape, int ndim, int to,
                                                     int rules, long* outShape, int outCapacity,
                                                     int* outNDim, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_bitcast(TcastTensor* input, int to, int rules,
                                               TcastTensor* view, long* shapeStorage,
                                               int shapeCapacity, TcastError* err);

        // DLPack's DLDataType fields: code (a TCAST_DLPACK_* value), bits and lanes.
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_dtype_from_dlpack(byte code, byte bits, ushort lanes, int* dtype,
                                                         TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_dtype_to_dlpack(int dtype, byte* code, byte* bits, ushort* lanes,
                                                       TcastError* err);

        // ---- numpy casting rules (docs/c-api.md section 7) ------------------------------------
        //
        // Text arguments are NUL-terminated UTF-8 passed as byte*, built by the wrapper
        // (rather than [MarshalAs(UnmanagedType.LPStr)], whose encoding is the ANSI code
        // page on .NET for Windows and which would silently cut a string at an embedded NUL),
        // so these declarations stay blittable like the rest. A tcast_np_dtype* is an IntPtr;
        // the wrapper keeps it in NumpyDType, a SafeHandle.

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_dtype_parse(byte* spec, IntPtr* dtype, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern void tcast_np_dtype_free(IntPtr dtype);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_dtype_str(IntPtr dtype, byte* buf, ulong capacity,
                                                    ulong* needed, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_casting_from_name(byte* name, int* casting, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_casting_level(IntPtr from, IntPtr to, int rules,
                                                        int* level, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast(IntPtr from, IntPtr to, int casting, int rules,
                                                   int* result, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast_str(byte* from, byte* to, byte* casting, int rules,
                                                       int* result, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast_pyint(byte* decimalText, byte* to, int casting,
                                                         int rules, int* result, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast_pyfloat(double value, byte* to, int casting,
                                                           int rules, int* result, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast_pycomplex(double re, double im, byte* to,
                                                             int casting, int rules, int* result,
                                                             TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast_pybool(int value, byte* to, int casting, int rules,
                                                          int* result, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_can_cast_scalar(byte* dtype, void* value, ulong valueBytes,
                                                          int isArray, byte* to, int casting, int rules,
                                                          int* result, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_promote_types(byte* a, byte* b, byte* buf, ulong capacity,
                                                        ulong* needed, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_min_scalar_type_pyint(byte* decimalText, byte* buf,
                                                                ulong capacity, ulong* needed, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_min_scalar_type_pyfloat(double value, byte* buf,
                                                                  ulong capacity, ulong* needed, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_np_min_scalar_type_pycomplex(double re, double im, byte* buf,
                                                                    ulong capacity, ulong* needed, TcastError* err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int tcast_can_cast(int from, int to, int casting, int* result,
                                                TcastError* err);
    }
}
