//! Octal games in the catalog: hexadecimal codes round-trip, the periodicity hook and
//! Grundy's game. Moved from the library's unit tests (through the public API).

use nimlab_engine::big::BigUint;
use nimlab_games::octal::Octal;

#[test]
fn every_hexadecimal_whole_part_round_trips() {
    for code in ["c.1", "C.F", "8.1", "4.07", "0.f8", "c", "8.0"] {
        let g = nimlab_games::parse_game(&format!("octal(code={code},base=16)")).unwrap();
        let again = nimlab_games::parse_game(&g.spec()).unwrap();
        assert_eq!(again.spec(), g.spec(), "{code}");
    }
    assert_eq!(
        Octal::parse("c.1", 16).unwrap().spec_text(),
        "octal(code=c.1,base=16)"
    );
}

#[test]
fn the_periodicity_hook_reaches_through_the_catalog() {
    let g = nimlab_games::parse_game("octal(code=0.77)").unwrap();
    let per = g
        .capabilities()
        .sequence
        .unwrap()
        .certified_periodicity(1 << 12, &nimlab_engine::NoProgress)
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!((per.preperiod, per.period), (71, 12));
    assert!(per.proof.as_ref().unwrap().contains("Guy–Smith"));
    // The certified block against the naive mex far past the certificate.
    let naive = Octal::parse("0.77", 8)
        .unwrap()
        .rules()
        .naive_sequence(3000);
    for (n, &v) in naive.iter().enumerate() {
        assert_eq!(per.value_at(n as u128), Some(v as u128), "n = {n}");
    }
    let grundy = nimlab_games::parse_game("grundy-game").unwrap();
    assert!(grundy
        .capabilities()
        .sequence
        .unwrap()
        .certified_periodicity(1 << 12, &nimlab_engine::NoProgress)
        .is_none());
}

#[test]
fn grundys_game_never_searches_for_a_period() {
    let g = nimlab_games::parse_game("grundy-game").unwrap();
    let huge = BigUint::parse_bytes(b"1000000000000000000000000000000", 10).unwrap();
    let err = g
        .capabilities()
        .big
        .unwrap()
        .analyse_big(&[huge])
        .unwrap()
        .unwrap_err();
    assert!(err.to_string().contains("no period can be proven"), "{err}");
}
