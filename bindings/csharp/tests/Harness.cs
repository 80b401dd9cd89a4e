// SPDX-License-Identifier: MIT OR Apache-2.0
// A minimal test harness (no NuGet here): each test is a method; the runner prints
// "PASS name" or "FAIL name: why" per test and ends with "N passed, N failed", exiting
// non-zero when anything failed.

using System;
using System.Collections.Generic;
using System.Linq;

namespace TensorcastSharp.Tests
{
    sealed class AssertionFailed : Exception
    {
        public AssertionFailed(string message) : base(message) { }
    }

    static class Assert
    {
        public static void True(bool condition, string what)
        {
            if (!condition)
                throw new AssertionFailed(what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new AssertionFailed(what + ": expected " + Show(expected) + ", got " + Show(actual));
        }

        public static void Sequence<T>(IEnumerable<T> expected, IEnumerable<T> actual, string what)
        {
            T[] e = expected.ToArray();
            T[] a = actual.ToArray();
            if (!e.SequenceEqual(a))
                throw new AssertionFailed(what + ": expected [" + string.Join(", ", e.Select(Show)) +
                                          "], got [" + string.Join(", ", a.Select(Show)) + "]");
        }

        public static TException Throws<TException>(Action action, string what) where TException : Exception
        {
            try
            {
                action();
            }
            catch (TException ex)
            {
                return ex;
            }
            catch (Exception ex)
            {
                throw new AssertionFailed(what + ": expected " + typeof(TException).Name + ", got " +
                                          ex.GetType().Name + ": " + ex.Message);
            }
            throw new AssertionFailed(what + ": expected " + typeof(TException).Name + ", nothing was thrown");
        }

        /// <summary>A TensorcastException with this status (and index, unless null).</summary>
        public static TensorcastException Fails(Status status, long? index, Action action, string what)
        {
            TensorcastException ex = Throws<TensorcastException>(action, what);
            Equal(status, ex.Status, what + " (status; message: " + ex.Message + ")");
            if (index.HasValue)
                Equal(index.Value, ex.Index, what + " (index)");
            True(ex.Message.Length > 0, what + ": the exception has a message");
            return ex;
        }

        static string Show<T>(T value)
        {
            if (value == null)
                return "null";
            object boxed = value;
            if (boxed is string)
                return "\"" + boxed + "\"";
            if (boxed is ushort)
                return "0x" + ((ushort)boxed).ToString("X4");
            if (boxed is uint)
                return "0x" + ((uint)boxed).ToString("X8");
            if (boxed is byte)
                return "0x" + ((byte)boxed).ToString("X2");
            if (boxed is float)
                return ((float)boxed).ToString("R");
            if (boxed is double)
                return ((double)boxed).ToString("R");
            return boxed.ToString();
        }
    }

    static class Runner
    {
        public static int Run(IEnumerable<KeyValuePair<string, Action>> tests)
        {
            int passed = 0, failed = 0;
            foreach (var test in tests)
            {
                try
                {
                    test.Value();
                    passed++;
                    Console.WriteLine("PASS " + test.Key);
                }
                catch (Exception ex)
                {
                    failed++;
                    string why = ex is AssertionFailed ? ex.Message : ex.ToString();
                    Console.WriteLine("FAIL " + test.Key + ": " + why);
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 ? 0 : 1;
        }
    }
}
