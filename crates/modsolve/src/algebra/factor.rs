//! Factoring 64-bit moduli: trial division by small primes, a deterministic Miller–Rabin test,
//! and Brent's variant of Pollard's rho for what remains.
//!
//! Invariant: `factorize(n)` returns the primes of `n` in increasing order with their exponents,
//! and their product is `n`.

use super::arith::{add_mod, mul_mod, pow_mod};
use num_integer::gcd;

/// Deterministic primality for every `u64` (the first twelve primes are a sufficient witness set).
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const WITNESSES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in WITNESSES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'witness: for a in WITNESSES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// A nontrivial factor of the odd composite `n` (Brent's cycle finding, batched gcds).
fn pollard_rho(n: u64) -> u64 {
    let mut c = 1u64;
    loop {
        let f = |x: u64| add_mod(mul_mod(x, x, n), c, n);
        let (mut y, mut r, mut q) = (2u64, 1u64, 1u64);
        let (mut x, mut ys, mut g);
        loop {
            x = y;
            for _ in 0..r {
                y = f(y);
            }
            let mut k = 0;
            loop {
                ys = y;
                for _ in 0..r.saturating_sub(k).min(128) {
                    y = f(y);
                    q = mul_mod(q, x.abs_diff(y), n);
                }
                g = gcd(q, n);
                k += 128;
                if k >= r || g != 1 {
                    break;
                }
            }
            r *= 2;
            if g != 1 {
                break;
            }
        }
        if g == n {
            // The batch overshot: step back one at a time.
            loop {
                ys = f(ys);
                g = gcd(x.abs_diff(ys), n);
                if g != 1 {
                    break;
                }
            }
        }
        if g != n {
            return g;
        }
        c += 1;
    }
}

fn collect_prime_factors(n: u64, out: &mut Vec<u64>) {
    if n == 1 {
        return;
    }
    if is_prime(n) {
        out.push(n);
        return;
    }
    let d = pollard_rho(n);
    collect_prime_factors(d, out);
    collect_prime_factors(n / d, out);
}

/// The prime factorisation of `n >= 1`, primes increasing.
pub fn factorize(mut n: u64) -> Vec<(u64, u32)> {
    assert!(n >= 1, "factorize(0)");
    let mut primes = Vec::new();
    for p in [2u64, 3, 5] {
        while n.is_multiple_of(p) {
            primes.push(p);
            n /= p;
        }
    }
    let mut p = 7u64;
    while p <= 1000 && p * p <= n {
        while n.is_multiple_of(p) {
            primes.push(p);
            n /= p;
        }
        p += 2;
    }
    collect_prime_factors(n, &mut primes);
    primes.sort_unstable();
    let mut out: Vec<(u64, u32)> = Vec::new();
    for p in primes {
        match out.last_mut() {
            Some((q, e)) if *q == p => *e += 1,
            _ => out.push((p, 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(f: &[(u64, u32)]) -> u128 {
        f.iter().map(|&(p, e)| (p as u128).pow(e)).product()
    }

    #[test]
    fn factorizations_multiply_back_to_the_number() {
        let cases: &[u64] = &[
            1,
            2,
            12,
            360,
            1 << 63,
            (1 << 61) - 1,
            600851475143,
            4294967291 * 4294967279,
            1000000007 * 998244353,
            u64::MAX,
            18446744073709551557,
            3 * 3 * 3 * 1_000_003 * 1_000_033,
        ];
        for &n in cases {
            let f = factorize(n);
            assert_eq!(product(&f), n as u128, "n={n}");
            for &(p, _) in &f {
                assert!(is_prime(p), "{p} from {n} is not prime");
            }
            assert!(f.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }

    #[test]
    fn primality_against_trial_division() {
        for n in 0u64..5000 {
            let trial = n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
            assert_eq!(is_prime(n), trial, "n={n}");
        }
        // Strong pseudoprimes to several small bases.
        assert!(!is_prime(3215031751));
        assert!(!is_prime(3825123056546413051));
    }
}
