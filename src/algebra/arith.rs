//! Modular arithmetic on 64-bit residues: products through `u128`, inverses by the extended
//! Euclidean algorithm, and p-adic valuations.
//!
//! Every function takes its modulus explicitly and assumes its arguments are already reduced
//! (`a < m`); moduli are at most `2^64 - 1`, so a product of two residues fits in a `u128`.

/// `a · b mod m`.
#[inline]
pub fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

/// `a + b mod m` without overflow.
#[inline]
pub fn add_mod(a: u64, b: u64, m: u64) -> u64 {
    let (s, overflow) = a.overflowing_add(b);
    if overflow || s >= m { s.wrapping_sub(m) } else { s }
}

/// `a - b mod m`.
#[inline]
pub fn sub_mod(a: u64, b: u64, m: u64) -> u64 {
    if a >= b { a - b } else { m - (b - a) }
}

/// `-a mod m`.
#[inline]
pub fn neg_mod(a: u64, m: u64) -> u64 {
    if a == 0 { 0 } else { m - a }
}

/// `a^e mod m`.
pub fn pow_mod(mut a: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1 % m;
    a %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, m);
        }
        a = mul_mod(a, a, m);
        e >>= 1;
    }
    r
}

/// Reduces any signed integer up to 128 bits into `[0, m)`.
#[inline]
pub fn reduce_signed(a: impl Into<i128>, m: u64) -> u64 {
    a.into().rem_euclid(m as i128) as u64
}

/// The inverse of `a` modulo `m`, when `gcd(a, m) = 1`.
pub fn inv_mod(a: u64, m: u64) -> Option<u64> {
    if m == 1 {
        return Some(0);
    }
    let (mut old_r, mut r) = (a as i128 % m as i128, m as i128);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    (old_r == 1).then(|| old_s.rem_euclid(m as i128) as u64)
}

/// The exponent of the prime `p` in `a` (`a > 0`).
pub fn valuation(mut a: u64, p: u64) -> u32 {
    debug_assert!(a > 0 && p >= 2);
    let mut v = 0;
    while a.is_multiple_of(p) {
        a /= p;
        v += 1;
    }
    v
}

/// `p^e`, which the caller knows fits in a `u64`.
pub fn prime_power(p: u64, e: u32) -> u64 {
    p.pow(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_times_value_is_one() {
        for m in [2u64, 3, 8, 9, 35, 1 << 62, u64::MAX - 58] {
            for a in [1u64, 3, 5, 7, 11, 12345, m - 1] {
                if let Some(i) = inv_mod(a % m, m) {
                    assert_eq!(mul_mod(a % m, i, m), 1 % m, "a={a} m={m}");
                } else {
                    assert_ne!(num_integer::gcd(a, m), 1, "a={a} m={m}");
                }
            }
        }
    }

    #[test]
    fn modular_add_sub_do_not_overflow() {
        let m = u64::MAX - 58;
        assert_eq!(add_mod(m - 1, m - 1, m), m - 2);
        assert_eq!(sub_mod(0, 1, m), m - 1);
        assert_eq!(reduce_signed(i64::MIN, 7), (i64::MIN as i128).rem_euclid(7) as u64);
        assert_eq!(reduce_signed(-1, m), m - 1);
    }

    #[test]
    fn valuations() {
        assert_eq!(valuation(48, 2), 4);
        assert_eq!(valuation(48, 3), 1);
        assert_eq!(valuation(49, 5), 0);
        assert_eq!(pow_mod(3, 200, 1000), 1);
    }
}
