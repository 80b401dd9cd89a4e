// SPDX-License-Identifier: MIT OR Apache-2.0
//! Which scale element each element of x uses: ONNX's three granularities, read from
//! the scale's shape, `axis` and `block_size`.

use crate::error::{shape_text, Error};

/// The walk over x: element i = (outer, a, inner) in C order, its scale element
/// `o * so + (a / block) * sa + n * sn`.
#[derive(Copy, Clone, Debug)]
pub struct Plan {
    outer: usize,
    extent: usize,
    inner: usize,
    block: usize,
    strides: [usize; 3],
}

impl Plan {
    /// Calls `f(i, scale_index)` for every element of x, in order.
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(usize, usize)) {
        let [so, sa, sn] = self.strides;
        let mut i = 0;
        for o in 0..self.outer {
            for a in 0..self.extent {
                let base = o * so + (a / self.block) * sa;
                for n in 0..self.inner {
                    f(i, base + n * sn);
                    i += 1;
                }
            }
        }
    }
}

/// Consecutive elements of x whose scale elements follow one pattern: elements
/// `start .. start + len` use scale element `scale + j * stride` (stride 0: all one
/// scale; 1: one scale each, consecutive).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub start: usize,
    pub len: usize,
    pub scale: usize,
    pub stride: usize,
}

impl Plan {
    /// `Some(b)` when element i's scale element is i / b for every i (a per-tensor scale,
    /// or blocks along the last axis that divide it): the fast paths then walk the
    /// blocks without runs.
    pub fn uniform_block(&self) -> Option<usize> {
        let count = self.outer * self.extent * self.inner;
        match self.strides {
            [0, 0, 0] => Some(count.max(1)),
            [so, 1, 1] if self.inner == 1 && self.extent % self.block == 0 => {
                (so * self.block == self.extent).then_some(self.block)
            }
            _ => None,
        }
    }

    /// The runs of x in order, as long as the layout allows: one for a per-tensor scale,
    /// a row per outer index for per-axis scales along the last axis, a block for
    /// blocked scales along the last axis, and a row of `inner` elements otherwise.
    pub fn runs(&self) -> Runs {
        Runs {
            plan: *self,
            o: 0,
            a: 0,
            b: 0,
            k: 0,
            start: 0,
        }
    }
}

/// The iterator of [`Plan::runs`]: counters, no divisions per run.
pub struct Runs {
    plan: Plan,
    /// The next run's outer index, its first index along the axis, the block that
    /// index is in and its place in the block.
    o: usize,
    a: usize,
    b: usize,
    k: usize,
    start: usize,
}

impl Iterator for Runs {
    type Item = Run;

    #[inline]
    fn next(&mut self) -> Option<Run> {
        let p = &self.plan;
        let [so, sa, sn] = p.strides;
        if self.o >= p.outer || p.extent == 0 {
            return None;
        }
        let base = self.o * so + self.b * sa;
        let run = if p.inner == 1 && p.block == 1 {
            self.a = p.extent;
            Run {
                start: self.start,
                len: p.extent,
                scale: base,
                stride: sa,
            }
        } else if p.inner == 1 {
            let len = p.block.min(p.extent - self.a);
            self.a += len;
            self.b += 1;
            Run {
                start: self.start,
                len,
                scale: base,
                stride: 0,
            }
        } else {
            self.a += 1;
            self.k += 1;
            if self.k == p.block {
                self.k = 0;
                self.b += 1;
            }
            Run {
                start: self.start,
                len: p.inner,
                scale: base,
                stride: sn,
            }
        };
        self.start += run.len;
        if self.a >= p.extent {
            (self.a, self.b, self.k) = (0, 0, 0);
            self.o += 1;
        }
        Some(run)
    }
}

/// INVALID_SHAPE unless `dims` equals `other_dims`.
pub fn check_same_shape(
    role: &str,
    dims: &[usize],
    other: &str,
    other_dims: &[usize],
) -> Result<(), Error> {
    if dims == other_dims {
        return Ok(());
    }
    Err(Error::InvalidShape(format!(
        "{role} shape {} must equal {other} shape {}",
        shape_text(dims),
        shape_text(other_dims)
    )))
}

/// The walk for x of shape `x`, a scale of shape `s`, `axis` and `block_size`.
pub fn plan(x: &[usize], s: &[usize], axis: i64, block_size: i64) -> Result<Plan, Error> {
    if block_size < 0 {
        return Err(Error::InvalidArgument(format!(
            "block_size is {block_size}; it must be 0 (per-tensor or per-axis) or positive"
        )));
    }
    let count: usize = x.iter().product();
    let scale_count: usize = s.iter().product();
    if scale_count == 1 && s.len() <= 1 {
        return Ok(Plan {
            outer: 1,
            extent: count,
            inner: 1,
            block: 1,
            strides: [0, 0, 0],
        });
    }
    let rank = x.len() as i64;
    if axis < -rank || axis >= rank {
        return Err(Error::InvalidArgument(format!(
            "axis {axis} is outside [{}, {}] for x of shape {} (scale shape {})",
            -rank,
            rank - 1,
            shape_text(x),
            shape_text(s)
        )));
    }
    let ax = if axis < 0 { axis + rank } else { axis } as usize;
    let outer: usize = x[..ax].iter().product();
    let inner: usize = x[ax + 1..].iter().product();
    let extent = x[ax];
    if block_size == 0 {
        if s.len() != 1 || s[0] != extent {
            return Err(Error::InvalidShape(format!(
                "scale shape {} is neither per-tensor ([] or [1]) nor per-axis ([{extent}], \
                 x shape {} along axis {axis}); blocked scales need block_size > 0",
                shape_text(s),
                shape_text(x)
            )));
        }
        return Ok(Plan {
            outer,
            extent,
            inner,
            block: 1,
            strides: [0, 1, 0],
        });
    }
    let block = usize::try_from(block_size).unwrap_or(usize::MAX);
    let blocks = extent.div_ceil(block);
    let mut want = x.to_vec();
    want[ax] = blocks;
    if s != want.as_slice() {
        return Err(Error::InvalidShape(format!(
            "scale shape {} for blocked quantization of x shape {} along axis {axis} with \
             block_size {block_size} must be {}",
            shape_text(s),
            shape_text(x),
            shape_text(&want)
        )));
    }
    Ok(Plan {
        outer,
        extent,
        inner,
        block,
        strides: [blocks * inner, inner, 1],
    })
}
