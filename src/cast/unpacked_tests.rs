// SPDX-License-Identifier: MIT OR Apache-2.0
//! Sub-byte tensors held one element per byte (`SubByteLayout::Unpacked`, ml_dtypes'
//! storage) against the packed path, which the other tests hold to the reference: every
//! byte of every sub-byte dtype to every numeric dtype, millions of FLOAT and FLOAT16
//! values to every sub-byte dtype (odd lengths, strided inputs, two threads), STRING in
//! and out, and the sizes and refusals. In quick mode (`testutil::quick`) the random
//! values are sampled.

use super::{cast, format_strings, CastOptions, StringFormat, SubByteLayout};
use crate::dtype::DType;
use crate::error::{Error, Status};
use crate::formats::pack::{pack, packed_bytes, unpack};
use crate::formats::repr::Repr;
use crate::string_view::StringView;
use crate::tensor::{Layout, Tensor, TensorMut};
use crate::testutil::{patterns_u16, samples, Rng};

const SUB_BYTE: [DType; 7] = [
    DType::Int4,
    DType::Uint4,
    DType::Float4E2M1,
    DType::Int2,
    DType::Uint2,
    DType::Float6E2M3,
    DType::Float6E3M2,
];

const PACKED: SubByteLayout = SubByteLayout::Packed;
const UNPACKED: SubByteLayout = SubByteLayout::Unpacked;

/// The bytes `n` contiguous elements of `dtype` held as `held` says occupy.
fn bytes_of(dtype: DType, held: SubByteLayout, n: usize) -> usize {
    crate::tensor::storage_bytes(dtype, held, n as u64).unwrap() as usize
}

/// One cast of `n` elements of `from` in `src` (with `strides`, if any) into a new
/// buffer of `to`, both held as `held` says, on up to `threads` threads. The output
/// starts as 0xA5 bytes, so that a byte left unwritten shows.
fn cast_held(
    (from, src, strides): (DType, &[u8], Option<&[usize]>),
    to: DType,
    dims: &[usize],
    held: SubByteLayout,
    threads: usize,
) -> Result<Vec<u8>, Error> {
    let n = dims.iter().product();
    let mut out = vec![0xa5u8; bytes_of(to, held, n)];
    let layout = Layout::with_sub_byte_layout("input", from, dims, strides, held)?;
    let input = Tensor::from_layout(layout, src)?;
    let layout = Layout::with_sub_byte_layout("output", to, dims, None, held)?;
    let mut output = TensorMut::from_layout(layout, &mut out)?;
    let options = CastOptions {
        sub_byte_layout: held,
        threads,
        ..CastOptions::default()
    };
    cast(&input, &mut output, &options)?;
    Ok(out)
}

/// A packed tensor's elements, one per byte (its other bytes as they are).
fn widened(dtype: DType, bytes: &[u8], n: usize) -> Vec<u8> {
    if !dtype.is_packed() {
        return bytes.to_vec();
    }
    let mut codes = vec![0u8; n];
    unpack(dtype.bits(), bytes, &mut codes);
    codes
}

/// Codes of `dtype` (each within its bits) packed.
fn packed(dtype: DType, codes: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; packed_bytes(dtype.bits(), codes.len())];
    pack(dtype.bits(), codes, &mut out);
    out
}

fn mask(dtype: DType) -> u8 {
    (1u8 << dtype.bits()) - 1
}

fn numeric_dtypes() -> impl Iterator<Item = DType> {
    DType::all().filter(|&d| Repr::of(d).is_some())
}

/// Every byte value as an element of each sub-byte dtype reads as its low bits: the
/// unpacked input (odd and even lengths) gives, in every numeric dtype held unpacked,
/// what the packed input of the low bits gives packed, widened (sub-byte targets' high
/// bits written 0).
#[test]
fn every_byte_of_every_sub_byte_dtype_is_its_low_bits_to_every_dtype() {
    let all: Vec<u8> = (0..=255).collect();
    for from in SUB_BYTE {
        for n in [256usize, 255, 3] {
            let bytes = &all[256 - n..];
            let codes: Vec<u8> = bytes.iter().map(|&b| b & mask(from)).collect();
            let from_packed = packed(from, &codes);
            for to in numeric_dtypes() {
                let want = cast_held((from, &from_packed, None), to, &[n], PACKED, 0).unwrap();
                let want = widened(to, &want, n);
                let got = cast_held((from, bytes, None), to, &[n], UNPACKED, 0).unwrap();
                assert_eq!(got, want, "{from} -> {to}, {n} elements");
            }
        }
    }
}

/// Values in and around every sub-byte dtype's range (halves for the ties, integers
/// past the 2- and 4-bit ranges), random bit patterns, and the special values.
fn float_values(n: usize, rng: &mut Rng) -> Vec<f32> {
    let specials = [
        0.0f32,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        1e-45,
        0.25,
        0.75,
        6.0,
        7.5,
        28.0,
        -0.5,
        -1.5,
        -2.5,
    ];
    (0..n)
        .map(|i| match i {
            i if i < specials.len() => specials[i],
            i if i % 4 == 3 => f32::from_bits(rng.next() as u32),
            _ => (rng.below(16_001) as f32 - 8000.0) / 128.0,
        })
        .collect()
}

/// FLOAT and FLOAT16 to every sub-byte dtype held unpacked give exactly what the packed
/// path gives, widened: some millions of elements (an odd count), on one thread and on
/// two, and from strided inputs (every other element; and a transposed view).
#[test]
fn floats_to_every_sub_byte_dtype_unpacked_are_packed_widened() {
    let mut rng = Rng(0x5eed_f4b1);
    let n = samples(3_000_000) | 1;
    let floats = float_values(n, &mut rng);
    let f32_src: Vec<u8> = floats.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let patterns = patterns_u16();
    let f16_src: Vec<u8> = (0..n)
        .flat_map(|i| patterns[i % patterns.len()].to_ne_bytes())
        .collect();
    // Every other element of the first `m`, each followed by a NaN filler.
    let m = samples(200_000) | 1;
    let spread: Vec<u8> = floats[..m]
        .iter()
        .flat_map(|x| [x.to_ne_bytes(), f32::NAN.to_ne_bytes()].concat())
        .collect();
    let (rows, cols) = (m / 7, 7);
    for to in SUB_BYTE {
        for (from, src) in [(DType::Float, &f32_src), (DType::Float16, &f16_src)] {
            let want = cast_held((from, src, None), to, &[n], PACKED, 0).unwrap();
            let want = widened(to, &want, n);
            for threads in [0, 2] {
                let got = cast_held((from, src, None), to, &[n], UNPACKED, threads).unwrap();
                if let Some(i) = (0..n).find(|&i| got[i] != want[i]) {
                    panic!(
                        "{from} -> {to} unpacked, {threads} threads: element {i} is {:#04x}, \
                         packed gives {:#04x}",
                        got[i], want[i]
                    );
                }
            }
        }
        let strided = (DType::Float, &spread[..], Some(&[2usize][..]));
        let want = cast_held(strided, to, &[m], PACKED, 0).unwrap();
        let got = cast_held(strided, to, &[m], UNPACKED, 2).unwrap();
        assert_eq!(got, widened(to, &want, m), "strided FLOAT -> {to}");
        // The transpose of a (cols, rows) matrix: strides (1, cols).
        let transposed = [1, rows];
        let matrix = (
            DType::Float,
            &f32_src[..rows * cols * 4],
            Some(&transposed[..]),
        );
        let want = cast_held(matrix, to, &[rows, cols], PACKED, 0).unwrap();
        let got = cast_held(matrix, to, &[rows, cols], UNPACKED, 0).unwrap();
        assert_eq!(
            got,
            widened(to, &want, rows * cols),
            "transposed FLOAT -> {to}"
        );
    }
}

/// Unpacked inputs of random bytes (high bits set too), millions of them, to FLOAT and
/// to their own dtype: what their low bits give packed, on one and two threads, and
/// strided (stride 2 over the bytes, and a transposed view).
#[test]
fn unpacked_inputs_ignore_their_high_bits_contiguous_strided_and_threaded() {
    let mut rng = Rng(0xb17e5);
    let n = samples(2_000_000) | 1;
    let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
    for from in SUB_BYTE {
        let codes: Vec<u8> = bytes.iter().map(|&b| b & mask(from)).collect();
        let from_packed = packed(from, &codes);
        for to in [DType::Float, from] {
            let want = cast_held((from, &from_packed, None), to, &[n], PACKED, 0).unwrap();
            let want = widened(to, &want, n);
            for threads in [0, 2] {
                let got = cast_held((from, &bytes, None), to, &[n], UNPACKED, threads).unwrap();
                assert!(got == want, "{from} unpacked -> {to}, {threads} threads");
            }
        }
        // Every other byte.
        let half = n / 2;
        let even: Vec<u8> = codes.iter().step_by(2).take(half).copied().collect();
        let want = cast_held(
            (from, &packed(from, &even), None),
            DType::Float,
            &[half],
            PACKED,
            0,
        );
        let strided = (from, &bytes[..], Some(&[2usize][..]));
        let got = cast_held(strided, DType::Float, &[half], UNPACKED, 2).unwrap();
        assert_eq!(got, want.unwrap(), "{from} unpacked, stride 2 -> FLOAT");
        // A (rows, cols) view of a (cols, rows) matrix.
        let (rows, cols) = (n / 5, 5);
        let transposed: Vec<u8> = (0..rows * cols)
            .map(|i| codes[(i % cols) * rows + i / cols])
            .collect();
        let want = cast_held(
            (from, &packed(from, &transposed), None),
            DType::Float,
            &[rows, cols],
            PACKED,
            0,
        );
        let transposed = [1, rows];
        let view = (from, &bytes[..rows * cols], Some(&transposed[..]));
        let got = cast_held(view, DType::Float, &[rows, cols], UNPACKED, 0).unwrap();
        assert_eq!(got, want.unwrap(), "{from} unpacked, transposed -> FLOAT");
    }
}

/// The bytes ml_dtypes writes and reads: int4 -1 is 0x0F, int2 -1 is 0x03,
/// float4_e2m1fn -1.0 is 0x0A, float6_e2m3fn -1.0 is 0x28 (float6_e3m2fn's 0x2C); 0xF1
/// read as int4 is 1.
#[test]
fn ml_dtypes_bytes() {
    let minus_one = (-1.0f32).to_ne_bytes();
    for (to, byte) in [
        (DType::Int4, 0x0f),
        (DType::Int2, 0x03),
        (DType::Float4E2M1, 0x0a),
        (DType::Float6E2M3, 0x28),
        (DType::Float6E3M2, 0x2c),
    ] {
        let got = cast_held((DType::Float, &minus_one, None), to, &[1], UNPACKED, 0).unwrap();
        assert_eq!(got, [byte], "-1.0 -> {to}");
    }
    let read = |from: DType, bytes: &[u8]| -> Vec<f32> {
        let out = cast_held(
            (from, bytes, None),
            DType::Float,
            &[bytes.len()],
            UNPACKED,
            0,
        );
        let out = out.unwrap();
        out.chunks_exact(4)
            .map(|b| f32::from_ne_bytes(b.try_into().unwrap()))
            .collect()
    };
    assert_eq!(read(DType::Int4, &[0xf1, 0x0f, 0xff]), [1.0, -1.0, -1.0]);
    assert_eq!(read(DType::Uint4, &[0xf1, 0x0f]), [1.0, 15.0]);
    assert_eq!(
        read(DType::Float4E2M1, &[0xfa, 0x0a, 0x37]),
        [-1.0, -1.0, 6.0]
    );
    assert_eq!(read(DType::Int2, &[0xff, 0x02]), [-1.0, -2.0]);
}

/// An unpacked tensor needs its element count in bytes: one byte short is refused with
/// the size in the message, for an output, an input and a strided input's span.
#[test]
fn unpacked_buffers_too_small_name_the_size() {
    let floats = [0u8; 20];
    let e = cast_held(
        (DType::Float, &floats, None),
        DType::Int4,
        &[5],
        UNPACKED,
        0,
    );
    assert!(e.is_ok());
    let layout = Layout::with_sub_byte_layout("output", DType::Int4, &[5], None, UNPACKED);
    let mut short = [0u8; 4];
    let e = TensorMut::from_layout(layout.unwrap(), &mut short).unwrap_err();
    assert_eq!(e.status(), Status::BufferTooSmall);
    assert_eq!(
        e.to_string(),
        "output data_bytes is 4 but shape [5] of INT4 unpacked (one element per byte) needs 5 \
         bytes"
    );
    // Three bytes hold five packed INT4 elements, not five unpacked ones.
    let e = cast_held(
        (DType::Int4, &[0u8; 3], None),
        DType::Float,
        &[5],
        UNPACKED,
        0,
    );
    let e = e.unwrap_err();
    assert_eq!(e.status(), Status::BufferTooSmall);
    assert_eq!(
        e.to_string(),
        "input data_bytes is 3 but shape [5] of INT4 unpacked (one element per byte) needs 5 \
         bytes"
    );
    // Three elements two bytes apart span five bytes.
    let strided = (DType::Float6E3M2, &[0u8; 4][..], Some(&[2usize][..]));
    let e = cast_held(strided, DType::Float, &[3], UNPACKED, 0).unwrap_err();
    assert_eq!(e.status(), Status::BufferTooSmall);
    assert!(e.to_string().ends_with("needs 5 bytes"), "{e}");
    let l = Layout::with_sub_byte_layout("input", DType::Uint2, &[2, 3], Some(&[1, 2]), UNPACKED);
    let l = l.unwrap();
    assert_eq!(
        (l.count(), l.bytes(), l.sub_byte_layout()),
        (6, 6, UNPACKED)
    );
    // Other dtypes are the same either way; packed sub-byte strides stay refused.
    let l = Layout::with_sub_byte_layout("input", DType::Float, &[3], None, UNPACKED).unwrap();
    assert_eq!((l.bytes(), l.sub_byte_layout()), (12, PACKED));
    let e = Layout::with_sub_byte_layout("input", DType::Int4, &[3], Some(&[2]), PACKED);
    assert_eq!(e.unwrap_err().status(), Status::InvalidShape);
}

/// The tensors' layouts must say what the options say; other dtypes need nothing.
#[test]
fn layouts_and_options_must_agree() {
    let src = [0u8; 4];
    let mut out = [0u8; 4];
    let unpacked = CastOptions {
        sub_byte_layout: UNPACKED,
        ..CastOptions::default()
    };
    let input = Tensor::new(&src, DType::Int4, &[4]).unwrap();
    let mut output = TensorMut::new(&mut out, DType::Uint8, &[4]).unwrap();
    let e = cast(&input, &mut output, &unpacked).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert_eq!(
        e.to_string(),
        "input of INT4 is Packed but options.sub_byte_layout is Unpacked: make its layout with \
         Layout::with_sub_byte_layout"
    );
    let layout = Layout::with_sub_byte_layout("output", DType::Uint4, &[4], None, UNPACKED);
    let input = Tensor::new(&src, DType::Uint8, &[4]).unwrap();
    let mut output = TensorMut::from_layout(layout.unwrap(), &mut out).unwrap();
    let e = cast(&input, &mut output, &CastOptions::default()).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    let mut output = TensorMut::new(&mut out, DType::Int8, &[4]).unwrap();
    cast(&input, &mut output, &unpacked).unwrap();
}

/// STRING -> unpacked sub-byte (on one thread and split over two) and unpacked
/// sub-byte -> text (high bits ignored).
#[test]
fn strings_to_and_from_unpacked_tensors() {
    let n = samples(200_000) | 1;
    let texts: Vec<String> = (0..n).map(|i| format!("{}.5", i % 19)).collect();
    let views: Vec<StringView> = texts
        .iter()
        .map(|t| StringView::new(t.as_bytes()))
        .collect();
    let dims = [n];
    for to in SUB_BYTE {
        let input = Tensor::strings(&views, &dims).unwrap();
        let mut want = vec![0u8; bytes_of(to, PACKED, n)];
        let mut output = TensorMut::new(&mut want, to, &dims).unwrap();
        cast(&input, &mut output, &CastOptions::default()).unwrap();
        let want = widened(to, &want, n);
        for threads in [0, 2] {
            let mut got = vec![0xa5u8; n];
            let layout = Layout::with_sub_byte_layout("output", to, &dims, None, UNPACKED);
            let mut output = TensorMut::from_layout(layout.unwrap(), &mut got).unwrap();
            let options = CastOptions {
                sub_byte_layout: UNPACKED,
                threads,
                ..CastOptions::default()
            };
            cast(&input, &mut output, &options).unwrap();
            assert!(got == want, "STRING -> {to} unpacked, {threads} threads");
        }
    }
    let bytes = [0xf1u8, 0x0f, 0x08];
    let layout = Layout::with_sub_byte_layout("input", DType::Int4, &[3], None, UNPACKED);
    let input = Tensor::from_layout(layout.unwrap(), &bytes).unwrap();
    let mut arena = [0u8; 16];
    let mut views = [StringView::new(b""); 3];
    format_strings(&input, StringFormat::Shortest, &mut arena, 0, &mut views).unwrap();
    let texts: Vec<&[u8]> = views.iter().map(|v| v.bytes(0).unwrap()).collect();
    assert_eq!(texts, [&b"1"[..], b"-1", b"-8"]);
}

/// The operations other than the cast take sub-byte tensors packed.
#[test]
fn other_operations_refuse_unpacked_tensors() {
    let bytes = [1u8, 2];
    let layout = Layout::with_sub_byte_layout("input", DType::Int4, &[2], None, UNPACKED);
    let input = Tensor::from_layout(layout.unwrap(), &bytes).unwrap();
    let mut out = [0u8; 2];
    let mut output = TensorMut::new(&mut out, DType::Int4, &[2, 2]).unwrap();
    let e = crate::expand(&input, &mut output).unwrap_err();
    assert_eq!(e.status(), Status::Unsupported);
    assert_eq!(
        e.to_string(),
        "input of INT4 is unpacked (one element per byte): expand takes sub-byte tensors packed"
    );
}
