// Where the native library is looked for on .NET (Core 3.0 and later, .NET 5+): a
// DllImport resolver registered with NativeLibrary.SetDllImportResolver that tries, in
// order, the file named by TENSORCAST_LIBRARY, the assembly's own directory, its
// runtimes/<rid>/native/ and the runtimes/<rid>/native/ of a NuGet package whose
// lib/<framework>/ holds the assembly; then the runtime's default probing.
//
// NativeLibrary does not exist on Mono or .NET Framework, and this file must compile with
// mcs against Mono's mscorlib, so it is reached through reflection; where it is missing,
// Register does nothing and the platform's own lookup applies (on Mono: the assembly's
// directory, a <dllmap>, LD_LIBRARY_PATH; see README.md).

using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;

namespace TensorcastSharp.Interop
{
    /// <summary>Finds libtensorcast for the DllImports of <see cref="NativeMethods"/> on .NET
    /// Core 3.0+ (see the file's comment for the order). Registered by NativeMethods' static
    /// constructor, so before the first native call.</summary>
    public static class NativeLibraryResolver
    {
        /// <summary>The environment variable that names the library file to load, e.g.
        /// /opt/tensorcast/lib/libtensorcast.so. Read by the .NET resolver only: Mono does not
        /// call it (use LD_LIBRARY_PATH or a dllmap there).</summary>
        public const string EnvironmentVariable = "TENSORCAST_LIBRARY";

        static readonly object Gate = new object();
        static bool attempted;
        static bool registered;
        static MethodInfo tryLoad; // NativeLibrary.TryLoad(string, out IntPtr)

        /// <summary>Whether the resolver is registered: false on runtimes without
        /// NativeLibrary (Mono, .NET Framework) or when the application had already set a
        /// resolver for this assembly.</summary>
        public static bool IsRegistered
        {
            get
            {
                Register();
                return registered;
            }
        }

        /// <summary>The library's file name on this OS: libtensorcast.so, libtensorcast.dylib
        /// or tensorcast.dll.</summary>
        public static string FileName
        {
            get
            {
                if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows)) return "tensorcast.dll";
                if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX)) return "libtensorcast.dylib";
                return "libtensorcast.so";
            }
        }

        /// <summary>The NuGet runtime identifier of this process: "linux-x64", "linux-arm64",
        /// "osx-arm64", "win-x64", ... (null for an architecture NuGet has no name for).</summary>
        public static string RuntimeIdentifier
        {
            get
            {
                string os = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "win"
                    : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "osx" : "linux";
                switch (RuntimeInformation.ProcessArchitecture)
                {
                    case Architecture.X64: return os + "-x64";
                    case Architecture.X86: return os + "-x86";
                    case Architecture.Arm64: return os + "-arm64";
                    case Architecture.Arm: return os + "-arm";
                    default: return null;
                }
            }
        }

        /// <summary>The paths the resolver tries, in order, for an assembly in
        /// <paramref name="assemblyDirectory"/>: <paramref name="environmentValue"/> (the value
        /// of TENSORCAST_LIBRARY, skipped when null or empty), then
        /// <c>dir/FILE</c>, <c>dir/runtimes/RID/native/FILE</c> and
        /// <c>dir/../../runtimes/RID/native/FILE</c> (the assembly in a package's
        /// lib/FRAMEWORK/).</summary>
        public static string[] CandidatePaths(string assemblyDirectory, string rid, string fileName,
                                              string environmentValue)
        {
            var paths = new List<string>();
            if (!string.IsNullOrEmpty(environmentValue))
                paths.Add(environmentValue);
            if (!string.IsNullOrEmpty(assemblyDirectory))
            {
                paths.Add(Path.Combine(assemblyDirectory, fileName));
                if (rid != null)
                {
                    string native = Path.Combine("runtimes", rid, "native", fileName);
                    paths.Add(Path.Combine(assemblyDirectory, native));
                    string package = Path.GetDirectoryName(Path.GetDirectoryName(assemblyDirectory));
                    if (!string.IsNullOrEmpty(package))
                        paths.Add(Path.Combine(package, native));
                }
            }
            return paths.ToArray();
        }

        /// <summary>The first of CandidatePaths, for this process and this assembly, that is
        /// an existing file; null if none is (the runtime's default probing then applies).
        /// What the resolver loads, and what a Mono user can point LD_LIBRARY_PATH at.</summary>
        public static string Locate()
        {
            string location = typeof(NativeLibraryResolver).Assembly.Location;
            string directory = string.IsNullOrEmpty(location) ? null : Path.GetDirectoryName(Path.GetFullPath(location));
            foreach (string path in CandidatePaths(directory, RuntimeIdentifier, FileName,
                                                   Environment.GetEnvironmentVariable(EnvironmentVariable)))
            {
                if (File.Exists(path))
                    return Path.GetFullPath(path);
            }
            return null;
        }

        /// <summary>Registers the resolver once, where the runtime has NativeLibrary; safe to
        /// call any number of times, from any thread. NativeMethods calls it first.</summary>
        public static void Register()
        {
            lock (Gate)
            {
                if (attempted)
                    return;
                attempted = true;
                registered = TryRegister();
            }
        }

        static bool TryRegister()
        {
            Type nativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary");
            Type resolverType = Type.GetType("System.Runtime.InteropServices.DllImportResolver");
            if (nativeLibrary == null || resolverType == null)
                return false; // Mono, .NET Framework
            MethodInfo set = nativeLibrary.GetMethod("SetDllImportResolver",
                                                     new[] { typeof(Assembly), resolverType });
            tryLoad = nativeLibrary.GetMethod("TryLoad", new[] { typeof(string), typeof(IntPtr).MakeByRefType() });
            if (set == null || tryLoad == null)
                return false;
            MethodInfo resolve = typeof(NativeLibraryResolver).GetMethod(
                "Resolve", BindingFlags.NonPublic | BindingFlags.Static);
            Delegate resolver = Delegate.CreateDelegate(resolverType, resolve);
            try
            {
                set.Invoke(null, new object[] { typeof(NativeLibraryResolver).Assembly, resolver });
                return true;
            }
            catch (TargetInvocationException e) when (e.InnerException is InvalidOperationException)
            {
                return false; // the application set its own resolver for this assembly first
            }
        }

        // The DllImportResolver: (libraryName, assembly, searchPath) -> handle, or IntPtr.Zero
        // for the runtime's default probing.
        static IntPtr Resolve(string libraryName, Assembly assembly, DllImportSearchPath? searchPath)
        {
            if (libraryName != NativeMethods.Library)
                return IntPtr.Zero;
            string path = Locate();
            if (path == null)
                return IntPtr.Zero;
            var arguments = new object[] { path, IntPtr.Zero };
            return (bool)tryLoad.Invoke(null, arguments) ? (IntPtr)arguments[1] : IntPtr.Zero;
        }
    }
}
