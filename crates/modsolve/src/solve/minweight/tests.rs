//! Tests of the minimum-weight walk: against enumeration, with restrictions, symmetries,
//! parts and cutoffs, and the transform against its definition.

use super::blocks::permuted;
use super::walk::walsh_hadamard;
use super::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn random_vector(rng: &mut StdRng, bits: usize, density: f64) -> Vec<u64> {
    pack((0..bits).map(|_| rng.random_bool(density)))
}

/// Every plan of the walk placed by its coordinates: `plan_at` gives it back in the part
/// whose blocks hold it and in no other part (the Gray code undone), and a part's walk
/// reports coordinates that `plan_at` places in that part.
#[test]
fn coordinates_place_every_plan_in_its_own_part() {
    let mut rng = StdRng::seed_from_u64(44);
    for (bits, k) in [(200usize, 12usize), (64, 14), (40, 16)] {
        let coset = Coset {
            bits,
            x0: random_vector(&mut rng, bits, 0.5),
            basis: (0..k).map(|_| random_vector(&mut rng, bits, 0.3)).collect(),
        }
        .independent();
        let prepared = Prepared::new(&coset, &[]);
        let (a, b) = (prepared.blocks.outer.len(), prepared.blocks.inner.len());
        let low = prepared.blocks.low();
        // Past 8 outer generators the positions below a chunk's are in Gray-code order.
        assert!(bits > 100 || low > 0, "{bits} bits: {a} outer generators");
        for count in [1u64, 3, 7] {
            let parts: Vec<Part> = (0..count).map(|index| Part { index, count }).collect();
            for position in 0..prepared.unit_count() as u64 {
                let o = outer_combination(position, low);
                let t = (position as usize * 7) % (1 << b);
                let at = prepared.coordinates(o, t);
                assert_eq!(at.len(), a + b);
                let plan = prepared.blocks.plan(&prepared.x0, o, t);
                for part in &parts {
                    let (lo, hi) = part.range(prepared.unit_count());
                    let inside = (lo..hi).contains(&u128::from(position));
                    let placed = prepared.plan_at(*part, &at);
                    assert_eq!(placed.as_ref() == Some(&plan), inside, "position {position}, {part:?}");
                    assert_eq!(placed.is_some(), inside);
                }
            }
            for part in &parts {
                let found = prepared.walk(Budget { nodes: u64::MAX, time: None }, *part, None);
                if let Some(at) = &found.at {
                    assert_eq!(prepared.plan_at(*part, at), Some(found.best.clone()), "{part:?}");
                }
            }
        }
        assert!(prepared.plan_at(Part::WHOLE, &vec![2; a + b]).is_none());
        assert!(prepared.plan_at(Part::WHOLE, &vec![0; a + b + 1]).is_none());
    }
}

/// Every vector of the set, by plain enumeration.
fn brute_minimum(coset: &Coset) -> u32 {
    let k = coset.basis.len();
    (0..1u64 << k)
        .map(|t| {
            let mut x = coset.x0.clone();
            for (i, g) in coset.basis.iter().enumerate() {
                if t >> i & 1 == 1 {
                    xor_into(&mut x, g);
                }
            }
            weight(&x)
        })
        .min()
        .unwrap()
}

fn in_span(coset: &Coset, v: &[u64]) -> bool {
    let mut target = xor(v, &coset.x0);
    let reduced = coset.clone().independent();
    for g in &reduced.basis {
        let p = first_one(g).unwrap();
        if bit(&target, p) {
            xor_into(&mut target, g);
        }
    }
    target.iter().all(|&w| w == 0)
}

/// Random sets of dimension up to 16 and lengths from 1 to 700 bits, sparse and dense
/// bases, with dependent vectors: the walk's minimum equals plain enumeration, and the
/// vector it returns lies in the set.
#[test]
fn equals_enumeration_on_random_sets() {
    let mut rng = StdRng::seed_from_u64(15);
    for case in 0..300 {
        let bits = [1, 5, 63, 64, 65, 130, 300, 700][case % 8];
        let k = rng.random_range(0..=16usize);
        let density = [0.5, 0.1, 0.02][case % 3];
        let mut basis: Vec<Vec<u64>> = (0..k).map(|_| random_vector(&mut rng, bits, density)).collect();
        if k > 2 && case % 5 == 0 {
            basis.push(xor(&basis[0], &basis[1]));
        }
        let coset = Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }.independent();
        let expected = brute_minimum(&coset);
        let found = min_weight(&coset, &[], Budget { nodes: u64::MAX, time: None });
        assert!(found.complete, "case {case}");
        assert_eq!(found.weight, expected, "case {case}: {bits} bits, dimension {}", coset.dimension());
        assert_eq!(weight(&found.best), expected, "case {case}");
        assert!(in_span(&coset, &found.best), "case {case}");
    }
}

/// Restricting to zero bits equals filtering the enumeration.
#[test]
fn restriction_equals_filtering() {
    let mut rng = StdRng::seed_from_u64(16);
    for case in 0..200 {
        let bits = [6, 40, 100][case % 3];
        let k = rng.random_range(0..=10usize);
        let basis = (0..k).map(|_| random_vector(&mut rng, bits, 0.3)).collect();
        let coset = Coset { bits, x0: random_vector(&mut rng, bits, 0.3), basis }.independent();
        let zeros: Vec<usize> = (0..rng.random_range(0..4)).map(|_| rng.random_range(0..bits)).collect();
        let mut expected: Option<u32> = None;
        let mut count = 0u64;
        for t in 0..1u64 << coset.dimension() {
            let mut x = coset.x0.clone();
            for (i, g) in coset.basis.iter().enumerate() {
                if t >> i & 1 == 1 {
                    xor_into(&mut x, g);
                }
            }
            if zeros.iter().all(|&j| !bit(&x, j)) {
                count += 1;
                expected = Some(expected.map_or(weight(&x), |e| e.min(weight(&x))));
            }
        }
        match coset.restricted(&zeros) {
            None => assert_eq!(count, 0, "case {case}"),
            Some(r) => {
                assert_eq!(1u64 << r.dimension(), count, "case {case}");
                let found = min_weight(&r, &[], Budget { nodes: u64::MAX, time: None });
                assert_eq!(Some(found.weight), expected, "case {case}");
                assert!(zeros.iter().all(|&j| !bit(&found.best, j)), "case {case}");
            }
        }
    }
}

/// Sets mapped onto themselves by reversing the positions, and by a rotation of four blocks:
/// the walk that skips images finds the minimum of plain enumeration; a permutation that
/// does not map the set onto itself is ignored, not trusted.
#[test]
fn symmetries_skip_images_without_losing_the_minimum() {
    let mut rng = StdRng::seed_from_u64(17);
    for case in 0..120 {
        let bits = [40, 64, 200, 400][case % 4];
        let reverse: Vec<usize> = (0..bits).rev().collect();
        let quarter = bits / 4;
        let rotate: Vec<usize> =
            (0..bits).map(|p| if p < 4 * quarter { (p + quarter) % (4 * quarter) } else { p }).collect();
        let rotations = [
            rotate.clone(),
            permuted_perm(&rotate, &rotate),
            permuted_perm(&rotate, &permuted_perm(&rotate, &rotate)),
        ];
        let perms: Vec<Vec<usize>> = if case % 2 == 0 { vec![reverse] } else { rotations.to_vec() };
        let mut basis = Vec::new();
        for _ in 0..rng.random_range(1..=4) {
            let v = random_vector(&mut rng, bits, 0.2);
            basis.push(v.clone());
            for perm in &perms {
                basis.push(permuted(&v, perm));
            }
        }
        // A fixed x0 (its orbit sum) keeps the set invariant.
        let mut x0 = random_vector(&mut rng, bits, 0.3);
        let images: Vec<Vec<u64>> = perms.iter().map(|perm| permuted(&x0, perm)).collect();
        for image in &images {
            xor_into(&mut x0, image);
        }
        let coset = Coset { bits, x0, basis }.independent();
        if coset.dimension() > 16 {
            continue;
        }
        let expected = brute_minimum(&coset);
        let budget = Budget { nodes: u64::MAX, time: None };
        let with = min_weight(&coset, &perms, budget);
        assert_eq!(with.weight, expected, "case {case}");
        assert!(in_span(&coset, &with.best), "case {case}");
        // A shift by one position maps nothing here onto itself.
        let shift: Vec<usize> = (0..bits).map(|p| (p + 1) % bits).collect();
        let wrong = min_weight(&coset, &[shift], budget);
        assert_eq!(wrong.weight, expected, "case {case}");
    }
}

/// The least weight of the set by a Gray-code walk over every vector (one XOR a step).
fn gray_minimum(coset: &Coset) -> u32 {
    let mut x = coset.x0.clone();
    let mut least = weight(&x);
    for step in 1..1u64 << coset.dimension() {
        xor_into(&mut x, &coset.basis[step.trailing_zeros() as usize]);
        least = least.min(weight(&x));
    }
    least
}

/// Sets of dimension 17 to 22, so that the walk takes many Gray-code steps within a chunk
/// (the plan is brought up to date through the table of low combinations, and with a
/// symmetry only between walked blocks), and sets longer than `i16::MAX` bits, whose
/// transform runs on `i32`: the minimum equals plain enumeration.
#[test]
fn long_walks_and_long_plans_equal_enumeration() {
    let mut rng = StdRng::seed_from_u64(23);
    let budget = Budget { nodes: u64::MAX, time: None };
    for case in 0..30 {
        let (coset, perms) = match case % 3 {
            0 => {
                let bits = [300, 700, 1500][case % 9 / 3];
                let k = rng.random_range(17..=22usize);
                let density = [0.5, 0.1, 0.03][case % 9 / 3];
                let basis = (0..k).map(|_| random_vector(&mut rng, bits, density)).collect();
                (Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }, Vec::new())
            }
            1 => {
                let bits = [200, 401][case % 2];
                let reverse: Vec<usize> = (0..bits).rev().collect();
                let mut basis = Vec::new();
                for _ in 0..rng.random_range(9..=11) {
                    let v = random_vector(&mut rng, bits, 0.2);
                    basis.push(permuted(&v, &reverse));
                    basis.push(v);
                }
                let mut x0 = random_vector(&mut rng, bits, 0.3);
                let image = permuted(&x0, &reverse);
                xor_into(&mut x0, &image);
                (Coset { bits, x0, basis }, vec![reverse])
            }
            _ => {
                let bits = 33_000;
                let k = rng.random_range(17..=18usize);
                let density = [0.5, 0.01][case % 2];
                let basis = (0..k).map(|_| random_vector(&mut rng, bits, density)).collect();
                (Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }, Vec::new())
            }
        };
        let coset = coset.independent();
        assert!(coset.dimension() >= 17, "case {case}: dimension {}", coset.dimension());
        let expected = gray_minimum(&coset);
        let found = min_weight(&coset, &perms, budget);
        assert!(found.complete, "case {case}");
        assert_eq!(
            found.weight,
            expected,
            "case {case}: {} bits, dimension {}",
            coset.bits,
            coset.dimension()
        );
        assert_eq!(weight(&found.best), expected, "case {case}");
        assert!(in_span(&coset, &found.best), "case {case}");
    }
}

/// Plans of `i16::MAX` positions, the longest on 16-bit lanes, and one more (on 32-bit
/// lanes), in sets that hold the plan 0 far from the descent's start: the block of 0 has a
/// transform value equal to the length itself, and the walk must find weight 0. Also sets
/// around the plan of all ones (the value minus the length).
#[test]
fn the_longest_plans_on_16_bit_lanes_do_not_overflow() {
    let mut rng = StdRng::seed_from_u64(31);
    for bits in [i16::MAX as usize, i16::MAX as usize + 1] {
        for case in 0..4 {
            let basis: Vec<Vec<u64>> = (0..17).map(|_| random_vector(&mut rng, bits, 0.5)).collect();
            let mut x0 =
                if case % 2 == 0 { vec![0u64; bits.div_ceil(64)] } else { pack((0..bits).map(|_| true)) };
            for g in basis.iter().take(5 + case) {
                xor_into(&mut x0, g);
            }
            let coset = Coset { bits, x0, basis }.independent();
            let expected = gray_minimum(&coset);
            let found = min_weight(&coset, &[], Budget { nodes: u64::MAX, time: None });
            assert!(found.complete, "case {case}");
            assert_eq!(found.weight, expected, "case {case}, {bits} bits");
            assert_eq!(weight(&found.best), expected, "case {case}");
            assert!(in_span(&coset, &found.best), "case {case}");
        }
    }
}

/// Sets of 2^63 to 2^70 plans, past what the whole walk takes, are walked in parts: at most
/// 62 outer generators (more go inner, also with a symmetry), every plan in exactly one
/// block (`units · 2^inner = 2^k`), the parts of any N consecutive ranges from 0 to the last
/// block, and a part walked within a budget stops unfinished with a plan of the set.
#[test]
fn sets_past_2_to_the_62_are_walked_in_parts() {
    let mut rng = StdRng::seed_from_u64(41);
    for (case, (k, bits)) in
        [(64usize, 6241usize), (64, 300), (63, 100), (70, 4000), (64, 4000)].into_iter().enumerate()
    {
        let (basis, perms): (Vec<Vec<u64>>, Vec<Vec<usize>>) = if case == 4 {
            // Mapped onto itself by reversing the positions: pairs of a vector and its image.
            let reverse: Vec<usize> = (0..bits).rev().collect();
            let mut basis = Vec::new();
            for _ in 0..k / 2 {
                let v = random_vector(&mut rng, bits, 0.02);
                basis.push(permuted(&v, &reverse));
                basis.push(v);
            }
            (basis, vec![reverse])
        } else {
            ((0..k).map(|_| random_vector(&mut rng, bits, 0.05)).collect(), Vec::new())
        };
        let x0 =
            if perms.is_empty() { random_vector(&mut rng, bits, 0.5) } else { vec![0; bits.div_ceil(64)] };
        let coset = Coset { bits, x0, basis }.independent();
        assert_eq!(coset.dimension(), k, "case {case}");
        assert!(k > MAX_DIMENSION && k <= MAX_PART_DIMENSION);
        let prepared = Prepared::new(&coset, &perms);
        let (inner, outer) = (prepared.blocks.inner.len(), prepared.blocks.outer.len());
        assert!(outer <= MAX_OUTER && inner <= 8, "case {case}: {inner} inner, {outer} outer");
        assert_eq!(inner + outer, k, "case {case}");
        let units = prepared.unit_count();
        assert_eq!(units << inner, 1u128 << k, "case {case}");
        if case == 4 {
            let actions = &prepared.layout.as_ref().unwrap().actions;
            assert!(!actions.is_empty(), "case {case}: the reversal is used");
        }
        for n in [1u64, 3, 1000, 1 << 20] {
            let last = Part { index: n - 1, count: n }.range(units).1;
            assert_eq!(last, units, "case {case}, N {n}");
            let (small, large) = (units / u128::from(n), units.div_ceil(u128::from(n)));
            for index in [0, 1, n / 2, n.saturating_sub(2), n - 1].into_iter().filter(|&k| k < n) {
                let (lo, hi) = Part { index, count: n }.range(units);
                let next = Part { index: (index + 1).min(n - 1), count: n }.range(units).0;
                assert!(index + 1 == n || next == hi, "case {case}: {index}/{n}");
                assert!(hi - lo == small || hi - lo == large, "case {case}: {index}/{n}");
            }
            assert_eq!(Part { index: 0, count: n }.range(units).0, 0);
        }
        let budget = Budget { nodes: 1 << 13, time: None };
        let found = prepared.walk(budget, Part { index: 777, count: 1 << 20 }, None);
        assert!(!found.complete, "case {case}");
        assert!(found.nodes >= 1 << 13, "case {case}: {} nodes", found.nodes);
        assert!(in_span(&coset, &found.best), "case {case}");
        assert_eq!(weight(&found.best), found.weight);
    }
}

/// A cutoff `below`: a part whose least plan weighs less than `below` returns that plan,
/// as without the cutoff; otherwise it finishes with no plan lighter than `below`, against
/// the part's plans enumerated, for cutoffs under, at and over the set's minimum.
#[test]
fn a_cutoff_finds_the_parts_plans_below_it() {
    let mut rng = StdRng::seed_from_u64(43);
    let budget = Budget { nodes: u64::MAX, time: None };
    for case in 0..60 {
        let bits = [40, 130, 300][case % 3];
        let k = rng.random_range(1..=14usize);
        let basis = (0..k).map(|_| random_vector(&mut rng, bits, 0.2)).collect();
        let coset = Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }.independent();
        let prepared = Prepared::new(&coset, &[]);
        let least = brute_minimum(&coset);
        for n in [1u64, 3, 8] {
            for index in 0..n {
                let part = Part { index, count: n };
                let plans = part_plans(&coset, &[], part, u64::MAX).unwrap();
                let part_least = plans.iter().map(|x| weight(x)).min();
                let whole = prepared.walk(budget, part, None);
                for below in [0, least, least + 1, least + 3, u32::MAX] {
                    let found = prepared.walk(budget, part, Some(below));
                    assert!(found.complete, "case {case}");
                    assert!(in_span(&coset, &found.best), "case {case}");
                    match part_least {
                        Some(m) if m < below && m <= weight(&prepared.blocks.first) => {
                            assert_eq!(found.weight, m, "case {case}, part {index}/{n}, below {below}");
                            assert_eq!(found.best, whole.best, "case {case}: the same plan as without");
                        }
                        _ => assert!(
                            found.weight >= below.min(whole.weight),
                            "case {case}, part {index}/{n}, below {below}"
                        ),
                    }
                }
            }
        }
    }
}

fn permuted_perm(a: &[usize], b: &[usize]) -> Vec<usize> {
    (0..a.len()).map(|p| b[a[p]]).collect()
}

/// The transform against its definition, on `i16` and `i32`, for every size up to 2^9 (the
/// three lowest levels go by runs of 8 from 8 entries on).
#[test]
fn walsh_hadamard_matches_definition() {
    let mut rng = StdRng::seed_from_u64(29);
    for b in 0..=9 {
        let v: Vec<i32> = (0..1 << b).map(|_| rng.random_range(-50..=50)).collect();
        let mut wide = v.clone();
        walsh_hadamard(&mut wide, b);
        let mut narrow: Vec<i16> = v.iter().map(|&x| x as i16).collect();
        walsh_hadamard(&mut narrow, b);
        for (t, (&ht, &hn)) in wide.iter().zip(&narrow).enumerate() {
            let direct: i32 =
                v.iter().enumerate().map(|(c, &x)| if (c & t).count_ones() % 2 == 0 { x } else { -x }).sum();
            assert_eq!(ht, direct, "b = {b}, t = {t}");
            assert_eq!(i32::from(hn), direct, "b = {b}, t = {t}");
        }
    }
}
