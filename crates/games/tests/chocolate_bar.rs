//! Chocolate bars of any shape: pictures read back. Moved from the library's unit tests.

use nimlab_games::chocolate_bar::{staircase, Bar};

#[test]
fn pictures_read_back() {
    for t in ["....##/..####/B#####", "B", "#B#", "##/B#"] {
        assert_eq!(Bar::read(t).unwrap().write(), t);
    }
    assert_eq!(staircase(|t| t / 2, 2, 5), "....##/..####/B#####");
    assert!(Bar::read("##/..").is_err());
    assert!(Bar::read("#.B").is_err());
    assert!(Bar::read("BB").is_err());
}
