// SPDX-License-Identifier: MIT OR Apache-2.0
// A program built against the packed TensorcastSharp.dll (scripts/test-csharp.sh, after
// scripts/pack-csharp.sh): it makes native calls, then reports which libtensorcast the
// process mapped (from /proc/self/maps), the file NativeLibraryResolver says it loaded and
// what NativeLibraryResolver.Locate() finds, and fails unless they are what the script
// expects (the file loaded is the one mapped, and LoadedFrom unless a third argument says
// otherwise: `null` when the library was loaded by name, the SONAME):
//
//   mono PackageCheck.exe LOADED_LIBRARY LOCATED_LIBRARY|none [LOADED_FROM|null]

using System;
using System.IO;
using System.Linq;
using TensorcastSharp;
using TensorcastSharp.Interop;

static class PackageCheck
{
    static int Main(string[] args)
    {
        if (args.Length != 2 && args.Length != 3)
        {
            Console.Error.WriteLine("usage: PackageCheck.exe LOADED_LIBRARY LOCATED_LIBRARY|none [LOADED_FROM|null]");
            return 2;
        }
        string expectLoaded = Path.GetFullPath(args[0]);
        string expectLocated = args[1] == "none" ? null : Path.GetFullPath(args[1]);
        string expectLoadedFrom = args.Length == 2 ? expectLoaded
            : args[2] == "null" ? null : Path.GetFullPath(args[2]);

        Float16[] half = Tensorcast.Cast<float, Float16>(new[] { 1f, -2.5f });
        string loaded = File.ReadAllLines("/proc/self/maps")
            .Select(line => line.Split(new[] { ' ' }, 6, StringSplitOptions.RemoveEmptyEntries))
            .Where(f => f.Length == 6 && Path.GetFileName(f[5].Trim()).StartsWith("libtensorcast.so"))
            .Select(f => f[5].Trim())
            .FirstOrDefault();
        string located = NativeLibraryResolver.Locate();
        string loadedFrom = NativeLibraryResolver.LoadedFrom;
        Console.WriteLine("tensorcast " + Tensorcast.Version + ": " + half[0] + " " + half[1]);
        Console.WriteLine("assembly:  " + typeof(Tensorcast).Assembly.Location);
        Console.WriteLine("loaded:    " + (loaded ?? "(not mapped)"));
        Console.WriteLine("loaded from (NativeLibraryResolver.LoadedFrom): " + (loadedFrom ?? "null"));
        Console.WriteLine("located:   " + (located ?? "none"));
        Console.WriteLine("resolver registered: " + NativeLibraryResolver.IsRegistered);

        int failures = 0;
        if (half[0].Bits != 0x3C00 || half[1].Bits != 0xC100)
        {
            Console.Error.WriteLine("FAIL: wrong FLOAT16 bits");
            failures++;
        }
        if (loaded == null || Path.GetFullPath(loaded) != expectLoaded)
        {
            Console.Error.WriteLine("FAIL: expected " + expectLoaded + " to be loaded");
            failures++;
        }
        if (loadedFrom != expectLoadedFrom)
        {
            Console.Error.WriteLine("FAIL: expected LoadedFrom to be " + (expectLoadedFrom ?? "null"));
            failures++;
        }
        if (located != expectLocated)
        {
            Console.Error.WriteLine("FAIL: expected Locate() to give " + (expectLocated ?? "none"));
            failures++;
        }
        // Mono has no NativeLibrary: the resolver cannot be registered there.
        bool mono = Type.GetType("Mono.Runtime") != null;
        if (mono && NativeLibraryResolver.IsRegistered)
        {
            Console.Error.WriteLine("FAIL: a resolver registered on Mono");
            failures++;
        }
        return failures == 0 ? 0 : 1;
    }
}
