// SPDX-License-Identifier: MIT OR Apache-2.0
// Finding and loading libtensorcast, lazily and retryably (bindings/csharp/README.md,
// "Finding the native library").
//
// The wrapper calls EnsureLoaded before its first native call (through Native, in
// NativeMethods.cs), never from a static initializer: a failure is a DllNotFoundException
// that lists what was tried, and the next call searches again, so a process that sets
// TENSORCAST_LIBRARY, or copies the library beside the assembly, after a failed call goes
// on working. The search:
//
//   1. TENSORCAST_LIBRARY, when set: that file and nothing else;
//   2. otherwise the assembly's directory, its runtimes/<rid>/native/ and the
//      runtimes/<rid>/native/ of a NuGet package whose lib/<framework>/ holds the assembly;
//   3. on Linux, the SONAME libtensorcast.so.0 by name (dlopen's search: LD_LIBRARY_PATH,
//      the ld.so cache, the system's directories), the one file a runtime package
//      (libtensorcast0, tensorcast) installs: libtensorcast.so is the -dev package's link;
//   4. then the runtime's own lookup of "tensorcast" (Mono: a <dllmap>, the assembly's
//      directory, LD_LIBRARY_PATH, the system's directories; .NET: its probing, deps.json),
//      which finds libtensorcast.so.
//
// A file found in 1 or 2 is loaded by path and the DllImports are bound to it: on .NET
// Core 3+ by the DllImport resolver registered with NativeLibrary.SetDllImportResolver
// (reached through reflection: NativeLibrary is not in the Mono mscorlib mcs compiles
// against), on Mono on Linux with dlopen and a global dllmap ("tensorcast" -> the file,
// mono_dllmap_insert). Mono binds the externs a method calls when it compiles that method,
// and a failed binding stays failed for the process, so no extern may be bound before the
// library is found: that is why the wrapper reaches them only through Native, whose callers
// run EnsureLoaded first.

using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace TensorcastSharp.Interop
{
    /// <summary>Finds and loads libtensorcast for the DllImports of <see cref="NativeMethods"/>
    /// (see the file's comment for the order). <see cref="EnsureLoaded"/> is what the wrapper
    /// calls before its native calls; code that calls NativeMethods itself should call it too,
    /// from a method other than the one that makes the raw call.</summary>
    public static class NativeLibraryResolver
    {
        /// <summary>The environment variable that names the library file to load, e.g.
        /// /opt/tensorcast/lib/libtensorcast.so. When set, it is the only file tried. Read on
        /// every attempt to load, so setting it after a failed call lets the next call
        /// succeed.</summary>
        public const string EnvironmentVariable = "TENSORCAST_LIBRARY";

        static readonly object Gate = new object();
        static bool attempted;
        static bool registered;
        static MethodInfo tryLoad;       // NativeLibrary.TryLoad(string, out IntPtr)
        static MethodInfo tryLoadByName; // NativeLibrary.TryLoad(string, Assembly, DllImportSearchPath?, out IntPtr)
        static MethodInfo tryGetExport;  // NativeLibrary.TryGetExport(IntPtr, string, out IntPtr)

        // A file that loads but does not export this is some other library: binding the
        // externs to it would make every call an EntryPointNotFoundException, for good on Mono.
        const string ProbeSymbol = "tcast_version";
        const string NotTensorcast = "loads, but is not libtensorcast (no " + ProbeSymbol + ")";

        static volatile bool loaded;
        static IntPtr loadedHandle;      // .NET: what Resolve returns
        static string loadedFrom;
        static string monoLookupFailure; // Mono: its lookup failed once, and Mono does not retry it
        [ThreadStatic] static bool loading;

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

        /// <summary>Whether the library has been loaded (by <see cref="EnsureLoaded"/>, which
        /// every wrapper call makes first).</summary>
        public static bool IsLoaded
        {
            get { return loaded; }
        }

        /// <summary>The full path of the file loaded, when it was found by the search of
        /// TENSORCAST_LIBRARY or beside the assembly; null when the runtime's own lookup found
        /// it, or before it is loaded.</summary>
        public static string LoadedFrom
        {
            get { return loaded ? loadedFrom : null; }
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

        /// <summary>The library's SONAME on Linux, libtensorcast.so.0 (every 0.x release is
        /// ABI-compatible with the others), loaded by name after the files beside the assembly
        /// and before the runtime's lookup of libtensorcast.so; null on other OSes.</summary>
        public static string Soname
        {
            get { return RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "libtensorcast.so.0" : null; }
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

        /// <summary>The files tried, in order, for an assembly in
        /// <paramref name="assemblyDirectory"/>: <paramref name="environmentValue"/> (the value
        /// of TENSORCAST_LIBRARY) alone when it is set (not null or empty); otherwise
        /// <c>dir/FILE</c>, <c>dir/runtimes/RID/native/FILE</c> and
        /// <c>dir/../../runtimes/RID/native/FILE</c> (the assembly in a package's
        /// lib/FRAMEWORK/). The runtime's own lookup comes after these when the variable is
        /// not set.</summary>
        public static string[] CandidatePaths(string assemblyDirectory, string rid, string fileName,
                                              string environmentValue)
        {
            if (!string.IsNullOrEmpty(environmentValue))
                return new[] { environmentValue };
            var paths = new List<string>();
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
        /// an existing file, as a full path; null if none is (the runtime's own lookup then
        /// applies, unless TENSORCAST_LIBRARY is set).</summary>
        public static string Locate()
        {
            foreach (string path in CandidatePaths(AssemblyDirectory(), RuntimeIdentifier, FileName,
                                                   Environment.GetEnvironmentVariable(EnvironmentVariable)))
            {
                string full = FullPath(path);
                if (full != null && File.Exists(full))
                    return full;
            }
            return null;
        }

        /// <summary>Loads the library unless it is loaded already: cheap once it is. Throws
        /// DllNotFoundException, listing each place tried and why it failed, when no library
        /// loads; nothing is remembered from a failure, so a later call searches again (after
        /// TENSORCAST_LIBRARY is set, for example). Safe from any thread.</summary>
        public static void EnsureLoaded()
        {
            if (!loaded)
                Load();
        }

        static void Load()
        {
            lock (Gate)
            {
                if (loaded)
                    return;
                Register();
                loading = true;
                try
                {
                    string failure = TryLoadLibrary();
                    if (failure != null)
                        throw new DllNotFoundException(failure);
                }
                finally
                {
                    loading = false;
                }
            }
        }

        // Loads the library (setting loaded, loadedFrom, loadedHandle) and returns null, or
        // returns the message of the DllNotFoundException.
        static string TryLoadLibrary()
        {
            string variable = Environment.GetEnvironmentVariable(EnvironmentVariable);
            bool byVariable = !string.IsNullOrEmpty(variable);
            var tried = new List<string>();
            foreach (string path in CandidatePaths(AssemblyDirectory(), RuntimeIdentifier, FileName, variable))
            {
                string full = FullPath(path);
                string label = (byVariable ? EnvironmentVariable + "=" + path : full ?? path) + ": ";
                if (full == null)
                {
                    tried.Add(label + "not a valid path");
                    continue;
                }
                if (!File.Exists(full))
                {
                    tried.Add(label + "no such file");
                    continue;
                }
                string error = LoadFile(full);
                if (error == null)
                {
                    loadedFrom = full;
                    loaded = true;
                    return null;
                }
                tried.Add(label + error);
            }
            if (!byVariable && Soname != null)
            {
                // By name, not a path: LoadedFrom stays null, as for the runtime's lookup.
                string error = LoadFile(Soname);
                if (error == null)
                {
                    loadedFrom = null;
                    loaded = true;
                    return null;
                }
                tried.Add(Soname + " by name (LD_LIBRARY_PATH, the system's directories): " + error);
            }
            if (!byVariable)
            {
                string error = LoadByName();
                if (error == null)
                {
                    loadedFrom = null;
                    loaded = true;
                    return null;
                }
                tried.Add("the runtime's own lookup of \"" + NativeMethods.Library + "\" (" +
                          RuntimeLookupPlaces() + "): " + error);
            }
            return "The tensorcast native library (" + FileName + ") could not be loaded. Tried, in order: " +
                   string.Join("; ", tried) + ". " + Hint(byVariable);
        }

        static string Hint(bool byVariable)
        {
            string pathVariable = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "PATH"
                : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "DYLD_LIBRARY_PATH" : "LD_LIBRARY_PATH";
            if (byVariable)
                return "Set " + EnvironmentVariable + " to the full path of " + FileName +
                       " (read again at the next call), or unset it to search beside the assembly and with " +
                       pathVariable + ".";
            return "Set " + EnvironmentVariable + " to the full path of " + FileName +
                   " (read again at the next call), copy " + FileName + " beside TensorcastSharp.dll, or add its directory to " +
                   pathVariable + " before the process starts.";
        }

        static string RuntimeLookupPlaces()
        {
            if (IsMono)
                return "a dllmap, the assembly's directory, " +
                       (RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "LD_LIBRARY_PATH, " : "") +
                       "the system's library directories";
            return "the runtime's probing paths";
        }

        static bool IsMono
        {
            get { return Type.GetType("Mono.Runtime") != null; }
        }

        static string AssemblyDirectory()
        {
            string location = typeof(NativeLibraryResolver).Assembly.Location;
            return string.IsNullOrEmpty(location) ? null : Path.GetDirectoryName(Path.GetFullPath(location));
        }

        static string FullPath(string path)
        {
            try
            {
                return Path.GetFullPath(path);
            }
            catch (Exception e) when (e is ArgumentException || e is NotSupportedException || e is PathTooLongException)
            {
                return null;
            }
        }

        // Loads a file by its full path (or the SONAME by name, which dlopen searches for) so
        // that the externs bind to it; null, or why not.
        static string LoadFile(string path)
        {
            if (registered)
            {
                var arguments = new object[] { path, IntPtr.Zero };
                if (!(bool)tryLoad.Invoke(null, arguments))
                    return "NativeLibrary.TryLoad failed (not a library for this process?)";
                var export = new object[] { arguments[1], ProbeSymbol, IntPtr.Zero };
                if (tryGetExport != null && !(bool)tryGetExport.Invoke(null, export))
                    return NotTensorcast;
                loadedHandle = (IntPtr)arguments[1];
                return null;
            }
            if (IsMono && RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
                return MonoLinux.Load(path);
            return "this runtime cannot bind the DllImports to a file chosen at run time";
        }

        // The runtime's own lookup, as the externs themselves would do it; null, or why not.
        static string LoadByName()
        {
            if (registered)
            {
                var arguments = new object[] { NativeMethods.Library, typeof(NativeLibraryResolver).Assembly, null, IntPtr.Zero };
                if (tryLoadByName == null || !(bool)tryLoadByName.Invoke(null, arguments))
                    return "not found";
                loadedHandle = (IntPtr)arguments[3];
                return null;
            }
            if (monoLookupFailure != null)
                return monoLookupFailure + " (failed earlier in this process; Mono does not repeat it)";
            try
            {
                Probe.Version();
                return null;
            }
            catch (DllNotFoundException e)
            {
                if (IsMono)
                    monoLookupFailure = e.Message;
                return e.Message;
            }
            catch (EntryPointNotFoundException e)
            {
                if (IsMono)
                    monoLookupFailure = e.Message;
                return "a library was found but it has no tcast_version: " + e.Message;
            }
        }

        /// <summary>Registers the .NET DllImport resolver once, where the runtime has
        /// NativeLibrary; safe to call any number of times, from any thread.</summary>
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
            tryGetExport = nativeLibrary.GetMethod("TryGetExport", new[]
            {
                typeof(IntPtr), typeof(string), typeof(IntPtr).MakeByRefType(),
            });
            tryLoadByName = nativeLibrary.GetMethod("TryLoad", new[]
            {
                typeof(string), typeof(Assembly), typeof(DllImportSearchPath?), typeof(IntPtr).MakeByRefType(),
            });
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
        // for the runtime's default probing (also while Load itself asks for it).
        static IntPtr Resolve(string libraryName, Assembly assembly, DllImportSearchPath? searchPath)
        {
            if (libraryName != NativeMethods.Library || loading)
                return IntPtr.Zero;
            lock (Gate)
            {
                if (!loaded)
                {
                    loading = true;
                    try
                    {
                        TryLoadLibrary();
                    }
                    finally
                    {
                        loading = false;
                    }
                }
                return loaded ? loadedHandle : IntPtr.Zero;
            }
        }

        // The runtime's own lookup of "tensorcast", through an extern of its own: on Mono a
        // failed binding stays failed, and this one must not be one the wrapper uses.
        static class Probe
        {
            [DllImport(NativeMethods.Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = ProbeSymbol)]
            static extern IntPtr tcast_version();

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static void Version()
            {
                tcast_version();
            }
        }

        // Mono on Linux: dlopen the file (to learn whether and why it fails), then map
        // "tensorcast" to it for every DllImport not yet bound (a global dllmap, which comes
        // after any <dllmap> in an assembly's .config file).
        static class MonoLinux
        {
            const int RTLD_NOW = 2;

            public static string Load(string path)
            {
                string error;
                try
                {
                    error = Open(path);
                }
                catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
                {
                    return "cannot call dlopen from this Mono (" + e.Message + ")";
                }
                if (error != null)
                    return error;
                try
                {
                    Map(path);
                }
                catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
                {
                    return "loaded, but this Mono has no mono_dllmap_insert to bind the DllImports to it (" +
                           e.Message + ")";
                }
                return null;
            }

            [MethodImpl(MethodImplOptions.NoInlining)]
            static string Open(string path)
            {
                IntPtr handle = LibDl.dlopen(path, RTLD_NOW);
                if (handle == IntPtr.Zero)
                {
                    IntPtr message = LibDl.dlerror();
                    return message == IntPtr.Zero ? "dlopen failed" : Marshal.PtrToStringAnsi(message);
                }
                if (LibDl.dlsym(handle, ProbeSymbol) == IntPtr.Zero)
                {
                    LibDl.dlclose(handle);
                    return NotTensorcast;
                }
                return null; // kept open: the externs are about to be bound to it
            }

            [MethodImpl(MethodImplOptions.NoInlining)]
            static void Map(string path)
            {
                MonoRuntime.mono_dllmap_insert(IntPtr.Zero, NativeMethods.Library, null, path, null);
            }

            static class LibDl
            {
                [DllImport("libdl.so.2", CallingConvention = CallingConvention.Cdecl)]
                public static extern IntPtr dlopen(string file, int mode);

                [DllImport("libdl.so.2", CallingConvention = CallingConvention.Cdecl)]
                public static extern IntPtr dlerror();

                [DllImport("libdl.so.2", CallingConvention = CallingConvention.Cdecl)]
                public static extern IntPtr dlsym(IntPtr handle, string symbol);

                [DllImport("libdl.so.2", CallingConvention = CallingConvention.Cdecl)]
                public static extern int dlclose(IntPtr handle);
            }

            static class MonoRuntime
            {
                // void mono_dllmap_insert (MonoImage *assembly, const char *dll, const char *func,
                //                          const char *tdll, const char *tfunc): the embedding
                // API's runtime dllmap; assembly NULL makes a global entry, which later
                // entries for the same name override.
                [DllImport("__Internal", CallingConvention = CallingConvention.Cdecl)]
                public static extern void mono_dllmap_insert(IntPtr assembly, string dll, string func,
                                                             string tdll, string tfunc);
            }
        }
    }
}
