// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy's casting levels: the scale every can_cast answer and every checked cast uses.

crate::tables::c_enum! {
    /// numpy's casting levels, from strictest to anything-goes, and NEVER, the level of a
    /// cast no level allows (a result only: the C API refuses it as an argument; asked
    /// for through the Rust API it refuses nothing, as UNSAFE). The order is numpy's:
    /// `level <= Casting::Safe` means "allowed at safe". [`Casting::label`] is numpy's
    /// name ("same_kind").
    #[derive(Default, PartialOrd, Ord)]
    pub enum Casting: i32,
        "numpy casting levels, strictest first: tcast_cast_options.casting, the casting \
         arguments of tcast_can_cast and tcast_np_*, and the level tcast_np_casting_level \
         reports."
    {
        No = 0 => TCAST_CASTING_NO ("no"): "numpy's 'no': only identical dtypes.",
        Equiv = 1 => TCAST_CASTING_EQUIV ("equiv"):
            "numpy's 'equiv': identical dtypes up to byte order.",
        Safe = 2 => TCAST_CASTING_SAFE ("safe"):
            "numpy's 'safe': only casts that keep every value.",
        SameKind = 3 => TCAST_CASTING_SAME_KIND ("same_kind"):
            "numpy's 'same_kind': safe casts and casts within a kind, such as DOUBLE to FLOAT.",
        #[default]
        Unsafe = 4 => TCAST_CASTING_UNSAFE ("unsafe"):
            "numpy's 'unsafe': any cast (the default of tcast_cast_options, which then \
             checks nothing).",
        Never = 5 => TCAST_CASTING_NEVER ("never") [result]:
            "The level `tcast_np_casting_level` reports when no casting level allows the \
             cast; never an argument.",
    }
}
