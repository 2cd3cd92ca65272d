//! Staged presses (`phases`) in the analysis: one elimination per prime answers every case of
//! a cut last press, and the best plan is the best over the cases.

use std::time::Instant;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};

use super::{Analysis, Count, Options, search_problem};
use crate::error::InternalError;
use crate::model::Puzzle;
use crate::solve::difference;
use crate::solve::optimize::{Plan, Proof, explore};
use crate::solve::search::Objective;

/// Staged presses: a plan is full presses `z` and, optionally, one more press of button `j` cut
/// after `k` phases because the puzzle was solved: `A·z ≡ d − P_k·e_j` (`P_k` the first `k`
/// phases summed). Every case shares the matrix, so one elimination per prime answers all of
/// them; each solvable case has `kernel_size` plans. The fewest is the best over the cases (a
/// cut press counts).
pub(super) fn by_stages(
    puzzle: &Puzzle,
    options: &Options,
    started: Instant,
) -> Result<Analysis, InternalError> {
    use crate::algebra::arith::sub_mod;
    use crate::solve::optimize::{NotSearched, Partial};
    if options.list_all {
        return Err(InternalError::Unsupported(
            "listing every plan is not available for staged presses (phases) yet; the count is".into(),
        ));
    }
    let d = difference(puzzle);
    let mut cases: Vec<Option<Partial>> = vec![None];
    let mut differences = vec![d.clone()];
    for j in 0..puzzle.button_count() {
        let mut dk = d.clone();
        for k in 1..puzzle.phase_count(j) {
            for (i, a) in puzzle.phase_effects(j, k - 1) {
                dk[i] = sub_mod(dk[i], a, puzzle.moduli[i]);
            }
            cases.push(Some(Partial { button: j, phases: k }));
            differences.push(dk.clone());
        }
    }
    let (base, solutions) = crate::solve::solve_differences(puzzle, &differences)?;
    let solvable = solutions.iter().filter(|s| s.is_some()).count();
    let mut analysis = Analysis {
        engine: options.engine,
        periods: base.periods.clone(),
        solvable: Some(solvable > 0),
        fewest: None,
        optimal: None,
        count: Count { value: &base.kernel_size * BigUint::from(solvable), exact: true },
        quiet_patterns: Some(base.quiet_patterns()),
        listing: None,
        search_nodes: Some(0),
        limited: false,
        method: Some(base.method),
        seeds: base.seeds,
        chased: base.chased,
        relaxed: [false; 2],
        kernel_factors: base.kernel_factors.clone(),
    };
    let best_for = |objective: Objective| -> Option<Plan> {
        let mut best: Option<(crate::solve::search::Score, Plan)> = None;
        let mut proof = Proof::Proven;
        for ((case, solution), dk) in cases.iter().zip(&solutions).zip(&differences) {
            let Some(z) = solution else { continue };
            let mut coset = base.clone();
            coset.presses = Some(z.clone());
            coset.count = coset.kernel_size.clone();
            let problem = |highest: &[u64]| {
                let mut p = search_problem(puzzle, highest);
                p.rhs = dk.clone();
                p
            };
            let (mut presses, case_proof) =
                match explore(&coset, problem, None, objective, options.budget.since(started), &[]) {
                    Ok(found) => match found.best {
                        Some(plan) => (plan.presses, plan.proof),
                        None => (z.clone(), Proof::BudgetRanOut),
                    },
                    Err(_) if coset.kernel_size.is_one() => (z.clone(), Proof::Proven),
                    Err(why) => (z.clone(), Proof::NotSearched(why)),
                };
            if proof.is_proven() {
                proof = case_proof;
            }
            // Other objectives than the total are scored on the full plan but searched on z.
            if case.is_some() && objective != Objective::Total && proof.is_proven() {
                proof = Proof::NotSearched(NotSearched::StagedObjective);
            }
            if let Some(partial) = case {
                presses[partial.button] += 1u32;
            }
            let score =
                presses.iter().map(|x| x.to_u64()).collect::<Option<Vec<u64>>>().map(|x| objective.score(&x));
            let score = score.unwrap_or((u128::MAX, u128::MAX));
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((
                    score,
                    Plan { presses, objective, proof: Proof::Proven, partial: *case, lower_bound: None },
                ));
            }
        }
        best.map(|(_, mut plan)| {
            plan.proof = proof;
            plan
        })
    };
    analysis.fewest = best_for(Objective::Total);
    if options.objective != Objective::Total {
        analysis.optimal = best_for(options.objective);
    }
    Ok(analysis)
}
