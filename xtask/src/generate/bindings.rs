// SPDX-License-Identifier: MIT OR Apache-2.0
//! The bindings' dtype and status tables: tensorcast.hpp's enums and storage types, the
//! Go package's constants and storage types, the C# enums and storage structs.
//!
//! Each binding spells a C constant its own way, by rule: the ONNX name's parts (prefix
//! letters, stem word, tail) give Go's `QUint8` and C#'s `QUInt8`; the status names are
//! the C names in CamelCase. C++ keeps the three names it chose where the ONNX one would
//! not do (`float32`, `float64`, `boolean`).

use std::fmt::Write as _;
use tensorcast::tables::{CConst, CTable};
use tensorcast::{cast, CastOptions, DType, Family, Status, Tensor, TensorMut};

/// Where the rows of these tables come from, as the generated files' banners say.
const SOURCE: &str = "the dtype registry (src/dtype.rs) and the status table (src/error.rs)";

/// The dtypes of the `TCAST_DTYPE_*` table (UNDEFINED first): the C constant and its
/// name without the prefix ("FLOAT8E4M3FN").
fn dtype_consts() -> impl Iterator<Item = (&'static CConst, &'static str)> {
    DType::TABLE.consts.iter().map(|c| {
        let name = c
            .name
            .strip_prefix("TCAST_DTYPE_")
            .unwrap_or_else(|| panic!("{} has no TCAST_DTYPE_ prefix", c.name));
        (c, name)
    })
}

/// The statuses: the C constant and its words ("INVALID_DTYPE"; "OK" for TCAST_OK).
fn status_consts() -> impl Iterator<Item = (&'static CConst, &'static str)> {
    Status::TABLE.consts.iter().map(|c| {
        let name = ["TCAST_ERR_", "TCAST_"]
            .iter()
            .find_map(|p| c.name.strip_prefix(p))
            .unwrap_or_else(|| panic!("{} has no TCAST_ prefix", c.name));
        (c, name)
    })
}

/// The dtypes the bindings give a storage type: the float formats of one or two bytes
/// (FLOAT16, BFLOAT16, the float8 formats), which no host language has a type for, with
/// their ONNX names and widths in bits.
fn storage_dtypes() -> impl Iterator<Item = (DType, &'static str, u32)> {
    DType::ALL
        .into_iter()
        .filter(|d| d.info().family == Family::Float && matches!(d.bits(), 8 | 16))
        .map(|d| (d, d.name(), d.bits()))
}

/// A dtype's doc from the `TCAST_DTYPE_*` table.
fn dtype_doc(dtype: DType) -> &'static str {
    let c = DType::TABLE
        .consts
        .iter()
        .find(|c| c.value == i64::from(dtype.code()))
        .unwrap_or_else(|| panic!("{dtype} is not in DType::TABLE"));
    c.doc
}

/// The bits of 1.0 in a storage dtype, as the library casts it (the docs' example).
fn one_bits(dtype: DType) -> u64 {
    let one = 1.0f32.to_ne_bytes();
    let mut out = [0u8; 8];
    let bytes = (dtype.bits() / 8) as usize;
    let input = Tensor::new(&one, DType::Float, &[]).expect("a FLOAT scalar");
    let mut output = TensorMut::new(&mut out[..bytes], dtype, &[]).expect("a scalar output");
    cast(&input, &mut output, &CastOptions::default()).expect("1.0 casts to every float");
    match bytes {
        1 => u64::from(out[0]),
        _ => u64::from(u16::from_ne_bytes([out[0], out[1]])),
    }
}

/// `word` with only its first letter upper case.
fn capitalized(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let mut chars = lower.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// An ONNX dtype name's parts: the prefix letters (B of BFLOAT16, U of UINT8, Q and QU
/// of the TF types), the stem word, and the tail (width and format, kept upper case).
/// A name without a known stem is all stem.
fn name_parts(name: &str) -> (&str, &str, &str) {
    for stem in ["COMPLEX", "DOUBLE", "STRING", "FLOAT", "BOOL", "INT"] {
        if let Some(at) = name.find(stem) {
            let prefix = &name[..at];
            if prefix.chars().all(|c| "BQU".contains(c)) {
                return (prefix, stem, &name[at + stem.len()..]);
            }
        }
    }
    ("", name, "")
}

/// Go's name of a dtype: `Float8E4M3FN`, `Uint8`, `QUint8`, `BFloat16`.
fn go_dtype(name: &str) -> String {
    let (prefix, stem, tail) = name_parts(name);
    let stem = if prefix.ends_with('U') && stem == "INT" {
        "int".to_string()
    } else {
        capitalized(stem)
    };
    format!("{prefix}{stem}{tail}")
}

/// C#'s name of a dtype: `Float8E4M3FN`, `UInt8`, `QUInt8`, `BFloat16`.
fn csharp_dtype(name: &str) -> String {
    let (prefix, stem, tail) = name_parts(name);
    format!("{prefix}{}{tail}", capitalized(stem))
}

/// C++'s name of a dtype: the ONNX name in lower case, but for the three whose lower
/// case names are C++ keywords or would mislead.
fn cpp_dtype(name: &str) -> String {
    match name {
        "FLOAT" => "float32".to_string(),
        "DOUBLE" => "float64".to_string(),
        "BOOL" => "boolean".to_string(),
        _ => name.to_ascii_lowercase(),
    }
}

/// A status's words in CamelCase: `InvalidDType`, `Ok`.
fn camel_status(words: &str) -> String {
    words
        .split('_')
        .map(|w| match w {
            "DTYPE" => "DType".to_string(),
            _ => capitalized(w),
        })
        .collect()
}

/// Lines `name<pad> rest` with the names padded to one column, gofmt's alignment of a
/// const or type block whose lines all have the same cells.
fn aligned(rows: &[(String, String, String)]) -> String {
    let name_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let code_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (name, code, comment) in rows {
        writeln!(out, "\t{name:name_width$} {code:code_width$} // {comment}").unwrap();
    }
    out
}

/// bindings/go/tables_generated.go: the DType and Status constants, the storage types
/// and the storage types' dtypes.
pub fn go_tables() -> String {
    let mut out = format!(
        "// SPDX-License-Identifier: MIT OR Apache-2.0\n\
         // Code generated by bash scripts/generate.sh from {SOURCE}. DO NOT EDIT.\n\n\
         package tensorcast\n\n\
         // #include \"tensorcast.h\"\n\
         import \"C\"\n\n\
         // The dtypes, with the values of the header's TCAST_DTYPE_* macros. Undefined is never\n\
         // valid as an argument.\n\
         const (\n"
    );
    let rows: Vec<_> = dtype_consts()
        .map(|(c, name)| {
            (
                go_dtype(name),
                format!("DType = C.{}", c.name),
                c.doc.to_string(),
            )
        })
        .collect();
    out.push_str(&aligned(&rows));
    out.push_str(
        ")\n\n\
         // The statuses, with the values of the header's TCAST_OK and TCAST_ERR_* macros.\n\
         const (\n",
    );
    let rows: Vec<_> = status_consts()
        .map(|(c, words)| {
            let name = if c.value == 0 {
                words.to_string()
            } else {
                format!("Err{}", camel_status(words))
            };
            (name, format!("Status = C.{}", c.name), c.doc.to_string())
        })
        .collect();
    out.push_str(&aligned(&rows));
    out.push_str(
        ")\n\n\
         // Storage types for the floating-point dtypes Go has no type for. Each holds the raw\n\
         // bits of one element in the dtype's own layout, in host byte order. They are\n\
         // distinct types, so that the typed functions (CastSlice, CastToBytes, CastFromBytes,\n\
         // ParseSlice, FormatSlice, ExpandSlice, BitcastSlice) see their dtype: a []Float16Bits\n\
         // is a FLOAT16 tensor, while a []uint16 stays UINT16 and a []uint8 UINT8. The library\n\
         // does all arithmetic on them; Go only stores and copies the bits (Float16Bits(0x3C00)\n\
         // is 1.0).\n\
         type (\n",
    );
    let rows: Vec<_> = storage_dtypes()
        .map(|(d, name, bits)| {
            (
                format!("{}Bits", go_dtype(name)),
                format!("uint{bits}"),
                format!("{name}: {}", dtype_doc(d)),
            )
        })
        .collect();
    out.push_str(&aligned(&rows));
    out.push_str(
        ")\n\n\
         // storageDType returns the dtype of a storage type's value, and false for a value of\n\
         // any other type.\n\
         func storageDType(v any) (DType, bool) {\n\
         \tswitch v.(type) {\n",
    );
    for (_, name, _) in storage_dtypes() {
        let go = go_dtype(name);
        writeln!(out, "\tcase {go}Bits:\n\t\treturn {go}, true").unwrap();
    }
    out.push_str("\t}\n\treturn Undefined, false\n}\n");
    out
}

/// An enum class of tensorcast.hpp: its doc, name and `member = C_NAME` lines.
fn cpp_enum(out: &mut String, doc: &str, name: &str, members: &[(String, &str)]) {
    writeln!(out, "/** {doc} */\nenum class {name} : std::int32_t {{").unwrap();
    for (member, c_name) in members {
        writeln!(out, "  {member} = {c_name},").unwrap();
    }
    out.push_str("};\n");
}

/// tensorcast.hpp's region `enums`: enum class dtype and status.
pub fn cpp_enums() -> String {
    let mut out = String::new();
    let dtypes: Vec<_> = dtype_consts()
        .map(|(c, name)| (cpp_dtype(name), c.name))
        .collect();
    cpp_enum(&mut out, "An element type (tcast_dtype).", "dtype", &dtypes);
    out.push('\n');
    let statuses: Vec<_> = status_consts()
        .map(|(c, words)| (words.to_ascii_lowercase(), c.name))
        .collect();
    cpp_enum(
        &mut out,
        "A status (tcast_status): ok, or what went wrong.",
        "status",
        &statuses,
    );
    out
}

/// tensorcast.hpp's region `storage-types`: one float_bits alias per storage dtype.
pub fn cpp_storage_types() -> String {
    let mut out = String::new();
    for (_, name, bits) in storage_dtypes() {
        let cpp = cpp_dtype(name);
        writeln!(
            out,
            "using {cpp} = float_bits<dtype::{cpp}, std::uint{bits}_t>;"
        )
        .unwrap();
    }
    out
}

/// A C# enum at the namespace's indentation, its members' values written out.
fn csharp_enum(
    out: &mut String,
    summary: &str,
    name: &str,
    table: &CTable,
    member: &dyn Fn(&str) -> String,
) {
    writeln!(
        out,
        "    /// <summary>{summary}</summary>\n    public enum {name}\n    {{"
    )
    .unwrap();
    for c in table.consts {
        let short = ["TCAST_DTYPE_", "TCAST_ERR_", "TCAST_"]
            .iter()
            .find_map(|p| c.name.strip_prefix(p))
            .unwrap_or(c.name);
        writeln!(out, "        {} = {},", member(short), c.value).unwrap();
    }
    out.push_str("    }\n");
}

/// Tensorcast.cs's region `enums`: the Status and DType enums.
pub fn csharp_enums() -> String {
    let mut out = String::new();
    csharp_enum(
        &mut out,
        "The TCAST_OK / TCAST_ERR_* codes.",
        "Status",
        &Status::TABLE,
        &camel_status,
    );
    out.push('\n');
    csharp_enum(
        &mut out,
        "The TCAST_DTYPE_* codes (ONNX TensorProto.DataType, plus TF's quantized types).",
        "DType",
        &DType::TABLE,
        &csharp_dtype,
    );
    out
}

/// Tensorcast.cs's region `storage-types`: NamedDType's tests, one per storage struct.
pub fn csharp_named_dtypes() -> String {
    let mut out = String::new();
    for (_, name, _) in storage_dtypes() {
        let cs = csharp_dtype(name);
        writeln!(out, "            if (t == typeof({cs})) return DType.{cs};").unwrap();
    }
    out
}

/// bindings/csharp/src/FloatStorage.cs: one blittable struct per storage dtype.
pub fn csharp_storage_types() -> String {
    let mut out = String::from(
        "// SPDX-License-Identifier: MIT OR Apache-2.0\n\
         // Generated by `bash scripts/generate.sh` from the dtype registry (src/dtype.rs): do not edit.\n\
         //\n\
         // Named storage types for the floating-point dtypes C# has no type for: FLOAT16, BFLOAT16\n\
         // and the one-byte float8 formats. Each is one element's bits and nothing else, so that a\n\
         // typed call says which dtype its elements are (DTypeInfo.Of<Float16>() is FLOAT16) and a\n\
         // plain ushort or byte keeps meaning UINT16 or UINT8. They do no arithmetic: converting to\n\
         // and from float is the library's job (Tensorcast.Cast<float, Float16> and back).\n\
         // Equality is on the bits: +0 and -0 differ, a NaN equals the same NaN bits. They are\n\
         // plain structs with one readonly field (immutable all the same): `readonly struct` is C#\n\
         // 7.2, and mcs compiles C# 7.0 by default.\n\n\
         using System;\n\
         using System.Runtime.InteropServices;\n\n\
         namespace TensorcastSharp\n\
         {\n",
    );
    for (i, (d, name, bits)) in storage_dtypes().enumerate() {
        let cs = csharp_dtype(name);
        let (field, digits) = if bits == 8 {
            ("byte", 2)
        } else {
            ("ushort", 4)
        };
        let bytes = bits / 8;
        let plural = if bytes == 1 { "" } else { "s" };
        if i > 0 {
            out.push('\n');
        }
        let summary = format!(
            "<summary>One {name} element held as its {bits} bits ({}). Blittable and {bytes} \
             byte{plural}, so an array of it is a tensor's storage.</summary>",
            dtype_doc(d).trim_end_matches('.')
        );
        out.push_str(&doc_comment("    ", &summary));
        write!(
            out,
            "\x20   [StructLayout(LayoutKind.Sequential)]\n\
             \x20   public struct {cs} : IEquatable<{cs}>\n\
             \x20   {{\n\
             \x20       /// <summary>The bit pattern, e.g. 0x{one:0digits$X} for 1.0.</summary>\n\
             \x20       public readonly {field} Bits;\n\n\
             \x20       public {cs}({field} bits)\n\
             \x20       {{\n\
             \x20           Bits = bits;\n\
             \x20       }}\n\n\
             \x20       public static {cs} FromBits({field} bits)\n\
             \x20       {{\n\
             \x20           return new {cs}(bits);\n\
             \x20       }}\n\n\
             \x20       public bool Equals({cs} other)\n\
             \x20       {{\n\
             \x20           return Bits == other.Bits;\n\
             \x20       }}\n\n\
             \x20       public override bool Equals(object obj)\n\
             \x20       {{\n\
             \x20           return obj is {cs} && Equals(({cs})obj);\n\
             \x20       }}\n\n\
             \x20       public override int GetHashCode()\n\
             \x20       {{\n\
             \x20           return Bits;\n\
             \x20       }}\n\n\
             \x20       /// <summary>\"{cs}(0x{one:0digits$X})\": the bits, not a number.</summary>\n\
             \x20       public override string ToString()\n\
             \x20       {{\n\
             \x20           return \"{cs}(0x\" + Bits.ToString(\"X{digits}\") + \")\";\n\
             \x20       }}\n\
             \x20   }}\n",
            one = one_bits(d),
        )
        .unwrap();
    }
    out.push_str("}\n");
    out
}

/// `text` as `///` lines of at most 92 columns at `indent`.
fn doc_comment(indent: &str, text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + 4 + line.len() + 1 + word.len() > 92 {
            writeln!(out, "{indent}/// {line}").unwrap();
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    writeln!(out, "{indent}/// {line}").unwrap();
    out
}
