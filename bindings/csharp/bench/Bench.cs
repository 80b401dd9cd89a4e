// SPDX-License-Identifier: MIT OR Apache-2.0
// Per-call cost of small casts through the C# binding, beside bare P/Invoke calls in the
// same run: one that does no work in C, and tcast_cast itself on descriptors built and
// buffers pinned once (what the binding's work is measured against). Built and run by
// scripts/bench-bindings.sh.
using System;
using System.Diagnostics;
using TensorcastSharp;
using TensorcastSharp.Interop;

static unsafe class Bench
{
    const int Calls = 2000000;

    static double NsPerCall(Action call)
    {
        for (int i = 0; i < 10000; i++)
            call();
        double best = double.MaxValue;
        for (int run = 0; run < 5; run++)
        {
            var watch = Stopwatch.StartNew();
            for (int i = 0; i < Calls; i++)
                call();
            best = Math.Min(best, watch.Elapsed.TotalMilliseconds * 1e6 / Calls);
        }
        return best;
    }

    static void Main()
    {
        // The raw calls below bind the externs directly: the library must be found first.
        NativeLibraryResolver.EnsureLoaded();
        float[] src = new float[16];
        ushort[] halves = new ushort[16];
        byte[] srcBytes = new byte[64];
        byte[] dstBytes = new byte[32];
        long[] shape = { 16 };
        double bare = NsPerCall(() => NativeMethods.tcast_dtype_bits((int)DType.Float));
        double direct;
        fixed (byte* s = srcBytes)
        fixed (byte* d = dstBytes)
        fixed (long* dims = shape)
        {
            var input = new TcastTensor { Data = s, DataBytes = 64, Shape = dims, NDim = 1, DType = (int)DType.Float };
            var output = new TcastTensor { Data = d, DataBytes = 32, Shape = dims, NDim = 1, DType = (int)DType.Float16 };
            TcastTensor* i = &input, o = &output;
            direct = NsPerCall(() => NativeMethods.tcast_cast(i, o, null, null));
        }
        double bytes = NsPerCall(() => Tensorcast.Cast(srcBytes, DType.Float, shape, dstBytes, DType.Float16));
        double typed = NsPerCall(() => Tensorcast.Cast<float, ushort>(src, DType.Float, shape, halves, DType.Float16));
        Float16[] named = new Float16[16];
        double natural = NsPerCall(() => Tensorcast.Cast<float, Float16>(src, shape, named));
        Console.WriteLine("ns per call (best of 5 runs of {0} calls)", Calls);
        Console.WriteLine("bare P/Invoke (tcast_dtype_bits)        {0,8:F1}", bare);
        Console.WriteLine("bare P/Invoke of tcast_cast, 16 elements  {0,8:F1}", direct);
        Console.WriteLine("Cast(bytes) 16 FLOAT -> FLOAT16          {0,8:F1}  binding +{1:F1}", bytes, bytes - direct);
        Console.WriteLine("Cast<float, ushort> 16 FLOAT -> FLOAT16  {0,8:F1}  binding +{1:F1}", typed, typed - direct);
        Console.WriteLine("Cast<float, Float16> (dtypes from types) {0,8:F1}  binding +{1:F1}", natural, natural - direct);
    }
}
