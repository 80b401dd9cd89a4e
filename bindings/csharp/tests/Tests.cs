// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of the C# bindings, run under Mono by scripts/test-csharp.sh:
//   mono TensorcastSharp.Tests.exe --layout layout.txt --header include/tensorcast.h
// layout.txt is what tests/layout.c prints (the C compiler's struct layout); the header
// is read for the TCAST_DTYPE_*, TCAST_ERR_* and TCAST_VERSION_* values (and its directory
// leads to the sources, for ExternsAreReachedOnlyThroughNative).
// Every public static void method of Tests is a test, run in declaration order.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using TensorcastSharp.Interop;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        static string layoutPath;
        static string headerPath;

        static int Main(string[] args)
        {
            // The child process of MissingLibraryIsDllNotFoundUntilFound (LoadingTests.cs).
            if (args.Length == 3 && args[0] == "--loading-child")
                return LoadingChild.Run(args[1], args[2]);
            // The child process of CpuInfoReportsTheSetting (CpuInfoTests.cs).
            if (args.Length == 1 && args[0] == "--cpu-info")
            {
                Console.WriteLine("cpu-info: " + Tensorcast.CpuInfo());
                return 0;
            }
            for (int i = 0; i + 1 < args.Length; i += 2)
            {
                if (args[i] == "--layout") layoutPath = args[i + 1];
                else if (args[i] == "--header") headerPath = args[i + 1];
            }
            if (layoutPath == null || headerPath == null)
            {
                Console.Error.WriteLine("usage: TensorcastSharp.Tests.exe --layout FILE --header FILE");
                return 2;
            }
            var tests = typeof(Tests)
                .GetMethods(BindingFlags.Public | BindingFlags.Static)
                .Where(m => m.ReturnType == typeof(void) && m.GetParameters().Length == 0)
                .OrderBy(m => m.MetadataToken)
                .Select(m => new KeyValuePair<string, Action>(
                    m.Name, (Action)Delegate.CreateDelegate(typeof(Action), m)));
            return Runner.Run(tests);
        }

        // ---- helpers ---------------------------------------------------------------------

        static uint Bits(float f)
        {
            return MemoryMarshal.Cast<float, uint>(new[] { f })[0];
        }

        static float FloatOf(uint bits)
        {
            return MemoryMarshal.Cast<uint, float>(new[] { bits })[0];
        }

        static long[] Shape(params long[] dims)
        {
            return dims;
        }

        static Dictionary<string, long> HeaderDefines(string prefix)
        {
            var defines = new Dictionary<string, long>();
            var pattern = new Regex(@"^#define\s+(" + prefix + @"\w*)\s+(-?\d+)\s*$");
            foreach (string line in File.ReadAllLines(headerPath))
            {
                Match m = pattern.Match(line);
                if (m.Success)
                    defines[m.Groups[1].Value] = long.Parse(m.Groups[2].Value, CultureInfo.InvariantCulture);
            }
            return defines;
        }

        // The C name of a C# enum member: Float8E4M3FN -> FLOAT8E4M3FN, InvalidDType ->
        // INVALID_DTYPE, IncompatibleShapes -> INCOMPATIBLE_SHAPES.
        static string SnakeUpper(string name)
        {
            return Regex.Replace(name, "(?<=[a-z])(?=[A-Z])", "_").ToUpperInvariant();
        }

        // ---- the ABI: struct layout and constants ------------------------------------------

        public static void StructLayoutMatchesC()
        {
            var c = new Dictionary<string, long>();
            foreach (string line in File.ReadAllLines(layoutPath))
            {
                string[] parts = line.Split(' ');
                c[parts[0]] = long.Parse(parts[parts.Length - 1], CultureInfo.InvariantCulture);
            }
            var structs = new Dictionary<string, Type>
            {
                { "tcast_error", typeof(TcastError) },
                { "tcast_tensor", typeof(TcastTensor) },
                { "tcast_cast_options", typeof(TcastCastOptions) },
                { "tcast_qdq_options", typeof(TcastQdqOptions) },
                { "tcast_mx_options", typeof(TcastMxOptions) },
                { "tcast_string", typeof(TcastString) },
                { "tcast_string_arena", typeof(TcastStringArena) },
            };
            var fields = new Dictionary<string, string>
            {
                { "status", "Status" }, { "index", "Index" }, { "message", "Message" },
                { "data", "Data" }, { "data_bytes", "DataBytes" }, { "shape", "Shape" },
                { "strides", "Strides" }, { "ndim", "NDim" }, { "dtype", "DType" },
                { "struct_size", "StructSize" }, { "saturate", "Saturate" },
                { "round_mode", "RoundMode" }, { "string_format", "StringFormat" },
                { "casting", "Casting" }, { "threads", "Threads" }, { "len", "Len" },
                { "capacity", "Capacity" }, { "used", "Used" }, { "executor", "Executor" },
                { "axis", "Axis" }, { "block_size", "BlockSize" }, { "precision", "Precision" },
                { "reserved", "Reserved" }, { "scale_rule", "ScaleRule" },
                { "reserved0", "Reserved0" }, { "reserved1", "Reserved1" },
            };
            int checkedFields = 0;
            foreach (var entry in c)
            {
                string[] key = entry.Key.Split('.');
                Type type = structs[key[0]];
                if (key.Length == 1)
                {
                    Assert.Equal(entry.Value, (long)Marshal.SizeOf(type), "Marshal.SizeOf(" + type.Name + ")");
                    continue;
                }
                string field = fields[key[1]];
                Assert.Equal(entry.Value, (long)Marshal.OffsetOf(type, field), type.Name + "." + field + " offset");
                checkedFields++;
            }
            Assert.Equal(7, c.Keys.Count(k => !k.Contains(".")), "structs in layout.txt");
            Assert.Equal(33, checkedFields, "fields in layout.txt");
            // Every field of every mirror was listed by the C program, no extra ones.
            int csFields = structs.Values.Sum(t => t.GetFields(BindingFlags.Public | BindingFlags.Instance).Length);
            Assert.Equal(csFields, checkedFields, "C# mirror fields vs C fields");
        }

        // MXFP4 both ways: FLOAT4E2M1 codes 2 (1), 7 (6), 15 (-6), 9 (-0.5) with FLOAT8E8M0
        // scales 2 and 0.5 in blocks of 2; a per-axis scale of the wrong length refused.
        public static void QuantizeDequantizeMXFP4()
        {
            byte[] packed = { 0x72, 0x9F };
            byte[] scales = { 128, 126 };
            float[] y = new float[4];
            Tensorcast.DequantizeLinear(packed, DType.Float4E2M1, new long[] { 4 }, scales,
                                        DType.Float8E8M0, new long[] { 2 }, ReadOnlySpan<byte>.Empty,
                                        MemoryMarshal.AsBytes(y.AsSpan()), DType.Float, axis: 0,
                                        blockSize: 2);
            Assert.Equal(2f, y[0], "y[0]");
            Assert.Equal(12f, y[1], "y[1]");
            Assert.Equal(-3f, y[2], "y[2]");
            Assert.Equal(-0.25f, y[3], "y[3]");
            byte[] back = new byte[2];
            Tensorcast.QuantizeLinear(MemoryMarshal.AsBytes(y.AsSpan()), DType.Float, new long[] { 4 },
                                      scales, DType.Float8E8M0, new long[] { 2 },
                                      ReadOnlySpan<byte>.Empty, back, DType.Float4E2M1, axis: 0,
                                      blockSize: 2);
            Assert.Equal(0x72, (int)back[0], "back[0]");
            Assert.Equal(0x9F, (int)back[1], "back[1]");
            try
            {
                Tensorcast.DequantizeLinear(packed, DType.Float4E2M1, new long[] { 4 }, scales,
                                            DType.Float8E8M0, new long[] { 2 },
                                            ReadOnlySpan<byte>.Empty,
                                            MemoryMarshal.AsBytes(y.AsSpan()), DType.Float, axis: 0);
                throw new Exception("a per-axis scale of 2 for 4 elements was accepted");
            }
            catch (TensorcastException e)
            {
                Assert.Equal(Status.InvalidShape, e.Status, "status");
            }
        }

        // ---- MX and NVFP4 (docs/semantics-mx.md) --------------------------------------------
        // The expected values follow the OCP MX rules written out here: an E8M0 FLOOR scale
        // code floor(log2(amax)) - emax + 127 (emax 2 for E2M1, 8 for E4M3; floor(log2) of a
        // normal float is its exponent field minus 127), and the E2M1 code of a value
        // already divided by its scale: the nearest of the eight magnitudes, ties to the
        // even code, saturating at 6.

        static readonly float[] E2M1Values = { 0f, 0.5f, 1f, 1.5f, 2f, 3f, 4f, 6f };

        static int E8M0Floor(float amax, int emax)
        {
            return (int)((Bits(amax) >> 23) & 0xFF) - 127 - emax + 127;
        }

        static int E2M1Code(float v)
        {
            float m = Math.Abs(v);
            int best = 0;
            for (int c = 1; c < 8; c++)
            {
                float d = Math.Abs(E2M1Values[c] - m), bd = Math.Abs(E2M1Values[best] - m);
                if (d < bd || (d == bd && c % 2 == 0))
                    best = c;
            }
            return best | ((Bits(v) >> 31) != 0 ? 8 : 0);
        }

        // MXFP4 blocks of 32: amax 6.9 (scale 2^(2-2) = 1, the largest element saturating
        // to -6), a block holding NaN and one holding infinity (scale 0xFF, elements 0);
        // back to FLOAT, NaN for the NaN scales.
        public static void MxQuantizeDequantizeMXFP4()
        {
            float[] x = new float[96];
            for (int i = 0; i < 32; i++)
                x[i] = (i - 20) * 0.3f;
            x[0] = -6.9f;
            for (int i = 32; i < 96; i++)
                x[i] = 0.75f;
            x[33] = float.NaN;
            x[90] = float.PositiveInfinity;
            byte[] y = new byte[48];
            byte[] s = new byte[3];
            long[] shape = { 96 };
            Tensorcast.MxQuantize(MemoryMarshal.AsBytes(x.AsSpan()), DType.Float, shape, y,
                                  DType.Float4E2M1, s, DType.Float8E8M0, new long[] { 3 },
                                  Span<byte>.Empty);
            int code0 = E8M0Floor(Math.Abs(x[0]), 2);
            Assert.Equal(127, code0, "FLOOR code of amax 6.9");
            Assert.Equal(code0, (int)s[0], "scale 0");
            Assert.Equal(0xFF, (int)s[1], "scale of the NaN block");
            Assert.Equal(0xFF, (int)s[2], "scale of the infinity block");
            for (int i = 0; i < 32; i++)
            {
                int got = (y[i / 2] >> (4 * (i % 2))) & 0xF;
                Assert.Equal(E2M1Code(x[i] * (float)Math.Pow(2, 127 - code0)), got, "code of x[" + i + "]");
            }
            for (int i = 16; i < 48; i++)
                Assert.Equal(0, (int)y[i], "byte " + i + " of the NaN and infinity blocks");
            float[] back = new float[96];
            Tensorcast.MxDequantize(y, DType.Float4E2M1, shape, s, DType.Float8E8M0, new long[] { 3 },
                                    ReadOnlySpan<byte>.Empty, MemoryMarshal.AsBytes(back.AsSpan()),
                                    DType.Float);
            for (int i = 0; i < 32; i++)
            {
                int code = (y[i / 2] >> (4 * (i % 2))) & 0xF;
                float want = ((code & 8) != 0 ? -1f : 1f) * E2M1Values[code & 7] * (float)Math.Pow(2, code0 - 127);
                Assert.Equal(want, back[i], "back[" + i + "]");
            }
            Assert.True(float.IsNaN(back[32]) && float.IsNaN(back[95]), "NaN scales give NaN");
        }

        // MXFP8 E4M3, CEIL: amax 1000 gives 2^(ceil(log2 1000) - 8) = 2^2, 1000 / 4 = 250
        // rounds to 256 (0x78; the E4M3 value below it is 240) and 3 / 4 = 0.75 is 0x34
        // (2^-1 * 1.5); FLOOR gives 2^1 and 500 saturates to 448 (0x7E). An unknown scale
        // rule is refused by name.
        public static void MxQuantizeMXFP8Rules()
        {
            float[] x = new float[32];
            x[0] = 1000f;
            x[1] = 3f;
            byte[] y = new byte[32];
            byte[] s = new byte[1];
            long[] shape = { 32 };
            Tensorcast.MxQuantize(MemoryMarshal.AsBytes(x.AsSpan()), DType.Float, shape, y,
                                  DType.Float8E4M3FN, s, DType.Float8E8M0, new long[] { 1 },
                                  Span<byte>.Empty, MxScaleRule.Ceil);
            Assert.Equal(127 + 10 - 8, (int)s[0], "CEIL scale");
            Assert.Equal(0x78, (int)y[0], "1000 / 4");
            Assert.Equal(0x34, (int)y[1], "3 / 4");
            Tensorcast.MxQuantize(MemoryMarshal.AsBytes(x.AsSpan()), DType.Float, shape, y,
                                  DType.Float8E4M3FN, s, DType.Float8E8M0, new long[] { 1 },
                                  Span<byte>.Empty);
            Assert.Equal(E8M0Floor(1000f, 8), (int)s[0], "FLOOR scale");
            Assert.Equal(0x7E, (int)y[0], "1000 / 2 saturated");
            var e = Assert.Fails(Status.InvalidArgument, -1,
                () => Tensorcast.MxQuantize(MemoryMarshal.AsBytes(x.AsSpan()), DType.Float, shape, y,
                                            DType.Float8E4M3FN, s, DType.Float8E8M0, new long[] { 1 },
                                            Span<byte>.Empty, (MxScaleRule)4), "scale rule 4");
            Assert.True(e.Message.Contains("scale_rule is 4"), "the message names scale_rule: " + e.Message);
        }

        // NVFP4: the global scale amax / (6 * 448), the block scale 448 (0x7E) and the
        // largest element 6 (code 7); without a global scale the call names it.
        public static void MxQuantizeNVFP4()
        {
            float[] x = new float[16];
            for (int i = 0; i < 16; i++)
                x[i] = (i + 1) * 0.25f;
            byte[] y = new byte[8];
            byte[] s = new byte[1];
            float[] g = new float[1];
            long[] shape = { 16 };
            Tensorcast.MxQuantize(MemoryMarshal.AsBytes(x.AsSpan()), DType.Float, shape, y,
                                  DType.Float4E2M1, s, DType.Float8E4M3FN, new long[] { 1 },
                                  MemoryMarshal.AsBytes(g.AsSpan()));
            Assert.Equal((float)(4.0 / 2688.0), g[0], "global scale");
            Assert.Equal(0x7E, (int)s[0], "block scale");
            Assert.Equal(7, y[7] >> 4, "x[15] = 4 -> 6");
            var e = Assert.Fails(Status.InvalidArgument, -1,
                () => Tensorcast.MxQuantize(MemoryMarshal.AsBytes(x.AsSpan()), DType.Float, shape, y,
                                            DType.Float4E2M1, s, DType.Float8E4M3FN, new long[] { 1 },
                                            Span<byte>.Empty), "NVFP4 without a global scale");
            Assert.True(e.Message.Contains("global_scale"), "the message names global_scale: " + e.Message);
        }

        // Two ONNX blocks to gpt-oss (the same bytes, UINT8 scales) and to ggml's
        // block_mxfp4 (byte e, then qs[j] = element j | element j+16 << 4), built by hand.
        public static void MxRepackLayouts()
        {
            byte[] codes = new byte[64];
            for (int i = 0; i < 64; i++)
                codes[i] = (byte)((i * 11 + 5) & 0xF);
            byte[] onnx = new byte[32];
            for (int j = 0; j < 32; j++)
                onnx[j] = (byte)(codes[2 * j] | (codes[2 * j + 1] << 4));
            byte[] scales = { 0, 140 };
            byte[] ggmlWant = new byte[34];
            for (int b = 0; b < 2; b++)
            {
                ggmlWant[17 * b] = scales[b];
                for (int j = 0; j < 16; j++)
                    ggmlWant[17 * b + 1 + j] = (byte)(codes[32 * b + j] | (codes[32 * b + j + 16] << 4));
            }
            byte[] blocks = new byte[32];
            byte[] gptScales = new byte[2];
            Tensorcast.MxRepack(MxLayout.Onnx, onnx, new long[] { 64 }, scales, new long[] { 2 },
                                MxLayout.GptOss, blocks, new long[] { 2, 16 }, gptScales, new long[] { 2 });
            Assert.Sequence(onnx, blocks, "gpt-oss blocks");
            Assert.Sequence(scales, gptScales, "gpt-oss scales");
            byte[] ggml = new byte[34];
            Tensorcast.MxRepack(MxLayout.Onnx, onnx, new long[] { 64 }, scales, new long[] { 2 },
                                MxLayout.Ggml, ggml, new long[] { 2, 17 }, Span<byte>.Empty, null);
            Assert.Sequence(ggmlWant, ggml, "ggml blocks");
            var e = Assert.Fails(Status.InvalidArgument, -1,
                () => Tensorcast.MxRepack((MxLayout)5, onnx, new long[] { 64 }, scales, new long[] { 2 },
                                          MxLayout.Ggml, ggml, new long[] { 2, 17 }, Span<byte>.Empty,
                                          null), "layout 5");
            Assert.True(e.Message.Contains("from_layout is 5"), "the message names from_layout: " + e.Message);
        }

        public static unsafe void BlittableSizesEqualMarshalSizes()
        {
            Assert.Equal(Marshal.SizeOf(typeof(TcastError)), sizeof(TcastError), "TcastError");
            Assert.Equal(Marshal.SizeOf(typeof(TcastTensor)), sizeof(TcastTensor), "TcastTensor");
            Assert.Equal(Marshal.SizeOf(typeof(TcastCastOptions)), sizeof(TcastCastOptions), "TcastCastOptions");
            Assert.Equal(Marshal.SizeOf(typeof(TcastQdqOptions)), sizeof(TcastQdqOptions), "TcastQdqOptions");
            Assert.Equal(Marshal.SizeOf(typeof(TcastMxOptions)), sizeof(TcastMxOptions), "TcastMxOptions");
            Assert.Equal(Marshal.SizeOf(typeof(TcastString)), sizeof(TcastString), "TcastString");
            Assert.Equal(Marshal.SizeOf(typeof(TcastStringArena)), sizeof(TcastStringArena), "TcastStringArena");
        }

        public static void DTypeEnumMatchesHeader()
        {
            var header = HeaderDefines("TCAST_DTYPE_");
            Assert.True(header.Count >= 34, "the header defines the dtypes (found " + header.Count + ")");
            foreach (var d in header)
            {
                string name = d.Key.Substring("TCAST_DTYPE_".Length);
                Assert.True(Enum.IsDefined(typeof(DType), (int)d.Value), "DType has code " + d.Value + " (" + name + ")");
                Assert.Equal(name, ((DType)d.Value).ToString().ToUpperInvariant(), "DType name for code " + d.Value);
            }
            Assert.Equal(header.Count, Enum.GetValues(typeof(DType)).Length, "DType members vs header dtypes");
        }

        public static void StatusEnumMatchesHeader()
        {
            var header = HeaderDefines("TCAST_ERR_");
            header["TCAST_OK"] = HeaderDefines("TCAST_OK")["TCAST_OK"];
            foreach (Status s in Enum.GetValues(typeof(Status)))
            {
                string cName = s == Status.Ok ? "TCAST_OK" : "TCAST_ERR_" + SnakeUpper(s.ToString());
                Assert.True(header.ContainsKey(cName), cName + " is in the header");
                Assert.Equal(header[cName], (long)s, cName);
                Assert.Equal(cName, Tensorcast.StatusName(s), "tcast_status_name");
            }
            Assert.Equal(header.Count, Enum.GetValues(typeof(Status)).Length, "Status members vs header codes");
            Assert.Equal("unknown", Tensorcast.StatusName((Status)42), "an unknown status");
        }

        public static void OtherEnumsMatchHeader()
        {
            var round = HeaderDefines("TCAST_ROUND_");
            foreach (RoundMode m in Enum.GetValues(typeof(RoundMode)))
                Assert.Equal(round["TCAST_ROUND_" + m.ToString().ToUpperInvariant()], (long)m, "RoundMode." + m);
            var format = HeaderDefines("TCAST_FORMAT_");
            Assert.Equal(format["TCAST_FORMAT_SHORTEST"], (long)StringFormat.Shortest, "Shortest");
            Assert.Equal(format["TCAST_FORMAT_PRINTF_8G"], (long)StringFormat.Printf8G, "Printf8G");
            var casting = HeaderDefines("TCAST_CASTING_");
            foreach (CastingLevel c in Enum.GetValues(typeof(CastingLevel)))
                Assert.Equal(casting["TCAST_CASTING_" + SnakeUpper(c.ToString())], (long)c, "CastingLevel." + c);
            var bitcast = HeaderDefines("TCAST_BITCAST_");
            Assert.Equal(bitcast["TCAST_BITCAST_TF"], (long)BitcastRules.TensorFlow, "TensorFlow");
            Assert.Equal(bitcast["TCAST_BITCAST_ONNX"], (long)BitcastRules.Onnx, "Onnx");
            Assert.Equal(bitcast["TCAST_BITCAST_NUMPY_VIEW"], (long)BitcastRules.NumpyView, "NumpyView");
            Assert.Equal(HeaderDefines("TCAST_ERROR_MESSAGE_BYTES")["TCAST_ERROR_MESSAGE_BYTES"],
                         (long)TcastError.MessageBytes, "TCAST_ERROR_MESSAGE_BYTES");
            Assert.Equal(HeaderDefines("TCAST_MAX_NDIM")["TCAST_MAX_NDIM"], (long)NativeMethods.MaxNDim, "TCAST_MAX_NDIM");
        }

        public static void VersionMatchesHeader()
        {
            var v = HeaderDefines("TCAST_VERSION_");
            string expected = v["TCAST_VERSION_MAJOR"] + "." + v["TCAST_VERSION_MINOR"] + "." + v["TCAST_VERSION_PATCH"];
            Assert.Equal(expected, Tensorcast.Version, "tcast_version");
        }

        public static unsafe void CastOptionsDefaultsMatchLibrary()
        {
            TcastCastOptions lib;
            Assert.Equal(0, NativeMethods.tcast_cast_options_init(&lib, (UIntPtr)sizeof(TcastCastOptions)),
                         "tcast_cast_options_init");
            TcastCastOptions ours = new CastOptions().ToNative();
            TcastCastOptions byValue = NativeMethods.tcast_cast_options_default();
            Assert.Equal(byValue.Saturate, lib.Saturate, "default() saturate");
            Assert.Equal(byValue.Casting, lib.Casting, "default() casting");
            Assert.Equal(lib.StructSize, ours.StructSize, "struct_size");
            Assert.Equal(lib.Saturate, ours.Saturate, "saturate");
            Assert.Equal(lib.RoundMode, ours.RoundMode, "round_mode");
            Assert.Equal(lib.StringFormat, ours.StringFormat, "string_format");
            Assert.Equal(lib.Casting, ours.Casting, "casting");
            Assert.Equal(lib.Threads, ours.Threads, "threads");
        }

        // ---- dtypes ------------------------------------------------------------------------

        public static void DTypeInfoNamesAndBits()
        {
            foreach (DType d in Enum.GetValues(typeof(DType)))
            {
                if (d == DType.Undefined)
                    continue;
                Assert.Equal(d.ToString().ToUpperInvariant(), DTypeInfo.Name(d), "Name(" + d + ")");
            }
            Assert.Equal(null, DTypeInfo.Name(DType.Undefined), "Name(Undefined)");
            Assert.Equal(null, DTypeInfo.Name((DType)55), "Name(55)");
            Assert.Equal(32, DTypeInfo.Bits(DType.Float), "FLOAT bits");
            Assert.Equal(8, DTypeInfo.Bits(DType.Bool), "BOOL bits");
            Assert.Equal(4, DTypeInfo.Bits(DType.Int4), "INT4 bits");
            Assert.Equal(2, DTypeInfo.Bits(DType.UInt2), "UINT2 bits");
            Assert.Equal(6, DTypeInfo.Bits(DType.Float6E3M2), "FLOAT6E3M2 bits");
            Assert.Equal(128, DTypeInfo.Bits(DType.Complex128), "COMPLEX128 bits");
            Assert.Equal(8 * Marshal.SizeOf(typeof(TcastString)), DTypeInfo.Bits(DType.String), "STRING bits");
            Assert.Equal(0, DTypeInfo.Bits((DType)55), "unknown bits");
        }

        public static void DTypeFromName()
        {
            Assert.Equal(DType.Float, DTypeInfo.FromName("FLOAT"), "FLOAT");
            Assert.Equal(DType.Float, DTypeInfo.FromName("float32"), "float32");
            Assert.Equal(DType.Float16, DTypeInfo.FromName("Half"), "Half");
            Assert.Equal(DType.Int64, DTypeInfo.FromName("int64"), "int64");
            Assert.Equal(DType.QInt8, DTypeInfo.FromName("qint8"), "qint8");
            var ex = Assert.Fails(Status.InvalidDType, -1, () => DTypeInfo.FromName("float33"), "float33");
            Assert.True(ex.Message.Contains("float33"), "the message names the text: " + ex.Message);
            Assert.Throws<ArgumentNullException>(() => DTypeInfo.FromName(null), "null name");
        }

        public static void TensorBytes()
        {
            Assert.Equal(24L, DTypeInfo.TensorBytes(DType.Float, Shape(2, 3)), "FLOAT [2,3]");
            Assert.Equal(8L, DTypeInfo.TensorBytes(DType.Double, Shape()), "DOUBLE scalar");
            Assert.Equal(2L, DTypeInfo.TensorBytes(DType.Int4, Shape(3)), "INT4 [3] packed");
            Assert.Equal(4L, DTypeInfo.TensorBytes(DType.Float6E3M2, Shape(5)), "FLOAT6 [5]: 30 bits");
            Assert.Equal(0L, DTypeInfo.TensorBytes(DType.Int32, Shape(4, 0)), "empty");
            Assert.Equal(12L, DTypeInfo.ElementCount(Shape(3, 4)), "ElementCount");
            Assert.Fails(Status.InvalidShape, -1, () => DTypeInfo.TensorBytes(DType.Float, Shape(2, -1)), "negative dim");
            Assert.Fails(Status.InvalidShape, null,
                         () => DTypeInfo.TensorBytes(DType.Float, Shape(1L << 40, 1L << 40)), "overflow");
            Assert.Fails(Status.InvalidShape, null, () => DTypeInfo.TensorBytes(DType.Float, new long[65]), "rank 65");
            Assert.Fails(Status.InvalidDType, null, () => DTypeInfo.TensorBytes((DType)55, Shape(1)), "unknown dtype");
        }

        public static void OnnxCastSupported()
        {
            Assert.True(DTypeInfo.OnnxCastSupported(DType.Float, DType.Float16, 1), "FLOAT -> FLOAT16 at 1");
            Assert.True(DTypeInfo.OnnxCastSupported(DType.Float, DType.Float8E4M3FN, 19), "f8 at 19");
            Assert.True(!DTypeInfo.OnnxCastSupported(DType.Float, DType.Float8E4M3FN, 13), "no f8 at 13");
            Assert.True(!DTypeInfo.OnnxCastSupported(DType.Float, DType.Complex64, 28), "no complex");
        }

        // ---- Cast --------------------------------------------------------------------------

        public static void Float32ToFloat16AndBack()
        {
            float[] src =
            {
                1.0f, -2.0f, 0.5f, 65504f, 65520f, FloatOf(0x33800000) /* 2^-24 */, -0.0f,
                float.PositiveInfinity, float.NegativeInfinity, FloatOf(0x7FC00000) /* NaN */,
                1.0f / 3.0f,
            };
            ushort[] expected =
            {
                0x3C00, 0xC000, 0x3800, 0x7BFF, 0x7C00 /* ties to even: inf */, 0x0001, 0x8000,
                0x7C00, 0xFC00, 0x7E00, 0x3555,
            };
            ushort[] half = new ushort[src.Length];
            Tensorcast.Cast<float, ushort>(src, DType.Float, Shape(src.Length), half, DType.Float16);
            Assert.Sequence(expected, half, "f32 -> f16 bits");

            float[] back = new float[src.Length];
            Tensorcast.Cast<ushort, float>(half, DType.Float16, Shape(half.Length), back, DType.Float);
            uint[] backBits = back.Select(Bits).ToArray();
            uint[] expectedBits =
            {
                0x3F800000, 0xC0000000, 0x3F000000, 0x477FE000, 0x7F800000, 0x33800000, 0x80000000,
                0x7F800000, 0xFF800000, 0x7FC00000, 0x3EAAA000,
            };
            Assert.Sequence(expectedBits, backBits, "f16 -> f32 bits");
        }

        public static void Float32ToBFloat16AndByteLevel()
        {
            byte[] src = new byte[8];
            Span<float> floats = MemoryMarshal.Cast<byte, float>(src.AsSpan());
            floats[0] = 1.0f;
            floats[1] = -3.0f;
            byte[] dst = new byte[4];
            Tensorcast.Cast(src, DType.Float, Shape(2), dst, DType.BFloat16);
            Assert.Sequence(new byte[] { 0x80, 0x3F, 0x40, 0xC0 }, dst, "BFLOAT16 bytes, little-endian");
        }

        public static void SaturateOption()
        {
            float[] src = { 1000f, -1000f, float.PositiveInfinity };
            byte[] dst = new byte[3];
            Tensorcast.Cast<float, byte>(src, DType.Float, Shape(3), dst, DType.Float8E4M3FN);
            Assert.Sequence(new byte[] { 0x7E, 0xFE, 0x7E }, dst, "E4M3FN saturate (default): +-448");
            Tensorcast.Cast<float, byte>(src, DType.Float, Shape(3), dst, DType.Float8E4M3FN,
                                         new CastOptions { Saturate = false });
            Assert.Sequence(new byte[] { 0x7F, 0xFF, 0x7F }, dst, "E4M3FN no saturate: NaN, sign kept");
            float[] large = { 1e6f, -1e6f, float.PositiveInfinity };
            Tensorcast.Cast<float, byte>(large, DType.Float, Shape(3), dst, DType.Float8E5M2,
                                         new CastOptions { Saturate = false });
            Assert.Sequence(new byte[] { 0x7C, 0xFC, 0x7C }, dst, "E5M2 no saturate: overflow -> inf");
            Tensorcast.Cast<float, byte>(large, DType.Float, Shape(3), dst, DType.Float8E5M2);
            Assert.Sequence(new byte[] { 0x7B, 0xFB, 0x7B }, dst, "E5M2 saturate: +-57344");
        }

        public static void RoundModeOption()
        {
            float[] src = { 3.0f };
            byte[] dst = new byte[1];
            Tensorcast.Cast<float, byte>(src, DType.Float, Shape(1), dst, DType.Float8E8M0);
            Assert.Equal((byte)129, dst[0], "3 rounds up to 4 (code 127 + 2)");
            Tensorcast.Cast<float, byte>(src, DType.Float, Shape(1), dst, DType.Float8E8M0,
                                         new CastOptions { RoundMode = RoundMode.Down });
            Assert.Equal((byte)128, dst[0], "3 rounds down to 2");
        }

        public static void IntegerAndBoolRules()
        {
            int[] ints = { 200, -129, 65535 };
            sbyte[] narrow = new sbyte[3];
            Tensorcast.Cast<int, sbyte>(ints, Shape(3), narrow);
            Assert.Sequence(new sbyte[] { -56, 127, -1 }, narrow, "int -> int8 wraps");

            float[] floats = { 3e9f, -3e9f, float.NaN, -2.9f };
            int[] truncated = new int[4];
            Tensorcast.Cast<float, int>(floats, Shape(4), truncated);
            Assert.Sequence(new[] { int.MaxValue, int.MinValue, 0, -2 }, truncated,
                            "float -> int truncates and saturates, NaN -> 0");

            float[] truthy = { 0f, -0f, 2f, float.NaN };
            bool[] flags = new bool[4];
            Tensorcast.Cast<float, bool>(truthy, Shape(4), flags);
            Assert.Sequence(new[] { false, false, true, true }, flags, "float -> BOOL");

            double[] widened = Tensorcast.Cast<int, double>(new[] { 1, -2, 16777217 });
            Assert.Sequence(new[] { 1.0, -2.0, 16777217.0 }, widened, "array helper int -> double");
        }

        public static void PackedInt4()
        {
            sbyte[] values = { 1, -2, 7, -8, 9 };
            byte[] packed = new byte[DTypeInfo.TensorBytes(DType.Int4, Shape(5))];
            Tensorcast.Cast<sbyte, byte>(values, DType.Int8, Shape(5), packed, DType.Int4);
            // 9 wraps to -7 (0x9); element 0 in the low nibble, the unused high nibble 0.
            Assert.Sequence(new byte[] { 0xE1, 0x87, 0x09 }, packed, "INT4 packing");
            sbyte[] unpacked = new sbyte[5];
            Tensorcast.Cast<byte, sbyte>(packed, DType.Int4, Shape(5), unpacked, DType.Int8);
            Assert.Sequence(new sbyte[] { 1, -2, 7, -8, -7 }, unpacked, "INT4 unpacking");
        }

        public static void ComplexFromFloatParts()
        {
            double[] real = { 1.5, -2.0 };
            float[] complex = new float[4];
            Tensorcast.Cast<double, float>(real, DType.Double, Shape(2), complex, DType.Complex64);
            Assert.Sequence(new[] { 1.5f, 0f, -2.0f, 0f }, complex, "real -> complex64 (re, im) pairs");
        }

        public static void ThreadsGiveTheSameResult()
        {
            var random = new Random(7);
            float[] src = Enumerable.Range(0, 1 << 16).Select(_ => (float)(random.NextDouble() * 1e5 - 5e4)).ToArray();
            ushort[] one = new ushort[src.Length];
            ushort[] two = new ushort[src.Length];
            Tensorcast.Cast<float, ushort>(src, DType.Float, Shape(src.Length), one, DType.Float16);
            Tensorcast.Cast<float, ushort>(src, DType.Float, Shape(src.Length), two, DType.Float16,
                                           new CastOptions { Threads = 2 });
            Assert.Sequence(one, two, "threads = 2 is bit-identical");

            // On .NET's thread pool (Parallel.For), large enough to be split into tasks.
            float[] big = Enumerable.Range(0, 1 << 20).Select(i => (float)(i % 10007) * 0.37f - 1000f).ToArray();
            ushort[] alone = new ushort[big.Length];
            ushort[] pooled = new ushort[big.Length];
            Tensorcast.Cast<float, ushort>(big, DType.Float, Shape(big.Length), alone, DType.Float16);
            Tensorcast.Cast<float, ushort>(big, DType.Float, Shape(big.Length), pooled, DType.Float16,
                                           new CastOptions { Threads = 4, Executor = ParallelForExecutor.Shared });
            Assert.Sequence(alone, pooled, "threads = 4 on Parallel.For is bit-identical");
            Assert.Fails(Status.InvalidArgument, -1,
                         () => Tensorcast.Cast<float, ushort>(src, DType.Float, Shape(src.Length), two,
                                                              DType.Float16, new CastOptions { Threads = -1 }),
                         "negative threads");
        }

        public static void EmptyInput()
        {
            Tensorcast.Cast(ReadOnlySpan<byte>.Empty, DType.Float, Shape(0), Span<byte>.Empty, DType.Double);
            Tensorcast.Cast<float, double>(new float[0], Shape(2, 0, 3), new double[0]);
            Assert.Equal(0, Tensorcast.Cast<int, double>(new int[0]).Length, "empty array helper");
            Assert.Equal(0, Tensorcast.ToStrings<float>(new float[0], Shape(0, 5)).Length, "empty ToStrings");
            Tensorcast.ParseStrings(new string[0], DType.Float, Span<byte>.Empty);
            var expanded = Tensorcast.Expand<float>(new[] { 1f }, Shape(1), Shape(0, 3));
            Assert.Sequence(new long[] { 0, 3 }, expanded.Shape, "expand to empty: shape");
            Assert.Equal(0, expanded.Data.Length, "expand to empty: data");
        }

        public static void ShapeAndBufferMismatches()
        {
            float[] src = new float[6];
            double[] dst = new double[6];
            Assert.Fails(Status.BufferTooSmall, null,
                         () => Tensorcast.Cast<float, double>(src, Shape(2, 4), dst), "source shorter than its shape");
            var tooShort = Assert.Fails(Status.BufferTooSmall, -1,
                         () => Tensorcast.Cast<float, double>(src, Shape(6), new double[5]), "destination too short");
            // Cast calls the library without an error struct first, then again with one
            // to report a failure: the report is the library's own, in full.
            Assert.True(tooShort.Message.Contains("output") && tooShort.Message.Contains("48"),
                        "the message names the output and the bytes it needs: " + tooShort.Message);
            Assert.Fails(Status.InvalidShape, null,
                         () => Tensorcast.Cast<float, double>(src, Shape(-6), dst), "negative extent");
            Assert.Fails(Status.InvalidDType, null,
                         () => Tensorcast.Cast(new byte[4], (DType)55, Shape(1), new byte[4], DType.Float), "unknown dtype");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast<float, float>(src, DType.Float, Shape(6), new float[6], DType.Float16),
                "float elements for FLOAT16");
            Assert.Throws<ArgumentException>(
                () => Tensorcast.Cast(new byte[16], DType.String, Shape(1), new byte[4], DType.Float),
                "STRING in the byte-level Cast");
            Assert.Throws<ArgumentException>(() => Tensorcast.Cast<decimal, float>(new decimal[1], Shape(1), new float[1]),
                                             "decimal has no dtype");
        }

        public static unsafe void OutputShapeMismatchThroughRawApi()
        {
            // The wrapper passes one shape to both sides; the raw API can disagree.
            float[] src = new float[6];
            double[] dst = new double[6];
            long[] inShape = { 2, 3 };
            long[] outShape = { 3, 2 };
            TcastError err;
            fixed (float* s = src)
            fixed (double* d = dst)
            fixed (long* a = inShape)
            fixed (long* b = outShape)
            {
                var input = new TcastTensor { Data = s, DataBytes = 24, Shape = a, NDim = 2, DType = (int)DType.Float };
                var output = new TcastTensor { Data = d, DataBytes = 48, Shape = b, NDim = 2, DType = (int)DType.Double };
                int status = NativeMethods.tcast_cast(&input, &output, null, &err);
                Assert.Equal((int)Status.InvalidShape, status, "tcast_cast status");
                Assert.Equal(status, err.Status, "err.status");
                Assert.Equal(-1L, err.Index, "err.index");
                var ex = TensorcastException.FromNative(status, &err);
                Assert.True(ex.Message.Contains("[2, 3]") || ex.Message.Contains("[2,3]"),
                            "the message names the shapes: " + ex.Message);
            }
        }

        // ---- strings -----------------------------------------------------------------------

        public static void FormatShortest()
        {
            float[] src =
            {
                float.NaN, float.PositiveInfinity, float.NegativeInfinity, 0.1f, 1e-5f, 100f,
                999999f, 1e6f, 1234567f, -0.0f, 0f,
            };
            string[] texts = Tensorcast.ToStrings<float>(src, Shape(src.Length));
            Assert.Sequence(new[]
            {
                "NaN", "INF", "-INF", "0.1", "1e-05", "100.0", "999999.0", "1e+06", "1.234567e+06", "-0.0", "0.0",
            }, texts, "FLOAT shortest");

            Assert.Sequence(new[] { "1000000000000000.0", "1e+16", "0.1" },
                            Tensorcast.ToStrings<double>(new[] { 1e15, 1e16, 0.1 }, Shape(3)), "DOUBLE shortest");
            ushort[] half = { 0x63D0 /* 1000 */, 0x7BFF /* 65504 */ };
            Assert.Sequence(new[] { "1e+03", "6.55e+04" },
                            Tensorcast.ToStrings(MemoryMarshal.AsBytes(half.AsSpan()), DType.Float16, Shape(2)),
                            "FLOAT16 shortest");
            Assert.Sequence(new[] { "-128", "127" },
                            Tensorcast.ToStrings<sbyte>(new sbyte[] { -128, 127 }, Shape(2)), "INT8");
            Assert.Sequence(new[] { "True", "False" },
                            Tensorcast.ToStrings<bool>(new[] { true, false }, Shape(2)), "BOOL");
            Assert.Sequence(new[] { "18446744073709551615" },
                            Tensorcast.ToStrings<ulong>(new[] { ulong.MaxValue }, Shape()), "UINT64 scalar");
        }

        public static void FormatPrintf8G()
        {
            float[] src = { 0.1f, 1e-5f, 1.0f, -0.0f, float.NaN, float.NegativeInfinity };
            Assert.Sequence(new[] { "0.1", "9.9999997e-06", "1", "-0", "NaN", "-INF" },
                            Tensorcast.ToStrings<float>(src, Shape(src.Length), StringFormat.Printf8G), "%.8g");
        }

        public static void FormatTwoDimensionsRowMajor()
        {
            int[] src = { 1, 2, 3, 4, 5, 6 };
            Assert.Sequence(new[] { "1", "2", "3", "4", "5", "6" },
                            Tensorcast.ToStrings<int>(src, Shape(2, 3)), "row-major texts");
            Assert.Fails(Status.Unsupported, null,
                         () => Tensorcast.ToStrings(new byte[16], DType.Complex64, Shape(2)), "complex -> STRING");
            Assert.Fails(Status.BufferTooSmall, null,
                         () => Tensorcast.ToStrings<int>(src, Shape(2, 4)), "source shorter than its shape");
        }

        public static void ParseNumbers()
        {
            float[] floats = Tensorcast.ParseStrings<float>(new[] { "1.5", "  -2 ", "inf", "-Infinity", "1e3", ".5", "NaN" });
            Assert.Sequence(new[] { 1.5f, -2f, float.PositiveInfinity, float.NegativeInfinity, 1000f, 0.5f },
                            floats.Take(6), "FLOAT values");
            Assert.True(float.IsNaN(floats[6]), "NaN parsed");

            byte[] bytes = Tensorcast.ParseStrings<byte>(new[] { "-1", "300", "100.5", "7" });
            Assert.Sequence(new byte[] { 0, 255, 100, 7 }, bytes, "UINT8 saturates, fractions truncate");

            bool[] flags = Tensorcast.ParseStrings<bool>(new[] { "true", "FALSE", "0", "2", "nan" });
            Assert.Sequence(new[] { true, false, false, true, true }, flags, "BOOL");

            ushort[] half = new ushort[2];
            Tensorcast.ParseStrings<ushort>(new[] { "1", "-0.5" }, DType.Float16, half);
            Assert.Sequence(new ushort[] { 0x3C00, 0xB800 }, half, "FLOAT16 from text");

            long[] big = Tensorcast.ParseStrings<long>(new[] { "9223372036854775807", "-9223372036854775809" });
            Assert.Sequence(new[] { long.MaxValue, long.MinValue }, big, "INT64 exact, saturating");

            byte[] e4m3 = new byte[1];
            Tensorcast.ParseStrings(new[] { "1e9" }, DType.Float8E4M3FN, e4m3, new CastOptions { Saturate = false });
            Assert.Equal((byte)0x7F, e4m3[0], "options reach the parse: no saturation gives NaN");
        }

        public static void ParseErrorCarriesIndex()
        {
            float[] dst = new float[4];
            var ex = Assert.Fails(Status.Parse, 2,
                                  () => Tensorcast.ParseStrings<float>(new[] { "1.5", "2", "3.14abc", "x" }, DType.Float, dst),
                                  "trailing junk");
            Assert.True(ex.Message.Contains("3.14abc"), "the message quotes the text: " + ex.Message);
            Assert.Fails(Status.Parse, 0, () => Tensorcast.ParseStrings<int>(new[] { "" }), "empty text");
            Assert.Fails(Status.Parse, 1, () => Tensorcast.ParseStrings<int>(new[] { "1", "0x10" }), "hex");
            Assert.Throws<ArgumentNullException>(() => Tensorcast.ParseStrings<int>(new[] { "1", null }), "null text");
            Assert.Fails(Status.BufferTooSmall, null,
                         () => Tensorcast.ParseStrings(new[] { "1", "2" }, DType.Float, new byte[7]), "short destination");
        }

        public static void NonAsciiTextRoundTrips()
        {
            // A non-ASCII text is bytes the parser refuses; the message must still decode.
            var ex = Assert.Fails(Status.Parse, 0, () => Tensorcast.ParseStrings<double>(new[] { "π≈3.14" }), "non-ASCII");
            Assert.True(ex.Message.Length > 0, "message decoded");
        }

        public static void FormatThenParseRoundTrips()
        {
            var random = new Random(11);
            double[] values = Enumerable.Range(0, 2000)
                .Select(_ => (random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-300, 300)))
                .Concat(new[] { double.Epsilon, double.MaxValue, -double.MinValue, 0.0, -0.0 })
                .ToArray();
            string[] texts = Tensorcast.ToStrings<double>(values, Shape(values.Length));
            double[] back = Tensorcast.ParseStrings<double>(texts);
            long[] a = values.Select(BitConverter.DoubleToInt64Bits).ToArray();
            long[] b = back.Select(BitConverter.DoubleToInt64Bits).ToArray();
            Assert.Sequence(a, b, "DOUBLE bits after text and back");
        }

        // ---- Expand ------------------------------------------------------------------------

        public static void ExpandShapes()
        {
            Assert.Sequence(new long[] { 2, 3, 6 }, Tensorcast.ExpandShape(Shape(3, 1), Shape(2, 1, 6)), "[3,1] with [2,1,6]");
            Assert.Sequence(new long[] { 3, 4 }, Tensorcast.ExpandShape(Shape(3, 1), Shape(4)), "[3,1] with [4]");
            Assert.Sequence(new long[] { 3, 1 }, Tensorcast.ExpandShape(Shape(3, 1), Shape()), "[3,1] with []");
            Assert.Sequence(new long[] { 0 }, Tensorcast.ExpandShape(Shape(1), Shape(0)), "1 vs 0");
            Assert.Sequence(new long[0], Tensorcast.ExpandShape(Shape(), Shape()), "scalar");
            var ex = Assert.Fails(Status.IncompatibleShapes, -1, () => Tensorcast.ExpandShape(Shape(3), Shape(4)), "3 vs 4");
            Assert.True(ex.Message.Contains("3") && ex.Message.Contains("4"), "message names the shapes: " + ex.Message);
            Assert.Fails(Status.InvalidShape, null, () => Tensorcast.ExpandShape(Shape(3), Shape(-1)), "negative");
        }

        public static void ExpandMatchesHandBroadcast()
        {
            float[] src = { 1, 2, 3 }; // [[1],[2],[3]], shape [3,1]
            var result = Tensorcast.Expand<float>(src, Shape(3, 1), Shape(2, 1, 6));
            Assert.Sequence(new long[] { 2, 3, 6 }, result.Shape, "shape");
            var expected = new List<float>();
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 3; j++)
                    for (int k = 0; k < 6; k++)
                        expected.Add(src[j]);
            Assert.Sequence(expected, result.Data, "data");

            int[] row = { 10, 20, 30 }; // [3] broadcast against [2,1]
            var grid = Tensorcast.Expand<int>(row, DType.Int32, Shape(3), Shape(2, 1));
            Assert.Sequence(new long[] { 2, 3 }, grid.Shape, "row shape");
            Assert.Sequence(new[] { 10, 20, 30, 10, 20, 30 }, grid.Data, "row data");

            var scalar = Tensorcast.Expand<double>(new[] { 2.5 }, Shape(), Shape(2, 2));
            Assert.Sequence(new[] { 2.5, 2.5, 2.5, 2.5 }, scalar.Data, "scalar fill");
        }

        public static void ExpandPackedAndIntoBuffer()
        {
            byte[] int4 = { 0xE1 }; // INT4 [1, -2]
            var packed = Tensorcast.Expand(int4, DType.Int4, Shape(2), Shape(3, 2));
            Assert.Sequence(new byte[] { 0xE1, 0xE1, 0xE1 }, packed.Data, "INT4 expand stays packed");

            float[] src = { 1, 2 };
            float[] dst = new float[4];
            Tensorcast.Expand(MemoryMarshal.AsBytes(src.AsSpan()), DType.Float, Shape(2),
                              MemoryMarshal.AsBytes(dst.AsSpan()), Shape(2, 2));
            Assert.Sequence(new[] { 1f, 2f, 1f, 2f }, dst, "caller-allocated output");
            Assert.Fails(Status.InvalidShape, null,
                         () => Tensorcast.Expand(MemoryMarshal.AsBytes(src.AsSpan()), DType.Float, Shape(1, 2),
                                                 MemoryMarshal.AsBytes(dst.AsSpan()), Shape(2)),
                         "output shape [2] for input [1,2], whose broadcast is [1,2]");
            Assert.Fails(Status.IncompatibleShapes, null,
                         () => Tensorcast.Expand(MemoryMarshal.AsBytes(src.AsSpan()), DType.Float, Shape(2),
                                                 MemoryMarshal.AsBytes(dst.AsSpan()), Shape(1, 4)),
                         "output shape [1,4] for input [2]");
            Assert.Fails(Status.IncompatibleShapes, null,
                         () => Tensorcast.Expand<float>(new float[0], Shape(0, 1), Shape(3, 4)), "[0,1] with [3,4]");
        }

        // ---- Bitcast -----------------------------------------------------------------------

        public static void BitcastShapes()
        {
            Assert.Sequence(new long[] { 4 }, Tensorcast.BitcastShape(DType.UInt32, Shape(), DType.UInt8, BitcastRules.TensorFlow), "TF u32 scalar -> u8");
            Assert.Sequence(new long[] { 3, 2, 8 }, Tensorcast.BitcastShape(DType.Double, Shape(3, 2), DType.Int8, BitcastRules.TensorFlow), "TF f64 -> i8");
            Assert.Sequence(new long[] { 4 }, Tensorcast.BitcastShape(DType.Int8, Shape(4, 4), DType.Int32, BitcastRules.TensorFlow), "TF i8 [4,4] -> i32");
            Assert.Sequence(new long[0], Tensorcast.BitcastShape(DType.UInt8, Shape(8), DType.UInt64, BitcastRules.TensorFlow), "TF u8 [8] -> u64 scalar");
            Assert.Sequence(new long[] { 2, 3 }, Tensorcast.BitcastShape(DType.Float, Shape(2, 3), DType.Int32, BitcastRules.Onnx), "ONNX same width");
            Assert.Sequence(new long[] { 5 }, Tensorcast.BitcastShape(DType.Int4, Shape(5), DType.UInt4, BitcastRules.Onnx), "ONNX packed");
            Assert.Sequence(new long[] { 12 }, Tensorcast.BitcastShape(DType.Int32, Shape(3), DType.UInt8, BitcastRules.NumpyView), "numpy i32[3] -> u8");
            Assert.Sequence(new long[] { 2, 2 }, Tensorcast.BitcastShape(DType.Int8, Shape(2, 8), DType.Int32, BitcastRules.NumpyView), "numpy i8[2,8] -> i32");

            var ex = Assert.Fails(Status.IncompatibleShapes, -1,
                                  () => Tensorcast.BitcastShape(DType.Float, Shape(3), DType.Complex128, BitcastRules.TensorFlow),
                                  "TF f32 [3] -> c128");
            Assert.Equal("Cannot bitcast from FLOAT to COMPLEX128: shape [3]", ex.Message, "TF's wording");
            Assert.Fails(Status.Unsupported, null,
                         () => Tensorcast.BitcastShape(DType.Float, Shape(2), DType.Int64, BitcastRules.Onnx), "ONNX unequal widths");
            Assert.Fails(Status.Unsupported, null,
                         () => Tensorcast.BitcastShape(DType.Bool, Shape(2), DType.Int8, BitcastRules.TensorFlow), "TF refuses BOOL");
            Assert.Fails(Status.InvalidArgument, null,
                         () => Tensorcast.BitcastShape(DType.Float, Shape(2), DType.Int32, (BitcastRules)7), "unknown rules");
        }

        public static void BitcastViewSharesMemory()
        {
            uint[] words = { 0xFFFFFFFF, 0x3F800000 };
            long[] viewShape;
            Span<byte> bytes = Tensorcast.BitcastView<uint, byte>(words, DType.UInt32, Shape(2), DType.UInt8,
                                                                  BitcastRules.TensorFlow, out viewShape);
            Assert.Sequence(new long[] { 2, 4 }, viewShape, "view shape");
            Assert.Sequence(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x80, 0x3F }, bytes.ToArray(), "view bytes");
            bytes[0] = 0x00;
            Assert.Equal(0xFFFFFF00u, words[0], "a write through the view changes the source");

            long[] floatShape = Tensorcast.Bitcast(MemoryMarshal.AsBytes(words.AsSpan()), DType.UInt32, Shape(2),
                                                   DType.Float, BitcastRules.Onnx);
            Assert.Sequence(new long[] { 2 }, floatShape, "Bitcast returns the shape");
            Assert.Equal(1.0f, MemoryMarshal.Cast<uint, float>(words)[1], "the caller reinterprets");

            Assert.Fails(Status.BufferTooSmall, null,
                         () => Tensorcast.Bitcast(new byte[7], DType.UInt32, Shape(2), DType.Float, BitcastRules.Onnx),
                         "data shorter than the shape");
        }

        // The span BitcastView returns is the view: as many elements as its shape holds,
        // not as many as fit in the data passed.
        public static void BitcastViewIsExactlyTheView()
        {
            byte[] six = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06 };
            long[] viewShape;
            Span<short> numpy = Tensorcast.BitcastView<byte, short>(six, DType.UInt8, Shape(2, 2), DType.Int16,
                                                                    BitcastRules.NumpyView, out viewShape);
            Assert.Sequence(new long[] { 2, 1 }, viewShape, "numpy u1[2,2] -> i2");
            Assert.Equal(2, numpy.Length, "shorts in a [2,1] view of 6 bytes");
            Assert.Sequence(new short[] { 0x0201, 0x0403 }, numpy.ToArray(), "the view's values");

            Span<short> tf = Tensorcast.BitcastView<byte, short>(six, DType.UInt8, Shape(2, 2), DType.Int16,
                                                                 BitcastRules.TensorFlow, out viewShape);
            Assert.Sequence(new long[] { 2 }, viewShape, "TF u8[2,2] -> i16");
            Assert.Equal(2, tf.Length, "shorts in a [2] view of 6 bytes");

            uint[] three = { 0x04030201, 0x08070605, 0xFFFFFFFF };
            Span<byte> bytes = Tensorcast.BitcastView<uint, byte>(three, DType.UInt32, Shape(2), DType.UInt8,
                                                                  BitcastRules.TensorFlow, out viewShape);
            Assert.Sequence(new long[] { 2, 4 }, viewShape, "TF u32[2] -> u8");
            Assert.Sequence(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 }, bytes.ToArray(), "8 bytes of 12, not 12");

            // Packed: INT4 [5] is 3 bytes, and so is its UINT4 view, in a 4-byte buffer.
            byte[] packed = { 0x21, 0x43, 0x05, 0xEE };
            Span<byte> nibbles = Tensorcast.BitcastView<byte, byte>(packed, DType.Int4, Shape(5), DType.UInt4,
                                                                    BitcastRules.Onnx, out viewShape);
            Assert.Sequence(new long[] { 5 }, viewShape, "ONNX INT4 -> UINT4");
            Assert.Sequence(new byte[] { 0x21, 0x43, 0x05 }, nibbles.ToArray(), "3 packed bytes");

            // An empty view of a non-empty buffer.
            Span<float> none = Tensorcast.BitcastView<uint, float>(three, DType.UInt32, Shape(0), DType.Float,
                                                                   BitcastRules.Onnx, out viewShape);
            Assert.Sequence(new long[] { 0 }, viewShape, "empty shape");
            Assert.Equal(0, none.Length, "empty view");
        }

        // ---- overloads without a shape or a source dtype ----------------------------------

        public static void CastArraysAndSpansWithOptions()
        {
            float[] values = { 1f, 448f, 1000f };
            var noSaturate = new CastOptions { Saturate = false };
            // The array form takes options.
            Assert.Sequence(new byte[] { 0x38, 0x7E, 0x7E },
                            Tensorcast.Cast<float, Float8E4M3FN>(values).Select(x => x.Bits), "E4M3FN, saturating");
            Assert.Sequence(new byte[] { 0x38, 0x7E, 0x7F },
                            Tensorcast.Cast<float, Float8E4M3FN>(values, noSaturate).Select(x => x.Bits),
                            "E4M3FN, array form, Saturate = false: 1000 is NaN");
            // The span form: a slice into a new array, with options.
            Float8E4M3FN[] slice = Tensorcast.Cast<float, Float8E4M3FN>(new ReadOnlySpan<float>(values, 1, 2), noSaturate);
            Assert.Sequence(new byte[] { 0x7E, 0x7F }, slice.Select(x => x.Bits), "span form, Saturate = false");
            Assert.Sequence(new[] { 1.0, 2.0 }, Tensorcast.Cast<int, double>(new[] { 1, 2 }.AsSpan()), "span form, no options");
            Assert.Equal(0, Tensorcast.Cast<float, Float16>(ReadOnlySpan<float>.Empty).Length, "empty span");
            Assert.Fails(Status.Casting, null,
                         () => Tensorcast.Cast<double, int>(new[] { 1.5 }.AsSpan(), new CastOptions { Casting = CastingLevel.Safe }),
                         "span form, Casting = Safe");
            Assert.Throws<ArgumentNullException>(() => Tensorcast.Cast<float, double>((float[])null), "null array");
        }

        public static void ToStringsWithoutShape()
        {
            // T inferred from the array; a 1-D tensor of its length.
            Assert.Sequence(new[] { "1.5", "NaN", "-INF" },
                            Tensorcast.ToStrings(new[] { 1.5f, float.NaN, float.NegativeInfinity }), "float[]");
            Assert.Sequence(new[] { "1000000.0" }, Tensorcast.ToStrings(new[] { 1e6 }), "double[], shortest");
            Assert.Sequence(new[] { "1000000" }, Tensorcast.ToStrings(new[] { 1e6 }, StringFormat.Printf8G), "double[], %.8g");
            Assert.Sequence(new[] { "1.0", "-2.5" },
                            Tensorcast.ToStrings(new[] { new Float16(0x3C00), new Float16(0xC100) }), "Float16[]");
            Assert.Sequence(new[] { "15360" }, Tensorcast.ToStrings(new ushort[] { 0x3C00 }), "ushort[] is UINT16");
            Assert.Sequence(new[] { "2", "3" }, Tensorcast.ToStrings<int>(new[] { 1, 2, 3, 4 }.AsSpan(1, 2)), "a span");
            Assert.Equal(0, Tensorcast.ToStrings(new long[0]).Length, "empty");
            Assert.Throws<ArgumentNullException>(() => Tensorcast.ToStrings((float[])null), "null array");
        }

        public static void BitcastViewInfersDTypes()
        {
            uint[] words = { 0x3F800000 };
            long[] viewShape;
            // The source dtype from the element type, the target given.
            Span<byte> bytes = Tensorcast.BitcastView<uint, byte>(words, Shape(1), DType.UInt8, BitcastRules.TensorFlow,
                                                                  out viewShape);
            Assert.Sequence(new long[] { 1, 4 }, viewShape, "UINT32 inferred, [1] -> [1,4]");
            Assert.Sequence(new byte[] { 0x00, 0x00, 0x80, 0x3F }, bytes.ToArray(), "the bytes");
            // A byte span given as INT4 storage needs the explicit form; inferred, byte is UINT8.
            Span<sbyte> signed = Tensorcast.BitcastView<byte, sbyte>(new byte[] { 0xFF }, Shape(1), DType.Int8,
                                                                     BitcastRules.Onnx, out viewShape);
            Assert.Equal((sbyte)-1, signed[0], "UINT8 inferred -> INT8");

            // Both from the element types: FLOAT16 viewed as UINT16.
            Float16[] halves = { new Float16(0x3C00), new Float16(0xC100) };
            Span<ushort> bits = Tensorcast.BitcastView<Float16, ushort>(halves, Shape(2), BitcastRules.Onnx, out viewShape);
            Assert.Sequence(new long[] { 2 }, viewShape, "FLOAT16 -> UINT16 shape");
            Assert.Sequence(new ushort[] { 0x3C00, 0xC100 }, bits.ToArray(), "FLOAT16 -> UINT16 bits");
            bits[0] = 0x4000;
            Assert.Equal((ushort)0x4000, halves[0].Bits, "the same memory");
            Span<float> floats = Tensorcast.BitcastView<uint, float>(words, Shape(1), BitcastRules.Onnx, out viewShape);
            Assert.Equal(1f, floats[0], "UINT32 -> FLOAT");
            // The inferred dtypes are checked like explicit ones: ONNX refuses unequal widths.
            Assert.Fails(Status.Unsupported, null, () =>
            {
                long[] s;
                Tensorcast.BitcastView<uint, ushort>(words, Shape(1), BitcastRules.Onnx, out s);
            }, "ONNX UINT32 -> UINT16");
            Assert.Throws<ArgumentException>(() =>
            {
                long[] s;
                Tensorcast.BitcastView<decimal, byte>(new decimal[1], Shape(1), BitcastRules.Onnx, out s);
            }, "no dtype for decimal");
        }
    }
}
