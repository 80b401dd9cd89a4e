// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of the numpy casting API (NumpyDType, Tensorcast.CanCast). The expectations come
// from docs/semantics-can-cast.md (numpy 1.22.4 / 2.4.6 as measured there), not
// from the library's answers.

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        static readonly CastingLevel[] Levels =
        {
            CastingLevel.No, CastingLevel.Equiv, CastingLevel.Safe, CastingLevel.SameKind, CastingLevel.Unsafe,
        };

        static readonly NumpyRules[] BothRules = { NumpyRules.Numpy1, NumpyRules.Numpy2 };

        static byte[] LittleEndian(long value)
        {
            byte[] b = BitConverter.GetBytes(value);
            if (!BitConverter.IsLittleEndian)
                Array.Reverse(b);
            return b;
        }

        public static void NumpyEnumsMatchHeader()
        {
            var numpy = HeaderDefines("TCAST_NUMPY_");
            Assert.Equal(numpy["TCAST_NUMPY_1"], (long)NumpyRules.Numpy1, "Numpy1");
            Assert.Equal(numpy["TCAST_NUMPY_2"], (long)NumpyRules.Numpy2, "Numpy2");
            Assert.Equal(HeaderDefines("TCAST_CASTING_NEVER")["TCAST_CASTING_NEVER"], (long)CastingLevel.Never, "Never");
            Assert.True(CastingLevel.Unsafe < CastingLevel.Never, "Never sorts after Unsafe");
        }

        public static void NumpyDTypeToString()
        {
            string longSpec = string.Join(",", Enumerable.Repeat("i4", 20));
            string longStr = "[" + string.Join(", ", Enumerable.Range(0, 20).Select(i => "('f" + i + "', '<i4')")) + "]";
            var cases = new Dictionary<string, string>
            {
                { "i4", "int32" }, { "<i4", "int32" }, { ">i4", ">i4" }, { "S5", "|S5" }, { "U3", "<U3" },
                { "f8", "float64" }, { "float64", "float64" }, { "?", "bool" },
                { "M8[ns]", "datetime64[ns]" }, { ">M8[1000ns]", ">M8[1000ns]" },
                { "i4,f8", "[('f0', '<i4'), ('f1', '<f8')]" }, { "(2,)i4", "('<i4', (2,))" },
                { longSpec, longStr }, // longer than the first buffer tried
            };
            foreach (var c in cases)
            {
                using (NumpyDType d = NumpyDType.Parse(c.Key))
                    Assert.Equal(c.Value, d.ToString(), "str(dtype('" + c.Key + "'))");
            }
        }

        public static void NumpyDTypeParseErrors()
        {
            TensorcastException e = Assert.Fails(Status.Parse, null, () => NumpyDType.Parse("abc"), "abc");
            Assert.Equal("data type 'abc' not understood", e.Message, "abc message");
            foreach (string spec in new[] { "", "<", "i16", "float64>" })
                Assert.Fails(Status.Parse, null, () => NumpyDType.Parse(spec), "spec '" + spec + "'");
            e = Assert.Fails(Status.Parse, null, () => NumpyDType.Parse("M8[s"), "M8[s");
            Assert.True(e.Message.Contains("Invalid datetime"), "M8[s message: " + e.Message);
            // numpy raises ValueError here; the semantics page maps grammar failures to PARSE.
            e = Assert.Fails(Status.Parse, null, () => NumpyDType.Parse("M8[D/7]"), "M8[D/7]");
            Assert.True(e.Message.Contains("divisor (7)"), "M8[D/7] message: " + e.Message);
            Assert.Throws<ArgumentNullException>(() => NumpyDType.Parse(null), "null spec");
            Assert.Throws<ArgumentException>(() => NumpyDType.Parse("i4\0x"), "a NUL in the spec");
        }

        struct LevelCase
        {
            public string From, To;
            public CastingLevel Want;
            public LevelCase(string from, string to, CastingLevel want) { From = from; To = to; Want = want; }
        }

        // Pairs from the semantics page (sections 2-4); the same under both rule sets.
        static readonly LevelCase[] LevelCases =
        {
            new LevelCase(">M8[1000ns]", "M8[us]", CastingLevel.Equiv),
            new LevelCase("M8[1000ns]", "M8[us]", CastingLevel.No),
            new LevelCase("M8[2001ns]", "M8[2us]", CastingLevel.No),
            new LevelCase("<i4", "=i4", CastingLevel.No),
            new LevelCase("=i4", ">i4", CastingLevel.Equiv),
            new LevelCase(">S5", "<S5", CastingLevel.No),
            new LevelCase("<i2", ">i4", CastingLevel.Safe),
            new LevelCase(">i4", "<i2", CastingLevel.SameKind),
            new LevelCase(">U5", "<U6", CastingLevel.Safe),
            new LevelCase("l", "q", CastingLevel.No),
            new LevelCase("i8", "f4", CastingLevel.SameKind),
            new LevelCase("i8", "f8", CastingLevel.Safe),
            new LevelCase("u8", "i8", CastingLevel.SameKind),
            new LevelCase("i4", "u8", CastingLevel.Unsafe),
            new LevelCase("i1", "?", CastingLevel.Unsafe),
            new LevelCase("f8", "i8", CastingLevel.Unsafe),
            new LevelCase("i4", "S11", CastingLevel.Safe),
            new LevelCase("i4", "S10", CastingLevel.SameKind),
            new LevelCase("f8", "S", CastingLevel.Safe),
            new LevelCase("U2", "S8", CastingLevel.Unsafe),
            new LevelCase("U2", "V8", CastingLevel.Safe),
            new LevelCase("U2", "V7", CastingLevel.Unsafe),
            new LevelCase("M8[D]", "M8[ns]", CastingLevel.Safe),
            new LevelCase("M8[D]", "M8[ps]", CastingLevel.SameKind),
            new LevelCase("m8[Y]", "m8[D]", CastingLevel.Unsafe),
            new LevelCase("M8[7h]", "M8[3h]", CastingLevel.SameKind),
            new LevelCase("u8", "m8", CastingLevel.SameKind),
            new LevelCase("(2,)i4", "i4", CastingLevel.Unsafe),
            new LevelCase("i4,f8", ">i4,>f8", CastingLevel.Equiv),
            new LevelCase("i4,f8", "i2,f8", CastingLevel.SameKind),
            new LevelCase("i4,i4", "i4", CastingLevel.Never),
            new LevelCase("i4", "i4,i4", CastingLevel.Unsafe),
        };

        public static void NumpyCastingLevels()
        {
            foreach (NumpyRules rules in BothRules)
            {
                foreach (LevelCase c in LevelCases)
                {
                    string what = rules + " '" + c.From + "' -> '" + c.To + "'";
                    using (NumpyDType from = NumpyDType.Parse(c.From))
                    using (NumpyDType to = NumpyDType.Parse(c.To))
                    {
                        Assert.Equal(c.Want, NumpyDType.CastingLevel(from, to, rules), what);
                        foreach (CastingLevel level in Levels)
                            Assert.Equal(c.Want <= level, NumpyDType.CanCast(from, to, level, rules), what + " at " + level);
                    }
                }
            }
        }

        // Where numpy 1.22 and 2.x differ on dtypes: struct field counts and removed aliases.
        public static void NumpyRulesDiffer()
        {
            using (NumpyDType a = NumpyDType.Parse("i4,i4"))
            using (NumpyDType b = NumpyDType.Parse("i4,i4,i4"))
            {
                Assert.Equal(CastingLevel.Unsafe, NumpyDType.CastingLevel(a, b, NumpyRules.Numpy1), "1.22: by name");
                Assert.Equal(CastingLevel.Never, NumpyDType.CastingLevel(a, b, NumpyRules.Numpy2), "2.x: by position");
            }
            using (NumpyDType int0 = NumpyDType.Parse("int0"))
            using (NumpyDType i8 = NumpyDType.Parse("i8"))
            {
                Assert.Equal(CastingLevel.No, NumpyDType.CastingLevel(int0, i8, NumpyRules.Numpy1), "int0 in 1.22");
                TensorcastException e = Assert.Fails(Status.Parse, null,
                    () => NumpyDType.CastingLevel(int0, i8, NumpyRules.Numpy2), "int0 in 2.x");
                Assert.True(e.Message.Contains("int0"), "int0 message: " + e.Message);
            }
        }

        public static void NumpyCanCastArgumentErrors()
        {
            using (NumpyDType i4 = NumpyDType.Parse("i4"))
            using (NumpyDType f8 = NumpyDType.Parse("f8"))
            {
                Assert.Fails(Status.InvalidArgument, null,
                    () => NumpyDType.CanCast(i4, f8, CastingLevel.Never, NumpyRules.Numpy2), "Never as an argument");
                Assert.Fails(Status.InvalidArgument, null,
                    () => NumpyDType.CanCast(i4, f8, (CastingLevel)(-1), NumpyRules.Numpy2), "level -1");
                Assert.Fails(Status.InvalidArgument, null,
                    () => NumpyDType.CanCast(i4, f8, CastingLevel.Safe, (NumpyRules)0), "rules 0");
                Assert.Fails(Status.InvalidArgument, null,
                    () => NumpyDType.CastingLevel(i4, f8, (NumpyRules)3), "rules 3");
                Assert.Throws<ArgumentNullException>(
                    () => NumpyDType.CastingLevel(null, f8, NumpyRules.Numpy2), "null from");
                Assert.Throws<ArgumentNullException>(
                    () => NumpyDType.CanCast(i4, null, CastingLevel.Safe, NumpyRules.Numpy2), "null to");
                Assert.True(NumpyDType.CanCast(i4, i4, CastingLevel.No, NumpyRules.Numpy2), "the same handle twice");

                NumpyDType gone = NumpyDType.Parse("u1");
                gone.Dispose();
                gone.Dispose(); // twice is fine
                Assert.Throws<ObjectDisposedException>(
                    () => NumpyDType.CanCast(gone, i4, CastingLevel.Safe, NumpyRules.Numpy2), "a disposed handle");
                Assert.Equal("NumpyDType(disposed)", gone.ToString(), "disposed ToString");
            }
        }

        public static void NumpyCanCastStr()
        {
            var cases = new[]
            {
                Tuple.Create("i8", "f4", "same_kind", true),
                Tuple.Create("i8", "f4", "safe", false),
                Tuple.Create("i8", "f8", "safe", true),
                Tuple.Create("f8", "S", "safe", true),
                Tuple.Create("u8", "i8", "safe", false),
                Tuple.Create("i4,i4", "i4", "unsafe", false),
                Tuple.Create(">i4", "<i4", "no", false),
                Tuple.Create(">i4", "<i4", "equiv", true),
                Tuple.Create("M8[ns]", "M8[s]", "same_kind", true),
            };
            foreach (NumpyRules rules in BothRules)
                foreach (var c in cases)
                    Assert.Equal(c.Item4, NumpyDType.CanCastStr(c.Item1, c.Item2, c.Item3, rules),
                                 rules + " can_cast('" + c.Item1 + "', '" + c.Item2 + "', '" + c.Item3 + "')");

            TensorcastException e = Assert.Fails(Status.InvalidArgument, null,
                () => NumpyDType.CanCastStr("i4", "i8", "Safe", NumpyRules.Numpy1), "'Safe' under 1.22");
            Assert.True(e.Message.Contains("'same_kind', or 'unsafe' (got 'Safe')"), "1.22 message: " + e.Message);
            e = Assert.Fails(Status.InvalidArgument, null,
                () => NumpyDType.CanCastStr("i4", "i8", "Safe", NumpyRules.Numpy2), "'Safe' under 2.x");
            Assert.True(e.Message.Contains("'same_kind', 'unsafe' (got 'Safe')"), "2.x message: " + e.Message);
            e = Assert.Fails(Status.Parse, null,
                () => NumpyDType.CanCastStr("abc", "i8", "safe", NumpyRules.Numpy2), "bad from");
            Assert.True(e.Message.StartsWith("did not understand one of the types; 'None' not accepted", StringComparison.Ordinal),
                        "bad from message: " + e.Message);
            e = Assert.Fails(Status.Parse, null,
                () => NumpyDType.CanCastStr("i4", "abc", "safe", NumpyRules.Numpy2), "bad to");
            Assert.Equal("data type 'abc' not understood", e.Message, "bad to message");
            Assert.Throws<ArgumentNullException>(
                () => NumpyDType.CanCastStr("i4", "i8", null, NumpyRules.Numpy2), "null casting");
        }

        public static void NumpyParseCasting()
        {
            Assert.Equal(CastingLevel.No, NumpyDType.ParseCasting("no"), "no");
            Assert.Equal(CastingLevel.Equiv, NumpyDType.ParseCasting("equiv"), "equiv");
            Assert.Equal(CastingLevel.Safe, NumpyDType.ParseCasting("safe"), "safe");
            Assert.Equal(CastingLevel.SameKind, NumpyDType.ParseCasting("same_kind"), "same_kind");
            Assert.Equal(CastingLevel.Unsafe, NumpyDType.ParseCasting("unsafe"), "unsafe");
            foreach (string bad in new[] { "Safe", "never", "same_value", "" })
                Assert.Fails(Status.InvalidArgument, null, () => NumpyDType.ParseCasting(bad), "'" + bad + "'");
        }

        // The value-based results listed as checked on numpy 1.22.4 (section 5).
        public static void NumpyPythonScalarsNumpy1()
        {
            CastingLevel S = CastingLevel.Safe, K = CastingLevel.SameKind, U = CastingLevel.Unsafe;
            var ints = new[]
            {
                Tuple.Create("100", "i1", S, true), Tuple.Create("150", "i1", S, false),
                Tuple.Create("150", "i1", K, true), Tuple.Create("150", "u1", S, true),
                Tuple.Create("-1", "u1", S, false), Tuple.Create("-1", "u1", K, false),
                Tuple.Create("-1", "u1", U, true), Tuple.Create("-128", "i1", S, true),
                Tuple.Create("-129", "i1", S, false), Tuple.Create("127", "i1", S, true),
                Tuple.Create("128", "i1", S, false), Tuple.Create("255", "u1", S, true),
                Tuple.Create("256", "u1", S, false), Tuple.Create("300", "i1", S, false),
                Tuple.Create("2147483648", "i4", S, false),
                Tuple.Create("9223372036854775807", "i8", S, true),
                Tuple.Create("9223372036854775808", "i8", S, false),
                Tuple.Create("9223372036854775808", "u8", S, true),
                Tuple.Create("18446744073709551616", "u8", K, false),
                Tuple.Create("18446744073709551616", "O", S, true),
                Tuple.Create("100", "f2", S, true), Tuple.Create("16777217", "f4", S, false),
                Tuple.Create("1", "?", K, false), Tuple.Create("100", "c8", S, true),
                Tuple.Create("100", "S3", S, false), Tuple.Create("200", "S3", S, true),
                Tuple.Create("-100", "S4", S, true), Tuple.Create("100", "m8[s]", S, true),
                Tuple.Create("100", "M8[s]", S, false), Tuple.Create("100", "V1", S, true),
                Tuple.Create("100", "i1", CastingLevel.No, true), Tuple.Create("300", ">i2", CastingLevel.Equiv, true),
            };
            foreach (var c in ints)
                Assert.Equal(c.Item4, NumpyDType.CanCastPyInt(c.Item1, c.Item2, c.Item3, NumpyRules.Numpy1),
                             "can_cast(" + c.Item1 + ", '" + c.Item2 + "', " + c.Item3 + ")");
            Assert.Equal(false, NumpyDType.CanCastPyInt(300L, "i1", S, NumpyRules.Numpy1), "the long overload, 300");
            Assert.Equal(true, NumpyDType.CanCastPyInt(-128L, "i1", S, NumpyRules.Numpy1), "the long overload, -128");

            var floats = new[]
            {
                Tuple.Create(3.5e100, "f4", false), Tuple.Create(1000.0, "f4", true), Tuple.Create(1000.0, "f2", true),
                Tuple.Create(64999.0, "f2", true), Tuple.Create(65000.0, "f2", false),
                Tuple.Create(3.39e38, "f4", true), Tuple.Create(3.4e38, "f4", false),
                Tuple.Create(double.PositiveInfinity, "f2", true), Tuple.Create(double.NaN, "f2", true),
                Tuple.Create(1.0, "i8", false), Tuple.Create(1.0, "S32", true), Tuple.Create(1.0, "S31", false),
            };
            foreach (var c in floats)
                Assert.Equal(c.Item3, NumpyDType.CanCastPyFloat(c.Item1, c.Item2, S, NumpyRules.Numpy1),
                             "can_cast(" + c.Item1.ToString("R") + ", '" + c.Item2 + "')");

            Assert.Equal(true, NumpyDType.CanCastPyComplex(1, 1, "c8", S, NumpyRules.Numpy1), "1+1j -> c8");
            Assert.Equal(false, NumpyDType.CanCastPyComplex(0, 1e100, "c8", S, NumpyRules.Numpy1), "1e100j -> c8");
            Assert.Equal(false, NumpyDType.CanCastPyComplex(1, 0, "f8", S, NumpyRules.Numpy1), "1+0j -> f8");
            Assert.Equal(false, NumpyDType.CanCastPyComplex(double.NaN, 0, "c8", S, NumpyRules.Numpy1), "nan -> c8");

            foreach (string to in new[] { "i1", "u1", "f2" })
                Assert.Equal(true, NumpyDType.CanCastPyBool(true, to, S, NumpyRules.Numpy1), "True -> " + to);
            Assert.Equal(false, NumpyDType.CanCastPyBool(true, "S4", S, NumpyRules.Numpy1), "True -> S4");
        }

        public static void NumpyPythonScalarsNumpy2()
        {
            var calls = new Dictionary<string, Action>
            {
                { "int", () => NumpyDType.CanCastPyInt("300", "i1", CastingLevel.Safe, NumpyRules.Numpy2) },
                { "float", () => NumpyDType.CanCastPyFloat(4.0, "f8", CastingLevel.Unsafe, NumpyRules.Numpy2) },
                { "complex", () => NumpyDType.CanCastPyComplex(0, 4, "c16", CastingLevel.Unsafe, NumpyRules.Numpy2) },
                { "bool", () => NumpyDType.CanCastPyBool(true, "?", CastingLevel.No, NumpyRules.Numpy2) },
            };
            foreach (var c in calls)
            {
                TensorcastException e = Assert.Fails(Status.Unsupported, null, c.Value, "Python " + c.Key + " under 2.x");
                Assert.True(e.Message.StartsWith("can_cast() does not support Python ints, floats, and complex",
                                                 StringComparison.Ordinal), c.Key + " message: " + e.Message);
            }
        }

        public static void NumpyScalarErrors()
        {
            foreach (string bad in new[] { "3x0", "", "1.5" })
                Assert.Fails(Status.Parse, null,
                    () => NumpyDType.CanCastPyInt(bad, "i8", CastingLevel.Safe, NumpyRules.Numpy1), "decimal '" + bad + "'");
            Assert.Fails(Status.Parse, null,
                () => NumpyDType.CanCastPyInt("1", "abc", CastingLevel.Safe, NumpyRules.Numpy1), "bad to");
            Assert.Fails(Status.InvalidArgument, null,
                () => NumpyDType.CanCastPyFloat(1, "f8", (CastingLevel)7, NumpyRules.Numpy1), "casting 7");
            Assert.Fails(Status.InvalidArgument, null,
                () => NumpyDType.CanCastPyBool(true, "?", CastingLevel.Safe, (NumpyRules)0), "rules 0");
            Assert.Throws<ArgumentException>(
                () => NumpyDType.CanCastPyInt("12\0", "i8", CastingLevel.Safe, NumpyRules.Numpy1), "a NUL in the decimal");
        }

        public static void NumpyCanCastScalar()
        {
            byte[] be100 = LittleEndian(100);
            Array.Reverse(be100);
            byte[] f32 = BitConverter.GetBytes(7e4f);
            // 2**1100 as an x87 80-bit long double in 16 bytes: beyond float64's range.
            byte[] g = new byte[16];
            Array.Copy(LittleEndian(long.MinValue), g, 8); // mantissa 0x8000000000000000
            g[8] = (16383 + 1100) & 0xff;
            g[9] = (16383 + 1100) >> 8;
            byte[] abc = Encoding.UTF32.GetBytes("abc"); // np.str_('abc'): UCS-4, little-endian
            byte[] five = { 5, 0, 0, 0 };
            // dtype, value, 0-d array?, to, numpy 1.22, numpy 2.x (all at 'safe')
            var cases = new[]
            {
                Tuple.Create("i8", LittleEndian(150), false, "u1", true, false),
                Tuple.Create("u1", new byte[] { 200 }, false, "i1", false, false),
                Tuple.Create("u8", LittleEndian(long.MaxValue), false, "i8", true, false),
                Tuple.Create("f8", LittleEndian(BitConverter.DoubleToInt64Bits(1000.0)), false, "f2", true, false),
                Tuple.Create("f8", LittleEndian(BitConverter.DoubleToInt64Bits(1000.0)), false, "f4", true, false),
                Tuple.Create("f4", f32, false, "f2", false, false),
                Tuple.Create("g", g, false, "f8", false, false),
                Tuple.Create("f8", LittleEndian(BitConverter.DoubleToInt64Bits(1000.0)), true, "f4", true, false),
                Tuple.Create(">i8", be100, true, "i1", true, false),
                Tuple.Create("i8", LittleEndian(100), false, "i1", true, false),
                Tuple.Create("i4", five, false, "S10", true, false),
                Tuple.Create("U3", abc, false, "S3", false, false),
                Tuple.Create("i4", five, false, "i8", true, true),
            };
            foreach (var c in cases)
            {
                string what = "can_cast(" + c.Item1 + (c.Item3 ? " 0-d array " : " scalar ") +
                              BitConverter.ToString(c.Item2) + ", '" + c.Item4 + "', safe)";
                Assert.Equal(c.Item5, NumpyDType.CanCastScalar(c.Item1, c.Item2, c.Item3, c.Item4,
                                                               CastingLevel.Safe, NumpyRules.Numpy1), "1.22 " + what);
                Assert.Equal(c.Item6, NumpyDType.CanCastScalar(c.Item1, c.Item2, c.Item3, c.Item4,
                                                               CastingLevel.Safe, NumpyRules.Numpy2), "2.x " + what);
            }
            Assert.Fails(Status.InvalidArgument, null,
                () => NumpyDType.CanCastScalar("i8", new byte[4], false, "i1", CastingLevel.Safe, NumpyRules.Numpy1),
                "4 bytes for an i8");
            Assert.Fails(Status.InvalidArgument, null,
                () => NumpyDType.CanCastScalar("i8", ReadOnlySpan<byte>.Empty, false, "i1", CastingLevel.Safe, NumpyRules.Numpy1),
                "no bytes for an i8");
            Assert.Fails(Status.Parse, null,
                () => NumpyDType.CanCastScalar("abc", new byte[1], false, "i1", CastingLevel.Safe, NumpyRules.Numpy1),
                "bad dtype");
            // A zero-sized dtype takes an empty value: S0 -> S1 is safe (section 3).
            Assert.Equal(true, NumpyDType.CanCastScalar("S0", ReadOnlySpan<byte>.Empty, false, "S1",
                                                        CastingLevel.Safe, NumpyRules.Numpy2), "S0 scalar -> S1");
        }

        public static void NumpyPromoteTypes()
        {
            var cases = new[]
            {
                Tuple.Create("i4", "u4", "int64"), Tuple.Create("i8", "u8", "float64"),
                Tuple.Create("i1", "u1", "int16"), Tuple.Create("?", "?", "bool"),
                Tuple.Create("e", "i2", "float32"), Tuple.Create("c8", "f8", "complex128"),
                Tuple.Create("g", "c8", "complex256"), Tuple.Create(">i4", ">i4", "int32"),
                Tuple.Create("i8", "S", "|S21"), Tuple.Create("i4", "S3", "|S11"), Tuple.Create("f8", "U5", "<U32"),
                Tuple.Create("?", "S", "|S5"), Tuple.Create("S5", "U3", "<U5"),
                Tuple.Create("M8[2s]", "M8[3s]", "datetime64[s]"), Tuple.Create("M8[D]", "M8[M]", "datetime64[D]"),
                Tuple.Create("m8[s]", "i4", "timedelta64[s]"), Tuple.Create("O", "i4", "object"),
            };
            foreach (var c in cases)
                Assert.Equal(c.Item3, NumpyDType.PromoteTypes(c.Item1, c.Item2),
                             "promote_types('" + c.Item1 + "', '" + c.Item2 + "')");
            Assert.Fails(Status.Unsupported, null, () => NumpyDType.PromoteTypes("M8", "i4"), "M8 + i4");
            Assert.Fails(Status.Unsupported, null, () => NumpyDType.PromoteTypes("m8[Y]", "m8[D]"), "m8[Y] + m8[D]");
            Assert.Fails(Status.Parse, null, () => NumpyDType.PromoteTypes("abc", "i4"), "abc");
        }

        public static void NumpyMinScalarType()
        {
            Assert.Equal("uint8", NumpyDType.MinScalarTypePyInt("128"), "128");
            Assert.Equal("int16", NumpyDType.MinScalarTypePyInt("-129"), "-129");
            Assert.Equal("int16", NumpyDType.MinScalarTypePyInt(-129L), "-129 (long)");
            Assert.Equal("uint32", NumpyDType.MinScalarTypePyInt(65536L), "65536");
            Assert.Equal("object", NumpyDType.MinScalarTypePyInt("18446744073709551616"), "2**64");
            Assert.Equal("object", NumpyDType.MinScalarTypePyInt("-9223372036854775809"), "-2**63-1");
            Assert.Fails(Status.Parse, null, () => NumpyDType.MinScalarTypePyInt("12a"), "12a");
            Assert.Equal("float16", NumpyDType.MinScalarTypePyFloat(1.0), "1.0");
            Assert.Equal("float16", NumpyDType.MinScalarTypePyFloat(64999.0), "64999.0");
            Assert.Equal("float32", NumpyDType.MinScalarTypePyFloat(65000.0), "65000.0");
            Assert.Equal("float32", NumpyDType.MinScalarTypePyFloat(65504.0), "65504.0");
            Assert.Equal("float64", NumpyDType.MinScalarTypePyFloat(1e39), "1e39");
            Assert.Equal("float16", NumpyDType.MinScalarTypePyFloat(double.NaN), "nan");
            Assert.Equal("complex64", NumpyDType.MinScalarTypePyComplex(0, 1), "1j");
            Assert.Equal("complex128", NumpyDType.MinScalarTypePyComplex(0, 1e100), "1e100j");
        }

        // The measured matrix of section 0 (numpy 2.4 + ml_dtypes 0.6), from which the
        // library's table and the docs' are made: its dtypes in row (and column) order and its
        // rows of digits. It is found from the header's path (include/ is beside src/).
        static void ReadLevels(out DType[] order, out string[] rows)
        {
            string path = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(headerPath)), "..",
                                       "src", "np", "ml_dtypes_levels.txt");
            var dtypes = new List<DType>();
            var digits = new List<string>();
            foreach (string raw in File.ReadAllLines(path))
            {
                string line = raw.Trim();
                if (line.Length == 0 || line.StartsWith("#", StringComparison.Ordinal))
                    continue;
                string[] fields = line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
                Assert.True(fields.Length == 2, path + ": '" + line + "' is a dtype name and digits");
                DType dtype = DTypeInfo.FromName(fields[0]);
                Assert.Equal(fields[0], DTypeInfo.Name(dtype), path + ": a dtype's name");
                dtypes.Add(dtype);
                digits.Add(fields[1]);
            }
            foreach (string row in digits)
                Assert.Equal(digits.Count, row.Length, path + ": one digit per column");
            order = dtypes.ToArray();
            rows = digits.ToArray();
        }

        // The measured matrix: every pair, every level.
        public static void CanCastDTypeMatrix()
        {
            DType[] order;
            string[] rows;
            ReadLevels(out order, out rows);
            Assert.True(order.Length >= 27, "the 27 measured dtypes (found " + order.Length + ")");
            var mismatches = new List<string>();
            for (int i = 0; i < order.Length; i++)
                for (int j = 0; j < order.Length; j++)
                {
                    CastingLevel level = (CastingLevel)(rows[i][j] - '0');
                    foreach (CastingLevel c in Levels)
                        if (Tensorcast.CanCast(order[i], order[j], c) != (level <= c))
                            mismatches.Add(order[i] + "->" + order[j] + " at " + c + " (matrix: " + level + ")");
                }
            Assert.True(mismatches.Count == 0, mismatches.Count + " mismatches: " + string.Join("; ", mismatches.Take(10)));
        }

        public static void CanCastDTypeExamples()
        {
            Assert.Equal(false, Tensorcast.CanCast(DType.Double, DType.Int32, CastingLevel.Safe), "DOUBLE -> INT32 safe");
            Assert.Equal(true, Tensorcast.CanCast(DType.Double, DType.Int32, CastingLevel.Unsafe), "DOUBLE -> INT32 unsafe");
            Assert.Equal(true, Tensorcast.CanCast(DType.Int32, DType.Double, CastingLevel.Safe), "INT32 -> DOUBLE safe");
            // STRING is numpy's unsized U; the TF quantized types are their storage integers.
            Assert.Equal(true, Tensorcast.CanCast(DType.Double, DType.String, CastingLevel.Safe), "DOUBLE -> STRING");
            Assert.Equal(false, Tensorcast.CanCast(DType.String, DType.Double, CastingLevel.SameKind), "STRING -> DOUBLE same_kind");
            Assert.Equal(true, Tensorcast.CanCast(DType.String, DType.Double, CastingLevel.Unsafe), "STRING -> DOUBLE unsafe");
            Assert.Equal(true, Tensorcast.CanCast(DType.String, DType.String, CastingLevel.No), "STRING -> STRING");
            Assert.Equal(true, Tensorcast.CanCast(DType.QInt8, DType.Int16, CastingLevel.Safe), "QINT8 -> INT16");
            Assert.Equal(false, Tensorcast.CanCast(DType.QUInt8, DType.Int8, CastingLevel.Safe), "QUINT8 -> INT8");
            Assert.Fails(Status.InvalidDType, null,
                () => Tensorcast.CanCast(DType.Undefined, DType.Int32, CastingLevel.Safe), "UNDEFINED");
            Assert.Fails(Status.InvalidArgument, null,
                () => Tensorcast.CanCast(DType.Double, DType.Int32, CastingLevel.Never), "Never as an argument");
        }

        // CastOptions.Casting refuses what Tensorcast.CanCast refuses, with Status.Casting.
        public static void CastOptionsCastingLevel()
        {
            var safe = new CastOptions { Casting = CastingLevel.Safe };
            TensorcastException e = Assert.Fails(Status.Casting, null,
                () => Tensorcast.Cast<double, int>(new[] { 1.5 }, safe), "DOUBLE -> INT32 at Safe");
            Assert.True(e.Message.Contains("float64") && e.Message.Contains("int32"), "message: " + e.Message);
            Assert.Fails(Status.Casting, null, () => Tensorcast.Cast<double, float>(new[] { 1.5 }, safe), "DOUBLE -> FLOAT at Safe");
            Assert.Sequence(new[] { 1.5f }, Tensorcast.Cast<double, float>(new[] { 1.5 },
                            new CastOptions { Casting = CastingLevel.SameKind }), "DOUBLE -> FLOAT at SameKind");
            Assert.Sequence(new[] { 7.0 }, Tensorcast.Cast<int, double>(new[] { 7 }, safe), "INT32 -> DOUBLE at Safe");
            Assert.Fails(Status.InvalidArgument, null,
                () => Tensorcast.Cast<int, double>(new[] { 7 }, new CastOptions { Casting = CastingLevel.Never }), "Never");
        }

        // One handle used from many threads at once, and Dispose racing with users.
        public static void NumpyDTypeConcurrent()
        {
            var failures = new List<string>();
            using (NumpyDType from = NumpyDType.Parse(">M8[1000ns]"))
            using (NumpyDType to = NumpyDType.Parse("M8[us]"))
            {
                var threads = Enumerable.Range(0, 8).Select(_ => new Thread(() =>
                {
                    for (int i = 0; i < 300; i++)
                    {
                        CastingLevel level = NumpyDType.CastingLevel(from, to, NumpyRules.Numpy2);
                        bool same = NumpyDType.CanCast(to, to, CastingLevel.No, NumpyRules.Numpy1);
                        string s = from.ToString();
                        if (level != CastingLevel.Equiv || !same || s != ">M8[1000ns]")
                        {
                            lock (failures) failures.Add(level + " " + same + " " + s);
                            return;
                        }
                    }
                })).ToList();
                threads.ForEach(t => t.Start());
                threads.ForEach(t => t.Join());

                NumpyDType shared = NumpyDType.Parse("i2");
                var users = Enumerable.Range(0, 4).Select(_ => new Thread(() =>
                {
                    for (int i = 0; i < 500; i++)
                    {
                        try
                        {
                            if (!NumpyDType.CanCast(shared, to, CastingLevel.Unsafe, NumpyRules.Numpy2))
                            {
                                lock (failures) failures.Add("i2 -> M8[us] unsafe was false");
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
            }
            Assert.True(failures.Count == 0, string.Join("; ", failures));
        }

        // Handles that are never disposed are freed by SafeHandle's finalizer. This exercises
        // that path (a double free would crash here); it cannot see the native memory.
        public static void NumpyDTypeFinalizer()
        {
            for (int i = 0; i < 1000; i++)
                NumpyDType.Parse("i4,f8");
            GC.Collect();
            GC.WaitForPendingFinalizers();
            NumpyDType d = NumpyDType.Parse("f2");
            d.Dispose();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            Assert.Equal("NumpyDType(disposed)", d.ToString(), "after Dispose and a collection");
        }
    }
}
