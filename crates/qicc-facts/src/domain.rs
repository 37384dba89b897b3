//! The abstract domain: for each bit-vector variable, an interval of its *signed* value and an
//! interval of its *unsigned* value (a reduced product). Keeping both views lets comparisons of
//! either signedness refine the state, and makes wrap-around easy to treat soundly: an operation
//! whose exact result leaves the range of a view makes that view unconstrained, because the
//! wrapped result set would be a union of two intervals.

/// A non-empty inclusive interval of mathematical integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: i128,
    pub hi: i128,
}

impl Range {
    pub fn new(lo: i128, hi: i128) -> Option<Range> {
        (lo <= hi).then_some(Range { lo, hi })
    }

    pub fn point(v: i128) -> Range {
        Range { lo: v, hi: v }
    }

    pub fn join(self, o: Range) -> Range {
        Range {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    pub fn meet(self, o: Range) -> Option<Range> {
        Range::new(self.lo.max(o.lo), self.hi.min(o.hi))
    }

    pub fn contains(self, o: Range) -> bool {
        self.lo <= o.lo && o.hi <= self.hi
    }

    pub fn singleton(self) -> Option<i128> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// The full ranges of a width.
pub fn signed_full(w: u16) -> Range {
    let half = 1i128 << (w - 1);
    Range {
        lo: -half,
        hi: half - 1,
    }
}

pub fn unsigned_full(w: u16) -> Range {
    Range {
        lo: 0,
        hi: (1i128 << w) - 1,
    }
}

/// The abstract value of a `w`-bit variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Val {
    pub w: u16,
    pub s: Range,
    pub u: Range,
}

impl Val {
    pub fn top(w: u16) -> Val {
        Val {
            w,
            s: signed_full(w),
            u: unsigned_full(w),
        }
    }

    pub fn constant(w: u16, bits: u64) -> Val {
        let u = bits as i128 & ((1i128 << w) - 1);
        let s = if u >= 1i128 << (w - 1) {
            u - (1i128 << w)
        } else {
            u
        };
        Val {
            w,
            s: Range::point(s),
            u: Range::point(u),
        }
    }

    /// A value from the exact (mathematical) signed range of a result; a range that leaves the
    /// width's signed range gives the full view, because the wrapped values would not be an
    /// interval (clipping would drop them). The unsigned view follows by reduction.
    pub fn from_signed(w: u16, s: Option<Range>) -> Val {
        let s = s.filter(|r| signed_full(w).contains(*r));
        Val {
            w,
            s: s.unwrap_or(signed_full(w)),
            u: unsigned_full(w),
        }
        .reduce()
        .unwrap_or(Val::top(w))
    }

    /// As [`Val::from_signed`], for an exact unsigned range.
    pub fn from_unsigned(w: u16, u: Option<Range>) -> Val {
        let u = u.filter(|r| unsigned_full(w).contains(*r));
        Val {
            w,
            s: signed_full(w),
            u: u.unwrap_or(unsigned_full(w)),
        }
        .reduce()
        .unwrap_or(Val::top(w))
    }

    pub fn is_top(&self) -> bool {
        self.s == signed_full(self.w) && self.u == unsigned_full(self.w)
    }

    /// Makes the two views agree; `None` if they contradict (no value).
    pub fn reduce(self) -> Option<Val> {
        let w = self.w;
        let smax = (1i128 << (w - 1)) - 1;
        let modulus = 1i128 << w;
        let (mut s, mut u) = (self.s, self.u);
        // Non-negative signed values are the unsigned values up to smax, and vice versa.
        if s.lo >= 0 {
            u = u.meet(s)?;
        }
        if s.hi < 0 {
            u = u.meet(Range {
                lo: s.lo + modulus,
                hi: s.hi + modulus,
            })?;
        }
        if u.hi <= smax {
            s = s.meet(u)?;
        }
        if u.lo > smax {
            s = s.meet(Range {
                lo: u.lo - modulus,
                hi: u.hi - modulus,
            })?;
        }
        // A second round: the first may have tightened a view enough to inform the other.
        if s.lo >= 0 {
            u = u.meet(s)?;
        }
        if u.hi <= smax {
            s = s.meet(u)?;
        }
        Some(Val { w, s, u })
    }

    pub fn join(self, o: Val) -> Val {
        Val {
            w: self.w,
            s: self.s.join(o.s),
            u: self.u.join(o.u),
        }
    }

    pub fn meet(self, o: Val) -> Option<Val> {
        Val {
            w: self.w,
            s: self.s.meet(o.s)?,
            u: self.u.meet(o.u)?,
        }
        .reduce()
    }

    /// Interval widening with thresholds: a bound that moved jumps to the nearest threshold
    /// beyond it (constants the program compares against), else to the end of its view. The
    /// thresholds keep loop counters below the point where `i + 1` would wrap around, which
    /// plain widening to the type's maximum would lose for good.
    pub fn widen(self, new: Val, thresholds: &[i128]) -> Val {
        let (sf, uf) = (signed_full(self.w), unsigned_full(self.w));
        let wid = |old: Range, new: Range, full: Range| Range {
            lo: if new.lo < old.lo {
                thresholds
                    .iter()
                    .copied()
                    .filter(|t| *t <= new.lo && *t >= full.lo)
                    .max()
                    .unwrap_or(full.lo)
            } else {
                old.lo
            },
            hi: if new.hi > old.hi {
                thresholds
                    .iter()
                    .copied()
                    .filter(|t| *t >= new.hi && *t <= full.hi)
                    .min()
                    .unwrap_or(full.hi)
            } else {
                old.hi
            },
        };
        Val {
            w: self.w,
            s: wid(self.s, new.s, sf),
            u: wid(self.u, new.u, uf),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_have_both_views() {
        let v = Val::constant(8, 0xff);
        assert_eq!(v.s, Range::point(-1));
        assert_eq!(v.u, Range::point(255));
    }

    #[test]
    fn reduction_transfers_between_views() {
        let v = Val::from_signed(32, Range::new(0, 10))
            .reduce()
            .expect("non-empty");
        assert_eq!(v.u, Range { lo: 0, hi: 10 });
        let v = Val::from_signed(8, Range::new(-3, -1));
        assert_eq!(v.u, Range { lo: 253, hi: 255 });
        let contradiction = Val {
            w: 8,
            s: Range::point(-1),
            u: Range::point(3),
        };
        assert_eq!(contradiction.reduce(), None);
    }
}
