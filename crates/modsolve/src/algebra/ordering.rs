//! Fill-reducing orders for sparse elimination: nested dissection by breadth-first level sets.
//!
//! Defining identity: [`nested_dissection`] returns every vertex of the graph exactly once.
//! A connected part of more than [`LEAF`] vertices is split by a middle level of a
//! breadth-first search from a pseudo-peripheral vertex (no edge joins a vertex before that
//! level to one after it); the vertices before it come first, then those after it, then the
//! separator. Eliminating in this order, a vertex's fill stays inside its part and the
//! separators around it: on a `k × k` grid the separators are diagonals of at most `k` cells
//! and the fill is `O(k² log k)` instead of the `O(k³)` of a band.
//!
//! The graph is given in compressed form: the neighbours of vertex `v` are
//! `adjacency[offsets[v]..offsets[v + 1]]`. Cost `O(edges · log vertices)`, memory
//! `O(vertices)` besides the graph. The work is a stack of tasks, not recursion, except where
//! a split leaves two large sides (each at least `PARALLEL_FROM` vertices, so at most
//! `vertices / PARALLEL_FROM` levels deep): those are ordered on two threads at once, with the
//! same order as on one.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::bounded::Stop;

/// Parts of at most this many vertices are not split further.
pub const LEAF: usize = 48;

/// A graph in compressed adjacency form.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// `offsets[v]..offsets[v + 1]` indexes `adjacency` for vertex `v`; `vertices + 1` entries.
    pub offsets: Vec<usize>,
    /// Neighbours, concatenated.
    pub adjacency: Vec<u32>,
}

impl Graph {
    /// The number of vertices.
    pub fn vertices(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    fn neighbors(&self, v: u32) -> &[u32] {
        &self.adjacency[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }
}

/// Parts of at least this many vertices have their two sides ordered on two threads at once.
const PARALLEL_FROM: usize = 1 << 14;

/// Breadth-first searches inside parts: the vertices whose label is the part's. Disjoint parts
/// are searched on several threads at once; a search writes only its own part's labels and
/// reads its neighbours' (atomics, relaxed: a label of another part never equals this one's,
/// whatever its value at the moment), so the order is the same however the work is shared.
struct Search<'g> {
    graph: &'g Graph,
    /// Each vertex's label: its part's, until a search reaches it and relabels it.
    part: Vec<AtomicU32>,
    /// The last label given.
    label: AtomicU32,
}

impl Search<'_> {
    /// A label not given before.
    fn fresh(&self) -> u32 {
        self.label.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn label_of(&self, v: u32) -> u32 {
        self.part[v as usize].load(Ordering::Relaxed)
    }

    fn relabel(&self, v: u32, label: u32) {
        self.part[v as usize].store(label, Ordering::Relaxed);
    }

    /// Levels from `start` within the part labelled `id`, as one list with level boundaries;
    /// every vertex reached is relabelled with a fresh label, which is returned (one array
    /// read per neighbour tells both that it is in the part and that it is not yet reached).
    fn levels(&self, start: u32, id: u32) -> (Vec<u32>, Vec<usize>, u32) {
        let reached = self.fresh();
        let mut order = vec![start];
        let mut bounds = vec![0];
        self.relabel(start, reached);
        let mut head = 0;
        while head < order.len() {
            bounds.push(order.len());
            let end = order.len();
            while head < end {
                let v = order[head];
                head += 1;
                for &w in self.graph.neighbors(v) {
                    if self.label_of(w) == id {
                        self.relabel(w, reached);
                        order.push(w);
                    }
                }
            }
        }
        // bounds[k]..bounds[k + 1] is level k.
        bounds.dedup();
        (order, bounds, reached)
    }

    /// Appends the order of `vertices` (one part, its vertices not yet labelled) to `out`:
    /// each connected component in turn (the one of the first vertex first), a component split
    /// at its middle level into the vertices before it, those after it, then the level; worked
    /// from a stack of tasks (no recursion, whatever the graph). A split whose two sides both
    /// have at least `parallel_from` vertices has them ordered on two threads, each into a
    /// list of its own, appended in the same order.
    fn order(&self, vertices: Vec<u32>, parallel_from: usize, stop: &Stop, out: &mut Vec<u32>) {
        let mut tasks = vec![Task::Split(vertices)];
        while let Some(task) = tasks.pop() {
            crate::bounded::checkpoint();
            let vertices = match task {
                Task::Emit(vertices) => {
                    out.extend(vertices);
                    continue;
                }
                Task::Split(vertices) => vertices,
            };
            if vertices.len() <= LEAF {
                out.extend(vertices);
                continue;
            }
            let id = self.fresh();
            for &v in &vertices {
                self.relabel(v, id);
            }
            let (reached, bounds, label) = self.levels(vertices[0], id);
            if reached.len() < vertices.len() {
                // Several components: each is a part of its own (this one first, in order).
                let rest: Vec<u32> = vertices.iter().copied().filter(|&v| self.label_of(v) == id).collect();
                tasks.push(Task::Split(rest));
                tasks.push(Task::Split(reached));
                continue;
            }
            // A pseudo-peripheral start: the last vertex reached, searched again.
            let far = reached[reached.len() - 1];
            let (order, bounds2, _) = self.levels(far, label);
            let (order, bounds) =
                if bounds2.len() >= bounds.len() { (order, bounds2) } else { (reached, bounds) };
            let levels = bounds.len() - 1;
            if levels < 3 {
                out.extend(order);
                continue;
            }
            // The level where half of the vertices have been passed, not the first or the last.
            let half = order.len() / 2;
            let middle = (1..levels - 1).find(|&k| bounds[k + 1] > half).unwrap_or(levels / 2);
            let before = order[..bounds[middle]].to_vec();
            let separator = order[bounds[middle]..bounds[middle + 1]].to_vec();
            let after = order[bounds[middle + 1]..].to_vec();
            if before.len().min(after.len()) >= parallel_from {
                // This task's whole order now (it comes before every task on the stack).
                let side = |part: Vec<u32>| {
                    stop.carry(|| {
                        let mut own = Vec::with_capacity(part.len());
                        self.order(part, parallel_from, stop, &mut own);
                        own
                    })
                };
                let (first, second) = rayon::join(|| side(before), || side(after));
                out.extend(first);
                out.extend(second);
                out.extend(separator);
                continue;
            }
            tasks.push(Task::Emit(separator));
            tasks.push(Task::Split(after));
            tasks.push(Task::Split(before));
        }
    }
}

/// Work of the dissection: split a part, or emit vertices in order.
enum Task {
    Split(Vec<u32>),
    Emit(Vec<u32>),
}

/// The nested dissection order of the graph's vertices.
pub fn nested_dissection(graph: &Graph) -> Vec<u32> {
    dissection(graph, PARALLEL_FROM)
}

/// [`nested_dissection`], with sides of at least `parallel_from` vertices ordered in parallel.
fn dissection(graph: &Graph, parallel_from: usize) -> Vec<u32> {
    let n = graph.vertices();
    let search =
        Search { graph, part: (0..n).map(|_| AtomicU32::new(0)).collect(), label: AtomicU32::new(0) };
    let mut out = Vec::with_capacity(n);
    search.order((0..n as u32).collect(), parallel_from, &Stop::here(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: usize, cols: usize) -> Graph {
        let mut g = Graph { offsets: vec![0], adjacency: Vec::new() };
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
                    let (rr, cc) = (r as isize + dr, c as isize + dc);
                    if rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols {
                        g.adjacency.push((rr as usize * cols + cc as usize) as u32);
                    }
                }
                g.offsets.push(g.adjacency.len());
            }
        }
        g
    }

    /// Every vertex exactly once, on grids, an empty graph and isolated vertices.
    #[test]
    fn orders_are_permutations() {
        for (rows, cols) in [(0, 0), (1, 1), (3, 200), (40, 40), (7, 90)] {
            let g = grid(rows, cols);
            let mut order = nested_dissection(&g);
            order.sort_unstable();
            assert_eq!(order, (0..(rows * cols) as u32).collect::<Vec<_>>(), "{rows}×{cols}");
        }
        let isolated = Graph { offsets: vec![0; 101], adjacency: Vec::new() };
        assert_eq!(nested_dissection(&isolated).len(), 100);
    }

    /// Sides ordered on two threads give the same order as on one: grids, a grid with holes
    /// (several components at every level), a long path and random sparse graphs.
    #[test]
    fn parallel_sides_keep_the_order() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut graphs = vec![grid(150, 150), grid(3, 4000), grid(1, 20_000)];
        let mut holed = Graph { offsets: vec![0], adjacency: Vec::new() };
        let full = grid(120, 120);
        let kept = |v: u32| (v / 120) % 7 != 3 && (v % 120) % 11 != 5;
        for v in 0..full.vertices() as u32 {
            if kept(v) {
                holed.adjacency.extend(full.neighbors(v).iter().filter(|&&w| kept(w)));
            }
            holed.offsets.push(holed.adjacency.len());
        }
        graphs.push(holed);
        let mut rng = StdRng::seed_from_u64(5);
        for n in [5_000usize, 30_000] {
            let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
            for _ in 0..2 * n {
                let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                if a != b {
                    lists[a].push(b as u32);
                    lists[b].push(a as u32);
                }
            }
            let mut g = Graph { offsets: vec![0], adjacency: Vec::new() };
            for list in lists {
                g.adjacency.extend(list);
                g.offsets.push(g.adjacency.len());
            }
            graphs.push(g);
        }
        for (k, g) in graphs.iter().enumerate() {
            let one = dissection(g, usize::MAX);
            for parallel_from in [LEAF, 500, PARALLEL_FROM] {
                assert_eq!(dissection(g, parallel_from), one, "graph {k}, from {parallel_from}");
            }
            let mut sorted = one.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..g.vertices() as u32).collect::<Vec<_>>(), "graph {k}");
        }
    }

    /// The fill of symmetric elimination in an order (the elimination game: a vertex's later
    /// neighbours become a clique), counted as the later neighbours of every vertex.
    fn fill(g: &Graph, order: &[u32]) -> usize {
        let mut position = vec![0usize; order.len()];
        for (k, &v) in order.iter().enumerate() {
            position[v as usize] = k;
        }
        let mut later: Vec<std::collections::BTreeSet<usize>> = (0..order.len())
            .map(|k| g.neighbors(order[k]).iter().map(|&w| position[w as usize]).filter(|&t| t > k).collect())
            .collect();
        let mut total = 0;
        for k in 0..order.len() {
            let front = std::mem::take(&mut later[k]);
            total += front.len();
            if let Some(&first) = front.iter().next() {
                let rest: Vec<usize> = front.iter().copied().filter(|&t| t != first).collect();
                later[first].extend(rest);
            }
        }
        total
    }

    /// On an 80 × 80 grid nested dissection fills far less than the row-by-row band (about
    /// `side` later neighbours for every vertex).
    #[test]
    fn dissection_fills_less_than_the_band() {
        let side = 80;
        let g = grid(side, side);
        let band: Vec<u32> = (0..(side * side) as u32).collect();
        let (dissected, banded) = (fill(&g, &nested_dissection(&g)), fill(&g, &band));
        assert!(banded > side * side * (side - 2), "{banded}");
        assert!(dissected * 2 < banded, "dissection {dissected}, band {banded}");
    }
}
