//! Node Kayles: on a graph, a move takes a vertex and all its neighbours; whoever
//! cannot move loses (T. J. Schaefer, "On the complexity of some two-person
//! perfect-information games", J. Comput. System Sci. 16 (1978); on grids: K. Brown et
//! al., "Nimber sequences of Node-Kayles games", J. Integer Seq. 23 (2020), OEIS
//! A316632).
//!
//! A position is the set of vertices left, written `{0,1,4}`; `start` is every vertex.
//! The graph is a parameter: `path(n)`, `cycle(n)`, `grid(r,c)`, `complete(n)`, a graph
//! in graph6 format, or the name of a file with one edge `u v` per line. The vertices
//! left fall apart into connected components, valued by the nim-sum of theirs; on a
//! path, cycle, grid or complete graph a component is memoized once up to the graph's
//! symmetries (and, on paths and grids, translations).
//!
//! ```
//! use nimlab_games::parse_game;
//! use nimlab_engine::plan::{read_position, value, write_position};
//! use nimlab_engine::TableOptions;
//! let g = parse_game("node-kayles(graph=path(4))").unwrap();
//! let start = read_position(&*g, "start").unwrap();
//! assert_eq!(write_position(&*g, &start), "{0,1,2,3}");
//! // Taking an end vertex leaves a path of 2 (value 1), taking an inner one leaves one
//! // vertex (value 1): the path of 4 is a P-position, as Dawson's chess (0.137) says.
//! let r = value(&*g, &start, &TableOptions::default()).unwrap();
//! assert_eq!(r.grundy.unwrap(), 0u32.into());
//! ```

use crate::{Args, Family, Param};
use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::board::{
    cells_of, connected_parts, first_part, from_words, to_words, words_for, Board,
};
use nimlab_engine::board::{Cells, MAX_CELLS};
use nimlab_engine::capability::{Capabilities, Decomposition, Regions};
use nimlab_engine::position::{PositionForm, Shown};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Coord, Error, Game, Position, Result, Solver, Theorem};

/// How positions of a graph are put in canonical form for the memo.
#[derive(Debug, Clone)]
enum Symmetry {
    /// Vertices are the cells of a board (paths and grids): its symmetries and
    /// translations.
    Board(Board),
    /// The n rotations and n reflections of a cycle.
    Cycle,
    /// Every set of k vertices is the same: the k lowest.
    Complete,
    /// Automorphisms of a graph given by its edges (graph6, a file), found by a
    /// canonical-labelling library (at most [`MAX_AUTOMORPHISMS`] of them; the image
    /// of a set under any of them is the same game, so even a part of a large group
    /// keys the memo soundly).
    Group(Vec<Vec<u8>>),
    /// None known.
    None,
}

/// How many automorphisms of a graph read from its edges the canonical form tries:
/// each costs one pass over the set's vertices on every memo look-up.
pub const MAX_AUTOMORPHISMS: usize = 128;

/// A graph for the canonical-labelling library: rows of the adjacency matrix.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Adjacency(Vec<Cells>);

impl canonical_form::Canonize for Adjacency {
    fn size(&self) -> usize {
        self.0.len()
    }
    fn apply_morphism(&self, p: &[usize]) -> Self {
        let mut rows = vec![0 as Cells; self.0.len()];
        for (u, &row) in self.0.iter().enumerate() {
            rows[p[u]] = cells_of(row).fold(0, |a, v| a | 1 << p[v]);
        }
        Adjacency(rows)
    }
    fn invariant_color(&self, u: usize) -> u64 {
        u64::from(self.0[u].count_ones())
    }
    fn invariant_neighborhood(&self, u: usize) -> impl Iterator<Item = (usize, u64)> {
        cells_of(self.0[u]).map(|v| (v, 0))
    }
}

impl Symmetry {
    /// The automorphisms of the graph with these neighbour sets (the identity left
    /// out), each checked to keep every edge.
    fn of_edges(neighbours: &[Cells]) -> Symmetry {
        use canonical_form::Canonize;
        let n = neighbours.len();
        if n < 2 {
            return Symmetry::None;
        }
        let g = Adjacency(neighbours.to_vec());
        // The library enumerates the group of the canonical form; conjugating by the
        // labelling `phi` (g relabelled by phi is the canonical form) gives g's.
        let phi = g.morphism_to_canonical();
        let mut inverse = vec![0; n];
        for (u, &c) in phi.iter().enumerate() {
            inverse[c] = u;
        }
        let canonical = g.apply_morphism(&phi);
        // A permutation that moved an edge would change values: checked here, never
        // taken on trust.
        let keeps_edges = |p: &[u8]| {
            (0..n).all(|u| {
                cells_of(neighbours[u]).fold(0 as Cells, |a, v| a | 1 << p[v])
                    == neighbours[p[u] as usize]
            })
        };
        let perms: Vec<Vec<u8>> = canonical
            .automorphisms()
            .map(|a| {
                (0..n)
                    .map(|u| inverse[a[phi[u]]] as u8)
                    .collect::<Vec<u8>>()
            })
            .filter(|p| p.iter().enumerate().any(|(u, &v)| u != v as usize) && keeps_edges(p))
            .take(MAX_AUTOMORPHISMS)
            .collect();
        if perms.is_empty() {
            Symmetry::None
        } else {
            Symmetry::Group(perms)
        }
    }
}

/// Test hook, not part of the API: the automorphisms (the identity left out, at most
/// [`MAX_AUTOMORPHISMS`]) that a graph given by these neighbour sets is keyed by, as
/// found for a graph read from its edges (graph6, a file); empty when none is known.
#[doc(hidden)]
pub fn automorphisms_of_edges(neighbours: &[Cells]) -> Vec<Vec<u8>> {
    match Symmetry::of_edges(neighbours) {
        Symmetry::Group(perms) => perms,
        _ => Vec::new(),
    }
}

/// A graph of at most 128 vertices, its name as written, and its symmetries.
#[derive(Debug, Clone)]
pub struct Graph {
    name: String,
    neighbours: Vec<Cells>,
    symmetry: Symmetry,
}

impl Graph {
    /// Reads `path(n)`, `cycle(n)`, `grid(r,c)`, `complete(n)`, graph6, or a file of
    /// edges.
    pub fn parse(text: &str) -> Result<Self> {
        let t = text.trim();
        let err = |m: String| Error::input(format!("node-kayles: graph {t}: {m}"));
        let call = |name: &str| -> Option<Vec<&str>> {
            t.strip_prefix(name)?
                .trim()
                .strip_prefix('(')?
                .strip_suffix(')')
                .map(|a| a.split(',').map(str::trim).collect())
        };
        let number = |a: &str| -> Result<usize> {
            a.parse::<usize>()
                .ok()
                .filter(|&n| (1..=MAX_CELLS).contains(&n))
                .ok_or_else(|| {
                    err(format!(
                        "'{}' is not a number of vertices from 1 to {MAX_CELLS}",
                        nimlab_engine::big::abbreviate(a)
                    ))
                })
        };
        let board = |r: usize, c: usize| -> Result<Graph> {
            let b = Board::new(r, c).map_err(|e| err(e.to_string()))?;
            Ok(Graph {
                name: t.replace(' ', ""),
                neighbours: b.neighbours().to_vec(),
                symmetry: Symmetry::Board(b),
            })
        };
        if let Some(a) = call("path") {
            let [n] = a[..] else {
                return Err(err("write path(n)".into()));
            };
            return board(1, number(n)?);
        }
        if let Some(a) = call("grid") {
            let [r, c] = a[..] else {
                return Err(err("write grid(rows,cols)".into()));
            };
            return board(number(r)?, number(c)?);
        }
        if let Some(a) = call("cycle") {
            let [n] = a[..] else {
                return Err(err("write cycle(n)".into()));
            };
            let n = number(n)?;
            if n < 3 {
                return Err(err("a cycle has at least 3 vertices".into()));
            }
            let neighbours = (0..n)
                .map(|v| 1 << ((v + 1) % n) | 1 << ((v + n - 1) % n))
                .collect();
            return Ok(Graph {
                name: format!("cycle({n})"),
                neighbours,
                symmetry: Symmetry::Cycle,
            });
        }
        if let Some(a) = call("complete") {
            let [n] = a[..] else {
                return Err(err("write complete(n)".into()));
            };
            let n = number(n)?;
            let all: Cells = if n == 128 { Cells::MAX } else { (1 << n) - 1 };
            return Ok(Graph {
                name: format!("complete({n})"),
                neighbours: (0..n).map(|v| all & !(1 << v)).collect(),
                symmetry: Symmetry::Complete,
            });
        }
        let path = std::path::Path::new(t);
        if !t.is_empty() && (t.contains('.') || t.contains('/')) || path.is_file() {
            let text = std::fs::read_to_string(path)
                .map_err(|e| err(format!("cannot read the file of edges: {e}")))?;
            return Self::from_edges(t, &text);
        }
        Self::from_graph6(t)
    }

    /// A graph from lines `u v` (vertices numbered from 0; `#` starts a comment).
    fn from_edges(name: &str, text: &str) -> Result<Self> {
        let mut neighbours: Vec<Cells> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let ends: Vec<usize> = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(|w| w.parse::<usize>().ok().filter(|&v| v < MAX_CELLS))
                .collect::<Option<Vec<_>>>()
                .filter(|e| e.len() == 2 && e[0] != e[1])
                .ok_or_else(|| {
                    Error::input(format!(
                        "node-kayles: {name} line {}: write an edge as two different \
                         vertices below {MAX_CELLS}, e.g. '0 1'",
                        i + 1
                    ))
                })?;
            let top = ends[0].max(ends[1]);
            if neighbours.len() <= top {
                neighbours.resize(top + 1, 0);
            }
            neighbours[ends[0]] |= 1 << ends[1];
            neighbours[ends[1]] |= 1 << ends[0];
        }
        if neighbours.is_empty() {
            return Err(Error::input(format!("node-kayles: {name} has no edge")));
        }
        Ok(Graph {
            name: name.to_string(),
            symmetry: Symmetry::of_edges(&neighbours),
            neighbours,
        })
    }

    /// A graph in graph6 format (B. McKay's format; at most 62 vertices in its short
    /// form, which is all this reads).
    fn from_graph6(t: &str) -> Result<Self> {
        let err = || {
            Error::input(format!(
                "node-kayles: graph '{t}' is not path(n), cycle(n), grid(r,c), complete(n), \
                 a graph6 string, or a file of edges"
            ))
        };
        let bytes = t.as_bytes();
        let (&first, rest) = bytes.split_first().ok_or_else(err)?;
        if !(63..=125).contains(&first) || rest.iter().any(|b| !(63..=126).contains(b)) {
            return Err(err());
        }
        let n = (first - 63) as usize;
        if n == 0 {
            return Err(err());
        }
        let pairs = n * (n - 1) / 2;
        if rest.len() != pairs.div_ceil(6) {
            return Err(err());
        }
        let bit = |k: usize| (rest[k / 6] - 63) >> (5 - k % 6) & 1 == 1;
        let mut neighbours = vec![0 as Cells; n];
        let mut k = 0;
        for j in 1..n {
            for i in 0..j {
                if bit(k) {
                    neighbours[i] |= 1 << j;
                    neighbours[j] |= 1 << i;
                }
                k += 1;
            }
        }
        Ok(Graph {
            name: t.to_string(),
            symmetry: Symmetry::of_edges(&neighbours),
            neighbours,
        })
    }

    /// Number of vertices.
    pub fn order(&self) -> usize {
        self.neighbours.len()
    }

    fn all(&self) -> Cells {
        if self.order() == 128 {
            Cells::MAX
        } else {
            (1 << self.order()) - 1
        }
    }

    /// The least image of `set` under the symmetries this graph knows.
    fn canonical(&self, set: Cells) -> Cells {
        match &self.symmetry {
            Symmetry::Board(b) => b.canonical(set),
            Symmetry::Complete => {
                let k = set.count_ones();
                if k == 128 {
                    Cells::MAX
                } else {
                    (1 << k) - 1
                }
            }
            Symmetry::Cycle => {
                let n = self.order();
                let all = self.all();
                let rotate = |s: Cells, k: usize| -> Cells {
                    if k == 0 {
                        s
                    } else {
                        (s << k | s >> (n - k)) & all
                    }
                };
                let reflected = cells_of(set).fold(0 as Cells, |a, v| a | 1 << ((n - v) % n));
                (0..n)
                    .flat_map(|k| [rotate(set, k), rotate(reflected, k)])
                    .min()
                    .unwrap_or(set)
            }
            Symmetry::Group(perms) => perms
                .iter()
                .map(|p| cells_of(set).fold(0 as Cells, |a, v| a | 1 << p[v]))
                .fold(set, Cells::min),
            Symmetry::None => set,
        }
    }
}

/// Node Kayles on a graph.
#[derive(Debug, Clone)]
pub struct NodeKayles {
    graph: Graph,
}

impl NodeKayles {
    /// Node Kayles on `graph`.
    pub fn new(graph: Graph) -> Self {
        NodeKayles { graph }
    }
    fn words(&self) -> usize {
        words_for(self.graph.order())
    }
    /// The stored position of a set of vertices.
    pub fn position(&self, set: Cells) -> Position {
        to_words(set, self.words())
    }
    /// Calls `visit` with the stored words of a set of vertices (no allocation).
    fn with_words(&self, set: Cells, visit: &mut dyn FnMut(&[Coord])) {
        let words = [set as Coord, (set >> 64) as Coord];
        visit(&words[..self.words()]);
    }
}

impl Game for NodeKayles {
    fn spec(&self) -> String {
        format!("node-kayles(graph={})", self.graph.name)
    }
    fn dimension(&self) -> usize {
        self.words()
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let set = from_words(pos);
        for v in cells_of(set) {
            self.with_words(set & !(1 << v) & !self.graph.neighbours[v], visit);
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        (from_words(pos) & !self.graph.all() != 0)
            .then(|| format!("the graph has vertices 0 to {}", self.graph.order() - 1))
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        from_words(pos).count_ones() as u128
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(from_words(pos).count_ones() as u128)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        let set = from_words(pos);
        let c = self.graph.canonical(set);
        (c != set).then(|| self.position(c))
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: Some(Decomposition::Regions(self)),
            ..Capabilities::none()
        }
    }
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        let t = text.trim();
        let inner = t
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .ok_or_else(|| {
                Error::input(format!(
                    "{}: a position is the set of vertices left, e.g. {{0,1,4}} (or start)",
                    self.spec()
                ))
            })?;
        let mut set: Cells = 0;
        for w in inner.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let v = w
                .parse::<usize>()
                .ok()
                .filter(|&v| v < self.graph.order())
                .ok_or_else(|| {
                    Error::input(format!(
                        "{}: '{}' is not a vertex (0 to {})",
                        self.spec(),
                        nimlab_engine::big::abbreviate(w),
                        self.graph.order() - 1
                    ))
                })?;
            set |= 1 << v;
        }
        Ok(self.position(set).into_iter().map(BigUint::from).collect())
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        let words: Vec<Coord> = pos.iter().map(|w| w.try_into().unwrap_or(0)).collect();
        Shown::Vertices(cells_of(from_words(&words)).map(|v| v as u64).collect())
    }
    fn form(&self) -> PositionForm {
        PositionForm::own(self.dimension())
    }
    fn start_position(&self) -> Option<BigPosition> {
        Some(
            self.position(self.graph.all())
                .into_iter()
                .map(BigUint::from)
                .collect(),
        )
    }
}

impl Regions for NodeKayles {
    fn regions(&self, pos: &[Coord], parts: &mut Vec<Position>) {
        let set = from_words(pos);
        if first_part(set, &self.graph.neighbours) == set {
            return; // one component: found without listing them
        }
        let all = connected_parts(set, &self.graph.neighbours);
        if all.len() > 1 {
            parts.extend(all.into_iter().map(|p| self.position(p)));
        }
    }

    fn simplified_parts(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) -> bool {
        // Each component at its least image (what `simplified` gives it).
        let mut rest = from_words(pos);
        while rest != 0 {
            let part = first_part(rest, &self.graph.neighbours);
            self.with_words(self.graph.canonical(part), visit);
            rest &= !part;
        }
        true
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(NodeKayles::new(Graph::parse(
        &args.raw("graph")?,
    )?)))
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "node-kayles.path",
        "Node Kayles on a path of n vertices is Dawson's chess, the octal game 0.137: \
         G(P_n) = G₀.₁₃₇(n)",
        "R. K. Guy, C. A. B. Smith, \"The G-values of various games\", Proc. Cambridge \
         Philos. Soc. 52 (1956); E. Berlekamp, J. Conway, R. Guy, Winning Ways, ch. 4",
        |ctx| {
            let n = ctx.size.clamp(2, 100);
            let dawson = crate::parse_game("octal(code=0.137)")?;
            let seq = nimlab_engine::plan::sequence(&*dawson, n + 1, &Default::default())?.0;
            for (k, &want) in seq.iter().enumerate().skip(1) {
                let g = NodeKayles::new(Graph::parse(&format!("path({k})"))?);
                let v = Solver::with_memory_limit(&g, ctx.memory_limit)
                    .grundy(&g.position(g.graph.all()))?;
                if v != want {
                    return Ok(Verdict::Fails {
                        counterexample: format!("G(P_{k}) = {v} but 0.137 gives {want}"),
                    });
                }
            }
            Ok(Verdict::Holds {
                window: format!("paths of 1 to {n} vertices"),
                checked: n as u64,
            })
        },
    )]
}

/// The `node-kayles` family.
pub static FAMILY: Family = Family {
    name: "node-kayles",
    summary: "Node Kayles: take a vertex of a graph and its neighbours; the last to move wins",
    params: &[Param {
        name: "graph",
        kind: "path(n), cycle(n), grid(r,c), complete(n), graph6, or a file of edges",
        default: Some("path(8)"),
        example: None,
        help: "the graph played on (at most 128 vertices)",
    }],
    position_syntax: "the set of vertices left, e.g. {0,1,4}; start = every vertex",
    seed: "T. J. Schaefer, \"On the complexity of some two-person perfect-information \
           games\", J. Comput. System Sci. 16 (1978); K. Brown et al., \"Nimber sequences \
           of Node-Kayles games\", J. Integer Seq. 23 (2020)",
    build,
    theorems,
    sweep: None,
};
