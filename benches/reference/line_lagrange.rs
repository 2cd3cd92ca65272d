//! The Lagrangian bound over lines of cells, for mixed grids (BENCHMARKS.md, "Lines of cells: a
//! Lagrangian bound measured"): every row and every column of a `mixed.py grid` puzzle (Cross
//! neighbourhood, no wrap, neighbours' weight 1) is a group; each button's press is shared
//! among the lines whose cells it changes (up to six), each line's least shared cost is worked
//! out exactly by dynamic programming along it (its own buttons change three consecutive cells,
//! the neighbouring lines' buttons one cell each, folded into a table per cell), and the shares
//! climb by projected subgradient steps. Every value printed is a lower bound on the fewest
//! presses (up to floating point: this measures the method, it proves nothing).
//!
//! Not part of the product and not built by cargo; standard library only:
//!
//!     rustc -O --edition 2024 -o /tmp/line_lagrange benches/reference/line_lagrange.rs
//!     PAT=50 TGT=0.1 /tmp/line_lagrange FILE.ron 1000 both equal polyak-halve-defl-nn 60
//!
//! Arguments: the puzzle, rounds at most, `rows`/`cols`/`both`, starting shares `equal` or
//! `prop` (by cells changed), the step rule (`polyak`, with `halve` to halve the scale after
//! `PAT` rounds without progress, `defl` to deflect, `nn` to keep shares non-negative) and a
//! time limit in seconds; `TGT` is the Polyak target's margin above the best value, `CHECK=1`
//! checks every line's plan against its congruences and its cost.

use std::time::Instant;

const INF: f64 = f64::INFINITY;

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

fn ints_after(text: &str, key: &str) -> Vec<i64> {
    let i = text.find(key).expect(key) + key.len();
    let rest = &text[i..];
    let end = rest.find(']').unwrap();
    rest[..end].split(',').filter(|s| !s.trim().is_empty()).map(|s| s.trim().parse().unwrap()).collect()
}
fn int_after(text: &str, key: &str) -> u64 {
    let i = text.find(key).expect(key) + key.len();
    let rest = &text[i..];
    let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    n.parse().unwrap()
}

struct Prob {
    rows: usize,
    cols: usize,
    m: Vec<usize>,
    d: Vec<usize>,
    selfw: usize,
    period: Vec<u64>,
}

fn read(path: &str) -> Prob {
    let text = std::fs::read_to_string(path).unwrap();
    let rows = int_after(&text, "rows: ") as usize;
    let cols = int_after(&text, "cols: ") as usize;
    let selfw = int_after(&text, "self: ") as usize;
    assert_eq!(int_after(&text, "neighbors: "), 1);
    let m: Vec<usize> = ints_after(&text, "modulus: [").iter().map(|&v| v as usize).collect();
    let start = ints_after(&text, "start: [");
    let d: Vec<usize> = start.iter().zip(&m).map(|(&s, &mm)| ((-s).rem_euclid(mm as i64)) as usize).collect();
    let mut period = vec![1u64; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let mut p = 1u64;
            let mut add = |i: usize, a: usize| {
                let mm = m[i] as u64;
                let a = (a as u64) % mm;
                if a != 0 {
                    p = lcm(p, mm / gcd(a, mm));
                }
            };
            add(r * cols + c, selfw);
            if r > 0 {
                add((r - 1) * cols + c, 1);
            }
            if r + 1 < rows {
                add((r + 1) * cols + c, 1);
            }
            if c > 0 {
                add(r * cols + c - 1, 1);
            }
            if c + 1 < cols {
                add(r * cols + c + 1, 1);
            }
            period[r * cols + c] = p;
        }
    }
    Prob { rows, cols, m, d, selfw, period }
}

struct Group {
    cells: Vec<usize>,
    own: Vec<usize>,                // membership id of own button t
    outs: Vec<Vec<(usize, usize)>>, // per cell: (button, membership id)
}

struct Model {
    groups: Vec<Group>,
    mem_button: Vec<usize>,
    mem_weight: Vec<f64>, // touched cells of button inside group (for proportional init)
    button_mems: Vec<Vec<usize>>,
}

fn build(p: &Prob, rows_on: bool, cols_on: bool) -> Model {
    let (rr, cc) = (p.rows, p.cols);
    let mut groups = Vec::new();
    let mut mem_button = Vec::new();
    let mut mem_weight = Vec::new();
    let mut button_mems = vec![Vec::new(); rr * cc];
    let mut mk = |cells: Vec<usize>, outside: Vec<Vec<usize>>, own_w: Vec<f64>, groups: &mut Vec<Group>| {
        let mut own = Vec::new();
        for (t, &cell) in cells.iter().enumerate() {
            own.push(mem_button.len());
            button_mems[cell].push(mem_button.len());
            mem_button.push(cell);
            mem_weight.push(own_w[t]);
        }
        let mut outs = Vec::new();
        for o in outside {
            let mut v = Vec::new();
            for u in o {
                v.push((u, mem_button.len()));
                button_mems[u].push(mem_button.len());
                mem_button.push(u);
                mem_weight.push(1.0);
            }
            outs.push(v);
        }
        groups.push(Group { cells, own, outs });
    };
    if rows_on {
        for r in 0..rr {
            let cells: Vec<usize> = (0..cc).map(|c| r * cc + c).collect();
            let outside = (0..cc)
                .map(|c| {
                    let mut v = vec![];
                    if r > 0 {
                        v.push((r - 1) * cc + c);
                    }
                    if r + 1 < rr {
                        v.push((r + 1) * cc + c);
                    }
                    v
                })
                .collect();
            let w = (0..cc).map(|c| 1.0 + (c > 0) as u8 as f64 + (c + 1 < cc) as u8 as f64).collect();
            mk(cells, outside, w, &mut groups);
        }
    }
    if cols_on {
        for c in 0..cc {
            let cells: Vec<usize> = (0..rr).map(|r| r * cc + c).collect();
            let outside = (0..rr)
                .map(|r| {
                    let mut v = vec![];
                    if c > 0 {
                        v.push(r * cc + c - 1);
                    }
                    if c + 1 < cc {
                        v.push(r * cc + c + 1);
                    }
                    v
                })
                .collect();
            let w = (0..rr).map(|r| 1.0 + (r > 0) as u8 as f64 + (r + 1 < rr) as u8 as f64).collect();
            mk(cells, outside, w, &mut groups);
        }
    }
    Model { groups, mem_button, mem_weight, button_mems }
}

#[derive(Default)]
struct Ws {
    out: Vec<Vec<f64>>,
    pick: Vec<Vec<u8>>,
    back: Vec<Vec<(u32, u8)>>,
    argb: Vec<Vec<u8>>,
    s: Vec<f64>,
    ns: Vec<f64>,
    b: Vec<f64>,
}

#[inline]
fn cls(s: f64, r: u64, per: u64, l: u64) -> u64 {
    if s >= 0.0 { r } else { r + per - l }
}

/// Solve one line; writes x per membership into xs, returns optimal value.
fn solve_group(p: &Prob, g: &Group, sh: &[f64], xs: &mut [u64], ws: &mut Ws) -> f64 {
    let k = g.cells.len();
    let mt: Vec<usize> = g.cells.iter().map(|&c| p.m[c]).collect();
    let dt: Vec<usize> = g.cells.iter().map(|&c| p.d[c]).collect();
    ws.out.resize(k, Vec::new());
    ws.pick.resize(k, Vec::new());
    ws.back.resize(k, Vec::new());
    ws.argb.resize(k, Vec::new());
    // outside tables
    for t in 0..k {
        let m = mt[t];
        let out = &mut ws.out[t];
        out.clear();
        out.resize(m, INF);
        out[0] = 0.0;
        let pick = &mut ws.pick[t];
        pick.clear();
        pick.resize(m * g.outs[t].len().max(1), 0);
        let mut tmp = vec![INF; m];
        for (bi, &(u, mid)) in g.outs[t].iter().enumerate() {
            let s = sh[mid];
            let per = p.period[u];
            let cu: Vec<f64> = (0..m as u64).map(|r| s * cls(s, r, per, m as u64) as f64).collect();
            for v in tmp.iter_mut() {
                *v = INF;
            }
            for r1 in 0..m {
                let c1 = out[r1];
                if c1 == INF {
                    continue;
                }
                for r2 in 0..m {
                    let v = c1 + cu[r2];
                    let r = (r1 + r2) % m;
                    if v < tmp[r] {
                        tmp[r] = v;
                        pick[bi * m + r] = r1 as u8;
                    }
                }
            }
            out.copy_from_slice(&tmp);
        }
    }
    // step 0
    let e: Vec<usize> = mt.iter().map(|&m| p.selfw % m).collect();
    let m0 = mt[0];
    let m1 = if k > 1 { mt[1] } else { 1 };
    let j0 = g.cells[0];
    let s0 = sh[g.own[0]];
    let eff0 = (m0 / gcd(e[0] as u64, m0 as u64) as usize) as u64;
    let l0 = lcm(eff0, m1 as u64);
    ws.s.clear();
    ws.s.resize(m0 * m1, INF);
    ws.back[0].clear();
    ws.back[0].resize(m0 * m1, (0, 0));
    for r in 0..l0 {
        let cost = s0 * cls(s0, r, p.period[j0], l0) as f64;
        let a = (e[0] as u64 * r % m0 as u64) as usize;
        let w = (r % m1 as u64) as usize;
        let idx = a * m1 + w;
        if cost < ws.s[idx] {
            ws.s[idx] = cost;
            ws.back[0][idx] = (r as u32, 0);
        }
    }
    let mut lt = vec![l0; k];
    for t in 1..k {
        let mp = mt[t - 1];
        let mc = mt[t];
        let mn = if t + 1 < k { mt[t + 1] } else { 1 };
        let dp = dt[t - 1];
        // B[u][b] = min_a S[a][b] + out[t-1][(dp - a - u) mod mp]
        ws.b.clear();
        ws.b.resize(mp * mc, INF);
        let argb = &mut ws.argb[t];
        argb.clear();
        argb.resize(mp * mc, 0);
        let out = &ws.out[t - 1];
        for u in 0..mp {
            for a in 0..mp {
                let oc = out[(dp + 2 * mp - a - u) % mp];
                if oc == INF {
                    continue;
                }
                let srow = &ws.s[a * mc..(a + 1) * mc];
                let brow = &mut ws.b[u * mc..(u + 1) * mc];
                let arow = &mut argb[u * mc..(u + 1) * mc];
                for bb in 0..mc {
                    let v = srow[bb] + oc;
                    if v < brow[bb] {
                        brow[bb] = v;
                        arow[bb] = a as u8;
                    }
                }
            }
        }
        let j = g.cells[t];
        let s = sh[g.own[t]];
        let per = p.period[j];
        let eff = mc as u64 / gcd(e[t] as u64, mc as u64);
        let l = lcm(lcm(mp as u64, eff), mn as u64);
        lt[t] = l;
        ws.ns.clear();
        ws.ns.resize(mc * mn, INF);
        let back = &mut ws.back[t];
        back.clear();
        back.resize(mc * mn, (0, 0));
        let (mut u, mut v, mut w) = (0usize, 0usize, 0usize);
        let et = e[t];
        for r in 0..l {
            let cost = s * cls(s, r, per, l) as f64;
            let brow = &ws.b[u * mc..(u + 1) * mc];
            for bb in 0..mc {
                let val = brow[bb] + cost;
                let mut nb = bb + v;
                if nb >= mc {
                    nb -= mc;
                }
                let idx = nb * mn + w;
                if val < ws.ns[idx] {
                    ws.ns[idx] = val;
                    back[idx] = (r as u32, bb as u8);
                }
            }
            u += 1;
            if u == mp {
                u = 0;
            }
            v += et;
            if v >= mc {
                v -= mc;
            }
            w += 1;
            if w == mn {
                w = 0;
            }
        }
        std::mem::swap(&mut ws.s, &mut ws.ns);
    }
    // close last cell
    let ml = mt[k - 1];
    let mut best = INF;
    let mut ba = 0;
    for a in 0..ml {
        let v = ws.s[a] + ws.out[k - 1][(dt[k - 1] + ml - a) % ml];
        if v < best {
            best = v;
            ba = a;
        }
    }
    assert!(best < INF);
    // backtrack
    let mut closing = vec![0usize; k];
    closing[k - 1] = (dt[k - 1] + ml - ba) % ml;
    let (mut a, mut w) = (ba, 0usize);
    for t in (0..k).rev() {
        let mn = if t + 1 < k { mt[t + 1] } else { 1 };
        let (r, bb) = ws.back[t][a * mn + w];
        let j = g.cells[t];
        let s = sh[g.own[t]];
        xs[g.own[t]] = cls(s, r as u64, p.period[j], lt[t]);
        if t > 0 {
            let mp = mt[t - 1];
            let mc = mt[t];
            let uu = (r as usize) % mp;
            let ap = ws.argb[t][uu * mc + bb as usize] as usize;
            closing[t - 1] = (dt[t - 1] + 2 * mp - ap - uu) % mp;
            a = ap;
            w = bb as usize;
        }
    }
    for t in 0..k {
        let m = mt[t];
        let mut res = closing[t];
        for (bi, &(u, mid)) in g.outs[t].iter().enumerate().rev() {
            let r1 = ws.pick[t][bi * m + res] as usize;
            let r2 = (res + m - r1) % m;
            let s = sh[mid];
            xs[mid] = cls(s, r2 as u64, p.period[u], m as u64);
            res = r1;
        }
    }
    best
}

fn check(p: &Prob, g: &Group, sh: &[f64], xs: &[u64], v: f64) {
    let mut cost = 0.0;
    let k = g.cells.len();
    for t in 0..k {
        cost += sh[g.own[t]] * xs[g.own[t]] as f64;
        for &(_, mid) in &g.outs[t] {
            cost += sh[mid] * xs[mid] as f64;
        }
    }
    assert!((cost - v).abs() < 1e-6 * (1.0 + v.abs()), "cost {} v {}", cost, v);
    for t in 0..k {
        let m = p.m[g.cells[t]] as u64;
        let mut tot = p.selfw as u64 * xs[g.own[t]];
        if t > 0 {
            tot += xs[g.own[t - 1]];
        }
        if t + 1 < k {
            tot += xs[g.own[t + 1]];
        }
        for &(_, mid) in &g.outs[t] {
            tot += xs[mid];
        }
        assert_eq!(tot % m, p.d[g.cells[t]] as u64);
    }
    for t in 0..k {
        assert!(xs[g.own[t]] < p.period[g.cells[t]]);
        for &(u, mid) in &g.outs[t] {
            assert!(xs[mid] < p.period[u]);
        }
    }
}

fn eval(p: &Prob, md: &Model, sh: &[f64], xs: &mut [u64], ws: &mut Ws) -> f64 {
    let mut tot = 0.0;
    for g in &md.groups {
        let v = solve_group(p, g, sh, xs, ws);
        if std::env::var("CHECK").is_ok() {
            check(p, g, sh, xs, v);
        }
        tot += v;
    }
    tot
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let iters: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(200);
    let mode = args.get(3).cloned().unwrap_or("both".into());
    let init = args.get(4).cloned().unwrap_or("equal".into());
    let rule = args.get(5).cloned().unwrap_or("polyak".into());
    let tlimit: f64 = args.get(6).map(|s| s.parse().unwrap()).unwrap_or(60.0);
    let p = read(path);
    let md = build(&p, mode != "cols", mode != "rows");
    let nm = md.mem_button.len();
    let mut sh = vec![0.0f64; nm];
    for mems in &md.button_mems {
        let tw: f64 = mems.iter().map(|&i| if init == "prop" { md.mem_weight[i] } else { 1.0 }).sum();
        for &i in mems {
            sh[i] = if init == "prop" { md.mem_weight[i] } else { 1.0 } / tw;
        }
    }
    let nonneg = rule.contains("nn");
    let deflect = rule.contains("defl");
    let mut xs = vec![0u64; nm];
    let mut ws = Ws::default();
    let mut best = f64::NEG_INFINITY;
    let mut lam: f64 = std::env::var("LAM0").ok().map(|v| v.parse().unwrap()).unwrap_or(1.0);
    let patience: usize = std::env::var("PAT").ok().map(|v| v.parse().unwrap()).unwrap_or(20);
    let tgt: f64 = std::env::var("TGT").ok().map(|v| v.parse().unwrap()).unwrap_or(0.03);
    let mut since = 0usize;
    let mut dir = vec![0.0f64; nm];
    let mut grad = vec![0.0f64; nm];
    let t0 = Instant::now();
    let mut report = vec![50usize, 200, 1000];
    let mut it = 0;
    while it < iters {
        let f = eval(&p, &md, &sh, &mut xs, &mut ws);
        it += 1;
        if f > best + 1e-9 {
            best = f;
            since = 0;
        } else {
            since += 1;
        }
        let el = t0.elapsed().as_secs_f64();
        if it == 1 || it % 25 == 0 || report.contains(&it) {
            println!(
                "it {:5} f {:10.3} best {:10.3} lam {:.4} t {:.2}s ({:.1} ms/it)",
                it,
                f,
                best,
                lam,
                el,
                1000.0 * el / it as f64
            );
        }
        report.retain(|&r| r != it);
        if el > tlimit {
            break;
        }
        // gradient
        let mut norm = 0.0;
        for mems in &md.button_mems {
            let mean = mems.iter().map(|&i| xs[i] as f64).sum::<f64>() / mems.len() as f64;
            for &i in mems {
                let g = xs[i] as f64 - mean;
                grad[i] = g;
            }
        }
        if deflect {
            let dot: f64 = grad.iter().zip(&dir).map(|(a, b)| a * b).sum();
            let dn: f64 = dir.iter().map(|a| a * a).sum();
            let beta = if dot < 0.0 && dn > 0.0 { -1.5 * dot / dn } else { 0.0 };
            for i in 0..nm {
                dir[i] = grad[i] + beta * dir[i];
            }
        } else {
            dir.copy_from_slice(&grad);
        }
        for v in &dir {
            norm += v * v;
        }
        if norm == 0.0 {
            println!("zero gradient: optimal {}", f);
            break;
        }
        if rule.contains("halve") {
            if since >= patience {
                lam *= 0.5;
                since = 0;
            }
        } else if it % 30 == 0 {
            lam *= 0.7;
        }
        let target = best + tgt * best.abs() + 1.0;
        let step = lam * (target - f) / norm;
        for i in 0..nm {
            sh[i] += step * dir[i];
        }
        if nonneg {
            // project each button's shares onto simplex
            for mems in &md.button_mems {
                let mut v: Vec<f64> = mems.iter().map(|&i| sh[i]).collect();
                v.sort_by(|a, b| b.partial_cmp(a).unwrap());
                let mut cs = 0.0;
                let mut theta = 0.0;
                for (q, &x) in v.iter().enumerate() {
                    cs += x;
                    let th = (cs - 1.0) / (q + 1) as f64;
                    if x - th > 0.0 {
                        theta = th;
                    }
                }
                for &i in mems {
                    sh[i] = (sh[i] - theta).max(0.0);
                }
            }
        }
        if lam < 1e-6 {
            break;
        }
    }
    let el = t0.elapsed().as_secs_f64();
    println!(
        "FINAL {} iters {} best {:.3} total {:.2}s ms/it {:.2}",
        path,
        it,
        best,
        el,
        1000.0 * el / it as f64
    );
}
