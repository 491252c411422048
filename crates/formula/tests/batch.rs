//! The batch program's division by a constant (src/batch.rs) against floor division.

use crate::ops; // floor_div, modulo: the formulas' own (tests/ops.rs)
use nimlab_formula::internals::Magic;
use proptest::prelude::*;

#[test]
fn magic_division_edges() {
    for d in [1i64, 2, 3, 5, 7, 10, 1 << 20, (1 << 62) + 1, i64::MAX] {
        let m = Magic::new(d).unwrap();
        for a in [
            0,
            1,
            -1,
            d - 1,
            d,
            d + 1,
            -d,
            -d - 1,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            assert_eq!(m.floor_div(a), ops::floor_div(a, d).unwrap(), "{a} / {d}");
            assert_eq!(m.modulo(a), ops::modulo(a, d).unwrap(), "{a} mod {d}");
        }
    }
    assert!(Magic::new(0).is_none());
    assert!(Magic::new(-3).is_none());
}

proptest! {
    #[test]
    fn magic_division_matches_floor_division(a in any::<i64>(), d in 1i64..=i64::MAX) {
        let m = Magic::new(d).unwrap();
        prop_assert_eq!(m.floor_div(a), ops::floor_div(a, d).unwrap());
        prop_assert_eq!(m.modulo(a), ops::modulo(a, d).unwrap());
    }

    #[test]
    fn magic_division_small_divisors(a in any::<i64>(), d in 1i64..1000) {
        let m = Magic::new(d).unwrap();
        prop_assert_eq!(m.floor_div(a), ops::floor_div(a, d).unwrap());
    }

    #[test]
    fn block_division_matches_floor_division(
        a in proptest::collection::vec(0i64..(1 << 31), 1..40),
        wide in any::<i64>(),
        d in prop_oneof![1i64..100, 1i64..(1 << 31), 1i64..=i64::MAX],
    ) {
        let m = Magic::new(d).unwrap();
        for block in [a.clone(), [a.clone(), vec![wide]].concat()] {
            let mut q = vec![0; block.len()];
            let mut r = vec![0; block.len()];
            m.floor_div_all(&block, &mut q);
            m.modulo_all(&block, &mut r);
            for (i, &x) in block.iter().enumerate() {
                prop_assert_eq!(q[i], ops::floor_div(x, d).unwrap());
                prop_assert_eq!(r[i], ops::modulo(x, d).unwrap());
            }
        }
    }
}
