// SPDX-License-Identifier: MIT OR Apache-2.0
// Tensorcast.CpuInfo (tcast_cpu_info, docs/c-api.md section 10): what the library runs on
// this CPU and what TCAST_DISABLE_CPU_FEATURES did. The variable is read once per process,
// so the settings are tried in child processes (the "--cpu-info" mode of Main).

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using TensorcastSharp.Interop;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        const string DisableVariable = "TCAST_DISABLE_CPU_FEATURES";

        internal static readonly Regex CpuInfoLine = new Regex(
            "^arch=(?<arch>[a-z0-9_]+) kernels=(?<kernels>[a-z0-9_]+(,[a-z0-9_]+)*) " +
            "withdrawn=(?<withdrawn>none|[a-z0-9_]+(,[a-z0-9_]+)*) unknown=(?<unknown>.+)$");

        // The architecture as Rust names it (std::env::consts::ARCH).
        static string RustArch()
        {
            switch (RuntimeInformation.ProcessArchitecture)
            {
                case Architecture.X64: return "x86_64";
                case Architecture.Arm64: return "aarch64";
                case Architecture.X86: return "x86";
                case Architecture.Arm: return "arm";
                default: return null;
            }
        }

        public static unsafe void CpuInfoDescribesThisProcess()
        {
            string line = Tensorcast.CpuInfo();
            Match m = CpuInfoLine.Match(line);
            Assert.True(m.Success, "the line's form: " + line);
            Assert.Equal(RustArch(), m.Groups["arch"].Value, "arch");

            // The wrapper returns what the raw call writes into a buffer of exactly the size
            // it asks for, and a buffer one byte short is BufferTooSmall with that size.
            ulong needed = 0;
            TcastError err;
            Assert.Equal(0, NativeMethods.tcast_cpu_info(null, 0, &needed, &err), "size query");
            Assert.Equal((ulong)Encoding.UTF8.GetByteCount(line) + 1, needed, "bytes with the NUL");
            byte[] buf = new byte[needed];
            fixed (byte* p = buf)
            {
                Assert.Equal(0, NativeMethods.tcast_cpu_info(p, needed, null, &err), "exact buffer");
                ulong again = 0;
                Assert.Equal((int)Status.BufferTooSmall, NativeMethods.tcast_cpu_info(p, needed - 1, &again, &err),
                             "one byte short");
                Assert.Equal(needed, again, "the size, reported again");
            }
            Assert.Equal(line, Encoding.UTF8.GetString(buf, 0, buf.Length - 1), "the raw text");
            Assert.Equal((byte)0, buf[buf.Length - 1], "NUL-terminated");
        }

        public static void CpuInfoReportsTheSetting()
        {
            string exe = Assembly.GetExecutingAssembly().Location;
            string output;

            // Nothing set: nothing withdrawn, nothing unknown.
            int status = RunProgram(exe, "--cpu-info", new Dictionary<string, string> { { DisableVariable, null } },
                                    out output);
            Assert.Equal(0, status, "child without the variable: " + output);
            Match plain = CpuInfoLine.Match(ChildLine(output));
            Assert.True(plain.Success, "the line's form without the variable: " + output);
            Assert.Equal("none", plain.Groups["withdrawn"].Value, "withdrawn without the variable");
            Assert.Equal("none", plain.Groups["unknown"].Value, "unknown without the variable");
            string kernels = plain.Groups["kernels"].Value;

            // "all" withdraws every family this CPU has; names no family knows are listed,
            // quoted, other than printable ASCII as \xNN. The line is longer than the first
            // buffer the wrapper tries (64 bytes).
            string setting = "all,avx3,caf\u00e9,no_such_feature";
            status = RunProgram(exe, "--cpu-info", new Dictionary<string, string> { { DisableVariable, setting } },
                                out output);
            Assert.Equal(0, status, "child with " + setting + ": " + output);
            string line = ChildLine(output);
            Assert.True(line.Length > 64, "a line longer than 64 bytes: " + line);
            Match all = CpuInfoLine.Match(line);
            Assert.True(all.Success, "the line's form with " + setting + ": " + line);
            Assert.Equal(plain.Groups["arch"].Value, all.Groups["arch"].Value, "arch");
            Assert.Equal("portable", all.Groups["kernels"].Value, "kernels with all withdrawn");
            Assert.Equal(kernels == "portable" ? "none" : kernels, all.Groups["withdrawn"].Value,
                         "withdrawn: what the process without the variable used");
            Assert.Equal("\"avx3\",\"caf\\xc3\\xa9\",\"no_such_feature\"", all.Groups["unknown"].Value,
                         "unknown names, UTF-8 bytes escaped");
        }

        static string ChildLine(string output)
        {
            foreach (string line in output.Split('\n'))
                if (line.StartsWith("cpu-info: "))
                    return line.Substring("cpu-info: ".Length).TrimEnd('\r');
            throw new AssertionFailed("no cpu-info line in: " + output);
        }
    }
}
