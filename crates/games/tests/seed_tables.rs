//! Tables 1–4 of the Ryuoh paper (seed 000), copied verbatim from the seed into
//! tests/data, are exact test data for brute force (Tables 1, 3) and Theorem 3.1's
//! formula (Tables 2, 4).

use nimlab_engine::{grundy_table, TableOptions};
use nimlab_games::ryuoh::Ryuoh;

/// Parses a seed table: a header row of x values, then rows `y v(0,y) v(1,y) …`.
fn parse_seed_table(text: &str) -> Vec<Vec<u64>> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let xs: Vec<u64> = header[1..]
        .iter()
        .map(|h| h.trim().parse().unwrap())
        .collect();
    assert_eq!(xs, (0..13).collect::<Vec<_>>());
    lines
        .enumerate()
        .map(|(y, line)| {
            let cells: Vec<u64> = line
                .split('\t')
                .map(|c| c.trim().parse().unwrap())
                .collect();
            assert_eq!(cells[0], y as u64, "row label");
            cells[1..].to_vec()
        })
        .collect()
}

fn brute_force(p: u64) -> Vec<Vec<u64>> {
    let t = grundy_table(&Ryuoh { p }, &[13, 13], &TableOptions::default()).unwrap();
    (0..13)
        .map(|y| (0..13).map(|x| t.get(&[x, y]).unwrap() as u64).collect())
        .collect()
}

fn formula(p: u64) -> Vec<Vec<u64>> {
    let g = Ryuoh { p };
    (0..13)
        .map(|y| (0..13).map(|x| g.closed_form(x, y)).collect())
        .collect()
}

#[test]
fn table_1_is_ryuoh_nim_by_brute_force() {
    let seed = parse_seed_table(include_str!("data/ryuoh_table1_p3.tsv"));
    assert_eq!(seed.len(), 13);
    assert_eq!(brute_force(3), seed);
}

#[test]
fn table_2_is_the_formula_for_p_3() {
    let seed = parse_seed_table(include_str!("data/ryuoh_table2_p3_formula.tsv"));
    assert_eq!(formula(3), seed);
}

#[test]
fn table_3_is_generalized_ryuoh_p_4_by_brute_force() {
    let seed = parse_seed_table(include_str!("data/ryuoh_table3_p4.tsv"));
    assert_eq!(brute_force(4), seed);
}

#[test]
fn table_4_is_the_formula_for_p_4() {
    let seed = parse_seed_table(include_str!("data/ryuoh_table4_p4_formula.tsv"));
    assert_eq!(formula(4), seed);
}
