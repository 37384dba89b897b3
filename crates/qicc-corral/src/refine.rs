//! Refinement of the variable abstraction (Sec. 3.1): which globals to track so that a
//! spurious counterexample goes away.
//!
//! Both algorithms work over an oracle `correct(T)`: "with the globals in `T` tracked (and
//! the others abstracted), is the counterexample's goal unreachable?". The precondition is
//! that tracking every global makes it correct. [`hierarchical`] is the paper's divide and
//! conquer (Alg. 1 when the oracle encodes the abstracted path afresh for each `T`, Alg. 2
//! when it only changes the assumptions over one parameterized VC on the solver stack — the
//! engine's way); [`one_at_a_time`] is STORM's algorithm, the baseline. Both return a
//! *minimal* set: tracking it is correct, and dropping any one more of its globals is not
//! (Theorem 1).

use std::collections::BTreeSet;

/// An oracle: is the goal unreachable when tracking exactly this set? `Err`: no answer.
pub type Oracle<'a> = dyn FnMut(&BTreeSet<usize>) -> Result<bool, String> + 'a;

/// Alg. 1 / Alg. 2: `hrefine(T, D, P)` with `universe` the globals `G`. Needs `T ∩ D = ∅` and
/// `correct(G − D)`; returns `R` with `T ⊆ R ⊆ G − D`, `correct(R)`, and `R` minimal.
pub fn hierarchical(
    t: &BTreeSet<usize>,
    d: &BTreeSet<usize>,
    universe: &BTreeSet<usize>,
    correct: &mut Oracle<'_>,
) -> Result<BTreeSet<usize>, String> {
    let undecided: Vec<usize> = universe
        .iter()
        .copied()
        .filter(|v| !t.contains(v) && !d.contains(v))
        .collect();
    if undecided.is_empty() {
        return Ok(t.clone());
    }
    if correct(t)? {
        return Ok(t.clone());
    }
    if undecided.len() == 1 {
        let mut r = t.clone();
        r.extend(undecided);
        return Ok(r);
    }
    let (t1, t2) = undecided.split_at(undecided.len() / 2);
    let with_t2: BTreeSet<usize> = t.iter().chain(t2).copied().collect();
    let s1 = hierarchical(&with_t2, d, universe, correct)?;
    let s1_in_t1: BTreeSet<usize> = t1.iter().copied().filter(|v| s1.contains(v)).collect();
    let t_next: BTreeSet<usize> = t.union(&s1_in_t1).copied().collect();
    let d_next: BTreeSet<usize> = d
        .iter()
        .copied()
        .chain(t1.iter().copied().filter(|v| !s1_in_t1.contains(v)))
        .collect();
    hierarchical(&t_next, &d_next, universe, correct)
}

/// STORM's refinement: starting from every global tracked, drop one undecided global at a
/// time and keep it dropped when the goal stays unreachable (one query per global of
/// `universe − t`).
pub fn one_at_a_time(
    t: &BTreeSet<usize>,
    universe: &BTreeSet<usize>,
    correct: &mut Oracle<'_>,
) -> Result<BTreeSet<usize>, String> {
    let mut r = universe.clone();
    for v in universe.iter().copied().filter(|v| !t.contains(v)) {
        r.remove(&v);
        if !correct(&r)? {
            r.insert(v);
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An oracle over a monotone condition: correct iff `needed` is tracked (or one of the
    /// alternatives in `either`).
    fn oracle<'a>(
        needed: &'a [usize],
        either: &'a [usize],
        calls: &'a mut u32,
    ) -> impl FnMut(&BTreeSet<usize>) -> Result<bool, String> + 'a {
        move |t| {
            *calls += 1;
            Ok(needed.iter().all(|v| t.contains(v))
                && (either.is_empty() || either.iter().any(|v| t.contains(v))))
        }
    }

    #[test]
    fn finds_the_one_needed_global_in_logarithmically_many_queries() {
        let universe: BTreeSet<usize> = (0..501).collect();
        let mut calls = 0;
        let r = hierarchical(
            &BTreeSet::new(),
            &BTreeSet::new(),
            &universe,
            &mut oracle(&[500], &[], &mut calls),
        )
        .expect("answers");
        assert_eq!(r, BTreeSet::from([500]));
        assert!(calls <= 2 * 10, "{calls} queries for one of 501");
        let mut storm = 0;
        let r = one_at_a_time(
            &BTreeSet::new(),
            &universe,
            &mut oracle(&[500], &[], &mut storm),
        )
        .expect("answers");
        assert_eq!(r, BTreeSet::from([500]));
        assert_eq!(storm, 501);
    }

    #[test]
    fn results_are_minimal_when_alternatives_exist() {
        let universe: BTreeSet<usize> = (0..20).collect();
        let mut calls = 0;
        let r = hierarchical(
            &BTreeSet::from([3]),
            &BTreeSet::new(),
            &universe,
            &mut oracle(&[7], &[12, 15], &mut calls),
        )
        .expect("answers");
        assert!(r.contains(&3) && r.contains(&7));
        assert_eq!(r.len(), 3, "{r:?}");
        assert!(r.contains(&12) || r.contains(&15));
    }
}
