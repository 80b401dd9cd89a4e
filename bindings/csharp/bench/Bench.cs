// SPDX-License-Identifier: MIT OR Apache-2.0
// Per-call cost of small casts through the C# binding, beside bare P/Invoke calls in the
// same run: one that does no work in C, and tcast_cast itself on descriptors built and
// buffers pinned once (what the binding's work is measured against); then the same cast
// through a prepared CastPlan beside the plain one, raw and through the binding, measured
// in alternation so that their ratios come from the same moments of a busy machine. Built
// and run by scripts/bench-bindings.sh.
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

    // The best ns per call of each of calls, over rounds that time each once in turn.
    static double[] NsPerCallAlternating(params Action[] calls)
    {
        var best = new double[calls.Length];
        for (int c = 0; c < calls.Length; c++)
        {
            best[c] = double.MaxValue;
            for (int i = 0; i < 10000; i++)
                calls[c]();
        }
        for (int round = 0; round < 8; round++)
        {
            for (int c = 0; c < calls.Length; c++)
            {
                Action call = calls[c];
                var watch = Stopwatch.StartNew();
                for (int i = 0; i < Calls / 2; i++)
                    call();
                best[c] = Math.Min(best[c], watch.Elapsed.TotalMilliseconds * 2e6 / Calls);
            }
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
        double[] rawPair;
        fixed (byte* s = srcBytes)
        fixed (byte* d = dstBytes)
        fixed (long* dims = shape)
        {
            var input = new TcastTensor { Data = s, DataBytes = 64, Shape = dims, NDim = 1, DType = (int)DType.Float };
            var output = new TcastTensor { Data = d, DataBytes = 32, Shape = dims, NDim = 1, DType = (int)DType.Float16 };
            TcastTensor* i = &input, o = &output;
            direct = NsPerCall(() => NativeMethods.tcast_cast(i, o, null, null));
            using (var raw = new CastPlan(DType.Float, DType.Float16))
            {
                IntPtr h = raw.DangerousGetHandle();
                rawPair = NsPerCallAlternating(() => NativeMethods.tcast_cast(i, o, null, null),
                                               () => NativeMethods.tcast_cast_plan_run(h, i, o, null, null));
            }
        }
        double bytes = NsPerCall(() => Tensorcast.Cast(srcBytes, DType.Float, shape, dstBytes, DType.Float16));
        double typed = NsPerCall(() => Tensorcast.Cast<float, ushort>(src, DType.Float, shape, halves, DType.Float16));
        Float16[] named = new Float16[16];
        double natural = NsPerCall(() => Tensorcast.Cast<float, Float16>(src, shape, named));
        double[] pairs;
        using (var plan = new CastPlan(DType.Float, DType.Float16))
        {
            pairs = NsPerCallAlternating(
                () => Tensorcast.Cast(srcBytes, DType.Float, shape, dstBytes, DType.Float16),
                () => plan.Run(srcBytes, shape, dstBytes),
                () => Tensorcast.Cast<float, Float16>(src, shape, named),
                () => plan.Run<float, Float16>(src, shape, named));
        }
        Console.WriteLine("ns per call (best of 5 runs of {0} calls)", Calls);
        Console.WriteLine("bare P/Invoke (tcast_dtype_bits)        {0,8:F1}", bare);
        Console.WriteLine("bare P/Invoke of tcast_cast, 16 elements  {0,8:F1}", direct);
        Console.WriteLine("Cast(bytes) 16 FLOAT -> FLOAT16          {0,8:F1}  binding +{1:F1}", bytes, bytes - direct);
        Console.WriteLine("Cast<float, ushort> 16 FLOAT -> FLOAT16  {0,8:F1}  binding +{1:F1}", typed, typed - direct);
        Console.WriteLine("Cast<float, Float16> (dtypes from types) {0,8:F1}  binding +{1:F1}", natural, natural - direct);
        Console.WriteLine("prepared casts, each beside the plain call, in alternating rounds:");
        Console.WriteLine("bare P/Invoke of tcast_cast_plan_run      {0,8:F1}  {1:F2}x tcast_cast ({2:F1})",
                          rawPair[1], rawPair[1] / rawPair[0], rawPair[0]);
        Console.WriteLine("CastPlan.Run(bytes) 16 FLOAT -> FLOAT16  {0,8:F1}  {1:F2}x Cast(bytes) ({2:F1})",
                          pairs[1], pairs[1] / pairs[0], pairs[0]);
        Console.WriteLine("CastPlan.Run<float, Float16>             {0,8:F1}  {1:F2}x Cast<float, Float16> ({2:F1})",
                          pairs[3], pairs[3] / pairs[2], pairs[2]);
    }
}
