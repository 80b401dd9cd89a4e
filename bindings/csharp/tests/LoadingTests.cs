// SPDX-License-Identifier: MIT OR Apache-2.0
// Loading the native library lazily (src/NativeLibraryResolver.cs): a missing library is a
// DllNotFoundException that says what was tried, at every entry point, as often as it is
// called, and the same process goes on working once the library is there.
//
// A process that has loaded the library cannot show that, so the test runs this program
// again (the "--loading-child SCENARIO LIBRARY" mode of Main) from a copy in a temporary
// directory, without LD_LIBRARY_PATH, in three scenarios:
//
//   variable  TENSORCAST_LIBRARY names a missing file, then libc (not tensorcast), then
//             the right one.
//   search    nothing set, nothing beside the assembly; then TENSORCAST_LIBRARY is set.
//   beside    nothing set, nothing beside the assembly; then libtensorcast.so is copied
//             beside it.

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using TensorcastSharp.Interop;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        public static void MissingLibraryIsDllNotFoundUntilFound()
        {
            Tensorcast.Version.ToString(); // this process has the library: find which file
            string library = MappedLibrary();
            Assert.True(library != null, "libtensorcast.so is mapped in the test process");

            string dir = Path.Combine(Path.GetTempPath(), "tensorcast-loading-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            try
            {
                string exe = Assembly.GetExecutingAssembly().Location;
                string dll = typeof(Tensorcast).Assembly.Location;
                File.Copy(exe, Path.Combine(dir, Path.GetFileName(exe)));
                File.Copy(dll, Path.Combine(dir, Path.GetFileName(dll)));
                foreach (string scenario in new[] { "variable", "search", "beside" })
                {
                    string output;
                    int status = RunChild(Path.Combine(dir, Path.GetFileName(exe)), scenario, library,
                                          scenario == "variable" ? Path.Combine(dir, "missing", "libtensorcast.so") : null,
                                          out output);
                    Assert.Equal(0, status, "child " + scenario + " exit status; its output:\n" + output);
                    Assert.True(output.Contains("loading-child " + scenario + ": ok"), "child " + scenario + " output:\n" + output);
                    File.Delete(Path.Combine(dir, "libtensorcast.so")); // what "beside" copied
                }
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }

        // Runs `mono EXE --loading-child SCENARIO LIBRARY` without LD_LIBRARY_PATH, MONO_PATH
        // and TENSORCAST_LIBRARY (set to `variable` when it is not null).
        static int RunChild(string exe, string scenario, string library, string variable, out string output)
        {
            var environment = new Dictionary<string, string>
            {
                { "LD_LIBRARY_PATH", null },
                { "MONO_PATH", null },
                { NativeLibraryResolver.EnvironmentVariable, variable },
            };
            return RunProgram(exe, "--loading-child " + scenario + " \"" + library + "\"", environment, out output);
        }

        // Runs `mono --debug EXE ARGUMENTS` with this process's environment changed as given
        // (a null value removes the variable); returns its exit status, and its stdout then
        // stderr in `output`.
        internal static int RunProgram(string exe, string arguments, Dictionary<string, string> environment,
                                       out string output)
        {
            var start = new ProcessStartInfo
            {
                FileName = Process.GetCurrentProcess().MainModule.FileName, // the mono running this
                Arguments = "--debug \"" + exe + "\" " + arguments,
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            foreach (var change in environment)
            {
                start.EnvironmentVariables.Remove(change.Key);
                if (change.Value != null)
                    start.EnvironmentVariables[change.Key] = change.Value;
            }
            using (Process child = Process.Start(start))
            {
                var stderr = child.StandardError.ReadToEndAsync();
                string stdout = child.StandardOutput.ReadToEnd();
                if (!child.WaitForExit(120000))
                {
                    child.Kill();
                    throw new AssertionFailed("mono " + start.Arguments + " did not finish in 120 s");
                }
                output = stdout + stderr.Result;
                return child.ExitCode;
            }
        }

        // The libtensorcast this process has mapped (Linux), or null.
        internal static string MappedLibrary()
        {
            return File.ReadAllLines("/proc/self/maps")
                .Select(line => line.Split(new[] { ' ' }, 6, StringSplitOptions.RemoveEmptyEntries))
                .Where(f => f.Length == 6 && Path.GetFileName(f[5].Trim()).StartsWith("libtensorcast.so"))
                .Select(f => f[5].Trim())
                .FirstOrDefault();
        }

        // Mono binds an extern when it compiles a method that calls it, so the wrapper names
        // the externs only in Native.Bound (src/NativeCalls.cs), whose methods are never
        // inlined into the ones that load the library first.
        public static void ExternsAreReachedOnlyThroughNative()
        {
            string src = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(headerPath)), "..", "bindings", "csharp", "src");
            var files = Directory.GetFiles(src, "*.cs");
            Assert.True(files.Length >= 6, "the sources are in " + src);
            foreach (string file in files)
            {
                string name = Path.GetFileName(file);
                if (name == "NativeMethods.cs")
                    continue;
                string[] lines = File.ReadAllLines(file);
                bool inBound = false;
                for (int i = 0; i < lines.Length; i++)
                {
                    if (name == "NativeCalls.cs" && lines[i].Trim() == "static class Bound")
                        inBound = true;
                    string code = Regex.Replace(lines[i], @"^\s*//.*$", ""); // comments may name them
                    if (!inBound && Regex.IsMatch(code, @"NativeMethods\s*\.\s*tcast_"))
                        throw new AssertionFailed(name + ":" + (i + 1) + " calls an extern directly: " + lines[i].Trim());
                }
                if (name == "NativeCalls.cs")
                    Assert.True(inBound, "NativeCalls.cs has its Bound class");
            }

            Type bound = typeof(Native).GetNestedType("Bound", BindingFlags.NonPublic);
            Assert.True(bound != null, "Native.Bound exists");
            MethodInfo[] forwarders = bound.GetMethods(BindingFlags.Public | BindingFlags.Static);
            foreach (MethodInfo m in forwarders)
                Assert.True((m.GetMethodImplementationFlags() & MethodImplAttributes.NoInlining) != 0,
                            "Native.Bound." + m.Name + " is NoInlining");
            var externs = typeof(NativeMethods).GetMethods(BindingFlags.Public | BindingFlags.Static)
                .Where(m => m.Name.StartsWith("tcast_") && m.Name != "tcast_cast_options_default")
                .Select(m => m.Name).OrderBy(n => n);
            Assert.Sequence(externs, forwarders.Select(m => m.Name).OrderBy(n => n), "one forwarder per extern");
            Assert.Sequence(externs,
                            typeof(Native).GetMethods(BindingFlags.Public | BindingFlags.Static)
                                .Select(m => m.Name).OrderBy(n => n),
                            "one loading entry per extern");
        }
    }

    // The child's side of MissingLibraryIsDllNotFoundUntilFound.
    static class LoadingChild
    {
        public static int Run(string scenario, string library)
        {
            try
            {
                Check(scenario, library);
                Console.WriteLine("loading-child " + scenario + ": ok");
                return 0;
            }
            catch (Exception e)
            {
                Console.WriteLine("loading-child " + scenario + ": FAIL " + (e is AssertionFailed ? e.Message : e.ToString()));
                return 1;
            }
        }

        static void Check(string scenario, string library)
        {
            string dir = Path.GetDirectoryName(Path.GetFullPath(typeof(Tensorcast).Assembly.Location));
            string variable = Environment.GetEnvironmentVariable(NativeLibraryResolver.EnvironmentVariable);
            Assert.Equal(scenario == "variable", !string.IsNullOrEmpty(variable), "TENSORCAST_LIBRARY set");
            Assert.True(Tests.MappedLibrary() == null, "nothing loaded at the start");
            List<KeyValuePair<string, Action>> calls = EntryPoints();

            // Twice: a first failure that left anything broken would show in the second round.
            for (int round = 1; round <= 2; round++)
            {
                foreach (var call in calls)
                {
                    string what = call.Key + " without the library, round " + round;
                    DllNotFoundException e = Assert.Throws<DllNotFoundException>(call.Value, what);
                    string m = e.Message;
                    if (scenario == "variable")
                    {
                        Assert.True(m.Contains("TENSORCAST_LIBRARY=" + variable + ": no such file"), what + ": names the variable's file: " + m);
                        Assert.True(m.Contains("or unset it"), what + ": the hint: " + m);
                    }
                    else
                    {
                        Assert.True(m.Contains(Path.Combine(dir, "libtensorcast.so") + ": no such file"), what + ": beside the assembly: " + m);
                        Assert.True(m.Contains(Path.Combine(dir, "runtimes", NativeLibraryResolver.RuntimeIdentifier, "native", "libtensorcast.so")),
                                    what + ": runtimes/RID/native: " + m);
                        Assert.True(m.Contains("libtensorcast.so.0 by name"), what + ": the SONAME: " + m);
                        Assert.True(m.Contains("the runtime's own lookup of \"tensorcast\""), what + ": the runtime's lookup: " + m);
                        Assert.True(m.Contains("LD_LIBRARY_PATH"), what + ": the hint: " + m);
                    }
                    Assert.True(m.Contains("Set TENSORCAST_LIBRARY to the full path"), what + ": the hint: " + m);
                }
            }
            Assert.True(!NativeLibraryResolver.IsLoaded, "IsLoaded before");
            Assert.Equal(null, NativeLibraryResolver.LoadedFrom, "LoadedFrom before");
            // The per-type facts need no library.
            Assert.Equal(DType.Float16, DTypeInfo.Of<Float16>(), "DTypeInfo.Of<Float16>() without the library");
            Assert.Equal(DType.UInt16, DTypeInfo.Of<ushort>(), "DTypeInfo.Of<ushort>() without the library");

            if (scenario == "variable")
            {
                // A library that loads but is not tensorcast is refused, not bound to.
                string other = File.ReadAllLines("/proc/self/maps")
                    .Select(line => line.Split(new[] { ' ' }, 6, StringSplitOptions.RemoveEmptyEntries))
                    .Where(f => f.Length == 6 && Path.GetFileName(f[5].Trim()).StartsWith("libc.so"))
                    .Select(f => f[5].Trim())
                    .First();
                Environment.SetEnvironmentVariable(NativeLibraryResolver.EnvironmentVariable, other);
                DllNotFoundException e = Assert.Throws<DllNotFoundException>(calls[0].Value, "TENSORCAST_LIBRARY=" + other);
                Assert.True(e.Message.Contains("TENSORCAST_LIBRARY=" + other + ": loads, but is not libtensorcast (no tcast_version)"),
                            "the message for " + other + ": " + e.Message);
            }

            string expected;
            if (scenario == "beside")
            {
                expected = Path.Combine(dir, "libtensorcast.so");
                File.Copy(library, expected);
            }
            else
            {
                expected = library;
                Environment.SetEnvironmentVariable(NativeLibraryResolver.EnvironmentVariable, library);
            }
            foreach (var call in calls)
                call.Value(); // each checks its result
            Assert.True(NativeLibraryResolver.IsLoaded, "IsLoaded after");
            Assert.Equal(Path.GetFullPath(expected), NativeLibraryResolver.LoadedFrom, "LoadedFrom after");
            Assert.Equal(Path.GetFullPath(expected), Tests.MappedLibrary(), "the file the process mapped");
        }

        // Every public entry point that reaches the library, each checking its result.
        static List<KeyValuePair<string, Action>> EntryPoints()
        {
            var calls = new List<KeyValuePair<string, Action>>();
            Action<string, Action> add = (name, call) => calls.Add(new KeyValuePair<string, Action>(name, call));
            const CastingLevel S = CastingLevel.Safe;
            const NumpyRules N1 = NumpyRules.Numpy1;

            add("DTypeInfo.Name", () => Assert.Equal("FLOAT", DTypeInfo.Name(DType.Float), "Name"));
            add("DTypeInfo.Bits", () => Assert.Equal(16, DTypeInfo.Bits(DType.Float16), "Bits"));
            add("DTypeInfo.FromName", () => Assert.Equal(DType.Float16, DTypeInfo.FromName("half"), "FromName"));
            add("DTypeInfo.TensorBytes", () => Assert.Equal(2L, DTypeInfo.TensorBytes(DType.Int4, new long[] { 3 }), "TensorBytes"));
            add("DTypeInfo.ElementCount", () => Assert.Equal(6L, DTypeInfo.ElementCount(new long[] { 2, 3 }), "ElementCount"));
            add("DTypeInfo.MaxStringBytes", () => Assert.True(DTypeInfo.MaxStringBytes(DType.Float) > 0, "MaxStringBytes"));
            add("DTypeInfo.OnnxCastSupported", () => Assert.True(DTypeInfo.OnnxCastSupported(DType.Float, DType.Float16, 21), "OnnxCastSupported"));
            add("Tensorcast.Version", () => Assert.True(Regex.IsMatch(Tensorcast.Version, @"^\d+\.\d+\.\d+$"), "Version"));
            add("Tensorcast.CpuInfo", () => Assert.True(Tests.CpuInfoLine.IsMatch(Tensorcast.CpuInfo()), "CpuInfo"));
            add("Tensorcast.StatusName", () => Assert.Equal("TCAST_ERR_PARSE", Tensorcast.StatusName(Status.Parse), "StatusName"));
            add("Tensorcast.CanCast", () => Assert.Equal(false, Tensorcast.CanCast(DType.Double, DType.Int32, S), "CanCast"));
            add("Cast (bytes)", () =>
            {
                byte[] dst = new byte[2];
                Tensorcast.Cast(MemoryMarshal.AsBytes(new[] { 1f }.AsSpan()), DType.Float, new long[] { 1 }, dst, DType.Float16);
                Assert.Sequence(new byte[] { 0x00, 0x3C }, dst, "Cast (bytes)");
            });
            add("Cast<float, ushort>", () =>
                Assert.Sequence(new ushort[] { 1, 2 }, Tensorcast.Cast<float, ushort>(new[] { 1f, 2f }), "Cast<float, ushort>"));
            add("Cast<float, Float16>", () =>
                Assert.Sequence(new ushort[] { 0x3C00, 0xC100 },
                                Tensorcast.Cast<float, Float16>(new[] { 1f, -2.5f }).Select(h => h.Bits), "Cast<float, Float16>"));
            add("Cast<ushort, float> (span)", () =>
            {
                float[] dst = new float[1];
                Tensorcast.Cast<ushort, float>(new ushort[] { 0x3C00 }, DType.Float16, new long[] { 1 }, dst, DType.Float);
                Assert.Equal(1f, dst[0], "Cast<ushort, float> with DType.Float16");
            });
            add("ToStrings", () => Assert.Sequence(new[] { "1.5" }, Tensorcast.ToStrings(new[] { 1.5f }), "ToStrings"));
            add("ParseStrings", () => Assert.Sequence(new[] { 42 }, Tensorcast.ParseStrings<int>(new[] { "42" }), "ParseStrings"));
            add("ExpandShape", () =>
                Assert.Sequence(new long[] { 2, 3, 2 }, Tensorcast.ExpandShape(new long[] { 3, 1 }, new long[] { 2, 1, 2 }), "ExpandShape"));
            add("Expand<float>", () =>
                Assert.Sequence(new[] { 7f, 7f }, Tensorcast.Expand<float>(new[] { 7f }, new long[] { 1 }, new long[] { 2 }).Data, "Expand"));
            add("BitcastShape", () =>
                Assert.Sequence(new long[] { 2, 4 }, Tensorcast.BitcastShape(DType.UInt32, new long[] { 2 }, DType.UInt8, BitcastRules.TensorFlow), "BitcastShape"));
            add("Bitcast", () =>
                Assert.Sequence(new long[] { 2 }, Tensorcast.Bitcast(new byte[8], DType.UInt32, new long[] { 2 }, DType.Float, BitcastRules.Onnx), "Bitcast"));
            add("BitcastView", () =>
            {
                long[] shape;
                Span<byte> view = Tensorcast.BitcastView<uint, byte>(new uint[] { 0x3F800000 }, new long[] { 1 }, DType.UInt8,
                                                                     BitcastRules.TensorFlow, out shape);
                Assert.Sequence(new byte[] { 0x00, 0x00, 0x80, 0x3F }, view.ToArray(), "BitcastView");
            });
            add("NumpyDType.Parse, ToString, CastingLevel, CanCast", () =>
            {
                using (NumpyDType from = NumpyDType.Parse(">M8[1000ns]"))
                using (NumpyDType to = NumpyDType.Parse("M8[us]"))
                {
                    Assert.Equal("datetime64[us]", to.ToString(), "ToString");
                    Assert.Equal(CastingLevel.Equiv, NumpyDType.CastingLevel(from, to, NumpyRules.Numpy2), "CastingLevel");
                    Assert.Equal(true, NumpyDType.CanCast(from, to, S, NumpyRules.Numpy2), "CanCast");
                }
            });
            add("NumpyDType.CanCastStr", () => Assert.Equal(false, NumpyDType.CanCastStr("i8", "f4", "safe", NumpyRules.Numpy2), "CanCastStr"));
            add("NumpyDType.ParseCasting", () => Assert.Equal(CastingLevel.SameKind, NumpyDType.ParseCasting("same_kind"), "ParseCasting"));
            add("NumpyDType.CanCastPyInt", () => Assert.Equal(false, NumpyDType.CanCastPyInt("300", "i1", S, N1), "CanCastPyInt"));
            add("NumpyDType.CanCastPyInt (long)", () => Assert.Equal(true, NumpyDType.CanCastPyInt(-128L, "i1", S, N1), "CanCastPyInt long"));
            add("NumpyDType.CanCastPyFloat", () => Assert.Equal(false, NumpyDType.CanCastPyFloat(65000.0, "f2", S, N1), "CanCastPyFloat"));
            add("NumpyDType.CanCastPyComplex", () => Assert.Equal(true, NumpyDType.CanCastPyComplex(1, 1, "c8", S, N1), "CanCastPyComplex"));
            add("NumpyDType.CanCastPyBool", () => Assert.Equal(true, NumpyDType.CanCastPyBool(true, "i1", S, N1), "CanCastPyBool"));
            add("NumpyDType.CanCastScalar", () =>
                Assert.Equal(false, NumpyDType.CanCastScalar("u1", new byte[] { 200 }, false, "i1", S, N1), "CanCastScalar"));
            add("NumpyDType.PromoteTypes", () => Assert.Equal("int64", NumpyDType.PromoteTypes("i4", "u4"), "PromoteTypes"));
            add("NumpyDType.MinScalarTypePyInt", () => Assert.Equal("int16", NumpyDType.MinScalarTypePyInt("-129"), "MinScalarTypePyInt"));
            add("NumpyDType.MinScalarTypePyInt (long)", () => Assert.Equal("uint32", NumpyDType.MinScalarTypePyInt(65536L), "MinScalarTypePyInt long"));
            add("NumpyDType.MinScalarTypePyFloat", () => Assert.Equal("float32", NumpyDType.MinScalarTypePyFloat(65000.0), "MinScalarTypePyFloat"));
            add("NumpyDType.MinScalarTypePyComplex", () => Assert.Equal("complex64", NumpyDType.MinScalarTypePyComplex(0, 1), "MinScalarTypePyComplex"));
            return calls;
        }
    }
}
