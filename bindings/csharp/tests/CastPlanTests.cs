// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of prepared casts (CastPlan): a run writes what Tensorcast.Cast writes, and fails
// as it does; the plan's own errors; Dispose; many threads on one plan.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using System.Threading;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        // n values like a real tensor's (magnitudes over 2^-10..2^10, half negative), then
        // the values a cast treats specially: zeros, infinities, NaN, the float8 and float16
        // overflows, a subnormal.
        static float[] PlanInputs(int n, int seed)
        {
            var random = new Random(seed);
            var values = new List<float>(n + 9);
            for (int i = 0; i < n; i++)
            {
                float v = (float)((1 + random.NextDouble()) * Math.Pow(2, random.Next(-10, 11)));
                values.Add(random.Next(2) == 0 ? -v : v);
            }
            values.AddRange(new[] { 0f, -0f, float.PositiveInfinity, float.NegativeInfinity, float.NaN,
                                    1e6f, -1e6f, 70000f, 1e-40f });
            return values.ToArray();
        }

        static byte[] CastBytes(byte[] src, DType from, long[] shape, DType to, CastOptions options)
        {
            byte[] dst = new byte[DTypeInfo.TensorBytes(to, shape)];
            Tensorcast.Cast(src, from, shape, dst, to, options);
            return dst;
        }

        // A plan's run writes the bytes the plain cast writes, in each of its forms, for pairs
        // the library's plain path takes and for packed pairs, which take the general one.
        public static void CastPlanSameBytesAsCast()
        {
            float[] floats = PlanInputs(991, 1); // 1000 elements
            int n = floats.Length;
            var random = new Random(2);
            int[] ints = Enumerable.Range(0, n).Select(_ => random.Next(int.MinValue, int.MaxValue)).ToArray();
            byte[] floatBytes = MemoryMarshal.AsBytes(new ReadOnlySpan<float>(floats)).ToArray();
            byte[] intBytes = MemoryMarshal.AsBytes(new ReadOnlySpan<int>(ints)).ToArray();
            var pairs = new[]
            {
                Tuple.Create(floatBytes, DType.Float, DType.Float16, (CastOptions)null),
                Tuple.Create(floatBytes, DType.Float, DType.Float8E4M3FN, new CastOptions { Saturate = false }),
                Tuple.Create(floatBytes, DType.Float, DType.Float8E4M3FN, (CastOptions)null),
                Tuple.Create(intBytes, DType.Int32, DType.Float, (CastOptions)null),
                Tuple.Create(floatBytes, DType.Float, DType.Int4, (CastOptions)null),
                Tuple.Create(intBytes.Take((n + 1) / 2).ToArray(), DType.Int4, DType.Float, (CastOptions)null),
                Tuple.Create(floatBytes, DType.Float, DType.Float8E8M0, new CastOptions { RoundMode = RoundMode.Nearest }),
            };
            long[] flat = { n };
            long[] square = { 2, n / 2 };
            foreach (var p in pairs)
            {
                string what = DTypeInfo.Name(p.Item2) + " -> " + DTypeInfo.Name(p.Item3) +
                              (p.Item4 == null ? "" : " with options");
                byte[] want = CastBytes(p.Item1, p.Item2, flat, p.Item3, p.Item4);
                using (var plan = new CastPlan(p.Item2, p.Item3, p.Item4))
                {
                    byte[] got = new byte[want.Length];
                    plan.Run(p.Item1, flat, got);
                    Assert.Sequence(want, got, what + ": Run(bytes)");
                    got = new byte[want.Length];
                    plan.Run(p.Item1, p.Item2, flat, got, p.Item3);
                    Assert.Sequence(want, got, what + ": Run with the dtypes");
                    got = new byte[want.Length];
                    plan.Run(p.Item1, square, got);
                    Assert.Sequence(want, got, what + ": Run(bytes) 2-D");
                }
            }

            // The typed form, with the dtypes the element types stand for.
            using (var plan = new CastPlan(DType.Float, DType.Float16))
            {
                Float16[] want = new Float16[n], got = new Float16[n];
                Tensorcast.Cast<float, Float16>(floats, flat, want);
                plan.Run<float, Float16>(floats, flat, got);
                Assert.Sequence(want, got, "Run<float, Float16>");
            }
            using (var plan = new CastPlan(DType.Int32, DType.Float))
            {
                float[] want = new float[n], got = new float[n];
                Tensorcast.Cast<int, float>(ints, flat, want);
                plan.Run<int, float>(ints, flat, got);
                Assert.Sequence(want.Select(Bits), got.Select(Bits), "Run<int, float>");
            }
        }

        // The options are copied when the plan is made: saturate=false turns a float8
        // overflow into NaN where the default saturates.
        public static void CastPlanKeepsItsOptions()
        {
            var options = new CastOptions { Saturate = false };
            using (var nonSaturating = new CastPlan(DType.Float, DType.Float8E4M3FN, options))
            using (var saturating = new CastPlan(DType.Float, DType.Float8E4M3FN))
            {
                options.Saturate = true;
                var out8 = new Float8E4M3FN[1];
                nonSaturating.Run<float, Float8E4M3FN>(new[] { 1e6f }, new long[] { 1 }, out8);
                Assert.Equal((byte)0x7F, out8[0].Bits, "saturate=false: NaN");
                saturating.Run<float, Float8E4M3FN>(new[] { 1e6f }, new long[] { 1 }, out8);
                Assert.Equal((byte)0x7E, out8[0].Bits, "saturate=true: 448");
            }
        }

        // A run refuses tensors whose dtypes are not the plan's, naming the plan's pair, and
        // fails as the plain cast fails.
        public static void CastPlanRunErrors()
        {
            using (var plan = new CastPlan(DType.Float, DType.Float16))
            {
                long[] one = { 1 };
                var e = Assert.Fails(Status.InvalidDType, null,
                    () => plan.Run(new byte[8], DType.Double, one, new byte[2], DType.Float16), "a DOUBLE input");
                Assert.True(e.Message.Contains("DOUBLE") && e.Message.Contains("FLOAT -> FLOAT16"),
                            "the message names the input's dtype and the plan's pair: " + e.Message);
                e = Assert.Fails(Status.InvalidDType, null,
                    () => plan.Run<float, ushort>(new[] { 1f }, one, new ushort[1]), "a UINT16 output");
                Assert.True(e.Message.Contains("UINT16") && e.Message.Contains("FLOAT -> FLOAT16"),
                            "the message names the output's dtype and the plan's pair: " + e.Message);

                long[] two = { 2 };
                var planError = Assert.Fails(Status.BufferTooSmall, null,
                    () => plan.Run(new byte[8], two, new byte[3]), "output too small (plan)");
                var castError = Assert.Fails(Status.BufferTooSmall, null,
                    () => Tensorcast.Cast(new byte[8], DType.Float, two, new byte[3], DType.Float16), "output too small (Cast)");
                Assert.Equal(castError.Message, planError.Message, "the plan's message is Cast's");
                Assert.Throws<ArgumentNullException>(() => plan.Run(new byte[8], null, new byte[4]), "a null shape");
            }
        }

        // The constructor refuses what Cast refuses of the pair and the options, with Cast's
        // errors.
        public static void CastPlanCreateErrors()
        {
            var e = Assert.Fails(Status.InvalidDType, null, () => new CastPlan((DType)250, DType.Float), "from 250");
            Assert.True(e.Message.StartsWith("from"), "the message names from: " + e.Message);
            e = Assert.Fails(Status.InvalidDType, null, () => new CastPlan(DType.Float, (DType)(-3)), "to -3");
            Assert.True(e.Message.StartsWith("to"), "the message names to: " + e.Message);
            Assert.Throws<ArgumentException>(() => new CastPlan(DType.Float, DType.String), "STRING");

            var bad = new[]
            {
                Tuple.Create(DType.Float, DType.Float8E8M0, new CastOptions { RoundMode = (RoundMode)9 }, Status.InvalidArgument),
                Tuple.Create(DType.Float, DType.Float16, new CastOptions { Threads = -1 }, Status.InvalidArgument),
                Tuple.Create(DType.Float, DType.Float16, new CastOptions { Casting = CastingLevel.Never }, Status.InvalidArgument),
                Tuple.Create(DType.Double, DType.Int32, new CastOptions { Casting = CastingLevel.Safe }, Status.Casting),
            };
            foreach (var b in bad)
            {
                string what = DTypeInfo.Name(b.Item1) + " -> " + DTypeInfo.Name(b.Item2) + " " + b.Item4;
                var planError = Assert.Fails(b.Item4, null, () => new CastPlan(b.Item1, b.Item2, b.Item3), what + " (plan)");
                var castError = Assert.Fails(b.Item4, null,
                    () => Tensorcast.Cast(new byte[8], b.Item1, new long[] { 1 }, new byte[8], b.Item2, b.Item3), what + " (Cast)");
                Assert.Equal(castError.Message, planError.Message, what + ": the plan's message is Cast's");
            }
        }

        // Dispose twice is fine; a run on a disposed plan throws, it does not crash.
        public static void CastPlanDispose()
        {
            var plan = new CastPlan(DType.Float, DType.Float16);
            Assert.Equal("CastPlan(FLOAT -> FLOAT16)", plan.ToString(), "ToString");
            Assert.Equal(DType.Float, plan.From, "From");
            Assert.Equal(DType.Float16, plan.To, "To");
            plan.Dispose();
            plan.Dispose(); // twice is fine
            Assert.Throws<ObjectDisposedException>(
                () => plan.Run(new byte[4], new long[] { 1 }, new byte[2]), "Run after Dispose");
            Assert.Throws<ObjectDisposedException>(
                () => plan.Run<float, Float16>(new[] { 1f }, new long[] { 1 }, new Float16[1]), "typed Run after Dispose");
            Assert.Equal("CastPlan(disposed)", plan.ToString(), "disposed ToString");
        }

        // One plan run from many threads at once, each checking its own results, and a
        // Dispose racing with runs: a run either casts or throws ObjectDisposedException.
        public static void CastPlanConcurrent()
        {
            var failures = new List<string>();
            var options = new CastOptions { Saturate = false };
            using (var plan = new CastPlan(DType.Float, DType.Float8E4M3FN, options))
            {
                var threads = Enumerable.Range(0, 8).Select(g => new Thread(() =>
                {
                    float[] src = PlanInputs(16 + g, g);
                    long[] shape = { src.Length };
                    var want = new Float8E4M3FN[src.Length];
                    Tensorcast.Cast<float, Float8E4M3FN>(src, shape, want, options);
                    var got = new Float8E4M3FN[src.Length];
                    for (int i = 0; i < 2000; i++)
                    {
                        Array.Clear(got, 0, got.Length);
                        plan.Run<float, Float8E4M3FN>(src, shape, got);
                        if (!want.SequenceEqual(got))
                        {
                            lock (failures) failures.Add("thread " + g + " run " + i + " differs");
                            return;
                        }
                    }
                })).ToList();
                threads.ForEach(t => t.Start());
                threads.ForEach(t => t.Join());
            }

            var shared = new CastPlan(DType.Int32, DType.Float);
            var users = Enumerable.Range(0, 4).Select(_ => new Thread(() =>
            {
                var dst = new float[3];
                for (int i = 0; i < 2000; i++)
                {
                    try
                    {
                        shared.Run<int, float>(new[] { 1, -2, 1 << 24 }, new long[] { 3 }, dst);
                        if (dst[0] != 1 || dst[1] != -2 || dst[2] != 1 << 24)
                        {
                            lock (failures) failures.Add("INT32 -> FLOAT: " + string.Join(", ", dst));
                            return;
                        }
                    }
                    catch (ObjectDisposedException)
                    {
                        return; // disposed meanwhile: the expected way out
                    }
                    catch (Exception ex)
                    {
                        lock (failures) failures.Add(ex.ToString());
                        return;
                    }
                }
            })).ToList();
            users.ForEach(t => t.Start());
            shared.Dispose();
            users.ForEach(t => t.Join());
            Assert.True(failures.Count == 0, string.Join("; ", failures));
        }

        // Plans never disposed are freed by SafeHandle's finalizer (a double free would crash
        // here; the native memory itself is not visible).
        public static void CastPlanFinalizer()
        {
            for (int i = 0; i < 1000; i++)
                new CastPlan(DType.Float, DType.BFloat16);
            GC.Collect();
            GC.WaitForPendingFinalizers();
            var plan = new CastPlan(DType.Float, DType.BFloat16);
            plan.Dispose();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            Assert.Equal("CastPlan(disposed)", plan.ToString(), "after Dispose and a collection");
        }
    }
}
