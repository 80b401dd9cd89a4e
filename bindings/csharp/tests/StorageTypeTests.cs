// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of the named storage types (Float16, BFloat16, the float8 formats): what dtype each
// stands for in the typed overloads, the bits the library writes into them, round trips
// back to float, and that ushort and byte keep meaning UINT16 and UINT8.

using System;
using System.Linq;
using System.Runtime.InteropServices;
using TensorcastSharp.Interop;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        public static unsafe void StorageTypesAreOneElementWide()
        {
            Assert.Equal(2, sizeof(Float16), "sizeof(Float16)");
            Assert.Equal(2, sizeof(BFloat16), "sizeof(BFloat16)");
            Assert.Equal(1, sizeof(Float8E4M3FN), "sizeof(Float8E4M3FN)");
            Assert.Equal(1, sizeof(Float8E4M3FNUZ), "sizeof(Float8E4M3FNUZ)");
            Assert.Equal(1, sizeof(Float8E5M2), "sizeof(Float8E5M2)");
            Assert.Equal(1, sizeof(Float8E5M2FNUZ), "sizeof(Float8E5M2FNUZ)");
            Assert.Equal(1, sizeof(Float8E8M0), "sizeof(Float8E8M0)");
            var types = new[]
            {
                typeof(Float16), typeof(BFloat16), typeof(Float8E4M3FN), typeof(Float8E4M3FNUZ),
                typeof(Float8E5M2), typeof(Float8E5M2FNUZ), typeof(Float8E8M0),
            };
            foreach (Type t in types)
            {
                // One byte per 8 bits of the dtype the library reports for the type's name.
                DType dtype = (DType)Enum.Parse(typeof(DType), t.Name);
                Assert.Equal(DTypeInfo.Bits(dtype), 8 * Marshal.SizeOf(t), "Marshal.SizeOf(" + t.Name + ") in bits");
            }
            // An array of them is the dtype's storage, bit for bit.
            Float16[] halves = { new Float16(0x3C00), Float16.FromBits(0xC100) };
            Assert.Sequence(new byte[] { 0x00, 0x3C, 0x00, 0xC1 },
                            MemoryMarshal.AsBytes(halves.AsSpan()).ToArray(), "Float16[] bytes");
        }

        public static void StorageTypesNaturalDTypes()
        {
            Assert.Equal(DType.Float16, DTypeInfo.Of<Float16>(), "Of<Float16>");
            Assert.Equal(DType.BFloat16, DTypeInfo.Of<BFloat16>(), "Of<BFloat16>");
            Assert.Equal(DType.Float8E4M3FN, DTypeInfo.Of<Float8E4M3FN>(), "Of<Float8E4M3FN>");
            Assert.Equal(DType.Float8E4M3FNUZ, DTypeInfo.Of<Float8E4M3FNUZ>(), "Of<Float8E4M3FNUZ>");
            Assert.Equal(DType.Float8E5M2, DTypeInfo.Of<Float8E5M2>(), "Of<Float8E5M2>");
            Assert.Equal(DType.Float8E5M2FNUZ, DTypeInfo.Of<Float8E5M2FNUZ>(), "Of<Float8E5M2FNUZ>");
            Assert.Equal(DType.Float8E8M0, DTypeInfo.Of<Float8E8M0>(), "Of<Float8E8M0>");
            // The plain integers keep their integer dtypes.
            Assert.Equal(DType.UInt16, DTypeInfo.Of<ushort>(), "Of<ushort>");
            Assert.Equal(DType.UInt8, DTypeInfo.Of<byte>(), "Of<byte>");
            Assert.Equal(DType.Float, DTypeInfo.Of<float>(), "Of<float>");
            Assert.Equal(DType.Bool, DTypeInfo.Of<bool>(), "Of<bool>");
            Assert.Throws<ArgumentException>(() => DTypeInfo.Of<decimal>(), "Of<decimal>");
            Assert.Throws<ArgumentException>(() => DTypeInfo.Of<TcastString>(), "Of<TcastString>");
        }

        public static void CastFloatToFloat16Typed()
        {
            float[] src = { 1f, 0.1f, -2.5f, 65504f };
            Float16[] half = Tensorcast.Cast<float, Float16>(src);
            Assert.Sequence(new ushort[] { 0x3C00, 0x2E66, 0xC100, 0x7BFF }, half.Select(h => h.Bits),
                            "FLOAT -> FLOAT16 bits");
            // Back: 0x2E66 is the half nearest 0.1, 1638 * 2^-14.
            float[] back = Tensorcast.Cast<Float16, float>(half);
            Assert.Sequence(new[] { 1f, 1638f / 16384f, -2.5f, 65504f }, back, "FLOAT16 -> FLOAT");

            // The span overload with natural dtypes writes the same bits.
            Float16[] viaSpan = new Float16[src.Length];
            Tensorcast.Cast<float, Float16>(src, Shape(src.Length), viaSpan);
            Assert.Sequence(half, viaSpan, "span overload");
            // Explicit dtypes agree with the natural ones.
            Float16[] explicitTypes = new Float16[src.Length];
            Tensorcast.Cast<float, Float16>(src, DType.Float, Shape(src.Length), explicitTypes, DType.Float16);
            Assert.Sequence(half, explicitTypes, "explicit FLOAT16");
            // DOUBLE too: the source dtype comes from double.
            Float16[] fromDouble = Tensorcast.Cast<double, Float16>(new[] { 1.0, -2.5 });
            Assert.Sequence(new ushort[] { 0x3C00, 0xC100 }, fromDouble.Select(h => h.Bits), "DOUBLE -> FLOAT16");
        }

        public static void UShortStillMeansUInt16()
        {
            float[] src = { 1f, 0.1f, -2.5f, 65504f };
            ushort[] natural = Tensorcast.Cast<float, ushort>(src);
            ushort[] uint16 = new ushort[src.Length];
            Tensorcast.Cast<float, ushort>(src, DType.Float, Shape(src.Length), uint16, DType.UInt16);
            Assert.Sequence(uint16, natural, "Cast<float, ushort> is FLOAT -> UINT16");
            Assert.Equal((ushort)1, natural[0], "1.0 as UINT16");
            Assert.Equal((ushort)65504, natural[3], "65504.0 as UINT16");
            Float16[] half = Tensorcast.Cast<float, Float16>(src);
            Assert.True(!natural.SequenceEqual(half.Select(h => h.Bits)), "UINT16 values differ from FLOAT16 bits");
            // And byte is UINT8, not a float8.
            byte[] bytes = Tensorcast.Cast<float, byte>(new[] { 1f, 200f });
            Assert.Sequence(new byte[] { 1, 200 }, bytes, "Cast<float, byte> is FLOAT -> UINT8");
        }

        public static void CastFloatToBFloat16Typed()
        {
            BFloat16[] b = Tensorcast.Cast<float, BFloat16>(new[] { 1f, -3f, 0.5f });
            Assert.Sequence(new ushort[] { 0x3F80, 0xC040, 0x3F00 }, b.Select(x => x.Bits), "FLOAT -> BFLOAT16 bits");
            Assert.Sequence(new[] { 1f, -3f, 0.5f }, Tensorcast.Cast<BFloat16, float>(b), "BFLOAT16 -> FLOAT");
            // FLOAT16 to BFLOAT16 directly, both named.
            BFloat16[] fromHalf = Tensorcast.Cast<Float16, BFloat16>(new[] { new Float16(0x3C00) });
            Assert.Equal(new BFloat16(0x3F80), fromHalf[0], "FLOAT16 1.0 -> BFLOAT16");
        }

        public static void CastFloatToFloat8Typed()
        {
            float[] src = { 1f, 448f, -0.5f };
            Float8E4M3FN[] e4m3fn = Tensorcast.Cast<float, Float8E4M3FN>(src);
            Assert.Sequence(new byte[] { 0x38, 0x7E, 0xB0 }, e4m3fn.Select(x => x.Bits), "E4M3FN: 1, 448 (max), -0.5");
            Assert.Sequence(src, Tensorcast.Cast<Float8E4M3FN, float>(e4m3fn), "E4M3FN -> FLOAT");

            Float8E4M3FNUZ[] e4m3fnuz = Tensorcast.Cast<float, Float8E4M3FNUZ>(new[] { 1f, 240f });
            Assert.Sequence(new byte[] { 0x40, 0x7F }, e4m3fnuz.Select(x => x.Bits), "E4M3FNUZ: 1, 240 (max)");
            Assert.Sequence(new[] { 1f, 240f }, Tensorcast.Cast<Float8E4M3FNUZ, float>(e4m3fnuz), "E4M3FNUZ -> FLOAT");

            // Saturation (the default) would make -inf the largest negative value.
            Float8E5M2[] e5m2 = Tensorcast.Cast<float, Float8E5M2>(new[] { 1f, 57344f, float.NegativeInfinity },
                                                                     new CastOptions { Saturate = false });
            Assert.Sequence(new byte[] { 0x3C, 0x7B, 0xFC }, e5m2.Select(x => x.Bits), "E5M2: 1, 57344 (max), -inf");
            Assert.Sequence(new[] { 1f, 57344f, float.NegativeInfinity }, Tensorcast.Cast<Float8E5M2, float>(e5m2),
                            "E5M2 -> FLOAT");

            Float8E5M2FNUZ[] e5m2fnuz = Tensorcast.Cast<float, Float8E5M2FNUZ>(new[] { 1f, 57344f });
            Assert.Sequence(new byte[] { 0x40, 0x7F }, e5m2fnuz.Select(x => x.Bits), "E5M2FNUZ: 1, 57344 (max)");
            Assert.Sequence(new[] { 1f, 57344f }, Tensorcast.Cast<Float8E5M2FNUZ, float>(e5m2fnuz), "E5M2FNUZ -> FLOAT");

            Float8E8M0[] e8m0 = Tensorcast.Cast<float, Float8E8M0>(new[] { 1f, 2f, 0.25f });
            Assert.Sequence(new byte[] { 0x7F, 0x80, 0x7D }, e8m0.Select(x => x.Bits), "E8M0: 2^0, 2^1, 2^-2");
            Assert.Sequence(new[] { 1f, 2f, 0.25f }, Tensorcast.Cast<Float8E8M0, float>(e8m0), "E8M0 -> FLOAT");

            // The options reach the typed path: no saturation makes 1000 NaN in E4M3FN.
            Float8E4M3FN[] nan = Tensorcast.Cast<float, Float8E4M3FN>(new[] { 1000f }, new CastOptions { Saturate = false });
            Assert.Equal(new Float8E4M3FN(0x7F), nan[0], "E4M3FN without saturation");
        }

        public static void StorageTypeRefusesOtherDTypes()
        {
            float[] src = { 1f };
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast<float, Float16>(src, DType.Float, Shape(1), new Float16[1], DType.BFloat16),
                "Float16 as BFLOAT16");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast<float, Float16>(src, DType.Float, Shape(1), new Float16[1], DType.UInt16),
                "Float16 as UINT16");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast<float, Float8E4M3FN>(src, DType.Float, Shape(1), new Float8E4M3FN[1], DType.UInt8),
                "Float8E4M3FN as UINT8 (one byte, yet not raw bytes)");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast<float, Float8E5M2>(src, DType.Float, Shape(1), new Float8E5M2[1], DType.Float8E4M3FN),
                "Float8E5M2 as FLOAT8E4M3FN");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast<Float16, float>(new Float16[1], DType.BFloat16, Shape(1), new float[1], DType.Float),
                "Float16 source as BFLOAT16");
            ArgumentException ex = Assert.Throws<ArgumentException>(
                () => Tensorcast.ParseStrings<BFloat16>(new[] { "1" }, DType.Float16, new BFloat16[1]),
                "BFloat16 parsed as FLOAT16");
            Assert.True(ex.Message.Contains("BFLOAT16 only"), "the message says what the type holds: " + ex.Message);
            // Raw storage with an explicit dtype is still allowed for the plain types.
            ushort[] raw = new ushort[1];
            Tensorcast.Cast<float, ushort>(src, DType.Float, Shape(1), raw, DType.Float16);
            Assert.Equal((ushort)0x3C00, raw[0], "ushort with an explicit FLOAT16");
        }

        public static void StorageTypesThroughStringsAndExpand()
        {
            Float16[] parsed = Tensorcast.ParseStrings<Float16>(new[] { "1", "-0.5", "65504" });
            Assert.Sequence(new ushort[] { 0x3C00, 0xB800, 0x7BFF }, parsed.Select(h => h.Bits), "ParseStrings<Float16>");
            Float8E5M2[] parsed8 = Tensorcast.ParseStrings<Float8E5M2>(new[] { "1", "-2" });
            Assert.Sequence(new byte[] { 0x3C, 0xC0 }, parsed8.Select(x => x.Bits), "ParseStrings<Float8E5M2>");
            Float16[] into = new Float16[2];
            Tensorcast.ParseStrings<Float16>(new[] { "2", "0.25" }, DType.Float16, into);
            Assert.Sequence(new ushort[] { 0x4000, 0x3400 }, into.Select(h => h.Bits), "ParseStrings into Float16[]");

            // ToStrings<Float16> formats FLOAT16, the same text as the byte-level call.
            string[] typed = Tensorcast.ToStrings<Float16>(parsed, Shape(3));
            string[] bytes = Tensorcast.ToStrings(MemoryMarshal.AsBytes(parsed.AsSpan()), DType.Float16, Shape(3));
            Assert.Sequence(bytes, typed, "ToStrings<Float16> as FLOAT16");
            Assert.Equal("1.0", typed[0], "FLOAT16 1.0 as text");
            // And ToStrings<ushort> of the same memory is UINT16: the bits in decimal.
            ushort[] sameBits = parsed.Select(h => h.Bits).ToArray();
            Assert.Equal("15360", Tensorcast.ToStrings<ushort>(sameBits, Shape(3))[0], "0x3C00 as UINT16 text");

            ExpandResult<BFloat16> expanded = Tensorcast.Expand<BFloat16>(
                new[] { new BFloat16(0x3F80), new BFloat16(0x4000) }, Shape(2, 1), Shape(2, 2));
            Assert.Sequence(new long[] { 2, 2 }, expanded.Shape, "Expand<BFloat16> shape");
            Assert.Sequence(new ushort[] { 0x3F80, 0x3F80, 0x4000, 0x4000 }, expanded.Data.Select(x => x.Bits),
                            "Expand<BFloat16> data");

            // BitcastView from FLOAT16 to its UINT16 bits, same memory.
            long[] viewShape;
            Span<ushort> view = Tensorcast.BitcastView<Float16, ushort>(parsed, DType.Float16, Shape(3), DType.UInt16,
                                                                         BitcastRules.Onnx, out viewShape);
            Assert.Equal((ushort)0x3C00, view[0], "the view sees the bits");
            Assert.Sequence(new long[] { 3 }, viewShape, "bitcast shape");
        }

        public static void StorageTypeEqualityAndText()
        {
            Assert.True(new Float16(0x3C00).Equals(Float16.FromBits(0x3C00)), "same bits are equal");
            Assert.True(!new Float16(0x0000).Equals(new Float16(0x8000)), "+0 and -0 are different bits");
            Assert.True(!new Float16(0x3C00).Equals((object)new BFloat16(0x3C00)), "a Float16 is no BFloat16");
            Assert.Equal(new Float16(0x7E00).GetHashCode(), Float16.FromBits(0x7E00).GetHashCode(), "hash of equal bits");
            Assert.Equal("Float16(0x3C00)", new Float16(0x3C00).ToString(), "Float16 text");
            Assert.Equal("BFloat16(0x3F80)", new BFloat16(0x3F80).ToString(), "BFloat16 text");
            Assert.Equal("Float8E4M3FN(0x7E)", new Float8E4M3FN(0x7E).ToString(), "Float8E4M3FN text");
            Assert.Equal("Float8E8M0(0x7F)", Float8E8M0.FromBits(0x7F).ToString(), "Float8E8M0 text");
            Assert.Equal(default(Float16), new Float16(0), "default is +0 bits");
        }

        public static unsafe void NullOptionsArePassedAsNull()
        {
            TcastCastOptions storage;
            Assert.True(Tensorcast.NativeOptions(null, &storage) == null, "null options -> NULL");
            TcastCastOptions* given = Tensorcast.NativeOptions(new CastOptions { Threads = 3 }, &storage);
            Assert.True(given == &storage, "options -> the caller's storage");
            Assert.Equal(3, storage.Threads, "filled from the options");
            Assert.Equal((uint)sizeof(TcastCastOptions), storage.StructSize, "struct_size");
        }

        public static void TypedCastAllocatesNothing()
        {
            float[] src = new float[16];
            Float16[] dst = new Float16[16];
            long[] shape = { 16 };
            Tensorcast.Cast<float, Float16>(src, shape, dst); // first call: type initializers run
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++)
                Tensorcast.Cast<float, Float16>(src, shape, dst);
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Equal(0L, allocated, "bytes allocated by 1000 typed casts");
        }
    }
}
