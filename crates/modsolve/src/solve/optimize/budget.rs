//! The budget shares of the stages of [`super::explore`]: the default nodes of the walks and the
//! beam, and the fractions of what is left that the beam and the local search get.

use crate::solve::search::{Budget, SearchProblem};

/// A walk whose nodes are costlier than single plans: the default budget gives it `default`
/// nodes, its own share of about the same time as the default's nodes of branch and bound (the
/// default's count, made for single nodes, would stop it at an arbitrary point). A node count
/// or a time a caller chose stays; `spent` nodes are taken off a node count.
pub(super) fn walk_budget(budget: Budget, spent: u64, default: u64) -> Budget {
    if budget.is_default() {
        Budget::of_nodes(default)
    } else {
        Budget { nodes: budget.nodes - spent.min(budget.nodes), ..budget }
    }
}

/// The default budget's nodes for the beam search ([`crate::solve::beam`]) before branch and bound: a tenth
/// of it (the beam's widest pass on an 8×8 mixed grid takes most of them), or half on sparse
/// sets of [`WIDE_BEAM`] buttons, where branch and bound after it improved no plan on the mixed
/// grids (10×10 to 30×30) and the beam's wider passes do.
const BEAM_NODES: u64 = crate::solve::search::DEFAULT_NODES / BEAM_SHARE;
const WIDE_BEAM_NODES: u64 = crate::solve::search::DEFAULT_NODES / 2;

/// The buttons of sets whose beam gets [`WIDE_BEAM_NODES`], when their buttons change at most
/// [`WIDE_BEAM_EFFECTS`] cells on average: from 10×10 on (smaller sets' bounds need branch and bound's
/// nodes) and up to 1000 (past it, a 40×40 torus's wide passes take twice the time a node
/// counts).
const WIDE_BEAM: std::ops::RangeInclusive<usize> = 100..=1000;
const WIDE_BEAM_EFFECTS: usize = 8;

/// The default budget's nodes for the beam on `problem`.
pub(super) fn beam_nodes(problem: &SearchProblem) -> u64 {
    let n = problem.effects.len();
    let entries: usize = problem.effects.iter().map(Vec::len).sum();
    let wide = WIDE_BEAM.contains(&n) && entries <= WIDE_BEAM_EFFECTS * n;
    if wide { WIDE_BEAM_NODES } else { BEAM_NODES }
}

/// Any other budget gives the beam search this fraction of what is left (nodes and time).
pub(super) const BEAM_SHARE: u64 = 10;

/// Sets of mixed periods of at most this many buttons give the iterated local search only
/// `1 / SMALL_MIXED_SHARE` of the budget: branch and bound finds better plans there.
pub(super) const SMALL_MIXED: usize = 100;
pub(super) const SMALL_MIXED_SHARE: u64 = 16;

/// The default budget's nodes for the bounded walk over the quiet basis: about 10 s on the
/// machine the default was measured on (6.5 million nodes in 10 s of 41×41 mod 3 on 2 cores).
pub(super) const BASIS_WALK_NODES: u64 = 6_000_000;

/// The default budget's nodes for the mod-2 minimum-weight walk (a node a block of plans, and one
/// more per 128 cells its bound and transform touch): 2.8 s of CPU on 65×65 Lights Out, 1.4 s on
/// a 1169×41 board (Sapphire Rapids, 2 cores, loaded).
pub(super) const MIN_WEIGHT_NODES: u64 = crate::solve::search::DEFAULT_NODES;

/// The iterated local search gets this fraction of the budget (time and nodes) before branch
/// and bound.
pub(super) const LOCAL_SEARCH_SHARE: u64 = 4;

/// What the default budget counts for each button of a board past the quiet basis
/// ([`super::no_basis`]), taken off its nodes before the search: the work every such board
/// costs before any search, and which grows with it (the algebra, the single cells' cuts, the
/// report of a plan and its periods). On AMD EPYC (2 cores) that work was 8–11 µs a button on
/// 300×300 to 1000×1000 mixed grids, and a node of the search after it about 60 ns; without it
/// a 1000×1000 grid took 24 s where the default promises 15.
pub(super) const FIXED_NODES_PER_BUTTON: u64 = 180;

/// The search's budget on a board of `buttons` past the quiet basis: the default less
/// [`FIXED_NODES_PER_BUTTON`] a button (nothing left past 1.1 million buttons); any other budget
/// as it is (a node count the user chose counts search nodes only).
pub(super) fn after_fixed_work(budget: Budget, buttons: usize) -> Budget {
    if budget.is_default() {
        let fixed = FIXED_NODES_PER_BUTTON.saturating_mul(buttons as u64);
        Budget { nodes: budget.nodes.saturating_sub(fixed), ..budget }
    } else {
        budget
    }
}

/// The window search ([`super::windows`]) runs after the beam on sets of at least this many
/// buttons (past 8×8 grids, where branch and bound proves nothing in the default budget), so
/// smaller sets keep their proven plans as they were.
pub(super) const WINDOW_FROM: usize = 100;

/// The window search gets this fraction of the beam's share (taken off the beam's): one in
/// this many nodes.
pub(super) const WINDOW_SHARE: u64 = 4;

/// The share `share` of the beam split in two: the beam's nodes, then the window search's, on
/// a set of `buttons` buttons (all the beam's below [`WINDOW_FROM`]).
pub(super) fn beam_and_windows(share: u64, buttons: usize) -> (u64, u64) {
    let windows = if buttons >= WINDOW_FROM { share / WINDOW_SHARE } else { 0 };
    (share - windows, windows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::search::DEFAULT_NODES;

    /// The default budget loses its fixed work per button, down to nothing; a budget the user
    /// chose (nodes or time) keeps every node.
    #[test]
    fn the_default_counts_the_fixed_work() {
        let default = Budget::default();
        assert_eq!(after_fixed_work(default, 0), default);
        assert_eq!(after_fixed_work(default, 1_000_000).nodes, DEFAULT_NODES - 180_000_000);
        assert_eq!(after_fixed_work(default, 1_000_000).time, None);
        assert_eq!(after_fixed_work(default, 1_111_111).nodes, DEFAULT_NODES - 199_999_980);
        assert_eq!(after_fixed_work(default, 1_111_112).nodes, 0);
        assert_eq!(after_fixed_work(default, usize::MAX).nodes, 0);
        let chosen = Budget::of_nodes(DEFAULT_NODES - 1);
        assert_eq!(after_fixed_work(chosen, 1_000_000), chosen);
        let timed = Budget::of_time(std::time::Duration::from_secs(3));
        assert_eq!(after_fixed_work(timed, 1_000_000), timed);
    }
}
