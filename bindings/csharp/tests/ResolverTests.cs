// SPDX-License-Identifier: MIT OR Apache-2.0
// Tests of NativeLibraryResolver's search order (the part that runs the same on Mono and
// .NET; registering with NativeLibrary needs .NET Core 3+, which is not here).

using System;
using System.IO;
using TensorcastSharp.Interop;

namespace TensorcastSharp.Tests
{
    static partial class Tests
    {
        public static void ResolverCandidatePathsInOrder()
        {
            string dir = Path.Combine("/pkgs", "tensorcastsharp", "lib", "netstandard2.0");
            string[] paths = NativeLibraryResolver.CandidatePaths(dir, "linux-x64", "libtensorcast.so", null);
            Assert.Sequence(new[]
            {
                "/pkgs/tensorcastsharp/lib/netstandard2.0/libtensorcast.so",
                "/pkgs/tensorcastsharp/lib/netstandard2.0/runtimes/linux-x64/native/libtensorcast.so",
                "/pkgs/tensorcastsharp/runtimes/linux-x64/native/libtensorcast.so",
            }, paths, "the assembly's directory, its runtimes/, the package's runtimes/");
            string[] noEnv = NativeLibraryResolver.CandidatePaths(dir, "linux-x64", "libtensorcast.so", "");
            Assert.Sequence(paths, noEnv, "an empty TENSORCAST_LIBRARY is not set");
            // A file named explicitly is the only one tried: a wrong path is an error, not a
            // reason to load some other libtensorcast.
            string[] variable = NativeLibraryResolver.CandidatePaths(dir, "linux-x64", "libtensorcast.so", "/opt/x/libtc.so");
            Assert.Sequence(new[] { "/opt/x/libtc.so" }, variable, "TENSORCAST_LIBRARY alone");
            string[] noRid = NativeLibraryResolver.CandidatePaths(dir, null, "libtensorcast.so", null);
            Assert.Sequence(new[] { "/pkgs/tensorcastsharp/lib/netstandard2.0/libtensorcast.so" }, noRid,
                            "no runtimes/ paths without a RID");
        }

        public static void ResolverOnThisRuntime()
        {
            Assert.Equal("TENSORCAST_LIBRARY", NativeLibraryResolver.EnvironmentVariable, "variable name");
            // The tests run on x86-64 or arm64 Linux (scripts/test-csharp.sh).
            Assert.Equal("libtensorcast.so", NativeLibraryResolver.FileName, "file name on Linux");
            string rid = NativeLibraryResolver.RuntimeIdentifier;
            Assert.True(rid == "linux-x64" || rid == "linux-arm64", "RID: " + rid);
            // Registering needs System.Runtime.InteropServices.NativeLibrary (.NET Core 3+).
            bool hasNativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary") != null;
            Assert.Equal(hasNativeLibrary, NativeLibraryResolver.IsRegistered, "registered iff NativeLibrary exists");
            NativeLibraryResolver.Register(); // a second call changes nothing
            Assert.Equal(hasNativeLibrary, NativeLibraryResolver.IsRegistered, "after a second Register");
            // This process has made native calls by now, through the runtime's own lookup
            // (LD_LIBRARY_PATH; scripts/test-csharp.sh puts nothing beside the assembly).
            Tensorcast.Version.ToString();
            Assert.True(NativeLibraryResolver.IsLoaded, "loaded");
            NativeLibraryResolver.EnsureLoaded(); // a second call changes nothing
            Assert.True(NativeLibraryResolver.IsLoaded, "still loaded");
        }
    }
}
