// SPDX-License-Identifier: MIT OR Apache-2.0
// numpy's casting rules (docs/c-api.md section 7): NumpyDType, a SafeHandle over a parsed
// tcast_np_dtype*, and static methods for numpy.can_cast, promote_types and
// min_scalar_type. Each method makes one native call (the text-returning ones call again
// with a larger buffer when the first is too small).
//
// Strings cross as NUL-terminated UTF-8 byte arrays built here and pinned with `fixed`
// (see NativeMethods); a string holding a NUL character is refused with
// ArgumentException, because C would read only the text before it.

using System;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using TensorcastSharp.Interop;
using Level = TensorcastSharp.CastingLevel;

namespace TensorcastSharp
{
    /// <summary>A parsed numpy dtype spec ("&lt;i4", "S5", "M8[ns]", "i4,(2,)f8", "float64"),
    /// owning a tcast_np_dtype handle, with static methods for numpy's casting rules.
    /// The handle is immutable and may be used from many threads at once. Dispose it when
    /// done (a using block); the SafeHandle finalizer frees one that is forgotten, and a
    /// Dispose that races with calls using the handle waits for them (SafeHandle's reference
    /// count). Using a disposed handle throws ObjectDisposedException.</summary>
    public sealed class NumpyDType : SafeHandle
    {
        NumpyDType() : base(IntPtr.Zero, true) { }

        /// <summary>True when there is no handle (never for a NumpyDType from Parse).</summary>
        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            Native.tcast_np_dtype_free(handle);
            return true;
        }

        /// <summary>Parses a spec as numpy.dtype(spec) does, accepting what numpy 1.22 or
        /// numpy 2 accepts (tcast_np_dtype_parse); a spelling only one of them knows is refused
        /// by the queries made under the other's rules. A spec that does not parse is
        /// Status.Parse with numpy's message ("data type 'abc' not understood"), numpy's
        /// ValueErrors included (a datetime divisor that does not divide evenly, "M8[D/7]"),
        /// as docs/semantics-can-cast.md maps them.</summary>
        public static unsafe NumpyDType Parse(string spec)
        {
            byte[] text = Utf8(spec, nameof(spec));
            NumpyDType dtype = new NumpyDType();
            IntPtr raw = IntPtr.Zero;
            TcastError err;
            int status;
            fixed (byte* p = text)
            {
                status = Native.tcast_np_dtype_parse(p, &raw, &err);
            }
            if (status != 0)
                throw TensorcastException.FromNative(status, &err);
            dtype.SetHandle(raw);
            return dtype;
        }

        /// <summary>Python's str(numpy.dtype(spec)) (tcast_np_dtype_str): "int32", "&gt;i4",
        /// "|S5", "&lt;U3", "datetime64[ns]", "[('f0', '&lt;i4'), ('f1', '&lt;f8')]"; numpy 2's
        /// reading where the versions differ. A disposed handle gives "NumpyDType(disposed)".</summary>
        public override unsafe string ToString()
        {
            bool added = false;
            try
            {
                try
                {
                    DangerousAddRef(ref added);
                }
                catch (ObjectDisposedException)
                {
                    return "NumpyDType(disposed)";
                }
                IntPtr h = DangerousGetHandle();
                return TextResult((byte* buf, ulong capacity, ulong* needed, TcastError* err) =>
                    Native.tcast_np_dtype_str(h, buf, capacity, needed, err));
            }
            finally
            {
                if (added)
                    DangerousRelease();
            }
        }

        // ---- queries on handles ------------------------------------------------------------

        /// <summary>The lowest level at which numpy casts <paramref name="from"/> to
        /// <paramref name="to"/> (tcast_np_casting_level): No .. Unsafe, or Never when no level
        /// allows it. An unsized S, U or V target means "that kind, sized for the source", as
        /// in numpy.can_cast. Errors: Status.InvalidArgument (rules), Status.Parse (a spelling
        /// these rules refuse, e.g. "int0" under Numpy2).</summary>
        public static unsafe Level CastingLevel(NumpyDType from, NumpyDType to, NumpyRules rules)
        {
            int level = 0;
            WithHandles(from, to, (f, t, err) =>
            {
                int l;
                int status = Native.tcast_np_casting_level(f, t, (int)rules, &l, err);
                level = l;
                return status;
            });
            return (Level)level;
        }

        /// <summary>numpy.can_cast(from, to, casting) on parsed dtypes (tcast_np_can_cast):
        /// CastingLevel(from, to, rules) &lt;= casting. A casting outside No..Unsafe is
        /// Status.InvalidArgument; other errors as CastingLevel.</summary>
        public static unsafe bool CanCast(NumpyDType from, NumpyDType to, Level casting, NumpyRules rules)
        {
            int result = 0;
            WithHandles(from, to, (f, t, err) =>
            {
                int r;
                int status = Native.tcast_np_can_cast(f, t, (int)casting, (int)rules, &r, err);
                result = r;
                return status;
            });
            return result != 0;
        }

        // ---- queries on spec strings -------------------------------------------------------

        /// <summary>numpy.can_cast(from, to, casting) on spec strings and numpy's casting name
        /// (tcast_np_can_cast_str): CanCastStr("i8", "f4", "same_kind", NumpyRules.Numpy2) is
        /// true. Errors: Status.Parse for a bad <paramref name="to"/> (the parser's message)
        /// or <paramref name="from"/> ("did not understand one of the types; 'None' not
        /// accepted", then the parser's message), Status.InvalidArgument for a casting name
        /// other than exactly no, equiv, safe, same_kind, unsafe (numpy's message for these
        /// rules).</summary>
        public static unsafe bool CanCastStr(string from, string to, string casting, NumpyRules rules)
        {
            byte[] f = Utf8(from, nameof(from));
            byte[] t = Utf8(to, nameof(to));
            byte[] c = Utf8(casting, nameof(casting));
            int result;
            TcastError err;
            fixed (byte* pf = f)
            fixed (byte* pt = t)
            fixed (byte* pc = c)
            {
                TensorcastException.Check(
                    Native.tcast_np_can_cast_str(pf, pt, pc, (int)rules, &result, &err), &err);
            }
            return result != 0;
        }

        /// <summary>The level numpy spells <paramref name="name"/>: exactly "no", "equiv",
        /// "safe", "same_kind" or "unsafe" (tcast_np_casting_from_name); anything else is
        /// Status.InvalidArgument with numpy 2's message.</summary>
        public static unsafe Level ParseCasting(string name)
        {
            byte[] text = Utf8(name, nameof(name));
            int level;
            TcastError err;
            fixed (byte* p = text)
            {
                TensorcastException.Check(Native.tcast_np_casting_from_name(p, &level, &err), &err);
            }
            return (Level)level;
        }

        /// <summary>numpy.can_cast(int(decimalText), to, casting) for a Python int of any
        /// size, written in decimal (an optional sign and digits). Under Numpy1, numpy 1.22's
        /// value-based rule (CanCastPyInt("100", "i1", Safe, Numpy1) is true, "300" false);
        /// under Numpy2, Status.Unsupported with numpy 2's TypeError text. Errors:
        /// Status.Parse (a bad decimal or <paramref name="to"/>), Status.InvalidArgument
        /// (casting, rules).</summary>
        public static unsafe bool CanCastPyInt(string decimalText, string to, Level casting, NumpyRules rules)
        {
            byte[] d = Utf8(decimalText, nameof(decimalText));
            return ValueCast(to, (pt, r, err) =>
            {
                fixed (byte* pd = d)
                {
                    return Native.tcast_np_can_cast_pyint(pd, pt, (int)casting, (int)rules, r, err);
                }
            });
        }

        /// <summary>CanCastPyInt for a value that fits a long.</summary>
        public static bool CanCastPyInt(long value, string to, Level casting, NumpyRules rules)
        {
            return CanCastPyInt(value.ToString(CultureInfo.InvariantCulture), to, casting, rules);
        }

        /// <summary>numpy.can_cast(float(value), to, casting); rules and errors as for
        /// CanCastPyInt.</summary>
        public static unsafe bool CanCastPyFloat(double value, string to, Level casting, NumpyRules rules)
        {
            return ValueCast(to, (pt, r, err) =>
                Native.tcast_np_can_cast_pyfloat(value, pt, (int)casting, (int)rules, r, err));
        }

        /// <summary>numpy.can_cast(complex(re, im), to, casting); rules and errors as for
        /// CanCastPyInt.</summary>
        public static unsafe bool CanCastPyComplex(double re, double im, string to, Level casting,
                                                   NumpyRules rules)
        {
            return ValueCast(to, (pt, r, err) =>
                Native.tcast_np_can_cast_pycomplex(re, im, pt, (int)casting, (int)rules, r, err));
        }

        /// <summary>numpy.can_cast(bool(value), to, casting); rules and errors as for
        /// CanCastPyInt (numpy 2 refuses Python bools too).</summary>
        public static unsafe bool CanCastPyBool(bool value, string to, Level casting, NumpyRules rules)
        {
            int v = value ? 1 : 0;
            return ValueCast(to, (pt, r, err) =>
                Native.tcast_np_can_cast_pybool(v, pt, (int)casting, (int)rules, r, err));
        }

        /// <summary>numpy.can_cast(x, to, casting) for a numpy scalar
        /// (<paramref name="isArray"/> false, e.g. np.int64(150)) or a 0-d array (true) of
        /// <paramref name="dtype"/>, whose value is exactly the dtype's itemsize in bytes, in
        /// the dtype's byte order (BitConverter.GetBytes for native little-endian specs).
        /// Under Numpy1 the value decides for numeric dtypes; under Numpy2 only the dtype
        /// does. Errors: Status.Parse (dtype, to), Status.InvalidArgument (casting, rules, a
        /// value whose length is not the itemsize).</summary>
        public static unsafe bool CanCastScalar(string dtype, ReadOnlySpan<byte> value, bool isArray,
                                                string to, Level casting, NumpyRules rules)
        {
            byte[] d = Utf8(dtype, nameof(dtype));
            int length = value.Length;
            // A copy, as a lambda cannot capture a span; a zero-sized value (dtype "S0") still
            // gets a valid pointer, with 0 bytes.
            byte[] v = length == 0 ? new byte[1] : value.ToArray();
            return ValueCast(to, (pt, r, err) =>
            {
                fixed (byte* pd = d)
                fixed (byte* pv = v)
                {
                    return Native.tcast_np_can_cast_scalar(pd, pv, (ulong)length, isArray ? 1 : 0,
                                                                  pt, (int)casting, (int)rules, r, err);
                }
            });
        }

        /// <summary>str(numpy.promote_types(a, b)), native byte order, numpy 2's reading of
        /// the specs: PromoteTypes("i4", "u4") is "int64". Errors: Status.Parse,
        /// Status.Unsupported when numpy finds no common dtype (datetime64 and int32).</summary>
        public static unsafe string PromoteTypes(string a, string b)
        {
            byte[] ta = Utf8(a, nameof(a));
            byte[] tb = Utf8(b, nameof(b));
            return TextResult((buf, capacity, needed, err) =>
            {
                fixed (byte* pa = ta)
                fixed (byte* pb = tb)
                {
                    return Native.tcast_np_promote_types(pa, pb, buf, capacity, needed, err);
                }
            });
        }

        /// <summary>str(numpy.min_scalar_type(int(decimalText))): "uint8" for "128", "int16"
        /// for "-129", "object" beyond 64 bits. A bad decimal is Status.Parse.</summary>
        public static unsafe string MinScalarTypePyInt(string decimalText)
        {
            byte[] d = Utf8(decimalText, nameof(decimalText));
            return TextResult((buf, capacity, needed, err) =>
            {
                fixed (byte* pd = d)
                {
                    return Native.tcast_np_min_scalar_type_pyint(pd, buf, capacity, needed, err);
                }
            });
        }

        /// <summary>MinScalarTypePyInt for a value that fits a long.</summary>
        public static string MinScalarTypePyInt(long value)
        {
            return MinScalarTypePyInt(value.ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>str(numpy.min_scalar_type(float(value))): float16, float32 or float64.</summary>
        public static unsafe string MinScalarTypePyFloat(double value)
        {
            return TextResult((buf, capacity, needed, err) =>
                Native.tcast_np_min_scalar_type_pyfloat(value, buf, capacity, needed, err));
        }

        /// <summary>str(numpy.min_scalar_type(complex(re, im))): complex64 or complex128.</summary>
        public static unsafe string MinScalarTypePyComplex(double re, double im)
        {
            return TextResult((buf, capacity, needed, err) =>
                Native.tcast_np_min_scalar_type_pycomplex(re, im, buf, capacity, needed, err));
        }

        // ---- helpers -----------------------------------------------------------------------

        unsafe delegate int HandleCall(IntPtr from, IntPtr to, TcastError* err);
        unsafe delegate int ValueCall(byte* to, int* result, TcastError* err);
        internal unsafe delegate int TextCall(byte* buf, ulong capacity, ulong* needed, TcastError* err);

        // Keeps both handles alive (SafeHandle reference counts) for the call, and throws for
        // a failed status.
        static unsafe void WithHandles(NumpyDType from, NumpyDType to, HandleCall call)
        {
            if (from == null)
                throw new ArgumentNullException(nameof(from));
            if (to == null)
                throw new ArgumentNullException(nameof(to));
            bool fromAdded = false, toAdded = false;
            try
            {
                from.DangerousAddRef(ref fromAdded);
                to.DangerousAddRef(ref toAdded);
                TcastError err;
                int status = call(from.DangerousGetHandle(), to.DangerousGetHandle(), &err);
                TensorcastException.Check(status, &err);
            }
            finally
            {
                if (toAdded)
                    to.DangerousRelease();
                if (fromAdded)
                    from.DangerousRelease();
            }
        }

        static unsafe bool ValueCast(string to, ValueCall call)
        {
            byte[] t = Utf8(to, nameof(to));
            int result;
            TcastError err;
            fixed (byte* pt = t)
            {
                TensorcastException.Check(call(pt, &result, &err), &err);
            }
            return result != 0;
        }

        // Calls with a growing buffer until the text fits; returns it without its NUL.
        // A text output: a first try with 64 bytes, and if the text needs more, a second
        // with exactly the bytes the library reported. (Tensorcast.CpuInfo uses it too.)
        internal static unsafe string TextResult(TextCall call)
        {
            ulong size = 64;
            for (int attempt = 0; ; attempt++)
            {
                byte[] buf = new byte[size];
                TcastError err;
                ulong needed = 0;
                int status;
                fixed (byte* p = buf)
                {
                    status = call(p, (ulong)buf.Length, &needed, &err);
                }
                if (status == (int)Status.BufferTooSmall && attempt == 0 && needed > size
                    && needed <= int.MaxValue)
                {
                    size = needed;
                    continue;
                }
                TensorcastException.Check(status, &err);
                int length = Array.IndexOf(buf, (byte)0);
                if (length < 0 || (ulong)length + 1 != needed)
                    throw new TensorcastException(Status.Internal, -1,
                        "the library wrote text that does not match the size it reported");
                return Encoding.UTF8.GetString(buf, 0, length);
            }
        }

        // NUL-terminated UTF-8; null and embedded NULs are the caller's mistake.
        static byte[] Utf8(string text, string paramName)
        {
            if (text == null)
                throw new ArgumentNullException(paramName);
            if (text.IndexOf('\0') >= 0)
                throw new ArgumentException("contains a NUL character, which C would read as its end", paramName);
            int n = Encoding.UTF8.GetByteCount(text);
            byte[] bytes = new byte[n + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }
    }
}
