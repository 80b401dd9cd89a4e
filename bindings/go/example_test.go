// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast_test

import (
	"errors"
	"fmt"
	"math"

	tc "github.com/tensorcast/tensorcast/bindings/go"
)

func Example() {
	weights := []float32{1, 0.1, -2.5, 65504, 1e-8, 3.14159}

	// float16 storage: Float16Bits holds the raw binary16 bits; a []uint16 would be UINT16.
	half := make([]tc.Float16Bits, len(weights))
	if err := tc.CastSlice(weights, half, nil); err != nil {
		panic(err)
	}
	back := make([]float32, len(half))
	if err := tc.CastSlice(half, back, nil); err != nil {
		panic(err)
	}
	for i := range weights {
		fmt.Printf("%-9g -> %#04x -> %g\n", weights[i], half[i], back[i])
	}
	// Output:
	// 1         -> 0x3c00 -> 1
	// 0.1       -> 0x2e66 -> 0.099975586
	// -2.5      -> 0xc100 -> -2.5
	// 65504     -> 0x7bff -> 65504
	// 1e-08     -> 0x0000 -> 0
	// 3.14159   -> 0x4248 -> 3.140625
}

func ExampleFloat8E4M3FNBits() {
	// Float8 with and without ONNX's saturation, into typed storage.
	in := []float32{1, 1e6}
	sat := make([]tc.Float8E4M3FNBits, len(in))
	nosat := make([]tc.Float8E4M3FNBits, len(in))
	_ = tc.CastSlice(in, sat, nil)
	_ = tc.CastSlice(in, nosat, &tc.CastOptions{NoSaturate: true})
	fmt.Printf("% #x | % #x\n", sat, nosat)
	// Output: 0x38 0x7e | 0x38 0x7f
}

func ExampleCastOptions() {
	// A literal that does not name Casting holds its zero value, CastingDefault: the
	// cast's default, UNSAFE, which refuses nothing.
	dst := make([]int32, 1)
	err := tc.CastSlice([]float64{2.7}, dst, &tc.CastOptions{Threads: 2})
	fmt.Println(dst, err)
	err = tc.CastSlice([]float64{2.7}, dst, &tc.CastOptions{Casting: tc.CastingSameKind})
	fmt.Println(tc.IsStatus(err, tc.ErrCasting))
	fmt.Println(tc.CastOptions{}.Casting, tc.DefaultCastOptions().Casting)
	// Output:
	// [2] <nil>
	// true
	// default unsafe
}

func ExampleCastSlice() {
	src := []float64{3.9, -3.9, 1e10, 300}
	dst := make([]int32, len(src))
	if err := tc.CastSlice(src, dst, nil); err != nil {
		panic(err)
	}
	fmt.Println(dst)
	// Output: [3 -3 2147483647 300]
}

func ExampleCastToBytes() {
	// Float8 with and without ONNX's saturation.
	in := []float32{1, 1e6}
	sat, _ := tc.CastToBytes(in, tc.Float8E4M3FN, nil)
	nosat, _ := tc.CastToBytes(in, tc.Float8E4M3FN, &tc.CastOptions{NoSaturate: true})
	fmt.Printf("% x | % x\n", sat, nosat)
	// Output: 38 7e | 38 7f
}

func ExampleParseSlice() {
	_, err := tc.ParseSlice[float32]([]string{"1.5", " -2 ", "3.14abc"}, nil)
	var e *tc.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Index)
		fmt.Println(e.Message)
	}
	fmt.Println(errors.Is(err, tc.ErrParse))
	// Output:
	// TCAST_ERR_PARSE 2
	// input element 2: cannot parse "3.14abc" as FLOAT
	// true
}

func ExampleFormatSlice() {
	text, _ := tc.FormatSlice([]float32{0.1, 1e-5, 100, float32(math.Inf(1))}, tc.FormatShortest)
	fmt.Printf("%q\n", text)
	text, _ = tc.FormatSlice([]float32{0.1, 1e-5, 100}, tc.FormatPrintf8G)
	fmt.Printf("%q\n", text)
	// Output:
	// ["0.1" "1e-05" "100.0" "INF"]
	// ["0.1" "9.9999997e-06" "100"]
}

func ExampleExpandSlice() {
	out, shape, err := tc.ExpandSlice([]int32{1, 2, 3}, []int64{3, 1}, []int64{2, 1, 2})
	fmt.Println(out, shape, err)
	// Output: [1 1 2 2 3 3 1 1 2 2 3 3] [2 3 2] <nil>
}

func ExampleBitcast() {
	src := tc.AsBytes([]float32{1, -2})
	view, err := tc.Bitcast(src, tc.Float, tc.Uint8, []int64{2}, tc.BitcastTF)
	fmt.Println(view.DType, view.Shape, view.Data, err)
	fmt.Println(&view.Data[0] == &src[0])
	// Output:
	// UINT8 [2 4] [0 0 128 63 0 0 0 192] <nil>
	// true
}

func ExampleCanCastStr() {
	ok, _ := tc.CanCastStr("i8", "f4", "same_kind", tc.Numpy2)
	fmt.Println(ok)
	ok, _ = tc.CanCastStr("i8", "f4", "safe", tc.Numpy2)
	fmt.Println(ok)
	// Output:
	// true
	// false
}

func ExampleCastingLevel() {
	from, err := tc.ParseNumpyDType(">M8[1000ns]")
	if err != nil {
		panic(err)
	}
	defer from.Close()
	to, err := tc.ParseNumpyDType("M8[us]")
	if err != nil {
		panic(err)
	}
	defer to.Close()

	level, _ := tc.CastingLevel(from, to, tc.Numpy2)
	fmt.Println(from, "->", to, "needs", level)
	fmt.Println(level <= tc.CastingSafe)
	ok, _ := tc.CanCast(from, to, tc.CastingNo, tc.Numpy2)
	fmt.Println(ok)
	// Output:
	// >M8[1000ns] -> datetime64[us] needs equiv
	// true
	// false
}

func ExampleCanCastPyInt() {
	ok, err := tc.CanCastPyInt("300", "i1", tc.CastingSafe, tc.Numpy1)
	fmt.Println(ok, err)
	ok, err = tc.CanCastPyInt("100", "i1", tc.CastingSafe, tc.Numpy1)
	fmt.Println(ok, err)
	_, err = tc.CanCastPyInt("300", "i1", tc.CastingSafe, tc.Numpy2)
	fmt.Println(errors.Is(err, tc.ErrUnsupported))
	// Output:
	// false <nil>
	// true <nil>
	// true
}

func ExamplePromoteTypes() {
	fmt.Println(tc.PromoteTypes("i4", "u4"))
	fmt.Println(tc.PromoteTypes("i8", "S"))
	fmt.Println(tc.MinScalarTypePyInt("-129"))
	// Output:
	// int64 <nil>
	// |S21 <nil>
	// int16 <nil>
}

func ExampleCanCastDType() {
	ok, _ := tc.CanCastDType(tc.Double, tc.Int32, tc.CastingSafe)
	fmt.Println(ok)
	err := tc.CastSlice([]float64{1.5}, make([]int32, 1), &tc.CastOptions{Casting: tc.CastingSafe})
	fmt.Println(err)
	// Output:
	// false
	// tensorcast: TCAST_ERR_CASTING: Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'safe'
}

func ExampleNewCastPlan() {
	// A prepared cast: the pair and the options checked, and the kernel chosen, once;
	// then many small casts. One plan may be run from many goroutines at once.
	plan, err := tc.NewCastPlan(tc.Float, tc.Float8E4M3FN, &tc.CastOptions{NoSaturate: true})
	if err != nil {
		panic(err)
	}
	defer plan.Close()
	out := make([]tc.Float8E4M3FNBits, 2)
	for _, batch := range [][]float32{{1, 1e6}, {0.5, -448}} {
		if err := tc.RunSlice(plan, batch, out); err != nil {
			panic(err)
		}
		fmt.Printf("% #x\n", out)
	}
	// Another dtype than the plan's is refused, naming both.
	err = tc.RunSlice(plan, []float64{1}, out)
	fmt.Println(err)
	// Output:
	// 0x38 0x7f
	// 0x30 0xfe
	// tensorcast: TCAST_ERR_INVALID_DTYPE: input dtype DOUBLE is not the plan's FLOAT (a plan of FLOAT -> FLOAT8E4M3FN)
}
