//! The Chinese remainder theorem for pairwise coprime prime powers, on big integers.
//!
//! Defining identity: for residues `r_i mod q_i` (the `q_i` pairwise coprime, each below 2^64),
//! `combine` returns the unique `x mod Π q_i` with `x ≡ r_i (mod q_i)` for every `i`.

use super::arith::inv_mod;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// Combines `(residue, modulus)` pairs with pairwise coprime moduli.
pub fn combine(parts: &[(u64, u64)]) -> BigUint {
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
}
