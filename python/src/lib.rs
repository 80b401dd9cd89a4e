// SPDX-License-Identifier: MIT OR Apache-2.0
//! `pytensorcast._native`: the Rust core for Python, on CPython's limited API (abi3).
//!
//! The package's Python code (python/pytensorcast/) resolves dtypes and arguments; this
//! module does the work on numpy arrays in place: it reads each array's data pointer,
//! extents and strides from numpy's array struct (through the `numpy` crate), builds the
//! core's checked views over them and calls the core. `cast` itself is here, so that a
//! small cast costs one call: a C-contiguous ndarray whose (dtype, target) pair an
//! earlier call registered is cast without going back to Python; anything else goes to
//! the Python function the package registered (`_set_general`).

use numpy::npyffi::{self, NPY_ARRAY_C_CONTIGUOUS, NPY_ARRAY_WRITEABLE, PY_ARRAY_API};
use numpy::{PyArrayDescr, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use tensorcast::{
    BitcastRules, CastOptions, Casting, DType, Error, LastAxis, Layout, MxLayout, MxOptions,
    QdqOptions, RoundMode, ScaleRule, Status, StringFormat, StringView, SubByteLayout, Tensor,
    TensorMut, MAX_NDIM,
};

create_exception!(
    pytensorcast,
    TensorcastTypeError,
    PyTypeError,
    "A tensorcast error about dtypes: an unknown dtype, an unsupported or refused cast."
);
create_exception!(
    pytensorcast,
    TensorcastValueError,
    PyValueError,
    "A tensorcast error about values, shapes or arguments (parse errors, shapes)."
);

/// Arrays at least this large are cast with the GIL released.
const DETACH_BYTES: usize = 1 << 16;

/// The Python exception for a core error: tensorcast's message after the status's name,
/// with attributes `status` and `index` (-1 when the error is about no element).
fn py_error(py: Python<'_>, e: &Error) -> PyErr {
    let status = e.status();
    let text = format!("tensorcast: {}: {e}", status.name());
    let err = match status {
        Status::OutOfMemory => return PyMemoryError::new_err(text),
        Status::InvalidDtype | Status::Unsupported | Status::Casting => {
            TensorcastTypeError::new_err(text)
        }
        _ => TensorcastValueError::new_err(text),
    };
    let value = err.value(py);
    let index = e.index().map_or(-1, |i| i as i64);
    // Setting attributes on a fresh exception instance cannot fail but for memory.
    let _ = value.setattr("status", status.code());
    let _ = value.setattr("index", index);
    err
}

fn check<T>(py: Python<'_>, r: Result<T, Error>) -> PyResult<T> {
    r.map_err(|e| py_error(py, &e))
}

fn dtype_arg(code: i32) -> PyResult<DType> {
    DType::from_code_arg(code, "dtype").map_err(|e| {
        TensorcastTypeError::new_err(format!("tensorcast: {}: {e}", e.status().name()))
    })
}

/// An array's memory and layout, as the core's views take them.
struct ArrayMem {
    ptr: *mut u8,
    /// Bytes from `ptr` that the elements span.
    span: usize,
    writeable: bool,
    dims: Vec<usize>,
    /// Strides in elements; None when C-contiguous.
    strides: Option<Vec<usize>>,
}

/// Reads `obj` (a numpy array) as `dtype` with `dims` (None: the array's own shape; a
/// packed sub-byte tensor is a 1-D uint8 array of its bytes with the logical dims here).
fn array_mem(obj: &Bound<'_, PyAny>, dims: Option<Vec<usize>>) -> PyResult<ArrayMem> {
    let array = obj.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!("expected a numpy array, not {}", obj.get_type()))
    })?;
    let raw = array.as_array_ptr();
    // SAFETY: `raw` is a live ndarray (the cast above checked the type) that `obj` keeps
    // alive; its fields are numpy's public ABI.
    let (data, flags) = unsafe { ((*raw).fields.data.cast::<u8>(), (*raw).fields.flags) };
    let item = array.dtype().itemsize();
    let shape = array.shape();
    let count: usize = shape.iter().product();
    let contiguous = flags & NPY_ARRAY_C_CONTIGUOUS != 0 || count == 0;
    let (span, strides) = if contiguous {
        (count * item, None)
    } else {
        let mut elems = Vec::with_capacity(shape.len());
        let mut last = 0usize;
        for (&extent, &stride) in shape.iter().zip(array.strides()) {
            if stride < 0 || item == 0 || stride as usize % item != 0 {
                return Err(PyValueError::new_err(format!(
                    "strides {:?} of an array of {item}-byte elements: only non-negative \
                     multiples of the element size are read in place",
                    array.strides()
                )));
            }
            elems.push(stride as usize / item);
            last += (extent - 1) * stride as usize;
        }
        (last + item, Some(elems))
    };
    Ok(ArrayMem {
        ptr: data,
        span,
        writeable: flags & NPY_ARRAY_WRITEABLE != 0,
        dims: dims.unwrap_or_else(|| shape.to_vec()),
        strides,
    })
}

// SAFETY: an ArrayMem is a description of memory that the calling function's arrays keep
// alive; a call that releases the GIL reads and writes it from its own threads only
// until it returns, as the core's views over it do.
unsafe impl Send for ArrayMem {}
// SAFETY: as above; shared references only read the description.
unsafe impl Sync for ArrayMem {}

impl ArrayMem {
    fn bytes(&self) -> &[u8] {
        if self.span == 0 {
            return &[];
        }
        // SAFETY: numpy's array owns (or borrows from its base) `span` readable bytes at
        // `ptr`, and the caller holds the array for as long as this borrow lives.
        unsafe { core::slice::from_raw_parts(self.ptr, self.span) }
    }

    fn tensor(&self, dtype: DType) -> Result<Tensor<'_>, Error> {
        self.tensor_as(dtype, SubByteLayout::Packed)
    }

    /// The input view, sub-byte elements held as `layout` says.
    fn tensor_as(&self, dtype: DType, layout: SubByteLayout) -> Result<Tensor<'_>, Error> {
        let strides = self.strides.as_deref();
        let layout = Layout::with_sub_byte_layout("input", dtype, &self.dims, strides, layout)?;
        Tensor::from_layout(layout, self.bytes())
    }
}

/// A (array, code, dims-or-None) triple as the package passes tensors.
struct Arg {
    mem: ArrayMem,
    dtype: DType,
}

fn arg(obj: &Bound<'_, PyAny>) -> PyResult<Arg> {
    let (array, code, dims): (Bound<'_, PyAny>, i32, Option<Vec<usize>>) = obj.extract()?;
    Ok(Arg {
        mem: array_mem(&array, dims)?,
        dtype: dtype_arg(code)?,
    })
}

/// An output: the C-contiguous, writeable memory of a (array, code, dims) triple.
struct OutArg<'a> {
    data: &'a mut [u8],
    dtype: DType,
    dims: Vec<usize>,
}

fn out_arg<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<OutArg<'a>> {
    let Arg { mem, dtype } = arg(obj)?;
    if !mem.writeable {
        return Err(PyValueError::new_err("the output array is read-only"));
    }
    if mem.strides.is_some() {
        return Err(PyValueError::new_err(
            "the output array must be C-contiguous",
        ));
    }
    let data: &'a mut [u8] = if mem.span == 0 {
        &mut []
    } else {
        // SAFETY: a writeable array's `span` bytes at `ptr`, alive while `obj` (borrowed
        // for 'a) holds the array; outputs are arrays the package made for this call (or
        // the caller's `out`), which nothing else writes during it.
        unsafe { core::slice::from_raw_parts_mut(mem.ptr, mem.span) }
    };
    Ok(OutArg {
        data,
        dtype,
        dims: mem.dims,
    })
}

impl OutArg<'_> {
    fn tensor(&mut self) -> Result<TensorMut<'_>, Error> {
        self.tensor_as(SubByteLayout::Packed)
    }

    /// The output view, sub-byte elements held as `layout` says.
    fn tensor_as(&mut self, layout: SubByteLayout) -> Result<TensorMut<'_>, Error> {
        let layout = Layout::with_sub_byte_layout("output", self.dtype, &self.dims, None, layout)?;
        TensorMut::from_layout(layout, self.data)
    }
}

fn opt_out_arg<'a>(obj: Option<&'a Bound<'_, PyAny>>) -> PyResult<Option<OutArg<'a>>> {
    obj.filter(|o| !o.is_none()).map(out_arg).transpose()
}

fn opt_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Arg>> {
    obj.filter(|o| !o.is_none()).map(arg).transpose()
}

fn cast_options(
    saturate: bool,
    round_mode: i32,
    casting: i32,
    threads: usize,
) -> PyResult<CastOptions> {
    let invalid = |e: tensorcast::tables::InvalidValue| PyValueError::new_err(e.0);
    Ok(CastOptions {
        saturate,
        round_mode: RoundMode::from_arg(round_mode, "round_mode").map_err(invalid)?,
        casting: Casting::from_arg(casting, "casting").map_err(invalid)?,
        threads,
        ..CastOptions::default()
    })
}

/// How sub-byte tensors are held: one element per byte (ml_dtypes' arrays) or packed.
fn sub_byte_layout(unpacked: bool) -> SubByteLayout {
    if unpacked {
        SubByteLayout::Unpacked
    } else {
        SubByteLayout::Packed
    }
}

/// Runs `f` without the GIL when the call moves enough bytes to repay it.
fn maybe_detach<T: Send>(py: Python<'_>, bytes: usize, f: impl Send + FnOnce() -> T) -> T {
    if bytes >= DETACH_BYTES {
        py.detach(f)
    } else {
        f()
    }
}

/// `cast_into((x, code, dims), (out, code, dims), saturate, round_mode, casting,
/// threads, unpacked)`: casts x into the C-contiguous out; sub-byte tensors one element
/// per byte (ml_dtypes' arrays, `unpacked`) or packed.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn cast_into(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    saturate: bool,
    round_mode: i32,
    casting: i32,
    threads: usize,
    unpacked: bool,
) -> PyResult<()> {
    let (x, mut out) = (arg(x)?, out_arg(out)?);
    let layout = sub_byte_layout(unpacked);
    let opts = CastOptions {
        sub_byte_layout: layout,
        ..cast_options(saturate, round_mode, casting, threads)?
    };
    let bytes = out.data.len();
    let r = maybe_detach(py, bytes, || {
        let input = x.mem.tensor_as(x.dtype, layout)?;
        tensorcast::cast(&input, &mut out.tensor_as(layout)?, &opts)
    });
    check(py, r)
}

/// `parse_strings(blob, lengths, dims, (out, code, dims), saturate, casting, threads,
/// unpacked)`:
/// the texts of `blob` (one after another, `lengths` bytes each) parsed into out.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn parse_strings(
    py: Python<'_>,
    blob: &Bound<'_, PyBytes>,
    lengths: Vec<usize>,
    dims: Vec<usize>,
    out: &Bound<'_, PyAny>,
    saturate: bool,
    casting: i32,
    threads: usize,
    unpacked: bool,
) -> PyResult<()> {
    let mut out = out_arg(out)?;
    let layout = sub_byte_layout(unpacked);
    let opts = CastOptions {
        sub_byte_layout: layout,
        ..cast_options(saturate, 0, casting, threads)?
    };
    let data = blob.as_bytes();
    let mut views = Vec::with_capacity(lengths.len());
    let mut at = 0usize;
    for &len in &lengths {
        let end = at
            .checked_add(len)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| PyValueError::new_err("string lengths run past the text"))?;
        views.push(StringView::new(&data[at..end]));
        at = end;
    }
    let r = (|| {
        let input = Tensor::strings(&views, &dims)?;
        tensorcast::cast(&input, &mut out.tensor_as(layout)?, &opts)
    })();
    check(py, r)
}

/// `format_strings((x, code, dims), casting)` -> list[str]: shortest round-trip texts.
#[pyfunction]
fn format_strings<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    casting: i32,
) -> PyResult<Bound<'py, PyList>> {
    let x = arg(x)?;
    let opts = cast_options(true, 0, casting, 1)?;
    check(py, tensorcast::check_casting(x.dtype, DType::String, &opts))?;
    let input = check(py, x.mem.tensor(x.dtype))?;
    let count = input.layout().count();
    let per = tensorcast::max_text_bytes(x.dtype) as usize;
    let mut arena = vec![0u8; count.saturating_mul(per).max(1)];
    let mut views = vec![StringView::new(b""); count];
    check(
        py,
        tensorcast::format_strings(&input, StringFormat::Shortest, &mut arena, 0, &mut views),
    )?;
    let texts = views.iter().enumerate().map(|(i, v)| {
        let bytes = v.bytes(i).unwrap_or_default();
        // The formatter writes ASCII only.
        PyString::new(py, core::str::from_utf8(bytes).unwrap_or_default())
    });
    PyList::new(py, texts)
}

/// The numpy broadcast of two shapes.
#[pyfunction]
fn broadcast_shape(py: Python<'_>, input: Vec<usize>, shape: Vec<usize>) -> PyResult<Vec<usize>> {
    let mut out = [0usize; MAX_NDIM];
    let rank = check(py, tensorcast::broadcast_shape(&input, &shape, &mut out))?;
    Ok(out[..rank].to_vec())
}

/// `expand((x, code, dims), (out, code, dims), threads)`.
#[pyfunction]
fn expand(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    threads: usize,
) -> PyResult<()> {
    let (x, mut out) = (arg(x)?, out_arg(out)?);
    let bytes = out.data.len();
    let r = maybe_detach(py, bytes, || {
        let input = x.mem.tensor(x.dtype)?;
        tensorcast::expand_threaded(&input, &mut out.tensor()?, threads)
    });
    check(py, r)
}

/// The shape of a C-contiguous `dims` of `from` viewed as `to` under `rules`.
#[pyfunction]
fn bitcast_shape(
    py: Python<'_>,
    from: i32,
    dims: Vec<usize>,
    to: i32,
    rules: i32,
) -> PyResult<Vec<usize>> {
    let (from, to) = (dtype_arg(from)?, dtype_arg(to)?);
    let rules = BitcastRules::from_arg(rules, "rules").map_err(|e| PyValueError::new_err(e.0))?;
    let shape = check(
        py,
        tensorcast::bitcast_shape(from, &dims, LastAxis::Contiguous, to, rules),
    )?;
    Ok(shape.dims().to_vec())
}

/// numpy's `can_cast` on two tensorcast dtypes at a casting level's code.
#[pyfunction]
fn can_cast(from: i32, to: i32, casting: i32) -> PyResult<bool> {
    let (from, to) = (dtype_arg(from)?, dtype_arg(to)?);
    let casting = Casting::from_arg(casting, "casting").map_err(|e| PyValueError::new_err(e.0))?;
    Ok(tensorcast::np::can_cast_dtypes(from, to, casting))
}

/// `qdq(quantize, x, scale, zero_point|None, y, axis, block_size, saturate, precision)`:
/// QuantizeLinear (quantize true) or DequantizeLinear into y.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn qdq(
    py: Python<'_>,
    quantize: bool,
    x: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    zero_point: Option<&Bound<'_, PyAny>>,
    y: &Bound<'_, PyAny>,
    axis: i64,
    block_size: i64,
    saturate: bool,
    precision: Option<i32>,
) -> PyResult<()> {
    let (x, scale, zp, mut y) = (arg(x)?, arg(scale)?, opt_arg(zero_point)?, out_arg(y)?);
    let opts = QdqOptions {
        axis,
        block_size,
        saturate,
        precision: precision.map(dtype_arg).transpose()?,
    };
    let bytes = y.data.len();
    let r = maybe_detach(py, bytes, || {
        let (xt, st) = (x.mem.tensor(x.dtype)?, scale.mem.tensor(scale.dtype)?);
        let zt = zp.as_ref().map(|z| z.mem.tensor(z.dtype)).transpose()?;
        let mut yt = y.tensor()?;
        if quantize {
            tensorcast::quantize_linear(&xt, &st, zt.as_ref(), &mut yt, &opts)
        } else {
            tensorcast::dequantize_linear(&xt, &st, zt.as_ref(), &mut yt, &opts)
        }
    });
    check(py, r)
}

fn mx_options(scale_rule: i32, axis: i64, block_size: i64) -> PyResult<MxOptions> {
    Ok(MxOptions {
        axis,
        block_size,
        rule: ScaleRule::from_arg(scale_rule, "scale_rule")
            .map_err(|e| PyValueError::new_err(e.0))?,
    })
}

/// `mx_quantize(x, y, scale, global_scale|None, scale_rule, axis, block_size)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn mx_quantize(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    global_scale: Option<&Bound<'_, PyAny>>,
    scale_rule: i32,
    axis: i64,
    block_size: i64,
) -> PyResult<()> {
    let (x, mut y, mut s) = (arg(x)?, out_arg(y)?, out_arg(scale)?);
    let mut g = opt_out_arg(global_scale)?;
    let opts = mx_options(scale_rule, axis, block_size)?;
    let bytes = y.data.len();
    let r = maybe_detach(py, bytes, || {
        let xt = x.mem.tensor(x.dtype)?;
        let mut gt = g.as_mut().map(OutArg::tensor).transpose()?;
        tensorcast::mx_quantize(&xt, &mut y.tensor()?, &mut s.tensor()?, gt.as_mut(), &opts)
    });
    check(py, r)
}

/// `mx_dequantize(x, scale, global_scale|None, y, axis, block_size)`.
#[pyfunction]
fn mx_dequantize(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    global_scale: Option<&Bound<'_, PyAny>>,
    y: &Bound<'_, PyAny>,
    axis: i64,
    block_size: i64,
) -> PyResult<()> {
    let (x, s, g, mut y) = (arg(x)?, arg(scale)?, opt_arg(global_scale)?, out_arg(y)?);
    let opts = mx_options(0, axis, block_size)?;
    let bytes = y.data.len();
    let r = maybe_detach(py, bytes, || {
        let (xt, st) = (x.mem.tensor(x.dtype)?, s.mem.tensor(s.dtype)?);
        let gt = g.as_ref().map(|g| g.mem.tensor(g.dtype)).transpose()?;
        tensorcast::mx_dequantize(&xt, &st, gt.as_ref(), &mut y.tensor()?, &opts)
    });
    check(py, r)
}

/// `mx_repack(from_layout, data, scales|None, to_layout, out, out_scales|None)`.
#[pyfunction]
fn mx_repack(
    py: Python<'_>,
    from_layout: i32,
    data: &Bound<'_, PyAny>,
    scales: Option<&Bound<'_, PyAny>>,
    to_layout: i32,
    out: &Bound<'_, PyAny>,
    out_scales: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let layout = |code| MxLayout::from_arg(code, "layout").map_err(|e| PyValueError::new_err(e.0));
    let (from, to) = (layout(from_layout)?, layout(to_layout)?);
    let (d, s) = (arg(data)?, opt_arg(scales)?);
    let (mut o, mut os) = (out_arg(out)?, opt_out_arg(out_scales)?);
    let r = (|| {
        let dt = d.mem.tensor(d.dtype)?;
        let st = s.as_ref().map(|s| s.mem.tensor(s.dtype)).transpose()?;
        let mut ost = os.as_mut().map(OutArg::tensor).transpose()?;
        tensorcast::mx_repack(from, &dt, st.as_ref(), to, &mut o.tensor()?, ost.as_mut())
    })();
    check(py, r)
}

/// The bytes a C-contiguous tensor of `code` and `dims` takes (packed sub-byte types).
#[pyfunction]
fn tensor_bytes(py: Python<'_>, code: i32, dims: Vec<usize>) -> PyResult<u64> {
    let dtype = dtype_arg(code)?;
    check(
        py,
        Layout::new("tensor", dtype, &dims, None).map(|l| l.bytes() as u64),
    )
}

/// The code of an ONNX dtype name (or alias), or None.
#[pyfunction]
fn dtype_code(name: &str) -> Option<i32> {
    DType::from_name(name).map(|d| d.code())
}

/// The ONNX name of a dtype code, or None.
#[pyfunction]
fn dtype_name(code: i32) -> Option<&'static str> {
    DType::from_code_arg(code, "dtype").ok().map(DType::name)
}

/// Bits per element of a dtype code.
#[pyfunction]
fn dtype_bits(code: i32) -> PyResult<u32> {
    Ok(dtype_arg(code)?.bits())
}

#[pyfunction]
fn cpu_info() -> String {
    tensorcast::cpu_info()
}

/// `str(numpy.promote_types(a, b))` of two numpy dtype specs (numpy 2's rules).
#[pyfunction]
fn promote_types(py: Python<'_>, a: &str, b: &str) -> PyResult<String> {
    check(py, tensorcast::np::promote_specs(a, b).map(|d| d.to_str()))
}

/// `str(numpy.min_scalar_type(v))` of a Python int (as decimal text), float or complex.
#[pyfunction]
fn min_scalar_type(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    use tensorcast::np::PyScalar;
    let text;
    let scalar = if value.is_instance_of::<pyo3::types::PyBool>() {
        PyScalar::Bool(value.extract()?)
    } else if value.is_instance_of::<pyo3::types::PyInt>() {
        text = value.str()?.to_string();
        PyScalar::Int(&text)
    } else if value.is_instance_of::<pyo3::types::PyFloat>() {
        PyScalar::Float(value.extract()?)
    } else if value.is_instance_of::<pyo3::types::PyComplex>() {
        let c = value.cast::<pyo3::types::PyComplex>()?;
        PyScalar::Complex(c.real(), c.imag())
    } else {
        return Err(PyTypeError::new_err(format!(
            "min_scalar_type takes a Python bool, int, float or complex, not {}",
            value.get_type()
        )));
    };
    check(
        py,
        tensorcast::np::min_scalar_type_of(scalar).map(|d| d.to_str()),
    )
}

// ---- cast's fast path ----------------------------------------------------------------

/// One (source dtype, target) pair of the fast path: the source's dtype object and the
/// target as the caller spelled it (a dtype, a type or a name), compared by identity
/// (a name also by value), with the codes and the result's dtype.
struct Pair {
    src: Py<PyAny>,
    target: Py<PyAny>,
    target_is_str: bool,
    from: DType,
    to: DType,
    result: Py<PyArrayDescr>,
}

/// What the package registered: the general cast (a Python function) and the pairs.
struct Registry {
    general: Py<PyAny>,
    pairs: std::sync::Mutex<Vec<Pair>>,
}

/// The most pairs the fast path keeps (a program casts between a few dtypes; a caller
/// spelling targets anew each call must not grow the list without end).
const MAX_PAIRS: usize = 256;

static REGISTRY: PyOnceLock<Registry> = PyOnceLock::new();

/// Registers the general cast: `general(x, dtype, saturate, round_mode, casting, out,
/// threads, packed)`; once, at import.
#[pyfunction]
fn _set_general(py: Python<'_>, general: Py<PyAny>) -> PyResult<()> {
    let reg = Registry {
        general,
        pairs: std::sync::Mutex::new(Vec::new()),
    };
    REGISTRY
        .set(py, reg)
        .map_err(|_| PyValueError::new_err("the general cast is registered already"))
}

/// Registers a pair of byte-sized numeric dtypes with the fast path.
#[pyfunction]
fn _register_pair(
    py: Python<'_>,
    src: &Bound<'_, PyArrayDescr>,
    target: &Bound<'_, PyAny>,
    src_code: i32,
    dst_code: i32,
    dst_dtype: &Bound<'_, PyArrayDescr>,
) -> PyResult<()> {
    let Some(reg) = REGISTRY.get(py) else {
        return Ok(());
    };
    let (from, to) = (dtype_arg(src_code)?, dtype_arg(dst_code)?);
    if from.is_packed() || to.is_packed() || from == DType::String || to == DType::String {
        return Err(PyValueError::new_err(
            "the fast path takes byte-sized numeric dtypes only",
        ));
    }
    let mut pairs = reg.pairs.lock().unwrap_or_else(|e| e.into_inner());
    let known = pairs.iter().any(|p| p.src.is(src) && p.target.is(target));
    if !known && pairs.len() < MAX_PAIRS {
        pairs.push(Pair {
            src: src.clone().into_any().unbind(),
            target: target.clone().unbind(),
            target_is_str: target.is_instance_of::<PyString>(),
            from,
            to,
            result: dst_dtype.clone().unbind(),
        });
    }
    Ok(())
}

/// The fast path's pair for an exact, C-contiguous, aligned ndarray `x` and `dtype`.
fn fast_pair<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    dtype: &Bound<'py, PyAny>,
) -> Option<(
    DType,
    DType,
    Bound<'py, PyArrayDescr>,
    *mut npyffi::PyArrayObject,
)> {
    let reg = REGISTRY.get(py)?;
    // SAFETY: `x` is a live object; the check compares its type with numpy's ndarray.
    if unsafe { npyffi::PyArray_CheckExact(py, x.as_ptr()) } == 0 {
        return None;
    }
    let raw = x.as_ptr().cast::<npyffi::PyArrayObject>();
    // SAFETY: `x` is exactly an ndarray (its type checked above).
    let (flags, descr) = unsafe { ((*raw).fields.flags, (*raw).fields.descr) };
    let wanted = npyffi::NPY_ARRAY_C_CONTIGUOUS | npyffi::NPY_ARRAY_ALIGNED;
    if flags & wanted != wanted {
        return None;
    }
    let descr = descr.cast::<pyo3::ffi::PyObject>();
    let pairs = reg.pairs.lock().unwrap_or_else(|e| e.into_inner());
    let same_name = |p: &Pair| {
        p.target_is_str
            && dtype.is_instance_of::<PyString>()
            && p.target.bind(py).eq(dtype).unwrap_or(false)
    };
    let hit = pairs
        .iter()
        .find(|p| p.src.as_ptr() == descr && p.target.as_ptr() == dtype.as_ptr())
        .or_else(|| {
            pairs
                .iter()
                .find(|p| p.src.as_ptr() == descr && same_name(p))
        })?;
    Some((hit.from, hit.to, hit.result.bind(py).clone(), raw))
}

/// Casts a registered pair: a new C-contiguous array of x's shape and the target dtype.
fn fast_cast<'py>(
    py: Python<'py>,
    from: DType,
    to: DType,
    dst_dtype: Bound<'py, PyArrayDescr>,
    raw: *mut npyffi::PyArrayObject,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `raw` is a live, C-contiguous ndarray (fast_pair checked it) of `nd`
    // extents at `dimensions`.
    let (data, nd, dims) = unsafe {
        (
            (*raw).fields.data,
            (*raw).fields.nd,
            (*raw).fields.dimensions,
        )
    };
    let rank = nd as usize;
    if rank > MAX_NDIM {
        return Err(PyValueError::new_err(format!(
            "rank {rank} is above tensorcast's maximum, {MAX_NDIM}"
        )));
    }
    let mut shape = [0usize; MAX_NDIM];
    for (i, slot) in shape[..rank].iter_mut().enumerate() {
        // SAFETY: `nd` extents at `dims`, owned by the array; numpy's extents are >= 0.
        *slot = unsafe { *dims.add(i) } as usize;
    }
    let shape = &shape[..rank];
    let count: usize = shape.iter().product();
    // SAFETY: numpy's PyArray_NewFromDescr with a new reference to a dtype (it steals
    // one), numpy's array type, `nd` extents and no data (numpy allocates).
    let result = unsafe {
        let descr = dst_dtype.into_ptr().cast::<npyffi::PyArray_Descr>();
        let subtype = <PyUntypedArray as pyo3::type_object::PyTypeInfo>::type_object_raw(py);
        let obj = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            subtype,
            descr,
            nd,
            dims,
            core::ptr::null_mut(),
            core::ptr::null_mut(),
            0,
            core::ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(py, obj)?
    };
    if count == 0 {
        return Ok(result);
    }
    let out_raw = result.as_ptr().cast::<npyffi::PyArrayObject>();
    let in_bytes = count * (from.bits() as usize / 8);
    let out_bytes = count * (to.bits() as usize / 8);
    // SAFETY: x's `count` elements of `from` at `data` (C-contiguous, held by the
    // caller's reference to x during the call).
    let input = unsafe { core::slice::from_raw_parts(data.cast::<u8>(), in_bytes) };
    // SAFETY: the new array's buffer, `count` elements of `to`, which only this call has.
    let output =
        unsafe { core::slice::from_raw_parts_mut((*out_raw).fields.data.cast::<u8>(), out_bytes) };
    let opts = CastOptions::default();
    let r = maybe_detach(py, in_bytes.max(out_bytes), || {
        let i = Tensor::new(input, from, shape)?;
        let mut o = TensorMut::new(output, to, shape)?;
        tensorcast::cast(&i, &mut o, &opts)
    });
    check(py, r)?;
    Ok(result)
}

/// Casts ``x`` to ``dtype`` as ONNX Cast does (tensorcast's rules:
/// docs/semantics-cast.md), returning a new numpy array (or ``out``).
///
/// cast(x, dtype, *, saturate=True, round_mode="up", casting="unsafe", out=None,
/// threads=None, packed=False)
///
/// x: a numpy array, anything with the buffer protocol or ``__dlpack__`` (torch, jax CPU
/// tensors), of any rank and strides; read in place (negative strides are copied once).
/// A StringDType, ``U`` or object array is parsed as numbers.
/// dtype: a numpy or ml_dtypes dtype or type, or a name ("FLOAT8E4M3FN",
/// "float8_e4m3fn", "bfloat16", "float32"); ``str`` formats numbers as text (shortest
/// round trip) into a StringDType array (``U`` on numpy 1).
/// saturate: float8 targets only: out-of-range values clamp to the largest finite value
/// (True, ONNX's default) or become NaN/inf (False).
/// round_mode: FLOAT8E8M0 targets only: "up" (ONNX's default), "down" or "nearest".
/// casting: numpy's level ("no", "equiv", "safe", "same_kind", "unsafe"): below
/// "unsafe", casts numpy would refuse raise TypeError.
/// out: a C-contiguous array of the target's numpy dtype and x's shape to write into.
/// threads: up to this many threads for large arrays (None or 1: the calling thread).
/// packed: return ONNX's packed bytes (a 1-D uint8 array) for the sub-byte targets
/// (INT4, UINT4, FLOAT4E2M1, INT2, UINT2, FLOAT6*) instead of one element per byte.
///
/// Raises TypeError (unknown dtype, unsupported or refused cast) or ValueError (a text
/// that does not parse, bad arguments) with tensorcast's message, which names the dtypes
/// and the element's index and value; the exception's ``index`` attribute is that index.
#[pyfunction]
#[pyo3(signature = (x, dtype, *, saturate=None, round_mode=None, casting=None, out=None, threads=None, packed=None))]
#[allow(clippy::too_many_arguments)]
fn cast<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    dtype: &Bound<'py, PyAny>,
    saturate: Option<&Bound<'py, PyAny>>,
    round_mode: Option<&Bound<'py, PyAny>>,
    casting: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    packed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let is_default = |v: Option<&Bound<'py, PyAny>>, want: &str| match v {
        None => true,
        Some(v) => v
            .cast::<PyString>()
            .is_ok_and(|s| s.to_cow().is_ok_and(|s| s == want)),
    };
    let is_none = |v: Option<&Bound<'py, PyAny>>| v.is_none_or(|v| v.is_none());
    let is_const = |v: Option<&Bound<'py, PyAny>>, want: bool| {
        v.is_none_or(|v| v.is(pyo3::types::PyBool::new(py, want)))
    };
    if is_const(saturate, true)
        && is_const(packed, false)
        && is_none(out)
        && is_none(threads)
        && is_default(round_mode, "up")
        && is_default(casting, "unsafe")
    {
        if let Some((from, to, dst_dtype, raw)) = fast_pair(py, x, dtype) {
            return fast_cast(py, from, to, dst_dtype, raw);
        }
    }
    let reg = REGISTRY
        .get(py)
        .ok_or_else(|| PyValueError::new_err("pytensorcast is not initialised"))?;
    let none = py.None().into_bound(py);
    let or = |v: Option<&Bound<'py, PyAny>>, d: Bound<'py, PyAny>| v.cloned().unwrap_or(d);
    let args = PyTuple::new(
        py,
        [
            x.clone(),
            dtype.clone(),
            or(
                saturate,
                pyo3::types::PyBool::new(py, true).to_owned().into_any(),
            ),
            or(round_mode, PyString::new(py, "up").into_any()),
            or(casting, PyString::new(py, "unsafe").into_any()),
            or(out, none.clone()),
            or(threads, none),
            or(
                packed,
                pyo3::types::PyBool::new(py, false).to_owned().into_any(),
            ),
        ],
    )?;
    reg.general.bind(py).call1(args)
}

/// The labels of a table of option values -> their codes.
fn labels<'py, T: Copy>(
    py: Python<'py>,
    all: &[T],
    label: impl Fn(T) -> &'static str,
    code: impl Fn(T) -> i32,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for &v in all {
        d.set_item(label(v), code(v))?;
    }
    Ok(d)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", tensorcast::VERSION)?;
    m.add("MAX_NDIM", MAX_NDIM)?;
    m.add("TensorcastTypeError", py.get_type::<TensorcastTypeError>())?;
    m.add(
        "TensorcastValueError",
        py.get_type::<TensorcastValueError>(),
    )?;
    m.add(
        "ROUND_MODES",
        labels(py, &RoundMode::ALL, RoundMode::label, RoundMode::code)?,
    )?;
    // The casting levels a caller may name ("never" is a result only).
    let castings: Vec<Casting> = Casting::ALL
        .into_iter()
        .filter(|c| c.is_argument())
        .collect();
    m.add(
        "CASTINGS",
        labels(py, &castings, Casting::label, Casting::code)?,
    )?;
    m.add(
        "SCALE_RULES",
        labels(py, &ScaleRule::ALL, ScaleRule::label, ScaleRule::code)?,
    )?;
    m.add(
        "MX_LAYOUTS",
        labels(py, &MxLayout::ALL, MxLayout::label, MxLayout::code)?,
    )?;
    m.add_function(wrap_pyfunction!(cast, m)?)?;
    m.add_function(wrap_pyfunction!(cast_into, m)?)?;
    m.add_function(wrap_pyfunction!(parse_strings, m)?)?;
    m.add_function(wrap_pyfunction!(format_strings, m)?)?;
    m.add_function(wrap_pyfunction!(broadcast_shape, m)?)?;
    m.add_function(wrap_pyfunction!(expand, m)?)?;
    m.add_function(wrap_pyfunction!(bitcast_shape, m)?)?;
    m.add_function(wrap_pyfunction!(can_cast, m)?)?;
    m.add_function(wrap_pyfunction!(qdq, m)?)?;
    m.add_function(wrap_pyfunction!(mx_quantize, m)?)?;
    m.add_function(wrap_pyfunction!(mx_dequantize, m)?)?;
    m.add_function(wrap_pyfunction!(mx_repack, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(dtype_code, m)?)?;
    m.add_function(wrap_pyfunction!(dtype_name, m)?)?;
    m.add_function(wrap_pyfunction!(dtype_bits, m)?)?;
    m.add_function(wrap_pyfunction!(cpu_info, m)?)?;
    m.add_function(wrap_pyfunction!(promote_types, m)?)?;
    m.add_function(wrap_pyfunction!(min_scalar_type, m)?)?;
    m.add_function(wrap_pyfunction!(_set_general, m)?)?;
    m.add_function(wrap_pyfunction!(_register_pair, m)?)?;
    Ok(())
}
