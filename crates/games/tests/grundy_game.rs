//! Grundy's game: the sparse nim-sequence against the naive mex, and no period claimed.
//! Moved from the library's unit tests (through the public API).

use nimlab_games::grundy_game::{grundy_game, rules};

#[test]
fn sparse_agrees_with_naive_mex_on_20000_terms() {
    let r = rules();
    assert_eq!(r.sparse_sequence(20_000), r.naive_sequence(20_000));
}

#[test]
fn no_period_is_claimed() {
    use nimlab_engine::capability::SequenceKernel;
    assert!(grundy_game()
        .certified_periodicity(1 << 12, &nimlab_engine::NoProgress)
        .is_none());
}
