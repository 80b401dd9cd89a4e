# SPDX-License-Identifier: MIT OR Apache-2.0
"""The ctypes declarations of ``include/tensorcast.h``, built from the header itself.

Every Python caller of the C API (the oracles, the conformance runner, the peer
benchmarks) takes its structs, constants and prototypes from here instead of copying
them by hand; ``tests/common/check_tcast_ctypes.py`` checks the result against a C
compiler (step ``oracle`` of ``scripts/test.sh``). Standard library only, so that every
venv (numpy 1 without ml_dtypes included) can import it.

The header is cbindgen's output, and only the C it writes is understood: include guards
and ``#ifdef __cplusplus`` blocks; ``#define NAME <integer>``; ``typedef`` of a scalar, of
a function pointer, of ``struct NAME { ... }`` (fields: scalars, pointers, fixed-size
arrays, function pointers) and of an opaque ``struct NAME``; and function prototypes.
Anything else (unions, enums, bit fields, ``#if`` expressions, varargs, unknown types)
raises ``HeaderError`` naming the line, rather than being guessed at.

Pointers map to ctypes so: ``void *`` to ``c_void_p``; ``char *`` to ``c_void_p`` in a
struct field (an address: ``tcast_string.data`` is not NUL-terminated) and to
``c_char_p`` in a prototype (NUL-terminated text or a caller's buffer); ``T *`` to
``POINTER(T)``; function pointers to ``CFUNCTYPE``.

What it exports, parsed from ``HEADER_PATH`` at import:

* every struct by its name (``tcast_tensor``, ``tcast_error``, ``tcast_cast_options``,
  ...), every ``TCAST_*`` constant and every typedef (``tcast_status``, ``tcast_task_fn``);
* ``STRUCTS``, ``CONSTANTS``, ``TYPEDEFS``, ``FUNCTIONS`` (name -> ``Prototype(restype,
  argtypes, c_restype, c_argtypes)``, the ``c_*`` being the C spelling), ``MACROS``
  (function-like macros, name -> text, not bound) and ``STATUS_NAMES`` (status code ->
  ``"TCAST_ERR_..."``);
* ``bind(cdll, names=None, skip_missing=False)`` sets ``restype`` and ``argtypes`` of
  the named functions (default: every one the header declares) on a loaded library, and
  ``load_library(path, names=None, skip_missing=False)`` loads one and binds it; a
  function the library lacks raises ``AttributeError`` unless ``skip_missing``;
* ``parse_header(path)`` for another header, giving a ``Header`` with the same tables.
"""

import ctypes
import re
from collections import namedtuple
from pathlib import Path

HEADER_PATH = Path(__file__).resolve().parents[2] / "include" / "tensorcast.h"

Prototype = namedtuple("Prototype", "restype argtypes c_restype c_argtypes")
Header = namedtuple("Header", "structs constants typedefs functions macros")

# The C types a declaration may start with (void is None: a return type only).
BUILTINS = {
    "void": None, "bool": ctypes.c_bool, "char": ctypes.c_char, "int": ctypes.c_int,
    "float": ctypes.c_float, "double": ctypes.c_double, "size_t": ctypes.c_size_t,
    "int8_t": ctypes.c_int8, "int16_t": ctypes.c_int16, "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64, "uint8_t": ctypes.c_uint8, "uint16_t": ctypes.c_uint16,
    "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64,
}
_TOKEN = re.compile(r'\s*(?:([A-Za-z_]\w*)|(\d\w*)|("[^"\\]*")|(\.\.\.|[{}()\[\];,*]))')
_INTEGER = re.compile(r"(-?(?:0[xX][0-9a-fA-F]+|[1-9][0-9]*|0))[uUlL]*")


class HeaderError(Exception):
    """A construct of the header this module does not understand."""


# A parsed C type: `base` a ctypes type, a Structure class, a CFUNCTYPE or None (void);
# `pointers` the number of `*` after it; `text` its C spelling.
_CType = namedtuple("_CType", "base pointers text")


class _Parser:
    def __init__(self, path):
        self.path = str(path)
        self.structs, self.constants, self.typedefs = {}, {}, {}
        self.functions, self.macros = {}, {}
        self.opaque = set()  # the structs declared but not (yet) defined
        self.tokens = []  # (text, line)
        self.pos = 0

    def error(self, line, message):
        raise HeaderError(f"{self.path}:{line}: {message}")

    # ------------------------------------------------------------ preprocessor, tokens

    def preprocess(self, text):
        # Comments become blank (their newlines kept, for line numbers); continued
        # lines are joined onto their first.
        text = re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text,
                      flags=re.S)
        lines = text.split("\n")
        defined, active = set(), []  # active: one bool per open #ifdef / #ifndef
        number = 0
        while number < len(lines):
            start, line = number + 1, lines[number]
            number += 1
            while line.endswith("\\") and number < len(lines):
                line, number = line[:-1] + " " + lines[number], number + 1
            stripped = line.strip()
            if not stripped.startswith("#"):
                if all(active) and stripped:
                    self.tokenize(stripped, start)
                continue
            directive, rest = (stripped[1:].split(None, 1) + ["", ""])[:2]
            if directive in ("ifdef", "ifndef") and re.fullmatch(r"[A-Za-z_]\w*", rest):
                active.append((rest in defined) == (directive == "ifdef"))
            elif directive == "if" and not all(active):
                active.append(False)  # inside a block that is skipped anyway
            elif directive in ("else", "endif") and active and not rest:
                if directive == "else":
                    active[-1] = not active[-1]
                else:
                    active.pop()
            elif not all(active):
                continue
            elif directive == "include" and re.fullmatch(r"<[\w/.]+>", rest):
                continue  # a system header: its types are the BUILTINS
            elif directive == "define":
                self.define(rest, start, defined)
            else:
                self.error(start, f"unsupported preprocessor line: {stripped}")
        if active:
            self.error(len(lines), "an #ifdef / #ifndef is not closed")

    def define(self, rest, line, defined):
        match = re.match(r"([A-Za-z_]\w*)(\(?)(.*)$", rest)
        if not match:
            self.error(line, f"unsupported #define {rest}")
        name, function_like, value = match.group(1), match.group(2), match.group(3).strip()
        defined.add(name)
        if function_like:
            self.macros[name] = rest  # a function-like macro: nothing to bind
        elif value:
            if value.startswith("(") and value.endswith(")"):
                value = value[1:-1].strip()
            integer = _INTEGER.fullmatch(value)
            if integer:
                self.constants[name] = int(integer.group(1), 0)
            elif value in self.constants:
                self.constants[name] = self.constants[value]
            else:
                self.error(line, f"#define {name}: not an integer constant: {value}")

    def tokenize(self, text, line):
        pos = 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if not match:
                self.error(line, f"unexpected text: {text[pos:].strip()}")
            self.tokens.append((match.group(match.lastindex), line))
            pos = match.end()

    # ------------------------------------------------------------ token helpers

    def peek(self, offset=0):
        index = self.pos + offset
        return self.tokens[index][0] if index < len(self.tokens) else None

    def line(self):
        return self.tokens[min(self.pos, len(self.tokens) - 1)][1]

    def take(self, expected=None):
        if self.pos >= len(self.tokens):
            self.error(self.tokens[-1][1], "unexpected end of the header")
        token = self.tokens[self.pos][0]
        if expected is not None and token != expected:
            self.error(self.line(), f"expected {expected!r}, found {token!r}")
        self.pos += 1
        return token

    def name(self):
        token = self.take()
        if not re.fullmatch(r"[A-Za-z_]\w*", token):
            self.error(self.tokens[self.pos - 1][1], f"expected a name, found {token!r}")
        return token

    # ------------------------------------------------------------ declarations

    def parse(self):
        while self.pos < len(self.tokens):
            if self.peek() == "typedef":
                self.take()
                self.typedef()
            else:
                self.prototype()
        return Header(self.structs, self.constants,
                      {n: self.ctypes_of(t, "typedef") for n, t in self.typedefs.items()},
                      self.functions, self.macros)

    def typedef(self):
        line = self.line()
        if self.peek() == "struct" and (self.peek(2) == "{" or self.peek(3) == ";"):
            self.take("struct")
            tag = self.name()
            cls = self.structs.get(tag)
            if cls is None:
                cls = type(tag, (ctypes.Structure,), {})
                self.structs[tag] = cls
                self.opaque.add(cls)
            if self.peek() == "{":
                if cls not in self.opaque:
                    self.error(line, f"struct {tag} defined twice")
                self.take("{")
                fields = []
                while self.peek() != "}":
                    fields.append(self.field())
                self.take("}")
                names = [f[0] for f in fields]
                if len(set(names)) != len(names) or not fields:
                    self.error(line, f"struct {tag}: empty, or a field named twice")
                cls._fields_ = fields
                self.opaque.discard(cls)
            alias = self.name()
            if alias != tag:
                self.error(line, f"typedef struct {tag} named {alias}: expected the same name")
            self.take(";")
            return
        ctype = self.type_spec()
        if self.peek() == "(":
            name, ctype = self.function_pointer(ctype)
        else:
            name = self.name()
        self.take(";")
        if name in self.typedefs or name in BUILTINS:
            self.error(line, f"typedef {name} defined twice")
        self.typedefs[name] = ctype

    def type_spec(self):
        """[const] (struct NAME | builtin | typedef) [const] {* [const]}"""
        line, words = self.line(), []
        while self.peek() == "const":
            words.append(self.take())
        if self.peek() == "struct":
            self.take()
            tag = self.name()
            if tag not in self.structs:
                self.error(line, f"struct {tag} used before its declaration")
            base, pointers, words = self.structs[tag], 0, words + ["struct", tag]
        else:
            spelled = self.name()
            if spelled in BUILTINS:
                base, pointers = BUILTINS[spelled], 0
            elif spelled in self.typedefs:
                base, pointers = self.typedefs[spelled].base, self.typedefs[spelled].pointers
            else:
                self.error(line, f"unknown type {spelled}")
            words.append(spelled)
        while self.peek() in ("const", "*"):
            token = self.take()
            pointers += token == "*"
            words.append(token)
        return _CType(base, pointers, " ".join(words))

    def function_pointer(self, ret):
        """( * NAME ) ( params ): NAME and the CFUNCTYPE, after the return type."""
        self.take("(")
        self.take("*")
        name = self.name()
        self.take(")")
        params = self.params()
        restype = self.ctypes_of(ret, "return")
        fn = ctypes.CFUNCTYPE(restype, *[self.ctypes_of(p, "param") for _, p in params])
        text = f"{ret.text} (*)({', '.join(p.text for _, p in params) or 'void'})"
        return name, _CType(fn, 0, text)

    def params(self):
        """( void ) or ( TYPE [NAME], ... ): a list of (name or None, _CType)."""
        self.take("(")
        if self.peek() == "void" and self.peek(1) == ")":
            self.take()
            self.take()
            return []
        params = []
        while True:
            if self.peek() == "...":
                self.error(self.line(), "variadic functions are not supported")
            ctype = self.type_spec()
            name = None
            if self.peek() == "(":
                name, ctype = self.function_pointer(ctype)
            elif self.peek() not in (",", ")"):
                name = self.name()
            if self.peek() == "[":
                self.error(self.line(), "array parameters are not supported")
            params.append((name, ctype))
            if self.take() == ")":
                return params
            if self.tokens[self.pos - 1][0] != ",":
                self.error(self.line(), "expected ',' or ')' in a parameter list")

    def field(self):
        line = self.line()
        ctype = self.type_spec()
        if self.peek() == "(":
            name, ctype = self.function_pointer(ctype)
            self.take(";")
            return name, self.ctypes_of(ctype, "field", line)
        name = self.name()
        result = self.ctypes_of(ctype, "field", line)
        dims = []
        while self.peek() == "[":
            self.take()
            size = self.take()
            if size in self.constants:
                dims.append(self.constants[size])
            elif re.fullmatch(r"[1-9][0-9]*", size):
                dims.append(int(size))
            else:
                self.error(line, f"array size {size!r} is not an integer or a known constant")
            self.take("]")
        for size in reversed(dims):
            result = result * size
        self.take(";")
        return name, result

    def prototype(self):
        line = self.line()
        ret = self.type_spec()
        name = self.name()
        if self.peek() != "(":
            self.error(line, f"{name}: expected a function prototype")
        params = self.params()
        self.take(";")
        if name in self.functions:
            self.error(line, f"function {name} declared twice")
        self.functions[name] = Prototype(
            self.ctypes_of(ret, "return", line),
            [self.ctypes_of(p, "param", line) for _, p in params],
            ret.text, [p.text for _, p in params])

    def ctypes_of(self, ctype, where, line=None):
        """The ctypes type of a parsed C type used as a field, param, return or typedef."""
        base, pointers = ctype.base, ctype.pointers
        if pointers == 0:
            if base is None and where not in ("return", "typedef"):
                self.error(line or self.line(), f"a value of type void ({where})")
            if base in self.opaque:
                self.error(line or self.line(), f"struct {base.__name__} is opaque: by pointer only")
            return base
        if base is None:
            result = ctypes.c_void_p
        elif base is ctypes.c_char:
            result = ctypes.c_void_p if where == "field" else ctypes.c_char_p
        else:
            result = ctypes.POINTER(base)
        for _ in range(pointers - 1):
            result = ctypes.POINTER(result)
        return result


def parse_header(path=HEADER_PATH):
    """The structs, constants, typedefs, prototypes and macros of a cbindgen header."""
    parser = _Parser(path)
    parser.preprocess(Path(path).read_text(encoding="utf-8"))
    return parser.parse()


def bind(cdll, names=None, skip_missing=False):
    """Sets restype and argtypes of the named functions (default: all) on ``cdll``."""
    for name in FUNCTIONS if names is None else names:
        if name not in FUNCTIONS:
            raise KeyError(f"{name} is not declared in {HEADER_PATH}")
        if not hasattr(cdll, name):
            if skip_missing:
                continue
            raise AttributeError(f"{cdll._name}: no {name}, which {HEADER_PATH.name} declares")
        function = getattr(cdll, name)
        function.restype, function.argtypes = FUNCTIONS[name].restype, FUNCTIONS[name].argtypes
    return cdll


def load_library(path, names=None, skip_missing=False):
    """``ctypes.CDLL(path)`` with the named functions (default: all) bound from the header."""
    return bind(ctypes.CDLL(str(path)), names, skip_missing)


STRUCTS, CONSTANTS, TYPEDEFS, FUNCTIONS, MACROS = parse_header(HEADER_PATH)
STATUS_NAMES = {value: name for name, value in CONSTANTS.items()
                if name == "TCAST_OK" or name.startswith("TCAST_ERR_")}

for _table in (STRUCTS, TYPEDEFS, CONSTANTS):
    for _name, _value in _table.items():
        if _name in globals():
            raise HeaderError(f"{HEADER_PATH}: {_name} would shadow this module's own name")
        globals()[_name] = _value
del _table, _name, _value
