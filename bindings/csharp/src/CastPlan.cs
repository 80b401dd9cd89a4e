// SPDX-License-Identifier: MIT OR Apache-2.0
// Prepared casts (docs/c-api.md section 5): CastPlan, a SafeHandle over a
// tcast_cast_plan*, whose Run overloads are Tensorcast.Cast's for one dtype pair and one
// set of options, checked and given their kernel once. Each Run pins its buffers with
// `fixed` and makes one native call, with no error struct unless it failed (as Cast).

using System;
using System.Runtime.InteropServices;
using TensorcastSharp.Interop;

namespace TensorcastSharp
{
    /// <summary>A prepared cast (tcast_cast_plan_create): the casts of tensors of dtype
    /// <see cref="From"/> into tensors of dtype <see cref="To"/> with one set of options,
    /// whose pair and options are checked, and whose kernel is chosen, once. For code that
    /// casts many small tensors of the same dtypes: a Run gives what Tensorcast.Cast gives
    /// with the plan's options, results and errors alike, for less per call. The options
    /// are copied; the plan's executor is their Executor (ParallelForExecutor.Shared lives as
    /// long as the process), as for Cast.
    /// The handle is immutable and may be used from many threads at once. Dispose it when
    /// done (a using block); the SafeHandle finalizer frees one that is forgotten, and a
    /// Dispose that races with runs waits for them (SafeHandle's reference count). A Run on
    /// a disposed plan throws ObjectDisposedException.</summary>
    public sealed class CastPlan : SafeHandle
    {
        /// <summary>Prepares the casts from <paramref name="from"/> to <paramref name="to"/>
        /// with <paramref name="options"/> (null: the library's defaults). What Cast would
        /// refuse of the pair and the options is refused here, with Cast's errors:
        /// Status.InvalidDType (a code that is no dtype, named "from" or "to"),
        /// Status.Unsupported, Status.InvalidArgument (a bad option), Status.Casting (a pair
        /// options.Casting refuses). STRING is ArgumentException, as for Cast: text goes
        /// through ParseStrings and ToStrings.</summary>
        public unsafe CastPlan(DType from, DType to, CastOptions options = null)
            : base(IntPtr.Zero, true)
        {
            Tensorcast.RefuseString(from, nameof(from), "ParseStrings");
            Tensorcast.RefuseString(to, nameof(to), "ToStrings");
            TcastCastOptions native;
            TcastCastOptions* nativeOptions = Tensorcast.NativeOptions(options, &native);
            IntPtr raw = IntPtr.Zero;
            TcastError err;
            int status = Native.tcast_cast_plan_create((int)from, (int)to, nativeOptions, &raw, &err);
            if (status != 0)
                throw TensorcastException.FromNative(status, &err);
            SetHandle(raw);
            From = from;
            To = to;
        }

        /// <summary>The dtype of the tensors the plan casts from.</summary>
        public DType From { get; }

        /// <summary>The dtype of the tensors the plan casts into.</summary>
        public DType To { get; }

        /// <summary>True when there is no handle (never for a constructed plan).</summary>
        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            Native.tcast_cast_plan_free(handle);
            return true;
        }

        /// <summary>"CastPlan(FLOAT -> FLOAT16)"; "CastPlan(disposed)" after Dispose.</summary>
        public override string ToString()
        {
            if (IsClosed)
                return "CastPlan(disposed)";
            return "CastPlan(" + DTypeInfo.Name(From) + " -> " + DTypeInfo.Name(To) + ")";
        }

        /// <summary>Casts the C-contiguous tensor of the plan's <see cref="From"/> dtype and
        /// <paramref name="shape"/> held in <paramref name="src"/> into <paramref name="dst"/>
        /// (tcast_cast_plan_run), as Tensorcast.Cast does with the plan's dtypes and options.
        /// Both spans must hold at least TensorBytes(dtype, shape) bytes and must not
        /// overlap.</summary>
        public void Run(ReadOnlySpan<byte> src, long[] shape, Span<byte> dst)
        {
            Run(src, From, shape, dst, To);
        }

        /// <summary>Tensorcast.Cast's form, with the plan's options: a
        /// <paramref name="srcType"/> or <paramref name="dstType"/> other than the plan's is
        /// Status.InvalidDType, naming the plan's pair.</summary>
        public unsafe void Run(ReadOnlySpan<byte> src, DType srcType, long[] shape, Span<byte> dst,
                               DType dstType)
        {
            DTypeInfo.CheckShape(shape, nameof(shape));
            bool added = false;
            try
            {
                DangerousAddRef(ref added);
                IntPtr plan = handle;
                fixed (byte* s = &MemoryMarshal.GetReference(src))
                fixed (byte* d = &MemoryMarshal.GetReference(dst))
                fixed (long* dims = shape)
                {
                    TcastTensor input = Tensorcast.Describe(s, src.Length, dims, shape.Length, srcType);
                    TcastTensor output = Tensorcast.Describe(d, dst.Length, dims, shape.Length, dstType);
                    if (Native.tcast_cast_plan_run(plan, &input, &output, null, null) != 0)
                        RunFailed(plan, &input, &output);
                }
            }
            finally
            {
                if (added)
                    DangerousRelease();
            }
        }

        /// <summary>Typed form, with the dtypes the element types stand for (DTypeInfo.Of),
        /// as <c>Tensorcast.Cast&lt;TFrom, TTo&gt;(src, shape, dst)</c>: a FLOAT to FLOAT16 plan
        /// takes <c>Run&lt;float, Float16&gt;</c>; <c>Run&lt;float, ushort&gt;</c> (UINT16) is
        /// Status.InvalidDType. Raw storage goes through the byte form
        /// (MemoryMarshal.AsBytes).</summary>
        public void Run<TFrom, TTo>(ReadOnlySpan<TFrom> src, long[] shape, Span<TTo> dst)
            where TFrom : struct
            where TTo : struct
        {
            Run(MemoryMarshal.AsBytes(src), DTypeInfo.Of<TFrom>(), shape, MemoryMarshal.AsBytes(dst),
                DTypeInfo.Of<TTo>());
        }

        // Makes a run that failed again, with an error struct, and throws what it reports.
        static unsafe void RunFailed(IntPtr plan, TcastTensor* input, TcastTensor* output)
        {
            TcastError err;
            TensorcastException.Check(Native.tcast_cast_plan_run(plan, input, output, null, &err), &err);
        }
    }
}
