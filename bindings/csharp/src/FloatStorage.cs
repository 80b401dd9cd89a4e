// SPDX-License-Identifier: MIT OR Apache-2.0
// Named storage types for the floating-point dtypes C# has no type for: FLOAT16, BFLOAT16
// and the one-byte float8 formats. Each is one element's bits and nothing else, so that a
// typed call says which dtype its elements are (DTypeInfo.Of<Float16>() is FLOAT16) and a
// plain ushort or byte keeps meaning UINT16 or UINT8. They do no arithmetic: converting to
// and from float is the library's job (Tensorcast.Cast<float, Float16> and back).
// Equality is on the bits: +0 and -0 differ, a NaN equals the same NaN bits. They are
// plain structs with one readonly field (immutable all the same): `readonly struct` is C#
// 7.2, and mcs compiles C# 7.0 by default.

using System;
using System.Runtime.InteropServices;

namespace TensorcastSharp
{
    /// <summary>One FLOAT16 element held as its 16 bits (IEEE 754 binary16: 1 sign, 5 exponent
    /// and 10 mantissa bits). Blittable and 2 bytes, so an array of it is a tensor's
    /// storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Float16 : IEquatable<Float16>
    {
        /// <summary>The bit pattern, e.g. 0x3C00 for 1.0.</summary>
        public readonly ushort Bits;

        public Float16(ushort bits)
        {
            Bits = bits;
        }

        public static Float16 FromBits(ushort bits)
        {
            return new Float16(bits);
        }

        public bool Equals(Float16 other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is Float16 && Equals((Float16)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"Float16(0x3C00)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "Float16(0x" + Bits.ToString("X4") + ")";
        }
    }

    /// <summary>One BFLOAT16 element held as its 16 bits (the upper half of a FLOAT: 1 sign, 8
    /// exponent and 7 mantissa bits). Blittable and 2 bytes, so an array of it is a tensor's
    /// storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BFloat16 : IEquatable<BFloat16>
    {
        /// <summary>The bit pattern, e.g. 0x3F80 for 1.0.</summary>
        public readonly ushort Bits;

        public BFloat16(ushort bits)
        {
            Bits = bits;
        }

        public static BFloat16 FromBits(ushort bits)
        {
            return new BFloat16(bits);
        }

        public bool Equals(BFloat16 other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is BFloat16 && Equals((BFloat16)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"BFloat16(0x3F80)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "BFloat16(0x" + Bits.ToString("X4") + ")";
        }
    }

    /// <summary>One FLOAT8E4M3FN element held as its 8 bits (4 exponent and 3 mantissa bits, no
    /// infinities, NaN 0x7F/0xFF). Blittable and 1 byte, so an array of it is a tensor's
    /// storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Float8E4M3FN : IEquatable<Float8E4M3FN>
    {
        /// <summary>The bit pattern, e.g. 0x38 for 1.0.</summary>
        public readonly byte Bits;

        public Float8E4M3FN(byte bits)
        {
            Bits = bits;
        }

        public static Float8E4M3FN FromBits(byte bits)
        {
            return new Float8E4M3FN(bits);
        }

        public bool Equals(Float8E4M3FN other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is Float8E4M3FN && Equals((Float8E4M3FN)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"Float8E4M3FN(0x38)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "Float8E4M3FN(0x" + Bits.ToString("X2") + ")";
        }
    }

    /// <summary>One FLOAT8E4M3FNUZ element held as its 8 bits (4 exponent and 3 mantissa bits,
    /// no infinities or negative zero, NaN 0x80). Blittable and 1 byte, so an array of it is a
    /// tensor's storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Float8E4M3FNUZ : IEquatable<Float8E4M3FNUZ>
    {
        /// <summary>The bit pattern, e.g. 0x40 for 1.0.</summary>
        public readonly byte Bits;

        public Float8E4M3FNUZ(byte bits)
        {
            Bits = bits;
        }

        public static Float8E4M3FNUZ FromBits(byte bits)
        {
            return new Float8E4M3FNUZ(bits);
        }

        public bool Equals(Float8E4M3FNUZ other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is Float8E4M3FNUZ && Equals((Float8E4M3FNUZ)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"Float8E4M3FNUZ(0x40)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "Float8E4M3FNUZ(0x" + Bits.ToString("X2") + ")";
        }
    }

    /// <summary>One FLOAT8E5M2 element held as its 8 bits (5 exponent and 2 mantissa bits, with
    /// infinities and NaNs). Blittable and 1 byte, so an array of it is a tensor's
    /// storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Float8E5M2 : IEquatable<Float8E5M2>
    {
        /// <summary>The bit pattern, e.g. 0x3C for 1.0.</summary>
        public readonly byte Bits;

        public Float8E5M2(byte bits)
        {
            Bits = bits;
        }

        public static Float8E5M2 FromBits(byte bits)
        {
            return new Float8E5M2(bits);
        }

        public bool Equals(Float8E5M2 other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is Float8E5M2 && Equals((Float8E5M2)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"Float8E5M2(0x3C)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "Float8E5M2(0x" + Bits.ToString("X2") + ")";
        }
    }

    /// <summary>One FLOAT8E5M2FNUZ element held as its 8 bits (5 exponent and 2 mantissa bits,
    /// no infinities or negative zero, NaN 0x80). Blittable and 1 byte, so an array of it is a
    /// tensor's storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Float8E5M2FNUZ : IEquatable<Float8E5M2FNUZ>
    {
        /// <summary>The bit pattern, e.g. 0x40 for 1.0.</summary>
        public readonly byte Bits;

        public Float8E5M2FNUZ(byte bits)
        {
            Bits = bits;
        }

        public static Float8E5M2FNUZ FromBits(byte bits)
        {
            return new Float8E5M2FNUZ(bits);
        }

        public bool Equals(Float8E5M2FNUZ other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is Float8E5M2FNUZ && Equals((Float8E5M2FNUZ)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"Float8E5M2FNUZ(0x40)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "Float8E5M2FNUZ(0x" + Bits.ToString("X2") + ")";
        }
    }

    /// <summary>One FLOAT8E8M0 element held as its 8 bits (the OCP MX scale: the power of two
    /// 2^(bits - 127), NaN 0xFF). Blittable and 1 byte, so an array of it is a tensor's
    /// storage.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Float8E8M0 : IEquatable<Float8E8M0>
    {
        /// <summary>The bit pattern, e.g. 0x7F for 1.0.</summary>
        public readonly byte Bits;

        public Float8E8M0(byte bits)
        {
            Bits = bits;
        }

        public static Float8E8M0 FromBits(byte bits)
        {
            return new Float8E8M0(bits);
        }

        public bool Equals(Float8E8M0 other)
        {
            return Bits == other.Bits;
        }

        public override bool Equals(object obj)
        {
            return obj is Float8E8M0 && Equals((Float8E8M0)obj);
        }

        public override int GetHashCode()
        {
            return Bits;
        }

        /// <summary>"Float8E8M0(0x7F)": the bits, not a number.</summary>
        public override string ToString()
        {
            return "Float8E8M0(0x" + Bits.ToString("X2") + ")";
        }
    }
}
