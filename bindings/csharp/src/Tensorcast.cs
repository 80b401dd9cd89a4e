// SPDX-License-Identifier: MIT OR Apache-2.0
// The idiomatic C# face of tensorcast: enums for statuses and dtypes, an exception that
// carries tcast_error, and static methods over spans. Each call pins its buffers with
// `fixed` and makes exactly one native call (two for ToStrings' sizing); there is no
// per-element P/Invoke.

using System;
using System.Runtime.InteropServices;
using System.Text;
using TensorcastSharp.Interop;

// The tests check internal decisions that no native result shows (null options as NULL).
[assembly: System.Runtime.CompilerServices.InternalsVisibleTo("TensorcastSharp.Tests")]

namespace TensorcastSharp
{
    // @generated begin enums: written by `bash scripts/generate.sh`; do not edit
    /// <summary>The TCAST_OK / TCAST_ERR_* codes.</summary>
    public enum Status
    {
        Ok = 0,
        NullArgument = 1,
        InvalidDType = 2,
        Unsupported = 3,
        InvalidShape = 4,
        IncompatibleShapes = 5,
        BufferTooSmall = 6,
        Parse = 7,
        InvalidArgument = 8,
        Casting = 9,
        OutOfMemory = 10,
        Internal = 99,
    }

    /// <summary>The TCAST_DTYPE_* codes (ONNX TensorProto.DataType, plus TF's quantized types).</summary>
    public enum DType
    {
        Undefined = 0,
        Float = 1,
        UInt8 = 2,
        Int8 = 3,
        UInt16 = 4,
        Int16 = 5,
        Int32 = 6,
        Int64 = 7,
        String = 8,
        Bool = 9,
        Float16 = 10,
        Double = 11,
        UInt32 = 12,
        UInt64 = 13,
        Complex64 = 14,
        Complex128 = 15,
        BFloat16 = 16,
        Float8E4M3FN = 17,
        Float8E4M3FNUZ = 18,
        Float8E5M2 = 19,
        Float8E5M2FNUZ = 20,
        UInt4 = 21,
        Int4 = 22,
        Float4E2M1 = 23,
        Float8E8M0 = 24,
        UInt2 = 25,
        Int2 = 26,
        Float6E2M3 = 27,
        Float6E3M2 = 28,
        QInt8 = 100,
        QUInt8 = 101,
        QInt16 = 102,
        QUInt16 = 103,
        QInt32 = 104,
    }
    // @generated end enums

    /// <summary>TCAST_ROUND_*: how FLOAT8E8M0 targets round.</summary>
    public enum RoundMode { Up = 0, Down = 1, Nearest = 2 }

    /// <summary>TCAST_FORMAT_*: how numbers are written as text.</summary>
    public enum StringFormat { Shortest = 0, Printf8G = 1 }

    /// <summary>TCAST_CASTING_*: a numpy casting level, strictest first, with the C values.
    /// No .. Unsafe are the levels a cast or a can_cast query may ask for. Never
    /// (TCAST_CASTING_NEVER) is a result only: NumpyDType.CastingLevel returns it when numpy
    /// allows the cast at no level; passed as an argument it is Status.InvalidArgument.
    /// The order is numpy's, so <c>level &lt;= CastingLevel.Safe</c> means "allowed at
    /// safe".</summary>
    public enum CastingLevel { No = 0, Equiv = 1, Safe = 2, SameKind = 3, Unsafe = 4, Never = 5 }

    /// <summary>TCAST_NUMPY_*: which numpy the casting queries reproduce.</summary>
    public enum NumpyRules
    {
        /// <summary>numpy 1.x as documented for 1.22: value-based scalars, structured dtypes
        /// matched by field name.</summary>
        Numpy1 = 1,

        /// <summary>numpy 2 (NEP 50): Python scalars refused (Status.Unsupported), numpy
        /// scalars judged by their dtype, structured dtypes matched by position.</summary>
        Numpy2 = 2,
    }

    /// <summary>TCAST_BITCAST_*: which framework's bitcast shape rules apply.</summary>
    public enum BitcastRules { TensorFlow = 0, Onnx = 1, NumpyView = 2 }

    /// <summary>tcast_mx_options.scale_rule: how an MX block's E8M0 scale follows from its
    /// largest magnitude amax (docs/semantics-mx.md). Floor is OCP MX v1.0's
    /// 2^(floor(log2(amax)) - emax), the default; Ceil 2^(ceil(log2(amax)) - emax); Even
    /// rounds amax to the element's mantissa first; Rceil is cuBLAS's
    /// 2^ceil(log2(amax / largest element)).</summary>
    public enum MxScaleRule { Floor = 0, Ceil = 1, Even = 2, Rceil = 3 }

    /// <summary>The MXFP4 layouts of tcast_mx_repack (docs/semantics-mx.md, "Layouts"): Onnx
    /// (FLOAT4E2M1 data <c>[..., 32 nb]</c>, FLOAT8E8M0 scales <c>[..., nb]</c>), GptOss
    /// (UINT8 blocks <c>[..., nb, 16]</c>, UINT8 scales <c>[..., nb]</c>), Ggml (UINT8
    /// <c>block_mxfp4</c> <c>[..., nb, 17]</c>, the scale inside: no scales tensor).</summary>
    public enum MxLayout { Onnx = 0, GptOss = 1, Ggml = 2 }

    /// <summary>TCAST_SUB_BYTE_*: how the sub-byte tensors (INT4, UINT4, FLOAT4E2M1, INT2,
    /// UINT2, FLOAT6E2M3, FLOAT6E3M2) of Tensorcast.CastSubByte hold their elements. Packed is
    /// every other call's layout (element 0 in the lowest bits); Unpacked is one element per
    /// byte, as ml_dtypes' arrays hold them: the code in the low bits, read with the high bits
    /// ignored (0xF1 as INT4 is 1) and written with them 0 (INT4 -1 is 0x0F, FLOAT4E2M1 -1.0
    /// 0x0A).</summary>
    public enum SubByteLayout { Packed = 0, Unpacked = 1 }

    /// <summary>TCAST_DLPACK_*: DLPack 1.1's type codes (DLDataType.code). OpaqueHandle,
    /// Float8E3M4, Float8E4M3 and Float8E4M3B11FNUZ have no tensorcast dtype.</summary>
    public enum DLPackCode : byte
    {
        Int = 0,
        UInt = 1,
        Float = 2,
        OpaqueHandle = 3,
        Bfloat = 4,
        Complex = 5,
        Bool = 6,
        Float8E3M4 = 7,
        Float8E4M3 = 8,
        Float8E4M3B11FNUZ = 9,
        Float8E4M3FN = 10,
        Float8E4M3FNUZ = 11,
        Float8E5M2 = 12,
        Float8E5M2FNUZ = 13,
        Float8E8M0FNU = 14,
        Float6E2M3FN = 15,
        Float6E3M2FN = 16,
        Float4E2M1FN = 17,
    }

    /// <summary>A DLPack DLDataType: the type code, the bits per lane (4 for INT4, 8 for
    /// BOOL) and the lanes (1: vector types have no tensorcast dtype).</summary>
    public struct DLPackType
    {
        public DLPackType(DLPackCode code, byte bits, ushort lanes = 1)
        {
            Code = code;
            Bits = bits;
            Lanes = lanes;
        }

        public DLPackCode Code { get; }
        public byte Bits { get; }
        public ushort Lanes { get; }

        /// <summary>"DLPackType(Int, 4, 1)".</summary>
        public override string ToString()
        {
            return "DLPackType(" + Code + ", " + Bits + ", " + Lanes + ")";
        }
    }

    /// <summary>A failed tensorcast call: the status, the element index (or -1) and the
    /// library's message.</summary>
    public class TensorcastException : Exception
    {
        public Status Status { get; }

        /// <summary>The element the error is about, or -1.</summary>
        public long Index { get; }

        public TensorcastException(Status status, long index, string message)
            : base(message)
        {
            Status = status;
            Index = index;
        }

        /// <summary>The exception for a failed raw call (for code that uses NativeMethods).</summary>
        public static unsafe TensorcastException FromNative(int status, TcastError* err)
        {
            byte* text = err->Message;
            int length = 0;
            while (length < TcastError.MessageBytes && text[length] != 0)
                length++;
            string message = Encoding.UTF8.GetString(text, length);
            return new TensorcastException((Status)status, err->Index, message);
        }

        internal static unsafe void Check(int status, TcastError* err)
        {
            if (status != 0)
                throw FromNative(status, err);
        }
    }

    /// <summary>Options of a cast. The defaults are the library's
    /// (tcast_cast_options_init).</summary>
    public sealed class CastOptions
    {
        /// <summary>float8 targets: out-of-range values saturate to the largest finite value
        /// (true, the default) or become inf/NaN (false).</summary>
        public bool Saturate { get; set; } = true;

        /// <summary>FLOAT8E8M0 targets only.</summary>
        public RoundMode RoundMode { get; set; } = RoundMode.Up;

        /// <summary>Numeric to STRING only.</summary>
        public StringFormat StringFormat { get; set; } = StringFormat.Shortest;

        /// <summary>Refuse, with Status.Casting and numpy's message, every cast
        /// Tensorcast.CanCast refuses at this level (DOUBLE to INT32 at Safe). Unsafe, the
        /// default, checks nothing; Never is Status.InvalidArgument.</summary>
        public CastingLevel Casting { get; set; } = CastingLevel.Unsafe;

        /// <summary>0 or 1: the calling thread only (default); n &gt; 1: up to n tasks, run
        /// on the library's own threads, or on <see cref="Executor"/> when set.</summary>
        public int Threads { get; set; }

        /// <summary>Where the tasks of a call with Threads &gt; 1 run: null for threads the
        /// library starts itself, or <see cref="ParallelForExecutor.Shared"/> for .NET's
        /// thread pool (Parallel.For).</summary>
        public ParallelForExecutor Executor { get; set; }

        /// <summary>The native struct for these options (for code that uses NativeMethods).
        /// Filled here, with what tcast_cast_options_init writes for this binding's struct size
        /// (the tests check it), so that building options needs no native call;
        /// struct_size is the size this binding was written for.</summary>
        public unsafe TcastCastOptions ToNative()
        {
            return new TcastCastOptions
            {
                StructSize = (uint)sizeof(TcastCastOptions),
                Saturate = Saturate ? 1 : 0,
                RoundMode = (int)RoundMode,
                StringFormat = (int)StringFormat,
                Casting = (int)Casting,
                Threads = Threads,
                Executor = Executor != null ? Executor.Native : IntPtr.Zero,
            };
        }
    }

    /// <summary>A tcast_executor that runs a call's tasks with Parallel.For on .NET's thread
    /// pool, so that the library starts no thread of its own (docs/c-api.md section 9).
    /// One shared instance serves every call; its native struct lives as long as the
    /// process.</summary>
    public sealed class ParallelForExecutor
    {
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        delegate void ParallelForFn(IntPtr ctx, ulong nTasks, IntPtr task, IntPtr taskCtx);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        delegate void TaskFn(IntPtr taskCtx, ulong taskIndex);

        // Kept reachable for as long as native code may call it (initialized before Shared,
        // whose constructor takes its address: static fields initialize in text order).
        static readonly ParallelForFn Entry = Run;

        /// <summary>The executor every CastOptions may share.</summary>
        public static readonly ParallelForExecutor Shared = new ParallelForExecutor();

        internal IntPtr Native { get; }

        ParallelForExecutor()
        {
            Native = Marshal.AllocHGlobal(Marshal.SizeOf(typeof(TcastExecutor)));
            Marshal.StructureToPtr(new TcastExecutor
            {
                Ctx = IntPtr.Zero,
                ParallelFor = Marshal.GetFunctionPointerForDelegate(Entry),
            }, Native, false);
        }

        // Runs task(taskCtx, i) for every i on the thread pool and returns when all are done;
        // the tasks do not throw (the library catches its own failures).
        static void Run(IntPtr ctx, ulong nTasks, IntPtr task, IntPtr taskCtx)
        {
            var run = (TaskFn)Marshal.GetDelegateForFunctionPointer(task, typeof(TaskFn));
            System.Threading.Tasks.Parallel.For(0L, (long)nTasks, i => run(taskCtx, (ulong)i));
        }
    }

    /// <summary>What the library knows about a dtype.</summary>
    public static class DTypeInfo
    {
        /// <summary>The header's name ("FLOAT", "QINT8"), or null for an unknown code.</summary>
        public static string Name(DType dtype)
        {
            IntPtr name = Native.tcast_dtype_name((int)dtype);
            return name == IntPtr.Zero ? null : Marshal.PtrToStringAnsi(name);
        }

        /// <summary>Bits per element (4 for INT4, 8 for BOOL, 128 for STRING's views); 0 if unknown.</summary>
        public static int Bits(DType dtype)
        {
            int code = (int)dtype;
            int[] table = bitsByCode ?? (bitsByCode = AskBits(128));
            return code >= 0 && code < table.Length
                ? table[code]
                : (int)Native.tcast_dtype_bits(code);
        }

        // The library's widths, asked once per code: the typed overloads check element sizes
        // on every call, and a P/Invoke per check cost more than the cast. Filled at the first
        // call rather than by a static initializer, which would make a missing library a
        // TypeInitializationException for the rest of the process; two threads that fill it
        // at once store equal tables.
        static volatile int[] bitsByCode;

        static int[] AskBits(int codes)
        {
            var bits = new int[codes];
            for (int code = 0; code < codes; code++)
                bits[code] = (int)Native.tcast_dtype_bits(code);
            return bits;
        }

        /// <summary>Looks a dtype up by ONNX name or alias ("FLOAT", "float32", "half"),
        /// ignoring case. Throws TensorcastException (InvalidDType) for an unknown name.</summary>
        public static unsafe DType FromName(string name)
        {
            if (name == null)
                throw new ArgumentNullException(nameof(name));
            byte[] utf8 = NulTerminated(name);
            int dtype;
            TcastError err;
            fixed (byte* p = utf8)
            {
                TensorcastException.Check(Native.tcast_dtype_from_name(p, &dtype, &err), &err);
            }
            return (DType)dtype;
        }

        /// <summary>Bytes a C-contiguous tensor of this dtype and shape occupies, sub-byte
        /// types packed. Throws OverflowException above long.MaxValue.</summary>
        public static unsafe long TensorBytes(DType dtype, long[] shape)
        {
            CheckShape(shape, nameof(shape));
            ulong bytes;
            TcastError err;
            fixed (long* s = shape)
            {
                TensorcastException.Check(
                    Native.tcast_tensor_bytes((int)dtype, s, shape.Length, &bytes, &err), &err);
            }
            return checked((long)bytes);
        }

        /// <summary>The dtype of a DLPack DLDataType (tcast_dtype_from_dlpack). DLPack packs
        /// sub-byte types as tensorcast does, unless the producer flags them as padded. Lanes
        /// other than 1, and a code and bits no dtype has, are Status.Unsupported, the message
        /// naming them.</summary>
        public static unsafe DType FromDLPack(DLPackCode code, byte bits, ushort lanes = 1)
        {
            int dtype;
            TcastError err;
            TensorcastException.Check(Native.tcast_dtype_from_dlpack((byte)code, bits, lanes, &dtype, &err),
                                      &err);
            return (DType)dtype;
        }

        /// <summary>FromDLPack of a DLPackType.</summary>
        public static DType FromDLPack(DLPackType type)
        {
            return FromDLPack(type.Code, type.Bits, type.Lanes);
        }

        /// <summary>The DLPack DLDataType of a dtype, lanes 1 (tcast_dtype_to_dlpack): INT4 is
        /// (Int, 4, 1). STRING and the TF quantized types have none (Status.Unsupported); an
        /// unknown code is Status.InvalidDType.</summary>
        public static unsafe DLPackType ToDLPack(DType dtype)
        {
            byte code, bits;
            ushort lanes;
            TcastError err;
            TensorcastException.Check(Native.tcast_dtype_to_dlpack((int)dtype, &code, &bits, &lanes, &err),
                                      &err);
            return new DLPackType((DLPackCode)code, bits, lanes);
        }

        /// <summary>The number of elements of a shape, validated by the library (negative
        /// extents, rank and overflow are errors).</summary>
        public static long ElementCount(long[] shape)
        {
            return TensorBytes(DType.UInt8, shape);
        }

        /// <summary>The longest text one element can format to; 0 for STRING, complex and
        /// unknown codes.</summary>
        public static long MaxStringBytes(DType dtype)
        {
            return checked((long)Native.tcast_string_max_bytes((int)dtype));
        }

        /// <summary>Whether the ONNX Cast schema in force at this opset lists both dtypes.</summary>
        public static bool OnnxCastSupported(DType from, DType to, int opset)
        {
            return Native.tcast_onnx_cast_supported((int)from, (int)to, opset) == 1;
        }

        /// <summary>The dtype a C# element type stands for: float FLOAT, double DOUBLE,
        /// sbyte/byte INT8/UINT8, short/ushort, int/uint, long/ulong the 16/32/64-bit integers,
        /// bool BOOL, and the named storage types of FloatStorage.cs (Float16, BFloat16, the
        /// float8 structs) their dtypes (System.Half FLOAT16 too, on .NET 5 and later). A ushort
        /// is always UINT16 and a byte UINT8, never FLOAT16 or a float8. Other types throw
        /// ArgumentException.</summary>
        public static DType Of<T>() where T : struct
        {
            DType dtype = ElementType<T>.Natural;
            if (dtype == DType.Undefined)
                throw new ArgumentException(
                    "no natural tensorcast dtype for " + typeof(T).Name + ": pass the DType explicitly");
            return dtype;
        }

        // Looked up once per element type (ElementType<T>), so typed calls pay no type tests.
        internal static DType NaturalDType(Type t)
        {
            if (t == typeof(float)) return DType.Float;
            if (t == typeof(double)) return DType.Double;
            if (t == typeof(sbyte)) return DType.Int8;
            if (t == typeof(byte)) return DType.UInt8;
            if (t == typeof(short)) return DType.Int16;
            if (t == typeof(ushort)) return DType.UInt16;
            if (t == typeof(int)) return DType.Int32;
            if (t == typeof(uint)) return DType.UInt32;
            if (t == typeof(long)) return DType.Int64;
            if (t == typeof(ulong)) return DType.UInt64;
            if (t == typeof(bool)) return DType.Bool;
            return NamedDType(t);
        }

        // The dtype of a storage type that stands for exactly one dtype, or Undefined.
        internal static DType NamedDType(Type t)
        {
            // @generated begin storage-types: written by `bash scripts/generate.sh`; do not edit
            if (t == typeof(Float16)) return DType.Float16;
            if (t == typeof(BFloat16)) return DType.BFloat16;
            if (t == typeof(Float8E4M3FN)) return DType.Float8E4M3FN;
            if (t == typeof(Float8E4M3FNUZ)) return DType.Float8E4M3FNUZ;
            if (t == typeof(Float8E5M2)) return DType.Float8E5M2;
            if (t == typeof(Float8E5M2FNUZ)) return DType.Float8E5M2FNUZ;
            if (t == typeof(Float8E8M0)) return DType.Float8E8M0;
            // @generated end storage-types
#if NET5_0_OR_GREATER
            if (t == typeof(Half)) return DType.Float16;
#endif
            return DType.Undefined;
        }

        internal static void CheckShape(long[] shape, string paramName)
        {
            if (shape == null)
                throw new ArgumentNullException(paramName);
        }

        internal static byte[] NulTerminated(string text)
        {
            int n = Encoding.UTF8.GetByteCount(text);
            byte[] bytes = new byte[n + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }
    }

    /// <summary>What Expand returns: new C-contiguous data and its shape. (A class rather
    /// than a tuple: Mono's mcs mishandles generic tuple returns.)</summary>
    public sealed class ExpandResult<T>
    {
        public T[] Data { get; }
        public long[] Shape { get; }

        public ExpandResult(T[] data, long[] shape)
        {
            Data = data;
            Shape = shape;
        }
    }

    /// <summary>Cast, string conversion, Expand and Bitcast over spans and arrays.</summary>
    public static class Tensorcast
    {
        /// <summary>The library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string Version
        {
            get { return Marshal.PtrToStringAnsi(Native.tcast_version()); }
        }

        /// <summary>What the library runs on this CPU, as one line (tcast_cpu_info): the
        /// architecture, the SIMD kernel families in use ("portable" when none), those
        /// TCAST_DISABLE_CPU_FEATURES withdrew and the names in it that no family knows
        /// (quoted, other than printable ASCII written \xNN), "none" for an empty list:
        /// <c>arch=x86_64 kernels=sse2,erms withdrawn=avx2 unknown="avx3"</c>. The variable
        /// is read once per process, at the first call that needs the CPU's features; the
        /// library prints nothing, so this is how a host learns what it did.</summary>
        public static unsafe string CpuInfo()
        {
            return NumpyDType.TextResult((byte* buf, ulong capacity, ulong* needed, TcastError* err) =>
                Native.tcast_cpu_info(buf, capacity, needed, err));
        }

        /// <summary>"TCAST_ERR_PARSE" and so on; "unknown" for other values.</summary>
        public static string StatusName(Status status)
        {
            return Marshal.PtrToStringAnsi(Native.tcast_status_name((int)status));
        }

        /// <summary>numpy.can_cast on tensorcast dtypes (tcast_can_cast), as numpy 2.4 with
        /// ml_dtypes 0.6 answers it: numpy's rules for the classic types, ml_dtypes' casts for
        /// the ML types, STRING as numpy's unsized "U", the TF quantized types as their
        /// storage integers. It is the check CastOptions.Casting makes. An unknown dtype is
        /// Status.InvalidDType; a casting outside No..Unsafe is Status.InvalidArgument.
        /// NumpyDType has the same question for numpy dtype specs.</summary>
        public static unsafe bool CanCast(DType from, DType to, CastingLevel casting)
        {
            int result;
            TcastError err;
            TensorcastException.Check(
                Native.tcast_can_cast((int)from, (int)to, (int)casting, &result, &err), &err);
            return result != 0;
        }

        // ---- Cast --------------------------------------------------------------------------

        /// <summary>Casts a C-contiguous tensor of <paramref name="srcType"/> and
        /// <paramref name="shape"/> held in <paramref name="src"/> into <paramref name="dst"/>
        /// as <paramref name="dstType"/> (ONNX Cast semantics). Both spans must hold at least
        /// TensorBytes(type, shape) bytes and must not overlap. STRING is handled by
        /// ToStrings/ParseStrings.</summary>
        public static unsafe void Cast(ReadOnlySpan<byte> src, DType srcType, long[] shape,
                                       Span<byte> dst, DType dstType, CastOptions options = null)
        {
            DTypeInfo.CheckShape(shape, nameof(shape));
            RefuseString(srcType, "srcType", "ParseStrings");
            RefuseString(dstType, "dstType", "ToStrings");
            TcastCastOptions native;
            TcastCastOptions* nativeOptions = NativeOptions(options, &native);
            fixed (byte* s = &MemoryMarshal.GetReference(src))
            fixed (byte* d = &MemoryMarshal.GetReference(dst))
            fixed (long* dims = shape)
            {
                TcastTensor input = Describe(s, src.Length, dims, shape.Length, srcType);
                TcastTensor output = Describe(d, dst.Length, dims, shape.Length, dstType);
                // No error struct on the way that succeeds (its 272 bytes would be zeroed
                // on every call): a failure is reported by the same call made again.
                if (Native.tcast_cast(&input, &output, nativeOptions, null) != 0)
                    CastFailed(&input, &output, nativeOptions);
            }
        }

        // Makes a cast that failed again, with an error struct, and throws what it reports.
        static unsafe void CastFailed(TcastTensor* input, TcastTensor* output, TcastCastOptions* options)
        {
            TcastError err;
            TensorcastException.Check(Native.tcast_cast(input, output, options, &err), &err);
        }

        /// <summary>Cast with the sub-byte tensors of the call (INT4, UINT4, FLOAT4E2M1, INT2,
        /// UINT2, FLOAT6E2M3, FLOAT6E3M2), src and dst alike, held as
        /// <paramref name="layout"/> says (tcast_cast_sub_byte): SubByteLayout.Unpacked holds
        /// one element per byte, so such a span has at least as many bytes as the shape has
        /// elements; Packed is Cast. Other dtypes are the same in both layouts, and the results
        /// are Cast's. A layout other than the two is Status.InvalidArgument.</summary>
        public static unsafe void CastSubByte(ReadOnlySpan<byte> src, DType srcType, long[] shape,
                                              Span<byte> dst, DType dstType, SubByteLayout layout,
                                              CastOptions options = null)
        {
            DTypeInfo.CheckShape(shape, nameof(shape));
            RefuseString(srcType, "srcType", "ParseStrings");
            RefuseString(dstType, "dstType", "ToStrings");
            TcastCastOptions native;
            TcastCastOptions* nativeOptions = NativeOptions(options, &native);
            TcastError err;
            fixed (byte* s = &MemoryMarshal.GetReference(src))
            fixed (byte* d = &MemoryMarshal.GetReference(dst))
            fixed (long* dims = shape)
            {
                TcastTensor input = Describe(s, src.Length, dims, shape.Length, srcType);
                TcastTensor output = Describe(d, dst.Length, dims, shape.Length, dstType);
                TensorcastException.Check(
                    Native.tcast_cast_sub_byte(&input, &output, nativeOptions, (int)layout, &err), &err);
            }
        }

        /// <summary>Typed form of Cast with explicit dtypes. Each element type must fit its
        /// dtype: a named storage type (Float16, BFloat16, Float8E4M3FN, ...) its own dtype
        /// only; any other type the same size as one element (ushort for FLOAT16 is raw
        /// storage here, as the dtype is explicit), or byte/sbyte (raw bytes; required for
        /// sub-byte dtypes), or float/double for the parts of COMPLEX64/COMPLEX128.</summary>
        public static void Cast<TFrom, TTo>(ReadOnlySpan<TFrom> src, DType srcType, long[] shape,
                                            Span<TTo> dst, DType dstType, CastOptions options = null)
            where TFrom : struct
            where TTo : struct
        {
            CheckElementType<TFrom>(srcType, "src");
            CheckElementType<TTo>(dstType, "dst");
            Cast(MemoryMarshal.AsBytes(src), srcType, shape, MemoryMarshal.AsBytes(dst), dstType, options);
        }

        /// <summary>Typed form of Cast with the dtypes the element types stand for
        /// (DTypeInfo.Of): <c>Cast&lt;float, Float16&gt;</c> is FLOAT to FLOAT16, while
        /// <c>Cast&lt;float, ushort&gt;</c> is FLOAT to UINT16.</summary>
        public static void Cast<TFrom, TTo>(ReadOnlySpan<TFrom> src, long[] shape, Span<TTo> dst,
                                            CastOptions options = null)
            where TFrom : struct
            where TTo : struct
        {
            Cast(src, DTypeInfo.Of<TFrom>(), shape, dst, DTypeInfo.Of<TTo>(), options);
        }

        /// <summary>Casts a whole array as a 1-D tensor into a new array, with the dtypes the
        /// element types stand for: <c>Tensorcast.Cast&lt;int, double&gt;(ints)</c>.</summary>
        public static TTo[] Cast<TFrom, TTo>(TFrom[] src, CastOptions options = null)
            where TFrom : struct
            where TTo : struct
        {
            if (src == null)
                throw new ArgumentNullException(nameof(src));
            return Cast<TFrom, TTo>(new ReadOnlySpan<TFrom>(src), options);
        }

        /// <summary>Casts a span as a 1-D tensor into a new array, with the dtypes the element
        /// types stand for: <c>Tensorcast.Cast&lt;float, Float16&gt;(values.AsSpan(1, 2))</c>.</summary>
        public static TTo[] Cast<TFrom, TTo>(ReadOnlySpan<TFrom> src, CastOptions options = null)
            where TFrom : struct
            where TTo : struct
        {
            TTo[] dst = new TTo[src.Length];
            Cast(src, new long[] { src.Length }, new Span<TTo>(dst), options);
            return dst;
        }

        // ---- QuantizeLinear / DequantizeLinear ---------------------------------------------

        /// <summary>ONNX QuantizeLinear (tcast_quantize_linear): <c>y = saturate(round(x /
        /// scale) + zeroPoint)</c> into <paramref name="yType"/>. Tensors are contiguous
        /// bytes (sub-byte types packed); <paramref name="zeroPoint"/> may be empty (no zero
        /// point); its dtype is yType and its shape the scale's. <paramref name="axis"/>,
        /// <paramref name="blockSize"/>, <paramref name="saturate"/> and
        /// <paramref name="precision"/> (DType.Undefined: none) are ONNX's attributes
        /// (docs/semantics-quantize.md).</summary>
        public static unsafe void QuantizeLinear(ReadOnlySpan<byte> x, DType xType, long[] xShape,
                                                 ReadOnlySpan<byte> scale, DType scaleType,
                                                 long[] scaleShape, ReadOnlySpan<byte> zeroPoint,
                                                 Span<byte> y, DType yType, long axis = 1,
                                                 long blockSize = 0, bool saturate = true,
                                                 DType precision = DType.Undefined)
        {
            Qdq(true, x, xType, xShape, scale, scaleType, scaleShape, zeroPoint, y, yType, axis,
                blockSize, saturate, precision);
        }

        /// <summary>ONNX DequantizeLinear (tcast_dequantize_linear): <c>y = (x - zeroPoint) *
        /// scale</c>, rounded once into <paramref name="yType"/> (FLOAT, FLOAT16 or
        /// BFLOAT16); the zero point (may be empty) has x's dtype and the scale's shape.</summary>
        public static unsafe void DequantizeLinear(ReadOnlySpan<byte> x, DType xType, long[] xShape,
                                                   ReadOnlySpan<byte> scale, DType scaleType,
                                                   long[] scaleShape, ReadOnlySpan<byte> zeroPoint,
                                                   Span<byte> y, DType yType, long axis = 1,
                                                   long blockSize = 0)
        {
            Qdq(false, x, xType, xShape, scale, scaleType, scaleShape, zeroPoint, y, yType, axis,
                blockSize, true, DType.Undefined);
        }

        static unsafe void Qdq(bool quantize, ReadOnlySpan<byte> x, DType xType, long[] xShape,
                               ReadOnlySpan<byte> scale, DType scaleType, long[] scaleShape,
                               ReadOnlySpan<byte> zeroPoint, Span<byte> y, DType yType, long axis,
                               long blockSize, bool saturate, DType precision)
        {
            DTypeInfo.CheckShape(xShape, nameof(xShape));
            DTypeInfo.CheckShape(scaleShape, nameof(scaleShape));
            TcastQdqOptions options;
            if (Native.tcast_qdq_options_init(&options, (UIntPtr)sizeof(TcastQdqOptions)) != 0)
                throw new InvalidOperationException("tcast_qdq_options_init refused this binding's struct");
            options.Axis = axis;
            options.BlockSize = blockSize;
            options.Saturate = saturate ? 1 : 0;
            options.Precision = (int)precision;
            DType zType = quantize ? yType : xType;
            fixed (byte* px = &MemoryMarshal.GetReference(x))
            fixed (byte* ps = &MemoryMarshal.GetReference(scale))
            fixed (byte* pz = &MemoryMarshal.GetReference(zeroPoint))
            fixed (byte* py = &MemoryMarshal.GetReference(y))
            fixed (long* xd = xShape)
            fixed (long* sd = scaleShape)
            {
                TcastTensor tx = Describe(px, x.Length, xd, xShape.Length, xType);
                TcastTensor ts = Describe(ps, scale.Length, sd, scaleShape.Length, scaleType);
                TcastTensor tz = Describe(pz, zeroPoint.Length, sd, scaleShape.Length, zType);
                TcastTensor ty = Describe(py, y.Length, xd, xShape.Length, yType);
                TcastTensor* zp = zeroPoint.IsEmpty ? null : &tz;
                TcastError err;
                int status = quantize
                    ? Native.tcast_quantize_linear(&tx, &ts, zp, &ty, &options, &err)
                    : Native.tcast_dequantize_linear(&tx, &ts, zp, &ty, &options, &err);
                TensorcastException.Check(status, &err);
            }
        }

        // ---- MX and NVFP4 block quantization -------------------------------------------------

        /// <summary>MX or NVFP4 quantization with the block scales computed from x
        /// (tcast_mx_quantize, docs/semantics-mx.md): writes the elements <paramref name="y"/>
        /// (x's shape; <paramref name="yType"/> FLOAT8E4M3FN, FLOAT8E5M2, FLOAT6E2M3,
        /// FLOAT6E3M2, FLOAT4E2M1, or INT8 for MXINT8), the block scales (FLOAT8E8M0 for MX,
        /// FLOAT8E4M3FN for NVFP4; x's shape with ceil(D / blockSize) along
        /// <paramref name="axis"/>) and, for NVFP4 only, <paramref name="globalScale"/> (4
        /// bytes, one FLOAT of shape []; empty for MX). Tensors are contiguous bytes (sub-byte
        /// types packed); blockSize 0 is the format's own (32 for MX, 16 for NVFP4).</summary>
        public static void MxQuantize(ReadOnlySpan<byte> x, DType xType, long[] shape,
                                      Span<byte> y, DType yType, Span<byte> scale,
                                      DType scaleType, long[] scaleShape, Span<byte> globalScale,
                                      MxScaleRule scaleRule = MxScaleRule.Floor, long axis = -1,
                                      long blockSize = 0)
        {
            Mx(true, x, xType, shape, scale, scaleType, scaleShape, globalScale, y, yType,
               scaleRule, axis, blockSize);
        }

        /// <summary>The inverse of MxQuantize (tcast_mx_dequantize): <paramref name="y"/>
        /// (FLOAT, FLOAT16 or BFLOAT16, x's shape) = element times block scale (times
        /// <paramref name="globalScale"/>, one FLOAT, for NVFP4; empty for MX), rounded once.
        /// A NaN scale gives NaN.</summary>
        public static void MxDequantize(ReadOnlySpan<byte> x, DType xType, long[] shape,
                                        ReadOnlySpan<byte> scale, DType scaleType,
                                        long[] scaleShape, ReadOnlySpan<byte> globalScale,
                                        Span<byte> y, DType yType, long axis = -1,
                                        long blockSize = 0)
        {
            Mx(false, x, xType, shape, scale, scaleType, scaleShape, globalScale, y, yType,
               MxScaleRule.Floor, axis, blockSize);
        }

        // Both MX calls: the library writes scale and globalScale only when quantizing, and
        // MxQuantize takes them as Span<byte> (writable memory) for that.
        static unsafe void Mx(bool quantize, ReadOnlySpan<byte> x, DType xType, long[] shape,
                              ReadOnlySpan<byte> scale, DType scaleType, long[] scaleShape,
                              ReadOnlySpan<byte> globalScale, Span<byte> y, DType yType,
                              MxScaleRule scaleRule, long axis, long blockSize)
        {
            DTypeInfo.CheckShape(shape, nameof(shape));
            DTypeInfo.CheckShape(scaleShape, nameof(scaleShape));
            TcastMxOptions options;
            if (Native.tcast_mx_options_init(&options, (UIntPtr)sizeof(TcastMxOptions)) != 0)
                throw new InvalidOperationException("tcast_mx_options_init refused this binding's struct");
            options.ScaleRule = (int)scaleRule;
            options.Axis = axis;
            options.BlockSize = blockSize;
            fixed (byte* px = &MemoryMarshal.GetReference(x))
            fixed (byte* ps = &MemoryMarshal.GetReference(scale))
            fixed (byte* pg = &MemoryMarshal.GetReference(globalScale))
            fixed (byte* py = &MemoryMarshal.GetReference(y))
            fixed (long* xd = shape)
            fixed (long* sd = scaleShape)
            {
                TcastTensor tx = Describe(px, x.Length, xd, shape.Length, xType);
                TcastTensor ts = Describe(ps, scale.Length, sd, scaleShape.Length, scaleType);
                TcastTensor tg = Describe(pg, globalScale.Length, null, 0, DType.Float);
                TcastTensor ty = Describe(py, y.Length, xd, shape.Length, yType);
                TcastTensor* g = globalScale.IsEmpty ? null : &tg;
                TcastError err;
                int status = quantize
                    ? Native.tcast_mx_quantize(&tx, &ty, &ts, g, &options, &err)
                    : Native.tcast_mx_dequantize(&tx, &ts, g, &ty, &options, &err);
                TensorcastException.Check(status, &err);
            }
        }

        /// <summary>MXFP4 data moved between layouts bit for bit (tcast_mx_repack): the
        /// dtypes are the layouts' (see <see cref="MxLayout"/>); a scales shape of null
        /// passes no scales tensor, as the ggml layout needs.</summary>
        public static unsafe void MxRepack(MxLayout fromLayout, ReadOnlySpan<byte> from,
                                           long[] fromShape, ReadOnlySpan<byte> fromScales,
                                           long[] fromScalesShape, MxLayout toLayout,
                                           Span<byte> to, long[] toShape, Span<byte> toScales,
                                           long[] toScalesShape)
        {
            DTypeInfo.CheckShape(fromShape, nameof(fromShape));
            DTypeInfo.CheckShape(toShape, nameof(toShape));
            fixed (byte* pf = &MemoryMarshal.GetReference(from))
            fixed (byte* pfs = &MemoryMarshal.GetReference(fromScales))
            fixed (byte* pt = &MemoryMarshal.GetReference(to))
            fixed (byte* pts = &MemoryMarshal.GetReference(toScales))
            fixed (long* fd = fromShape)
            fixed (long* fsd = fromScalesShape)
            fixed (long* td = toShape)
            fixed (long* tsd = toScalesShape)
            {
                TcastTensor tf = Describe(pf, from.Length, fd, fromShape.Length, MxDataType(fromLayout));
                TcastTensor tfs = Describe(pfs, fromScales.Length, fsd, fromScalesShape?.Length ?? 0,
                                           MxScalesType(fromLayout));
                TcastTensor tt = Describe(pt, to.Length, td, toShape.Length, MxDataType(toLayout));
                TcastTensor tts = Describe(pts, toScales.Length, tsd, toScalesShape?.Length ?? 0,
                                           MxScalesType(toLayout));
                TcastError err;
                int status = Native.tcast_mx_repack((int)fromLayout, &tf,
                                                    fromScalesShape == null ? null : &tfs,
                                                    (int)toLayout, &tt,
                                                    toScalesShape == null ? null : &tts, null, &err);
                TensorcastException.Check(status, &err);
            }
        }

        // The dtypes of a layout's data and scales (docs/semantics-mx.md, "Layouts"); an
        // unknown layout passes Undefined, and the library names the layout argument.
        static DType MxDataType(MxLayout layout)
        {
            return layout == MxLayout.Onnx ? DType.Float4E2M1
                : layout == MxLayout.GptOss || layout == MxLayout.Ggml ? DType.UInt8 : DType.Undefined;
        }

        static DType MxScalesType(MxLayout layout)
        {
            return layout == MxLayout.Onnx ? DType.Float8E8M0
                : layout == MxLayout.GptOss || layout == MxLayout.Ggml ? DType.UInt8 : DType.Undefined;
        }

        // ---- Strings -----------------------------------------------------------------------

        /// <summary>Formats every element of a numeric tensor as text (ONNX Cast to STRING):
        /// "NaN", "INF", "-INF", "True"/"False", integers in decimal, floats in numpy's
        /// shortest round-trip form or "%.8g". Returns the texts in row-major order.</summary>
        public static unsafe string[] ToStrings(ReadOnlySpan<byte> src, DType srcType, long[] shape,
                                                StringFormat format = StringFormat.Shortest)
        {
            long count = DTypeInfo.ElementCount(shape);
            if (count > int.MaxValue)
                throw new ArgumentException("too many elements for a string[]", nameof(shape));
            // n * tcast_string_max_bytes always suffices (docs/c-api.md section 5). A dtype that
            // cannot be formatted has 0 here; the call below then reports why.
            long arenaBytes = checked(count * DTypeInfo.MaxStringBytes(srcType));
            if (arenaBytes > int.MaxValue)
                throw new ArgumentException("the formatted text would exceed 2 GiB", nameof(shape));

            byte[] arena = new byte[arenaBytes];
            TcastString[] views = new TcastString[count];
            TcastCastOptions native = new CastOptions { StringFormat = format }.ToNative();
            TcastError err;
            fixed (byte* s = &MemoryMarshal.GetReference(src))
            fixed (byte* a = arena)
            fixed (TcastString* v = views)
            fixed (long* dims = shape)
            {
                TcastTensor input = Describe(s, src.Length, dims, shape.Length, srcType);
                TcastTensor output = Describe(v, (long)views.Length * sizeof(TcastString), dims,
                                              shape.Length, DType.String);
                TcastStringArena textArena = new TcastStringArena
                {
                    Data = a,
                    Capacity = (ulong)arena.Length,
                    Used = 0,
                };
                TensorcastException.Check(
                    Native.tcast_cast_to_strings(&input, &output, &textArena, &native, &err), &err);

                string[] texts = new string[count];
                for (int i = 0; i < texts.Length; i++)
                    texts[i] = Encoding.UTF8.GetString(views[i].Data, checked((int)views[i].Len));
                return texts;
            }
        }

        /// <summary>Typed form of ToStrings with the dtype T stands for (DTypeInfo.Of).</summary>
        public static string[] ToStrings<T>(ReadOnlySpan<T> src, long[] shape,
                                            StringFormat format = StringFormat.Shortest)
            where T : struct
        {
            return ToStrings(MemoryMarshal.AsBytes(src), DTypeInfo.Of<T>(), shape, format);
        }

        /// <summary>Formats a whole array as a 1-D tensor of the dtype T stands for:
        /// <c>Tensorcast.ToStrings(new[] { 1.5f, float.NaN })</c> is { "1.5", "NaN" }.</summary>
        public static string[] ToStrings<T>(T[] src, StringFormat format = StringFormat.Shortest)
            where T : struct
        {
            if (src == null)
                throw new ArgumentNullException(nameof(src));
            return ToStrings(new ReadOnlySpan<T>(src), format);
        }

        /// <summary>Formats a span as a 1-D tensor of the dtype T stands for.</summary>
        public static string[] ToStrings<T>(ReadOnlySpan<T> src, StringFormat format = StringFormat.Shortest)
            where T : struct
        {
            return ToStrings(src, new long[] { src.Length }, format);
        }

        /// <summary>Parses texts (ONNX Cast from STRING) into a 1-D tensor of
        /// <paramref name="to"/> with texts.Length elements. A text that is not a number
        /// throws TensorcastException with Status Parse and the element's Index.</summary>
        public static unsafe void ParseStrings(string[] texts, DType to, Span<byte> dst,
                                               CastOptions options = null)
        {
            if (texts == null)
                throw new ArgumentNullException(nameof(texts));
            RefuseString(to, "to", "a string[] copy");

            // All texts go into one UTF-8 buffer that the views point into.
            int[] starts = new int[texts.Length + 1];
            for (int i = 0; i < texts.Length; i++)
            {
                if (texts[i] == null)
                    throw new ArgumentNullException(nameof(texts), "texts[" + i + "] is null");
                starts[i + 1] = checked(starts[i] + Encoding.UTF8.GetByteCount(texts[i]));
            }
            byte[] utf8 = new byte[starts[texts.Length]];
            for (int i = 0; i < texts.Length; i++)
                Encoding.UTF8.GetBytes(texts[i], 0, texts[i].Length, utf8, starts[i]);

            TcastString[] views = new TcastString[texts.Length];
            long[] shape = { texts.Length };
            TcastCastOptions native;
            TcastCastOptions* nativeOptions = NativeOptions(options, &native);
            TcastError err;
            fixed (byte* text = utf8)
            fixed (TcastString* v = views)
            fixed (byte* d = &MemoryMarshal.GetReference(dst))
            fixed (long* dims = shape)
            {
                for (int i = 0; i < views.Length; i++)
                {
                    views[i].Data = text + starts[i];
                    views[i].Len = (ulong)(starts[i + 1] - starts[i]);
                }
                TcastTensor input = Describe(v, (long)views.Length * sizeof(TcastString), dims, 1,
                                             DType.String);
                TcastTensor output = Describe(d, dst.Length, dims, 1, to);
                TensorcastException.Check(Native.tcast_cast(&input, &output, nativeOptions, &err), &err);
            }
        }

        /// <summary>Typed form of ParseStrings with an explicit dtype (the element type must
        /// fit the dtype as for Cast).</summary>
        public static void ParseStrings<T>(string[] texts, DType to, Span<T> dst,
                                           CastOptions options = null)
            where T : struct
        {
            CheckElementType<T>(to, "dst");
            ParseStrings(texts, to, MemoryMarshal.AsBytes(dst), options);
        }

        /// <summary>Parses texts into a new array of the dtype T stands for (DTypeInfo.Of):
        /// <c>ParseStrings&lt;Float16&gt;(texts)</c> gives FLOAT16 elements.</summary>
        public static T[] ParseStrings<T>(string[] texts, CastOptions options = null)
            where T : struct
        {
            if (texts == null)
                throw new ArgumentNullException(nameof(texts));
            T[] dst = new T[texts.Length];
            ParseStrings(texts, DTypeInfo.Of<T>(), new Span<T>(dst), options);
            return dst;
        }

        // ---- Expand ------------------------------------------------------------------------

        /// <summary>The shape ONNX Expand produces: the numpy broadcast of
        /// <paramref name="inputShape"/> with <paramref name="shape"/>, aligned on the right.</summary>
        public static unsafe long[] ExpandShape(long[] inputShape, long[] shape)
        {
            DTypeInfo.CheckShape(inputShape, nameof(inputShape));
            DTypeInfo.CheckShape(shape, nameof(shape));
            long[] result = new long[Math.Max(inputShape.Length, shape.Length)];
            int rank;
            TcastError err;
            fixed (long* a = inputShape)
            fixed (long* b = shape)
            fixed (long* r = result)
            {
                TensorcastException.Check(
                    Native.tcast_expand_shape(a, inputShape.Length, b, shape.Length,
                                                     r, result.Length, &rank, &err), &err);
            }
            return Truncate(result, rank);
        }

        /// <summary>Expands <paramref name="src"/> into a caller-allocated, non-overlapping
        /// <paramref name="dst"/> of <paramref name="outputShape"/>, which must be
        /// ExpandShape(inputShape, outputShape).</summary>
        public static void Expand(ReadOnlySpan<byte> src, DType dtype, long[] inputShape,
                                  Span<byte> dst, long[] outputShape)
            => Expand(src, dtype, inputShape, dst, outputShape, null);

        /// <summary>Expand into <paramref name="dst"/> with <paramref name="options"/>
        /// (tcast_expand_ex): Threads &gt; 1 splits a large expansion into up to that many
        /// tasks, on the library's threads or the options' Executor, with the bytes the other
        /// overload writes; the other fields are checked (Status.InvalidArgument) and otherwise
        /// ignored. Null options run on the calling thread.</summary>
        public static unsafe void Expand(ReadOnlySpan<byte> src, DType dtype, long[] inputShape,
                                         Span<byte> dst, long[] outputShape, CastOptions options)
        {
            DTypeInfo.CheckShape(inputShape, nameof(inputShape));
            DTypeInfo.CheckShape(outputShape, nameof(outputShape));
            RefuseString(dtype, "dtype", "a string[] copy");
            TcastCastOptions native;
            TcastCastOptions* nativeOptions = NativeOptions(options, &native);
            TcastError err;
            fixed (byte* s = &MemoryMarshal.GetReference(src))
            fixed (byte* d = &MemoryMarshal.GetReference(dst))
            fixed (long* inDims = inputShape)
            fixed (long* outDims = outputShape)
            {
                TcastTensor input = Describe(s, src.Length, inDims, inputShape.Length, dtype);
                TcastTensor output = Describe(d, dst.Length, outDims, outputShape.Length, dtype);
                TensorcastException.Check(Native.tcast_expand_ex(&input, &output, nativeOptions, &err), &err);
            }
        }

        /// <summary>ONNX Expand into a new array: returns the data (C-contiguous, sub-byte
        /// dtypes packed) and its shape.</summary>
        public static ExpandResult<byte> Expand(ReadOnlySpan<byte> src, DType dtype,
                                                         long[] inputShape, long[] shape)
        {
            long[] outShape = ExpandShape(inputShape, shape);
            byte[] data = new byte[DTypeInfo.TensorBytes(dtype, outShape)];
            Expand(src, dtype, inputShape, new Span<byte>(data), outShape);
            return new ExpandResult<byte>(data, outShape);
        }

        /// <summary>Typed ONNX Expand into a new array (T must fit the dtype as for Cast).</summary>
        public static ExpandResult<T> Expand<T>(ReadOnlySpan<T> src, DType dtype,
                                                         long[] inputShape, long[] shape)
            where T : struct
        {
            int size = CheckElementType<T>(dtype, "src");
            long[] outShape = ExpandShape(inputShape, shape);
            T[] data = new T[DTypeInfo.TensorBytes(dtype, outShape) / size];
            Expand(MemoryMarshal.AsBytes(src), dtype, inputShape, MemoryMarshal.AsBytes(new Span<T>(data)), outShape);
            return new ExpandResult<T>(data, outShape);
        }

        /// <summary>Typed ONNX Expand with the dtype T stands for (DTypeInfo.Of).</summary>
        public static ExpandResult<T> Expand<T>(ReadOnlySpan<T> src, long[] inputShape,
                                                         long[] shape)
            where T : struct
        {
            return Expand(src, DTypeInfo.Of<T>(), inputShape, shape);
        }

        // ---- Bitcast -----------------------------------------------------------------------

        /// <summary>The shape a C-contiguous tensor of <paramref name="from"/> and
        /// <paramref name="shape"/> has when its bytes are viewed as <paramref name="to"/>.</summary>
        public static unsafe long[] BitcastShape(DType from, long[] shape, DType to, BitcastRules rules)
        {
            DTypeInfo.CheckShape(shape, nameof(shape));
            long[] result = new long[shape.Length + 1]; // TF may append one dimension
            int rank;
            TcastError err;
            fixed (long* s = shape)
            fixed (long* r = result)
            {
                TensorcastException.Check(
                    Native.tcast_bitcast_shape((int)from, s, shape.Length, (int)to, (int)rules,
                                                      r, result.Length, &rank, &err), &err);
            }
            return Truncate(result, rank);
        }

        /// <summary>Checks that <paramref name="data"/> (a tensor of <paramref name="from"/>
        /// and <paramref name="shape"/>) can be viewed as <paramref name="to"/> and returns the
        /// view's shape. Nothing is copied: the view is the same bytes, so reinterpret them
        /// yourself, e.g. <c>MemoryMarshal.Cast&lt;byte, uint&gt;(data)</c>, or use
        /// BitcastView. Unlike BitcastShape this also checks the buffer is large enough.</summary>
        public static unsafe long[] Bitcast(ReadOnlySpan<byte> data, DType from, long[] shape,
                                            DType to, BitcastRules rules)
        {
            DTypeInfo.CheckShape(shape, nameof(shape));
            long[] result = new long[shape.Length + 1];
            TcastTensor view;
            TcastError err;
            fixed (byte* d = &MemoryMarshal.GetReference(data))
            fixed (long* s = shape)
            fixed (long* r = result)
            {
                TcastTensor input = Describe(d, data.Length, s, shape.Length, from);
                TensorcastException.Check(
                    Native.tcast_bitcast(&input, (int)to, (int)rules, &view, r, result.Length, &err),
                    &err);
            }
            return Truncate(result, view.NDim);
        }

        /// <summary>Bitcast as a typed view on the same memory: returns exactly the view,
        /// the first TensorBytes(to, viewShape) bytes of <paramref name="data"/> reinterpreted
        /// as TTo (writes through it change the source), and the view's shape in
        /// <paramref name="viewShape"/>. Bytes of <paramref name="data"/> past the tensor of
        /// <paramref name="shape"/> are not part of the view. The element types must fit the
        /// dtypes as for Cast.</summary>
        public static Span<TTo> BitcastView<TFrom, TTo>(Span<TFrom> data, DType from, long[] shape,
                                                        DType to, BitcastRules rules, out long[] viewShape)
            where TFrom : struct
            where TTo : struct
        {
            CheckElementType<TFrom>(from, "data");
            CheckElementType<TTo>(to, "the view");
            Span<byte> bytes = MemoryMarshal.AsBytes(data);
            long[] resultShape = Bitcast(bytes, from, shape, to, rules);
            // tcast_bitcast has checked that the source tensor fits in data, and a view has
            // the source's bytes; a TTo that fits the dtype divides them (CheckElementType).
            long viewBytes = DTypeInfo.TensorBytes(to, resultShape);
            viewShape = resultShape;
            return MemoryMarshal.Cast<byte, TTo>(bytes.Slice(0, checked((int)viewBytes)));
        }

        /// <summary>BitcastView with the source dtype TFrom stands for (DTypeInfo.Of):
        /// <c>BitcastView&lt;uint, byte&gt;(words, shape, DType.UInt8, rules, out viewShape)</c>.</summary>
        public static Span<TTo> BitcastView<TFrom, TTo>(Span<TFrom> data, long[] shape, DType to,
                                                        BitcastRules rules, out long[] viewShape)
            where TFrom : struct
            where TTo : struct
        {
            return BitcastView<TFrom, TTo>(data, DTypeInfo.Of<TFrom>(), shape, to, rules, out viewShape);
        }

        /// <summary>BitcastView with both dtypes from the element types (DTypeInfo.Of):
        /// <c>BitcastView&lt;Float16, ushort&gt;(halves, shape, BitcastRules.Onnx, out viewShape)</c>
        /// views FLOAT16 as UINT16.</summary>
        public static Span<TTo> BitcastView<TFrom, TTo>(Span<TFrom> data, long[] shape, BitcastRules rules,
                                                        out long[] viewShape)
            where TFrom : struct
            where TTo : struct
        {
            return BitcastView<TFrom, TTo>(data, DTypeInfo.Of<TFrom>(), shape, DTypeInfo.Of<TTo>(), rules,
                                           out viewShape);
        }

        // ---- helpers -----------------------------------------------------------------------

        // The options argument of a native call: null options are passed as NULL (the
        // library's defaults, nothing to build); others are filled into *storage.
        internal static unsafe TcastCastOptions* NativeOptions(CastOptions options, TcastCastOptions* storage)
        {
            if (options == null)
                return null;
            *storage = options.ToNative();
            return storage;
        }

        internal static unsafe TcastTensor Describe(void* data, long bytes, long* shape, int ndim, DType dtype)
        {
            return new TcastTensor
            {
                Data = data,
                DataBytes = (ulong)bytes,
                Shape = shape,
                Strides = null,
                NDim = ndim,
                DType = (int)dtype,
            };
        }

        static long[] Truncate(long[] dims, int rank)
        {
            if (rank == dims.Length)
                return dims;
            long[] result = new long[rank];
            Array.Copy(dims, result, rank);
            return result;
        }

        internal static void RefuseString(DType dtype, string paramName, string alternative)
        {
            if (dtype == DType.String)
                throw new ArgumentException(
                    "STRING tensors are not raw bytes here: use " + alternative, paramName);
        }

        // Size in bytes of one T, checked against the dtype as the typed overloads document.
        static int CheckElementType<T>(DType dtype, string what) where T : struct
        {
            int size = ElementType<T>.Size;
            DType named = ElementType<T>.Named;
            if (named != DType.Undefined)
            {
                if (named == dtype)
                    return size; // Float16 holds FLOAT16 and nothing else
            }
            else if (size == 1 || DTypeInfo.Bits(dtype) == 8 * size)
                return size; // raw bytes fit every dtype; else one element per T
            else if ((dtype == DType.Complex64 && typeof(T) == typeof(float))
                     || (dtype == DType.Complex128 && typeof(T) == typeof(double)))
                return size; // the parts of a complex number
            throw new ArgumentException(
                "element type " + typeof(T).Name + " (" + size + " bytes" +
                (named != DType.Undefined ? ", " + DTypeInfo.Name(named) + " only" : "") +
                ") does not fit dtype " + (DTypeInfo.Name(dtype) ?? ((int)dtype).ToString()) +
                " (" + DTypeInfo.Bits(dtype) + " bits)", what);
        }
    }

    /// <summary>What the typed overloads need to know about an element type, worked out once
    /// per type: its size, its natural dtype (DTypeInfo.Of) and, for the named storage types,
    /// the one dtype it may hold.</summary>
    static class ElementType<T> where T : struct
    {
        // AsBytes also refuses element types that hold references.
        public static readonly int Size = MemoryMarshal.AsBytes(new Span<T>(new T[1])).Length;
        public static readonly DType Natural = DTypeInfo.NaturalDType(typeof(T));
        public static readonly DType Named = DTypeInfo.NamedDType(typeof(T));
    }
}
