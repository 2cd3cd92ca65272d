//! Modular arithmetic on 64-bit residues: products through `u128`, inverses by the extended
//! Euclidean algorithm, and p-adic valuations.
//!
//! Every function takes its modulus explicitly and assumes its arguments are already reduced
//! (`a < m`); moduli are at most `2^64 - 1`, so a product of two residues fits in a `u128`.

/// `a · b mod m`.
#[inline]
pub fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    // A product that fits a word is reduced by a word division (`u128` division is a call).
    match a.checked_mul(b) {
        Some(product) => product % m,
        None => ((a as u128 * b as u128) % m as u128) as u64,
    }
}

/// Products mod `q` without a division: a mask for powers of two, Barrett reduction for
/// `q <= 2^32` (the product fits a `u64`; the quotient estimate is short by at most 2), and
/// `u128` division otherwise.
#[derive(Clone, Copy, Debug)]
pub struct Ring {
    /// The modulus.
    pub q: u64,
    /// `q - 1` when `q` is a power of two, else 0.
    mask: u64,
    /// `⌊(2^64 - 1)/q⌋` when `q <= 2^32`, else 0.
    barrett: u64,
}

impl Ring {
    /// The ring `Z/q` (`q >= 2`).
    pub fn new(q: u64) -> Self {
        let mask = if q.is_power_of_two() { q - 1 } else { 0 };
        let barrett = if q <= 1 << 32 { u64::MAX / q } else { 0 };
        Ring { q, mask, barrett }
    }

    /// `x mod q` for any `x` below 2^64.
    #[inline]
    pub fn reduce(self, x: u64) -> u64 {
        if self.mask != 0 {
            x & self.mask
        } else if self.barrett != 0 {
            let estimate = ((x as u128 * self.barrett as u128) >> 64) as u64;
            let mut r = x - estimate * self.q;
            while r >= self.q {
                r -= self.q;
            }
            r
        } else {
            x % self.q
        }
    }

    /// `a·b mod q` for reduced `a`, `b`.
    #[inline]
    pub fn mul(self, a: u64, b: u64) -> u64 {
        if self.mask != 0 {
            a.wrapping_mul(b) & self.mask
        } else if self.barrett != 0 {
            let x = a * b;
            let estimate = ((x as u128 * self.barrett as u128) >> 64) as u64;
            let mut r = x - estimate * self.q;
            while r >= self.q {
                r -= self.q;
            }
            r
        } else {
            ((a as u128 * b as u128) % self.q as u128) as u64
        }
    }
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
    let a = a.into();
    // Amounts are mostly written reduced, and nearly always fit a word.
    match u64::try_from(a) {
        Ok(small) if small < m => small,
        Ok(small) => small % m,
        Err(_) => a.rem_euclid(m as i128) as u64,
    }
}

/// The inverse of `a` modulo `m`, when `gcd(a, m) = 1`.
pub fn inv_mod(a: u64, m: u64) -> Option<u64> {
    if m == 1 {
        return Some(0);
    }
    if m <= 1 << 62 {
        // The same steps in machine words: remainders and coefficients stay below m in size,
        // and a quotient times a coefficient below 2m.
        let (mut old_r, mut r) = ((a % m) as i64, m as i64);
        let (mut old_s, mut s) = (1i64, 0i64);
        while r != 0 {
            let q = old_r / r;
            (old_r, r) = (r, old_r - q * r);
            (old_s, s) = (s, old_s - q * s);
        }
        return (old_r == 1).then(|| old_s.rem_euclid(m as i64) as u64);
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
    if p == 2 {
        return a.trailing_zeros();
    }
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
        // Both sides of the word path's bound, 2^62.
        for m in [2u64, 3, 8, 9, 35, (1 << 62) - 57, 1 << 62, (1 << 62) + 135, u64::MAX - 58] {
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

    /// The division-free products (mask, Barrett) equal `u128` division at the edges of their
    /// ranges: operands 0, 1, q − 2, q − 1 and random ones, moduli around 2^32 and 2^64; and so
    /// does the reduction of any word.
    #[test]
    fn word_products_equal_wide_products() {
        let mut state = 64u64;
        for q in
            [2u64, 3, 4, 7, 65_521, (1 << 32) - 5, 1 << 32, (1 << 32) + 15, 1 << 40, 1 << 63, u64::MAX - 58]
        {
            let ring = Ring::new(q);
            let mut operands = vec![0, 1, q - 2, q - 1];
            operands.extend((0..200).map(|_| a_seed(&mut state) % q));
            for &a in &operands {
                for &b in &operands {
                    let want = ((a as u128 * b as u128) % q as u128) as u64;
                    assert_eq!(ring.mul(a, b), want, "{a}·{b} mod {q}");
                }
            }
            let mut words = vec![0, 1, q - 1, q, u64::MAX, u64::MAX - 1];
            words.extend((0..200).map(|_| a_seed(&mut state)));
            for x in words {
                assert_eq!(ring.reduce(x), x % q, "{x} mod {q}");
            }
        }
    }

    /// A small linear congruential generator (no random-number crate in this module's tests).
    fn a_seed(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        *state ^ (*state >> 29)
    }

    #[test]
    fn valuations() {
        assert_eq!(valuation(48, 2), 4);
        assert_eq!(valuation(48, 3), 1);
        assert_eq!(valuation(49, 5), 0);
        assert_eq!(pow_mod(3, 200, 1000), 1);
    }
}
