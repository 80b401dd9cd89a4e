// SPDX-License-Identifier: MIT OR Apache-2.0
//! Numeric -> STRING -> the same dtype: the round-trip rule of docs/semantics-cast.md
//! section 8. Formatting with TCAST_FORMAT_SHORTEST and parsing the texts back with the
//! default options gives the original bits (BOOL: 0 or 1); a NaN comes back a NaN and an
//! infinity, which saturate = 1 may turn into the largest finite value, comes back with
//! its sign. With TCAST_FORMAT_PRINTF_8G the texts parse back too.
//! Every text is at most tcast_string_max_bytes(dtype) long.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tensorcast::ffi::tcast_string_max_bytes;
use tensorcast::{
    cast, format_strings, CastOptions, DType, StringFormat, StringView, Tensor, TensorMut,
};

const DTYPES: [DType; 18] = [
    DType::Double,
    DType::Float,
    DType::Float16,
    DType::Bfloat16,
    DType::Float8E4M3Fn,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2,
    DType::Float8E5M2Fnuz,
    DType::Float8E8M0,
    DType::Bool,
    DType::Int8,
    DType::Uint8,
    DType::Int16,
    DType::Uint16,
    DType::Int32,
    DType::Uint32,
    DType::Int64,
    DType::Uint64,
];

fn format(bytes: &[u8], dtype: DType, format: StringFormat, arena: &mut Vec<u8>) -> Vec<Vec<u8>> {
    let size = (dtype.bits() / 8) as usize;
    let dims = [bytes.len() / size];
    let input = Tensor::new(bytes, dtype, &dims).unwrap();
    let max = tcast_string_max_bytes(dtype.code()) as usize;
    arena.clear();
    arena.resize(dims[0] * max, 0);
    let mut views = vec![StringView::new(b""); dims[0]];
    format_strings(&input, format, arena, 0, &mut views).unwrap();
    views
        .iter()
        .map(|v| {
            let text = v.bytes(0).unwrap().to_vec();
            assert!(
                text.len() <= max,
                "{}: {:?} is longer than tcast_string_max_bytes, {max}",
                dtype.name(),
                String::from_utf8_lossy(&text)
            );
            text
        })
        .collect()
}

fn parse(texts: &[Vec<u8>], dtype: DType) -> Vec<u8> {
    let size = (dtype.bits() / 8) as usize;
    let views: Vec<StringView> = texts.iter().map(|t| StringView::new(t)).collect();
    let dims = [views.len()];
    let mut out = vec![0u8; views.len() * size];
    let input = Tensor::strings(&views, &dims).unwrap();
    let mut output = TensorMut::new(&mut out, dtype, &dims).unwrap();
    if let Err(e) = cast(&input, &mut output, &CastOptions::default()) {
        panic!(
            "{}: a text the library wrote does not parse back: {e}",
            dtype.name()
        );
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let dtype = DTYPES[selector as usize % DTYPES.len()];
    let size = (dtype.bits() / 8) as usize;
    let bytes = &rest[..rest.len() / size * size];
    let mut arena = Vec::new();

    let texts = format(bytes, dtype, StringFormat::Shortest, &mut arena);
    let back = parse(&texts, dtype);
    let again = format(&back, dtype, StringFormat::Shortest, &mut arena);
    for (i, text) in texts.iter().enumerate() {
        let (original, returned) = (&bytes[i * size..][..size], &back[i * size..][..size]);
        let shown = String::from_utf8_lossy(text);
        if dtype == DType::Bool {
            assert_eq!(
                returned,
                [u8::from(original[0] != 0)],
                "BOOL {original:?} as {shown:?}"
            );
        } else if text.as_slice() == b"INF" || text.as_slice() == b"-INF" {
            let sign = again[i].first() == Some(&b'-');
            assert_eq!(
                sign,
                text[0] == b'-',
                "{}: {shown} came back as {:?}",
                dtype.name(),
                again[i]
            );
        } else if text.as_slice() == b"NaN" {
            assert_eq!(
                again[i],
                b"NaN",
                "{}: NaN came back as {:?}",
                dtype.name(),
                again[i]
            );
        } else {
            assert_eq!(
                original,
                returned,
                "{}: {original:02x?} -> {shown:?} -> {returned:02x?}",
                dtype.name()
            );
        }
    }

    let texts = format(bytes, dtype, StringFormat::Printf8g, &mut arena);
    parse(&texts, dtype);
});
