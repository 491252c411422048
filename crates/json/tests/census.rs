//! Resuming and sharding an octal census (src/census.rs).

use nimlab_engine::TableOptions;
use nimlab_json::census::{CensusShape, OctalCensus};
use nimlab_octal::census as octal_census;
use serde_json::Value;

#[test]
fn a_resumed_census_equals_a_whole_one() {
    let shape = CensusShape::new(2, 8, &[0], (0, 1)).unwrap();
    let census = OctalCensus::new(shape, 1 << 11).unwrap();
    let opts = TableOptions::default();
    let whole = census.collect(&[], &opts).unwrap();
    let half: Vec<Value> = whole.iter().step_by(2).cloned().collect();
    assert_eq!(census.collect(&half, &opts).unwrap(), whole);
    let other = OctalCensus::new(census.shape.clone(), 1 << 10).unwrap();
    assert!(other.collect(&half, &opts).is_err()); // other settings
                                                   // Every solved line agrees with a plain period search.
    for l in whole.iter().filter(|l| l["status"] == "solved").take(10) {
        let e = octal_census::solve(l["code"].as_str().unwrap(), 8, 1 << 11).unwrap();
        assert_eq!(l["period"].as_u64(), e.period.map(|p| p.period));
    }
}

#[test]
fn shards_cover_the_codes_once() {
    let all = CensusShape::new(2, 8, &[0, 4], (0, 1))
        .unwrap()
        .codes()
        .unwrap();
    let mut joined: Vec<(usize, String)> = (0..3)
        .flat_map(|i| {
            CensusShape::new(2, 8, &[0, 4], (i, 3))
                .unwrap()
                .codes()
                .unwrap()
        })
        .collect();
    joined.sort();
    assert_eq!(joined, all);
    assert!(CensusShape::new(2, 8, &[0], (3, 3)).is_err());
    assert!(CensusShape::parse_wholes(&["0".into()], 0).is_err());
}
