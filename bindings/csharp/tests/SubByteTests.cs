// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of Tensorcast.CastSubByte (sub-byte tensors one element per byte), the Expand
// overload with options (tcast_expand_ex) and DTypeInfo.FromDLPack / ToDLPack.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        static readonly DType[] SubByteDTypes =
        {
            DType.Int4, DType.UInt4, DType.Float4E2M1, DType.Int2, DType.UInt2, DType.Float6E2M3,
            DType.Float6E3M2,
        };

        // Element i of a packed sub-byte tensor: bits i*bits .. (i+1)*bits of the bytes read
        // as one stream, lowest bits first (docs/c-api.md section 4).
        static byte PackedCode(byte[] packed, int i, int bits)
        {
            int code = 0;
            for (int b = 0; b < bits; b++)
            {
                int at = i * bits + b;
                code |= ((packed[at / 8] >> (at % 8)) & 1) << b;
            }
            return (byte)code;
        }

        static byte[] FloatBytes(params float[] values)
        {
            return MemoryMarshal.AsBytes(values.AsSpan()).ToArray();
        }

        // The header's values of one TCAST_* family, by name without prefix or underscores.
        static Dictionary<string, long> FoldedDefines(string prefix)
        {
            return HeaderDefines(prefix).ToDictionary(d => d.Key.Substring(prefix.Length).Replace("_", ""),
                                                      d => d.Value);
        }

        public static void SubByteAndDLPackEnumsMatchHeader()
        {
            var layouts = FoldedDefines("TCAST_SUB_BYTE_");
            Assert.Equal(2, layouts.Count, "TCAST_SUB_BYTE_* in the header");
            foreach (SubByteLayout l in Enum.GetValues(typeof(SubByteLayout)))
                Assert.Equal(layouts[l.ToString().ToUpperInvariant()], (long)l, "SubByteLayout." + l);
            var codes = FoldedDefines("TCAST_DLPACK_");
            Assert.Equal(codes.Count, Enum.GetValues(typeof(DLPackCode)).Length, "DLPackCode members");
            foreach (DLPackCode c in Enum.GetValues(typeof(DLPackCode)))
                Assert.Equal(codes[c.ToString().ToUpperInvariant()], (long)c, "DLPackCode." + c);
        }

        public static void CastSubByteUnpackedInt4()
        {
            // Rounded to the nearest even integer, then the low 4 bits: -9 -> 7, -1 -> -1
            // (0xF), 0.5 -> 0, 7.6 -> 8 -> -8 (0x8); one byte each, high bits 0.
            byte[] src = FloatBytes(-9f, -1f, 0.5f, 7.6f);
            var unpacked = new byte[4];
            Tensorcast.CastSubByte(src, DType.Float, Shape(4), unpacked, DType.Int4, SubByteLayout.Unpacked);
            Assert.Sequence(new byte[] { 0x07, 0x0F, 0x00, 0x08 }, unpacked, "FLOAT -> INT4 unpacked");
            // The same codes, two to a byte, from both packed paths.
            var packed = new byte[2];
            Tensorcast.Cast(src, DType.Float, Shape(4), packed, DType.Int4);
            Assert.Sequence(new byte[] { 0xF7, 0x80 }, packed, "Cast");
            packed = new byte[2];
            Tensorcast.CastSubByte(src, DType.Float, Shape(4), packed, DType.Int4, SubByteLayout.Packed);
            Assert.Sequence(new byte[] { 0xF7, 0x80 }, packed, "CastSubByte Packed");
        }

        public static void CastSubByteAgreesWithThePackedPath()
        {
            float[] values =
            {
                -9f, -7.5f, -3f, -1.75f, -1f, -0.5f, -0.25f, 0f, 0.25f, 0.4f, 0.5f, 1f, 1.5f, 2.5f,
                3f, 5f, 6f, 7.6f, 100f, float.NaN, float.NegativeInfinity,
            };
            byte[] src = FloatBytes(values);
            long[] shape = Shape(values.Length);
            foreach (DType d in SubByteDTypes)
            {
                var packed = new byte[DTypeInfo.TensorBytes(d, shape)];
                var unpacked = new byte[values.Length];
                Tensorcast.Cast(src, DType.Float, shape, packed, d);
                Tensorcast.CastSubByte(src, DType.Float, shape, unpacked, d, SubByteLayout.Unpacked);
                int bits = DTypeInfo.Bits(d);
                Assert.Sequence(Enumerable.Range(0, values.Length).Select(i => PackedCode(packed, i, bits)),
                                unpacked, d + ": unpacked bytes vs packed codes");
                // And back: the unpacked codes read as the packed ones do.
                var fromPacked = new float[values.Length];
                var fromUnpacked = new float[values.Length];
                Tensorcast.Cast<byte, float>(packed, d, shape, fromPacked, DType.Float);
                Tensorcast.CastSubByte(unpacked, d, shape, MemoryMarshal.AsBytes(fromUnpacked.AsSpan()),
                                       DType.Float, SubByteLayout.Unpacked);
                Assert.Sequence(fromPacked.Select(Bits), fromUnpacked.Select(Bits), d + " -> FLOAT");
            }
        }

        public static void CastSubByteUnpackedCodes()
        {
            var fp4 = new byte[1];
            Tensorcast.CastSubByte(FloatBytes(-1f), DType.Float, Shape(1), fp4, DType.Float4E2M1,
                                   SubByteLayout.Unpacked);
            Assert.Equal((byte)0x0A, fp4[0], "FLOAT4E2M1 -1.0");
            var fp6 = new byte[1];
            Tensorcast.CastSubByte(FloatBytes(-1f), DType.Float, Shape(1), fp6, DType.Float6E2M3,
                                   SubByteLayout.Unpacked);
            Assert.Equal((byte)0x28, fp6[0], "FLOAT6E2M3 -1.0");
            // Inputs: the high bits are ignored, 0xF1 as INT4 is 1.
            var ints = new sbyte[4];
            Tensorcast.CastSubByte(new byte[] { 0xF1, 0x0F, 0x08, 0x77 }, DType.Int4, Shape(2, 2),
                                   MemoryMarshal.AsBytes(ints.AsSpan()), DType.Int8, SubByteLayout.Unpacked);
            Assert.Sequence(new sbyte[] { 1, -1, -8, 7 }, ints, "INT4 unpacked -> INT8");
            // Options apply as for Cast, threads included.
            var random = new Random(3);
            float[] many = Enumerable.Range(0, 1 << 20).Select(i => (float)(random.NextDouble() * 40 - 20)).ToArray();
            var one = new byte[many.Length];
            var four = new byte[many.Length];
            Tensorcast.CastSubByte(FloatBytes(many), DType.Float, Shape(many.Length), one, DType.Float4E2M1,
                                   SubByteLayout.Unpacked);
            Tensorcast.CastSubByte(FloatBytes(many), DType.Float, Shape(many.Length), four, DType.Float4E2M1,
                                   SubByteLayout.Unpacked, new CastOptions { Threads = 4 });
            Assert.True(one.SequenceEqual(four), "Threads = 4 gives the bytes of one thread");
        }

        public static void CastSubByteErrors()
        {
            byte[] src = FloatBytes(1f, 2f, 3f, 4f);
            // An unpacked tensor holds one byte per element: the packed size is short.
            var short3 = Assert.Fails(Status.BufferTooSmall, -1,
                                      () => Tensorcast.CastSubByte(src, DType.Float, Shape(4), new byte[3], DType.Int4,
                                                                   SubByteLayout.Unpacked), "3 bytes for 4 elements");
            Assert.True(short3.Message.Contains("4"), "the message gives the bytes needed: " + short3.Message);
            var bad = Assert.Fails(Status.InvalidArgument, -1,
                                   () => Tensorcast.CastSubByte(src, DType.Float, Shape(4), new byte[4], DType.Int4,
                                                                (SubByteLayout)2), "layout 2");
            Assert.Equal("sub_byte_layout is 2; the valid values are 0 (TCAST_SUB_BYTE_PACKED), 1 (TCAST_SUB_BYTE_UNPACKED)",
                         bad.Message, "the library's message");
            // Checked with the options, whatever the dtypes.
            Assert.Fails(Status.InvalidArgument, -1,
                         () => Tensorcast.CastSubByte(src, DType.Float, Shape(4), new byte[16], DType.Float,
                                                      (SubByteLayout)(-1)), "layout -1, FLOAT -> FLOAT");
            Assert.Fails(Status.InvalidArgument, -1,
                         () => Tensorcast.CastSubByte(src, DType.Float, Shape(4), new byte[4], DType.Int4,
                                                      SubByteLayout.Unpacked, new CastOptions { Threads = -1 }),
                         "Threads = -1");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.CastSubByte(src, DType.Float, Shape(4), new byte[64], DType.String,
                                             SubByteLayout.Unpacked), "STRING");
        }

        public static void ExpandWithOptionsEqualsExpand()
        {
            // 8 MiB of FLOAT output, enough for the library to split over two threads.
            float[] row = Enumerable.Range(0, 1024).Select(i => i - 0.5f).ToArray();
            byte[] src = FloatBytes(row);
            long[] inShape = Shape(1, 1024), outShape = Shape(2048, 1024);
            var expected = new byte[2048 * 1024 * 4];
            Tensorcast.Expand(src, DType.Float, inShape, expected, outShape);
            float[] first = MemoryMarshal.Cast<byte, float>(expected.AsSpan()).Slice(2047 * 1024, 1024).ToArray();
            Assert.Sequence(row.Select(Bits), first.Select(Bits), "the last row is the input");
            var options = new[]
            {
                null, new CastOptions(), new CastOptions { Threads = 2 },
                new CastOptions { Threads = 2, Executor = ParallelForExecutor.Shared },
            };
            foreach (CastOptions o in options)
            {
                var got = new byte[expected.Length];
                Tensorcast.Expand(src, DType.Float, inShape, got, outShape, o);
                Assert.True(got.SequenceEqual(expected),
                            "Expand with Threads = " + (o == null ? "null" : o.Threads.ToString()) +
                            (o != null && o.Executor != null ? " on the executor" : "") + " equals Expand");
            }
            // Packed dtypes too: INT4 [2] (1, 2) to [3, 2].
            var int4 = new byte[3];
            Tensorcast.Expand(new byte[] { 0x21 }, DType.Int4, Shape(2), int4, Shape(3, 2), new CastOptions { Threads = 2 });
            Assert.Sequence(new byte[] { 0x21, 0x21, 0x21 }, int4, "INT4");
        }

        public static void ExpandWithOptionsErrors()
        {
            byte[] one = FloatBytes(1f);
            Assert.Fails(Status.InvalidArgument, -1,
                         () => Tensorcast.Expand(one, DType.Float, Shape(1), new byte[8], Shape(2),
                                                 new CastOptions { Threads = -1 }), "Threads = -1");
            Assert.Fails(Status.InvalidArgument, -1,
                         () => Tensorcast.Expand(one, DType.Float, Shape(1), new byte[8], Shape(2),
                                                 new CastOptions { RoundMode = (RoundMode)7 }), "round mode 7");
            Assert.Fails(Status.BufferTooSmall, -1,
                         () => Tensorcast.Expand(one, DType.Float, Shape(1), new byte[4], Shape(2),
                                                 new CastOptions { Threads = 2 }), "4 bytes for 2 FLOATs");
            var ex = Assert.Fails(Status.IncompatibleShapes, -1,
                                  () => Tensorcast.Expand(FloatBytes(1f, 2f, 3f), DType.Float, Shape(3), new byte[8],
                                                          Shape(2), new CastOptions { Threads = 2 }), "[3] to [2]");
            Assert.True(ex.Message.Contains("[3]") && ex.Message.Contains("[2]"), "names both shapes: " + ex.Message);
        }

        public static void DLPackRoundTrip()
        {
            // DLPack 1.1's DLDataType of every dtype that has one (docs/c-api.md section 3).
            var expected = new Dictionary<DType, DLPackType>
            {
                { DType.Int8, new DLPackType(DLPackCode.Int, 8) }, { DType.Int16, new DLPackType(DLPackCode.Int, 16) },
                { DType.Int32, new DLPackType(DLPackCode.Int, 32) }, { DType.Int64, new DLPackType(DLPackCode.Int, 64) },
                { DType.Int4, new DLPackType(DLPackCode.Int, 4) }, { DType.Int2, new DLPackType(DLPackCode.Int, 2) },
                { DType.UInt8, new DLPackType(DLPackCode.UInt, 8) }, { DType.UInt16, new DLPackType(DLPackCode.UInt, 16) },
                { DType.UInt32, new DLPackType(DLPackCode.UInt, 32) }, { DType.UInt64, new DLPackType(DLPackCode.UInt, 64) },
                { DType.UInt4, new DLPackType(DLPackCode.UInt, 4) }, { DType.UInt2, new DLPackType(DLPackCode.UInt, 2) },
                { DType.Float16, new DLPackType(DLPackCode.Float, 16) }, { DType.Float, new DLPackType(DLPackCode.Float, 32) },
                { DType.Double, new DLPackType(DLPackCode.Float, 64) }, { DType.BFloat16, new DLPackType(DLPackCode.Bfloat, 16) },
                { DType.Complex64, new DLPackType(DLPackCode.Complex, 64) },
                { DType.Complex128, new DLPackType(DLPackCode.Complex, 128) },
                { DType.Bool, new DLPackType(DLPackCode.Bool, 8) },
                { DType.Float8E4M3FN, new DLPackType(DLPackCode.Float8E4M3FN, 8) },
                { DType.Float8E4M3FNUZ, new DLPackType(DLPackCode.Float8E4M3FNUZ, 8) },
                { DType.Float8E5M2, new DLPackType(DLPackCode.Float8E5M2, 8) },
                { DType.Float8E5M2FNUZ, new DLPackType(DLPackCode.Float8E5M2FNUZ, 8) },
                { DType.Float8E8M0, new DLPackType(DLPackCode.Float8E8M0FNU, 8) },
                { DType.Float6E2M3, new DLPackType(DLPackCode.Float6E2M3FN, 6) },
                { DType.Float6E3M2, new DLPackType(DLPackCode.Float6E3M2FN, 6) },
                { DType.Float4E2M1, new DLPackType(DLPackCode.Float4E2M1FN, 4) },
            };
            int unsupported = 0;
            foreach (DType d in Enum.GetValues(typeof(DType)))
            {
                if (d == DType.Undefined)
                {
                    var unknown = Assert.Fails(Status.InvalidDType, -1, () => DTypeInfo.ToDLPack(d), "UNDEFINED");
                    Assert.True(unknown.Message.Contains("0"), "names the code: " + unknown.Message);
                    continue;
                }
                DLPackType want;
                if (!expected.TryGetValue(d, out want))
                {
                    var ex = Assert.Fails(Status.Unsupported, -1, () => DTypeInfo.ToDLPack(d), d.ToString());
                    Assert.Equal(DTypeInfo.Name(d) + " has no DLPack type code", ex.Message, d + "'s message");
                    unsupported++;
                    continue;
                }
                DLPackType got = DTypeInfo.ToDLPack(d);
                Assert.Equal(want, got, d + " to DLPack");
                Assert.Equal((ushort)1, got.Lanes, d + " lanes");
                Assert.Equal(d, DTypeInfo.FromDLPack(got), d + " back from DLPack");
                Assert.Equal(d, DTypeInfo.FromDLPack(got.Code, got.Bits), d + " from code and bits");
            }
            Assert.Equal(6, unsupported, "STRING and the five TF quantized types have no DLPack code");
            Assert.Equal(27, expected.Count, "dtypes with a DLPack code");
        }

        public static void DLPackErrors()
        {
            var cases = new[]
            {
                new KeyValuePair<DLPackType, string>(new DLPackType(DLPackCode.Float, 32, 4),
                    "DLPack lanes is 4: only lanes 1 (no vector types) has a tensorcast dtype"),
                new KeyValuePair<DLPackType, string>(new DLPackType(DLPackCode.Float, 32, 0),
                    "DLPack lanes is 0: only lanes 1 (no vector types) has a tensorcast dtype"),
                new KeyValuePair<DLPackType, string>(new DLPackType(DLPackCode.Float, 8),
                    "DLPack type code 2 (kDLFloat) with bits 8 has no tensorcast dtype"),
                new KeyValuePair<DLPackType, string>(new DLPackType(DLPackCode.Float8E3M4, 8),
                    "DLPack type code 7 (kDLFloat8_e3m4) with bits 8 has no tensorcast dtype"),
                new KeyValuePair<DLPackType, string>(new DLPackType((DLPackCode)200, 32),
                    "DLPack type code 200 (not a DLPack 1.1 code) with bits 32 has no tensorcast dtype"),
            };
            foreach (var c in cases)
            {
                var ex = Assert.Fails(Status.Unsupported, -1, () => DTypeInfo.FromDLPack(c.Key), c.Key.ToString());
                Assert.Equal(c.Value, ex.Message, c.Key + "'s message");
            }
        }
    }
}
