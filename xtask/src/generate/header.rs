// SPDX-License-Identifier: MIT OR Apache-2.0
//! include/tensorcast.h.
//!
//! cbindgen renders the declarations of the FFI shell (src/ffi: types, functions and the
//! plain constants). It does not expand macros, so the enumeration constants, which
//! `tensorcast::tables` generates from one table per enumeration, are rendered here from
//! that data ([`tensorcast::c_tables`]). [`SECTIONS`] then puts every item in
//! reading order, one section per topic, and the frame (banner, include guard, includes,
//! one `extern "C"` block) is written around them with C89-clean comments.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use tensorcast::c_tables;
use tensorcast::tables::CTable;

/// One thing the header declares: a cbindgen item by its C name, or all the constants of
/// an enumeration table by its Rust type's name.
enum Entry {
    Item(&'static str),
    Table(&'static str),
    /// C text of the header's own (a macro cbindgen cannot express), as written.
    Text(&'static str),
}
use Entry::{Item, Table, Text};

/// A section of the header: its heading, what it is about, and its entries in order.
struct Section {
    heading: &'static str,
    about: &'static str,
    entries: &'static [Entry],
}

/// The header's reading order: the conventions (status and errors), the dtypes, the
/// tensors, then one section per operation. Every item cbindgen renders and every table
/// must be placed exactly once (the generator fails otherwise).
const SECTIONS: &[Section] = &[
    Section {
        heading: "Status and errors",
        about: "Every fallible function returns a tcast_status and fills the caller's \
                tcast_error, when not NULL, with the details.",
        entries: &[
            Item("tcast_status"),
            Table("Status"),
            Item("TCAST_ERROR_MESSAGE_BYTES"),
            Item("tcast_error"),
            Item("tcast_status_name"),
        ],
    },
    Section {
        heading: "Dtypes",
        about: "Element types, their names and widths, and the ONNX Cast schemas that list \
                them.",
        entries: &[
            Item("tcast_dtype"),
            Table("DType"),
            Item("tcast_dtype_name"),
            Item("tcast_dtype_bits"),
            Item("tcast_dtype_from_name"),
            Item("tcast_onnx_cast_supported"),
        ],
    },
    Section {
        heading: "Tensors",
        about: "How a caller describes a tensor: data, byte count, shape, optional strides, \
                dtype.",
        entries: &[
            Item("TCAST_MAX_NDIM"),
            Item("tcast_tensor"),
            Text(CONST_DATA),
            Item("tcast_tensor_bytes"),
        ],
    },
    Section {
        heading: "Cast",
        about: "ONNX Cast between tensors (tcast_cast), its options, and numpy's casting \
                levels for tensorcast dtypes (tcast_can_cast).",
        entries: &[
            Table("RoundMode"),
            Table("StringFormat"),
            Table("Casting"),
            Item("tcast_task_fn"),
            Item("tcast_executor"),
            Item("tcast_cast_options"),
            Item("tcast_cast_options_init"),
            Item("tcast_cast_options_default"),
            Item("tcast_cast"),
            Item("tcast_cast_plan"),
            Item("tcast_cast_plan_create"),
            Item("tcast_cast_plan_run"),
            Item("tcast_cast_plan_free"),
            Table("SubByteLayout"),
            Item("tcast_cast_sub_byte"),
            Item("tcast_can_cast"),
        ],
    },
    Section {
        heading: "Strings",
        about: "STRING elements are views; numbers are formatted into a caller's arena.",
        entries: &[
            Item("tcast_string"),
            Item("tcast_string_arena"),
            Item("tcast_string_max_bytes"),
            Item("tcast_cast_to_strings"),
        ],
    },
    Section {
        heading: "Expand",
        about: "ONNX Expand: numpy broadcasting of a tensor to a shape.",
        entries: &[
            Item("tcast_expand_shape"),
            Item("tcast_expand"),
            Item("tcast_expand_ex"),
        ],
    },
    Section {
        heading: "QuantizeLinear and DequantizeLinear",
        about: "ONNX QuantizeLinear / DequantizeLinear (opsets 10-25): per-tensor, per-axis \
                and blocked scales, integer, float8, float4 and float6 elements, rounded \
                once from the exact value.",
        entries: &[
            Item("tcast_qdq_options"),
            Item("tcast_qdq_options_init"),
            Item("tcast_quantize_linear"),
            Item("tcast_dequantize_linear"),
        ],
    },
    Section {
        heading: "MX and NVFP4 block quantization",
        about: "MXFP8/MXFP6/MXFP4/MXINT8 and NVFP4 with the block scales computed from the \
                data (OCP FLOOR, CEIL, EVEN, RCEIL rules), the inverse, and the MXFP4 \
                layouts of ONNX, gpt-oss and ggml converted bit for bit.",
        entries: &[
            Table("ScaleRule"),
            Table("MxLayout"),
            Item("tcast_mx_options"),
            Item("tcast_mx_options_init"),
            Item("tcast_mx_quantize"),
            Item("tcast_mx_dequantize"),
            Item("tcast_mx_repack"),
        ],
    },
    Section {
        heading: "Bitcast",
        about: "A view of a tensor's bytes as another dtype, without copying.",
        entries: &[
            Table("BitcastRules"),
            Item("tcast_bitcast_shape"),
            Item("tcast_bitcast"),
        ],
    },
    Section {
        heading: "numpy dtypes and casting rules",
        about: "numpy's dtype specs, can_cast (numpy 1.22 or numpy 2 rules), promote_types \
                and min_scalar_type.",
        entries: &[
            Table("NumpyRules"),
            Item("tcast_np_dtype"),
            Item("tcast_np_dtype_parse"),
            Item("tcast_np_dtype_free"),
            Item("tcast_np_dtype_str"),
            Item("tcast_np_casting_from_name"),
            Item("tcast_np_casting_level"),
            Item("tcast_np_can_cast"),
            Item("tcast_np_can_cast_str"),
            Item("tcast_np_can_cast_pyint"),
            Item("tcast_np_can_cast_pyfloat"),
            Item("tcast_np_can_cast_pycomplex"),
            Item("tcast_np_can_cast_pybool"),
            Item("tcast_np_can_cast_scalar"),
            Item("tcast_np_promote_types"),
            Item("tcast_np_min_scalar_type_pyint"),
            Item("tcast_np_min_scalar_type_pyfloat"),
            Item("tcast_np_min_scalar_type_pycomplex"),
        ],
    },
    Section {
        heading: "DLPack",
        about: "A DLPack DLDataType (code, bits, lanes) to a tensorcast dtype and back.",
        entries: &[
            Table("DlpackCode"),
            Item("tcast_dtype_from_dlpack"),
            Item("tcast_dtype_to_dlpack"),
        ],
    },
    Section {
        heading: "Version and diagnostics",
        about: "The header's version and the library's, and what the library found on \
                this CPU (the library prints nothing: a host asks).",
        entries: &[
            Item("TCAST_VERSION_MAJOR"),
            Item("TCAST_VERSION_MINOR"),
            Item("TCAST_VERSION_PATCH"),
            Item("tcast_version"),
            Item("tcast_cpu_info"),
        ],
    },
];

/// `data` for an input over a const buffer, without a cast in the caller's code. The
/// field stays `void *`: making it `const void *` would change a field's type, which
/// docs/c-api.md section 11 allows only in a new major version (and would break C++
/// code that reads `data` back into a `void *`). The conversion goes through
/// `uintptr_t`, which `-Wcast-qual` does not flag, after a conversion to `const void *`
/// that only a pointer passes.
const CONST_DATA: &str = "\
/**
 * `data` for an input whose buffer is const, without a cast (-Wcast-qual stays quiet):
 * `in.data = TCAST_CONST_DATA(values);`. Inputs are never written. The field stays
 * `void *` (docs/c-api.md section 11: a field's type is part of the ABI).
 */
#define TCAST_CONST_DATA(p) ((void *)(uintptr_t)(const void *)(p))
";

/// The widest line the generated comments fill.
const WIDTH: usize = 90;

/// `text` in lines of at most [`WIDTH`] columns, each starting with " * ".
fn wrap(out: &mut String, text: &str) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && 3 + line.len() + 1 + word.len() > WIDTH {
            writeln!(out, " * {line}").unwrap();
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        writeln!(out, " * {line}").unwrap();
    }
}

/// `text` as a comment block: `/**` for a doc comment (Doxygen attaches it to the next
/// declaration, as cbindgen's are), `/*` for a heading.
fn comment(out: &mut String, opener: &str, text: &str) {
    writeln!(out, "{opener}").unwrap();
    wrap(out, text);
    out.push_str(" */\n");
}

/// An enumeration's `#define`s under its title, as a compact table: each after its doc
/// comment, on one line when it fits.
fn render_table(table: &CTable) -> String {
    let mut out = String::new();
    comment(&mut out, "/*", table.title);
    out.push('\n');
    for c in table.consts {
        let one_line = format!("/** {} */", c.doc);
        if one_line.len() <= WIDTH {
            writeln!(out, "{one_line}").unwrap();
        } else {
            comment(&mut out, "/**", c.doc);
        }
        writeln!(out, "#define {} {}", c.name, c.value).unwrap();
    }
    out
}

/// The C name an item of cbindgen's output declares.
fn item_name(item: &str) -> String {
    // Skip the doc comment, if any.
    let decl = match item.find("*/\n") {
        Some(end) if item.starts_with("/**") => &item[end + 3..],
        _ => item,
    };
    let ident = |s: &str| -> String {
        s.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .to_string()
    };
    if let Some(rest) = decl.strip_prefix("#define ") {
        return ident(rest.split_whitespace().next().unwrap());
    }
    let typedef = decl.starts_with("typedef ");
    if let (true, false, Some(start)) = (typedef, decl.contains('{'), decl.find("(*")) {
        // A function pointer: `typedef void (*tcast_task_fn)(void *task_ctx, ...);`
        let rest = &decl[start + 2..];
        return ident(&rest[..rest.find(')').expect("(*name)")]);
    }
    if decl.starts_with("typedef ") {
        // `typedef int32_t tcast_status;`, `typedef struct X X;`, `typedef struct X {..} X;`
        let last = decl.trim_end().trim_end_matches(';');
        return ident(last.rsplit([' ', '}']).next().unwrap());
    }
    // A function: the identifier before the first parenthesis.
    let head = &decl[..decl.find('(').expect("a function declaration")];
    ident(head.rsplit([' ', '*']).next().unwrap())
}

/// cbindgen's rendering of src/ffi, without a frame, and its configuration.
fn cbindgen_items(root: &Path) -> (Vec<(String, String)>, cbindgen::Config) {
    let config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let mut bare = config.clone();
    bare.header = None;
    bare.trailer = None;
    bare.include_guard = None;
    bare.autogen_warning = None;
    bare.no_includes = true;
    bare.cpp_compat = false;
    let mut out = Vec::new();
    // Only the FFI shell is the C API: parse it (and its submodules) alone.
    cbindgen::Builder::new()
        .with_src(root.join("src/ffi/mod.rs"))
        .with_config(bare)
        .generate()
        .expect("cbindgen generates the declarations")
        .write(&mut out);
    let text = String::from_utf8(out).expect("cbindgen writes UTF-8");
    let items = text
        .split("\n\n")
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| (item_name(item), format!("{item}\n")))
        .collect();
    (items, config)
}

/// The header: the frame from cbindgen.toml around the sections of [`SECTIONS`].
pub fn header(root: &Path) -> String {
    let (items, config) = cbindgen_items(root);
    let mut items: BTreeMap<String, String> = {
        let mut map = BTreeMap::new();
        for (name, text) in items {
            assert!(
                map.insert(name.clone(), text).is_none(),
                "cbindgen declares {name} twice"
            );
        }
        map
    };
    let mut tables: BTreeMap<&str, &CTable> =
        c_tables().into_iter().map(|t| (t.rust_name, t)).collect();

    let guard = config
        .include_guard
        .as_deref()
        .expect("cbindgen.toml sets include_guard");
    let mut out = String::new();
    if let Some(banner) = &config.header {
        writeln!(out, "{banner}\n").unwrap();
    }
    writeln!(out, "#ifndef {guard}\n#define {guard}\n").unwrap();
    if let Some(warning) = &config.autogen_warning {
        writeln!(out, "{warning}\n").unwrap();
    }
    for include in ["stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "stdlib.h"] {
        writeln!(out, "#include <{include}>").unwrap();
    }
    out.push_str("\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    for section in SECTIONS {
        let rule = "=".repeat(WIDTH - 3);
        writeln!(out, "\n/* {rule}\n * {}\n *", section.heading).unwrap();
        wrap(&mut out, section.about);
        writeln!(out, " * {rule} */").unwrap();
        for entry in section.entries {
            out.push('\n');
            match entry {
                Item(name) => out.push_str(&items.remove(*name).unwrap_or_else(|| {
                    panic!("xtask/src/generate/header.rs places {name}, which cbindgen does not declare")
                })),
                Table(name) => {
                    out.push_str(&render_table(tables.remove(name).unwrap_or_else(|| {
                        panic!("xtask/src/generate/header.rs places the table {name}, which c_tables() lacks")
                    })))
                }
                Text(text) => out.push_str(text),
            }
        }
    }
    assert!(
        items.is_empty() && tables.is_empty(),
        "place these in a section of SECTIONS in xtask/src/generate/header.rs: {:?} {:?}",
        items.keys().collect::<Vec<_>>(),
        tables.keys().collect::<Vec<_>>()
    );
    out.push_str("\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n");
    writeln!(out, "\n#endif /* {guard} */").unwrap();
    out
}
