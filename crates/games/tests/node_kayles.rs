//! Node Kayles: the automorphism groups the canonical-labelling library finds for
//! graphs given by their edges. Moved from the library's unit tests.

use nimlab_engine::board::Cells;
use nimlab_games::node_kayles::{automorphisms_of_edges, MAX_AUTOMORPHISMS};

fn edges(n: usize, list: &[(usize, usize)]) -> Vec<Cells> {
    let mut nb = vec![0 as Cells; n];
    for &(u, v) in list {
        nb[u] |= 1 << v;
        nb[v] |= 1 << u;
    }
    nb
}

fn group_size(nb: &[Cells]) -> usize {
    // The automorphisms found, the identity left out (none known: the identity alone).
    automorphisms_of_edges(nb).len() + 1
}

#[test]
fn the_library_finds_the_automorphism_groups_of_known_graphs() {
    // The 6-cycle: the dihedral group of order 12.
    let c6: Vec<_> = (0..6).map(|v| (v, (v + 1) % 6)).collect();
    assert_eq!(group_size(&edges(6, &c6)), 12);
    // The cube Q3: order 48.
    let cube = [
        (0, 1),
        (1, 3),
        (3, 2),
        (2, 0),
        (4, 5),
        (5, 7),
        (7, 6),
        (6, 4),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ];
    assert_eq!(group_size(&edges(8, &cube)), 48);
    // The Petersen graph: order 120 (all within the cap).
    let petersen = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 0),
        (0, 5),
        (1, 6),
        (2, 7),
        (3, 8),
        (4, 9),
        (5, 7),
        (7, 9),
        (9, 6),
        (6, 8),
        (8, 5),
    ];
    assert_eq!(group_size(&edges(10, &petersen)), 120);
    // A path has one reflection; a tree whose three branches from one vertex have
    // lengths 1, 2 and 3 has none.
    assert_eq!(group_size(&edges(4, &[(0, 1), (1, 2), (2, 3)])), 2);
    let asymmetric = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (2, 6)];
    assert_eq!(group_size(&edges(7, &asymmetric)), 1);
    // K_{1,6}: the six leaves permute freely (720), capped.
    let star: Vec<_> = (1..7).map(|v| (0, v)).collect();
    assert_eq!(group_size(&edges(7, &star)), MAX_AUTOMORPHISMS + 1);
}
