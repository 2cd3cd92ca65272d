//! The Chinese remainder theorem, on big integers.
//!
//! Defining identity: for residues `r_i mod q_i` (the `q_i` pairwise coprime, each below 2^64),
//! `combine` returns the unique `x mod Π q_i` with `x ≡ r_i (mod q_i)` for every `i`. For moduli
//! that share factors, `solve_linear` turns `a·y ≡ c (mod m)` into `y ≡ r (mod n)` and `merge`
//! intersects two such congruences, when they are compatible.

use super::arith::{inv_mod, mul_mod, sub_mod};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

/// Combines `(residue, modulus)` pairs with pairwise coprime moduli: in machine words when the
/// product of the moduli fits a `u64` ([`combine_small`]), else on big integers.
pub fn combine(parts: &[(u64, u64)]) -> BigUint {
    match combine_small(parts) {
        Some(x) => BigUint::from(x),
        None => combine_big(parts),
    }
}

/// [`combine`] in machine words: `None` when the product of the moduli passes `u64` (or two
/// moduli share a factor).
pub fn combine_small(parts: &[(u64, u64)]) -> Option<u64> {
    let (mut x, mut m) = (0u64, 1u64);
    for &(r, q) in parts {
        let next = m.checked_mul(q)?;
        let m_inv = inv_mod(m % q, q)?;
        let t = mul_mod(sub_mod(r % q, x % q, q), m_inv, q);
        // x < m and t < q, so x + m·t < m·q = next.
        x += m * t;
        m = next;
    }
    Some(x)
}

/// [`combine`] on big integers, for any product.
fn combine_big(parts: &[(u64, u64)]) -> BigUint {
    let mut x = BigUint::zero();
    let mut m = BigUint::from(1u32);
    for &(r, q) in parts {
        // x' = x + m · t with t = (r - x) · m^(-1) mod q.
        let x_mod_q = (&x % q).to_u64().expect("below q");
        let m_mod_q = (&m % q).to_u64().expect("below q");
        let m_inv = inv_mod(m_mod_q, q).expect("moduli are coprime");
        let diff = super::arith::sub_mod(r % q, x_mod_q, q);
        let t = ((diff as u128 * m_inv as u128) % q as u128) as u64;
        x += &m * t;
        m *= q;
    }
    x
}

/// `a·y ≡ c (mod m)` as `y ≡ r (mod n)`, when solvable (`a`, `c` reduced).
pub(crate) fn solve_linear(a: u64, c: u64, m: u64) -> Option<(u64, u64)> {
    let g = a.gcd(&m);
    if !c.is_multiple_of(g) {
        return None;
    }
    let n = m / g;
    if n == 1 {
        return Some((0, 1));
    }
    let inverse = inv_mod((a / g) % n, n).expect("a/g is a unit modulo m/g");
    Some((mul_mod((c / g) % n, inverse, n), n))
}

/// Intersects `y ≡ r1 (mod n1)` with `y ≡ r2 (mod n2)` (any moduli), when compatible.
pub(crate) fn merge(r1: &BigUint, n1: &BigUint, r2: u64, n2: u64) -> Option<(BigUint, BigUint)> {
    if n2 == 1 {
        return Some((r1.clone(), n1.clone()));
    }
    let to_u64 = |x: BigUint| x.to_u64().expect("reduced below a u64");
    let g = to_u64(n1 % n2).gcd(&n2);
    let diff = sub_mod(r2, to_u64(r1 % n2), n2);
    if !diff.is_multiple_of(g) {
        return None;
    }
    let n2g = n2 / g;
    let t = if n2g == 1 {
        0
    } else {
        let n1g = to_u64((n1 / g) % n2g);
        mul_mod((diff / g) % n2g, inv_mod(n1g, n2g).expect("coprime after dividing by the gcd"), n2g)
    };
    Some((r1 + n1 * t, n1 * n2g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_value_has_every_residue() {
        let parts = [(3u64, 8u64), (4, 9), (1, 5), (12345, (1 << 61) - 1), (7, 1 << 0)];
        let x = combine(&parts);
        for &(r, q) in &parts {
            assert_eq!((&x % q).to_u64().unwrap(), r % q);
        }
        let total: BigUint = parts.iter().map(|&(_, q)| BigUint::from(q)).product();
        assert!(x < total);
    }

    /// The word path and the big-integer path agree on both sides of 2^64: products just
    /// below it take words, products just above it big integers, and both give every residue.
    #[test]
    fn word_and_big_paths_agree_at_the_edge() {
        let cases: [&[(u64, u64)]; 5] = [
            &[(5, 4_294_967_291), (7, 4_294_967_279)],
            &[(5, 4_294_967_291), (7, 4_294_967_311)],
            &[(1, 3), (2, 5), (u64::MAX - 59, u64::MAX - 58)],
            &[(27_719, 27_720), (12, 13), (16, 17)],
            &[(0, 1 << 63), (2, 3)],
        ];
        for parts in cases {
            let product: BigUint = parts.iter().map(|&(_, q)| BigUint::from(q)).product();
            let small = combine_small(parts);
            assert_eq!(small.is_some(), product <= BigUint::from(u64::MAX), "{parts:?}");
            let big = combine_big(parts);
            if let Some(x) = small {
                assert_eq!(BigUint::from(x), big, "{parts:?}");
            }
            assert_eq!(combine(parts), big, "{parts:?}");
            for &(r, q) in parts {
                assert_eq!((&big % q).to_u64().unwrap(), r % q, "{parts:?}");
            }
        }
    }

    /// Against enumeration: `solve_linear` finds exactly the `y` below `m` with `a·y ≡ c`, and
    /// `merge` exactly the `y` below `lcm` that satisfy both congruences.
    #[test]
    fn congruences_against_enumeration() {
        for m in 1..=24u64 {
            for a in 0..m {
                for c in 0..m {
                    let expected: Vec<u64> = (0..m).filter(|&y| (a * y) % m == c).collect();
                    let found: Vec<u64> = match solve_linear(a, c, m) {
                        Some((r, n)) => (0..m).filter(|&y| y % n == r).collect(),
                        None => Vec::new(),
                    };
                    assert_eq!(found, expected, "{a}·y ≡ {c} (mod {m})");
                }
            }
        }
        for n1 in 1..=12u64 {
            for r1 in 0..n1 {
                for n2 in 1..=12u64 {
                    for r2 in 0..n2 {
                        let lcm = n1.lcm(&n2);
                        let expected: Vec<u64> = (0..lcm).filter(|&y| y % n1 == r1 && y % n2 == r2).collect();
                        let found: Vec<u64> = match merge(&BigUint::from(r1), &BigUint::from(n1), r2, n2) {
                            Some((r, n)) => {
                                let (r, n) = (r.to_u64().unwrap(), n.to_u64().unwrap());
                                assert_eq!(n, lcm);
                                (0..lcm).filter(|&y| y % n == r % n).collect()
                            }
                            None => Vec::new(),
                        };
                        assert_eq!(found, expected, "y ≡ {r1} (mod {n1}), y ≡ {r2} (mod {n2})");
                    }
                }
            }
        }
    }
}
