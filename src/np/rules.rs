// SPDX-License-Identifier: MIT OR Apache-2.0
//! Which numpy's rules a query reproduces (one table, the C API's `rules` argument).

crate::tables::c_enum! {
    /// Which numpy's rules to reproduce.
    pub enum NumpyRules: i32,
        "The rules argument of the tcast_np_* functions: which numpy's casting rules to \
         reproduce."
    {
        Numpy1 = 1 => TCAST_NUMPY_1:
            "numpy 1.x as documented for 1.22: value-based scalars, structured casts by \
             field name.",
        Numpy2 = 2 => TCAST_NUMPY_2:
            "numpy >= 2 (NEP 50): Python scalars refused, structured casts by field position.",
    }
}
