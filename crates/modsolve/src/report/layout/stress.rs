//! Stress majorisation, which lays out the small `Edges` graphs of [`super::layout`]: centres
//! whose distances follow the graph's shortest paths, from a classical scaling start.

use std::collections::VecDeque;

use super::NODE_SPACING;

/// Stress majorisation of a graph: centres whose distances follow the graph's shortest paths
/// ([`NODE_SPACING`] an edge), from a classical scaling start, turned so that the widest spread
/// is across, and spread apart until no two cells are closer than `0.8 · NODE_SPACING`. No
/// randomness: the same graph gives the same centres.
pub(super) fn stress(adjacency: &[Vec<usize>]) -> Vec<[f64; 2]> {
    let n = adjacency.len();
    if n <= 1 {
        return vec![[0.0, 0.0]; n];
    }
    let d = shortest_paths(adjacency);
    let mut p = majorise(&d, classical_scaling(&d, n));
    turn_across(&mut p);
    let mut p = scaled(adjacency, &p);
    push_apart(&mut p);
    p
}

/// The lengths of the shortest paths between the `n` cells, `n × n` by rows, by breadth-first
/// search; cells of other parts are one step past the longest.
fn shortest_paths(adjacency: &[Vec<usize>]) -> Vec<f64> {
    let n = adjacency.len();
    let mut d = vec![f64::NAN; n * n];
    let mut queue = VecDeque::new();
    for s in 0..n {
        let row = &mut d[s * n..(s + 1) * n];
        row[s] = 0.0;
        queue.push_back(s);
        while let Some(a) = queue.pop_front() {
            for &b in &adjacency[a] {
                if row[b].is_nan() {
                    row[b] = row[a] + 1.0;
                    queue.push_back(b);
                }
            }
        }
    }
    let longest = d.iter().copied().filter(|x| !x.is_nan()).fold(1.0, f64::max);
    for x in &mut d {
        if x.is_nan() {
            *x = longest + 1.0;
        }
    }
    d
}

/// Majorisation from the centres `p`: each centre moved to where the stress bound is least
/// given the others, with the weights 1/d² (near cells count most) and their sums worked out
/// once.
fn majorise(d: &[f64], mut p: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    let n = p.len();
    let weights: Vec<f64> = d.iter().map(|&x| if x > 0.0 { 1.0 / (x * x) } else { 0.0 }).collect();
    let sums: Vec<f64> = (0..n).map(|i| weights[i * n..(i + 1) * n].iter().sum()).collect();
    let mut next = p.clone();
    for _ in 0..200 {
        let mut moved = 0.0f64;
        for i in 0..n {
            let (mut sx, mut sy) = (0.0, 0.0);
            for j in 0..n {
                if i == j {
                    continue;
                }
                let (dij, w) = (d[i * n + j], weights[i * n + j]);
                let (dx, dy) = (p[i][0] - p[j][0], p[i][1] - p[j][1]);
                let len = (dx * dx + dy * dy).sqrt();
                let pull = if len > 1e-9 { dij / len } else { 0.0 };
                sx += w * (p[j][0] + pull * dx);
                sy += w * (p[j][1] + pull * dy);
            }
            next[i] = [sx / sums[i], sy / sums[i]];
            moved = moved.max((next[i][0] - p[i][0]).abs() + (next[i][1] - p[i][1]).abs());
        }
        std::mem::swap(&mut p, &mut next);
        if moved < 1e-3 {
            break;
        }
    }
    p
}

/// The centres `p` scaled so that an edge is [`NODE_SPACING`] long on average.
fn scaled(adjacency: &[Vec<usize>], p: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let (mut total, mut count) = (0.0, 0usize);
    for (a, list) in adjacency.iter().enumerate() {
        for &b in list.iter().filter(|&&b| a < b) {
            total += distance(p[a], p[b]);
            count += 1;
        }
    }
    let mean = if count > 0 && total > 0.0 { total / count as f64 } else { 1.0 };
    let scale = NODE_SPACING / mean;
    p.iter().map(|q| [q[0] * scale, q[1] * scale]).collect()
}

/// Cells closer than `0.8 · NODE_SPACING` are pushed apart, each pair along the line between
/// them (a fixed direction for cells on the same spot), until none is; then, if some still are,
/// the whole picture is spread.
fn push_apart(p: &mut [[f64; 2]]) {
    let n = p.len();
    let apart = 0.8 * NODE_SPACING;
    for _ in 0..100 {
        let mut pushed = false;
        for a in 0..n {
            for b in a + 1..n {
                let (dx, dy) = (p[b][0] - p[a][0], p[b][1] - p[a][1]);
                let len = (dx * dx + dy * dy).sqrt();
                if len >= apart - 1e-9 {
                    continue;
                }
                let (ux, uy) = if len > 1e-9 {
                    (dx / len, dy / len)
                } else {
                    let angle = (a * 7 + b * 13) as f64;
                    (angle.cos(), angle.sin())
                };
                let half = (apart - len) / 2.0 + 1e-6;
                p[a] = [p[a][0] - ux * half, p[a][1] - uy * half];
                p[b] = [p[b][0] + ux * half, p[b][1] + uy * half];
                pushed = true;
            }
        }
        if !pushed {
            break;
        }
    }
    let mut closest = f64::INFINITY;
    for a in 0..n {
        for b in a + 1..n {
            closest = closest.min(distance(p[a], p[b]));
        }
    }
    if closest < apart - 1e-9 {
        let spread = apart / closest.max(1e-3);
        p.iter_mut().for_each(|q| *q = [q[0] * spread, q[1] * spread]);
    }
}

/// The distance between two points.
pub(super) fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Classical scaling: the top two eigenvectors of the double-centred squared distances (by power
/// iteration from fixed vectors), scaled by their eigenvalues' roots: a start that is already
/// the graph's shape, and the same every time.
fn classical_scaling(d: &[f64], n: usize) -> Vec<[f64; 2]> {
    let mut b: Vec<f64> = d.iter().map(|x| -0.5 * x * x).collect();
    let row_mean: Vec<f64> = (0..n).map(|i| b[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64).collect();
    let mean = row_mean.iter().sum::<f64>() / n as f64;
    for i in 0..n {
        for j in 0..n {
            b[i * n + j] += mean - row_mean[i] - row_mean[j];
        }
    }
    let multiply = |v: &[f64]| -> Vec<f64> {
        (0..n).map(|i| b[i * n..(i + 1) * n].iter().zip(v).map(|(x, y)| x * y).sum()).collect()
    };
    let mut found: Vec<(Vec<f64>, f64)> = Vec::new();
    for k in 0..2 {
        // A start vector that is not symmetric: (i + 1)^(k + 1) scaled, made unit.
        let mut v: Vec<f64> =
            (0..n).map(|i| ((i + 1) as f64).powi(k + 1) / n as f64 + (i % 3) as f64).collect();
        let mut value = 0.0;
        for _ in 0..100 {
            for (u, _) in &found {
                let dot: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
                v.iter_mut().zip(u).for_each(|(x, y)| *x -= dot * y);
            }
            let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm < 1e-12 {
                break;
            }
            v.iter_mut().for_each(|x| *x /= norm);
            let w = multiply(&v);
            value = v.iter().zip(&w).map(|(a, b)| a * b).sum();
            v = w;
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
        v.iter_mut().for_each(|x| *x /= norm);
        found.push((v, value.max(0.0)));
    }
    // A small fixed twist keeps cells that scaling puts together (symmetric graphs) apart.
    (0..n)
        .map(|i| {
            let twist = 0.01 * (i as f64 * 2.399).cos();
            let x = found[0].0[i] * found[0].1.sqrt() + twist;
            let y = found[1].0[i] * found[1].1.sqrt() + 0.01 * (i as f64 * 2.399).sin();
            [x, y]
        })
        .collect()
}

/// Turns the centres about their mean so that their widest spread is across, with cell 0 on
/// the left half and above the middle where the turn leaves a choice.
fn turn_across(p: &mut [[f64; 2]]) {
    let n = p.len() as f64;
    let (mx, my) = (p.iter().map(|q| q[0]).sum::<f64>() / n, p.iter().map(|q| q[1]).sum::<f64>() / n);
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for q in p.iter() {
        let (x, y) = (q[0] - mx, q[1] - my);
        sxx += x * x;
        syy += y * y;
        sxy += x * y;
    }
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let (c, s) = (angle.cos(), angle.sin());
    for q in p.iter_mut() {
        let (x, y) = (q[0] - mx, q[1] - my);
        *q = [x * c + y * s, -x * s + y * c];
    }
    if p[0][0] > 1e-9 {
        p.iter_mut().for_each(|q| q[0] = -q[0]);
    }
    if p[0][1] > 1e-9 {
        p.iter_mut().for_each(|q| q[1] = -q[1]);
    }
}
