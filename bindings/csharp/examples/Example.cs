// SPDX-License-Identifier: MIT OR Apache-2.0
// The usage example of bindings/csharp/README.md; scripts/test-csharp.sh builds and runs
// it, so the README shows what it really prints.

using System;
using TensorcastSharp;

static class Example
{
    static int Main()
    {
        Console.WriteLine("tensorcast " + Tensorcast.Version);

        // FLOAT -> FLOAT16 and back. Float16 holds the bits (the library converts); a plain
        // ushort would mean UINT16.
        float[] values = { 1.0f, 0.1f, 65504f, 1e6f };
        Float16[] half = Tensorcast.Cast<float, Float16>(values);
        Console.WriteLine("float16 bits: " + string.Join(" ", Array.ConvertAll(half, h => h.Bits.ToString("X4"))));
        Console.WriteLine("as text:      " + string.Join(" ", Tensorcast.ToStrings(half)));
        float[] back = Tensorcast.Cast<Float16, float>(half);
        Console.WriteLine("back:         " + string.Join(" ", Tensorcast.ToStrings(back)));
        // float8 likewise; 1000 saturates to 448, the largest E4M3FN value (with
        // new CastOptions { Saturate = false } as a second argument it would be NaN).
        Float8E4M3FN[] f8 = Tensorcast.Cast<float, Float8E4M3FN>(new[] { 1.0f, 448f, 1000f });
        Console.WriteLine("e4m3fn:       " + string.Join(" ", f8));

        // Text -> INT32; a bad element throws with its index.
        int[] parsed = Tensorcast.ParseStrings<int>(new[] { "42", " -7 ", "1e3" });
        Console.WriteLine("parsed:       " + string.Join(" ", parsed));
        try
        {
            Tensorcast.ParseStrings<int>(new[] { "1", "two" });
        }
        catch (TensorcastException e)
        {
            Console.WriteLine("error:        " + e.Status + " at index " + e.Index + ": " + e.Message);
        }

        // Expand [3,1] to [2,3,2].
        var expanded = Tensorcast.Expand<float>(new float[] { 1, 2, 3 }, new long[] { 3, 1 }, new long[] { 2, 1, 2 });
        Console.WriteLine("expand shape: [" + string.Join(",", expanded.Shape) + "] data: " + string.Join(" ", expanded.Data));

        // Bitcast: the same memory viewed as bytes, with tf.bitcast's shape (UINT32, from uint).
        uint[] words = { 0x3F800000 };
        long[] viewShape;
        Span<byte> bytes = Tensorcast.BitcastView<uint, byte>(words, new long[] { 1 }, DType.UInt8,
                                                              BitcastRules.TensorFlow, out viewShape);
        Console.WriteLine("bitcast shape: [" + string.Join(",", viewShape) + "] bytes: " +
                          string.Join(" ", Array.ConvertAll(bytes.ToArray(), b => b.ToString("X2"))));

        // numpy's casting rules: can_cast on spec strings, on parsed dtypes, on Python ints.
        Console.WriteLine("can_cast i8->f4: same_kind " +
                          NumpyDType.CanCastStr("i8", "f4", "same_kind", NumpyRules.Numpy2) +
                          ", safe " + NumpyDType.CanCastStr("i8", "f4", "safe", NumpyRules.Numpy2));
        using (NumpyDType from = NumpyDType.Parse(">M8[1000ns]"))
        using (NumpyDType to = NumpyDType.Parse("M8[us]"))
        {
            CastingLevel level = NumpyDType.CastingLevel(from, to, NumpyRules.Numpy2);
            Console.WriteLine("level:        " + from + " -> " + to + ": " + level);
        }
        Console.WriteLine("300 -> i1:    " + NumpyDType.CanCastPyInt(300, "i1", CastingLevel.Safe, NumpyRules.Numpy1));
        try
        {
            NumpyDType.CanCastPyInt(300, "i1", CastingLevel.Safe, NumpyRules.Numpy2);
        }
        catch (TensorcastException e)
        {
            Console.WriteLine("numpy 2:      " + e.Status + ": " + e.Message.Split('\n')[0]);
        }
        Console.WriteLine("promote:      " + NumpyDType.PromoteTypes("i4", "u4") +
                          ", min_scalar_type(-129) " + NumpyDType.MinScalarTypePyInt(-129));
        Console.WriteLine("DOUBLE->INT32 safe: " + Tensorcast.CanCast(DType.Double, DType.Int32, CastingLevel.Safe));
        try
        {
            Tensorcast.Cast<double, int>(new[] { 1.5 }, new CastOptions { Casting = CastingLevel.Safe });
        }
        catch (TensorcastException e)
        {
            Console.WriteLine("cast at Safe: " + e.Status + ": " + e.Message);
        }
        return 0;
    }
}
