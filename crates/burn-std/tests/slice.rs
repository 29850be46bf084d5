use burn_std::{Slice, SliceError};

fn take(slice: impl Into<Slice>, dim: usize) -> Vec<usize> {
    slice.into().indices(dim).unwrap().collect()
}

#[test]
fn conversions() {
    assert_eq!(Slice::from(1..3), Slice::new(1, Some(3), 1));
    assert_eq!(Slice::from(1i64..3), Slice::new(1, Some(3), 1));
    assert_eq!(Slice::from(1usize..3), Slice::new(1, Some(3), 1));
    assert_eq!(Slice::from(-2isize..), Slice::new(-2, None, 1));
    assert_eq!(Slice::from(..), Slice::full());
    assert_eq!(Slice::from(1..=2), Slice::new(1, Some(3), 1));
    assert_eq!(Slice::from(-3..=-1), Slice::new(-3, None, 1));
    assert_eq!(Slice::from(4usize), Slice::index(4));
    assert_eq!(Slice::from(-1i64), Slice::new(-1, None, 1));
    assert_eq!(Slice::from(usize::MAX).start, isize::MAX);
}

#[test]
fn resolve_positive_and_negative_bounds() {
    assert_eq!(Slice::full().resolve(5), Ok((0, 5, 1)));
    assert_eq!(Slice::from(1..3).resolve(5), Ok((1, 3, 1)));
    assert_eq!(Slice::from(-2..).resolve(5), Ok((3, 5, 1)));
    assert_eq!(Slice::new(-4, Some(-1), 2).resolve(5), Ok((1, 4, 2)));
    assert_eq!(Slice::index(-1).resolve(5), Ok((4, 5, 1)));
    assert_eq!(Slice::from(5..5).resolve(5), Ok((5, 5, 1)));
    assert_eq!(Slice::full().resolve(0), Ok((0, 0, 1)));
}

#[test]
fn resolve_errors() {
    let zero = Slice::new(0, None, 0);
    assert_eq!(zero.resolve(3), Err(SliceError::ZeroStep { slice: zero }));
    let too_far = Slice::from(0..6);
    assert_eq!(
        too_far.resolve(5),
        Err(SliceError::OutOfRange {
            slice: too_far,
            dim_size: 5
        })
    );
    let message = too_far.resolve(5).unwrap_err().to_string();
    assert!(
        message.contains("0..6") && message.contains("size 5"),
        "{message}"
    );
    assert!(Slice::from(-6..).resolve(5).is_err());
    assert!(Slice::index(5).resolve(5).is_err());
    let backwards = Slice::new(3, Some(1), 1);
    assert_eq!(
        backwards.resolve(5),
        Err(SliceError::StartAfterEnd {
            slice: backwards,
            dim_size: 5,
            start: 3,
            end: 1
        })
    );
    assert!(Slice::new(-1, Some(-2), 1).resolve(5).is_err());
    assert!(Slice::full().output_len(3).is_ok());
    assert!(zero.output_len(3).is_err());
}

#[test]
fn steps_select_expected_indices() {
    assert_eq!(take(.., 5), vec![0, 1, 2, 3, 4]);
    assert_eq!(take(Slice::full().with_step(2), 5), vec![0, 2, 4]);
    assert_eq!(take(Slice::new(1, None, 3), 8), vec![1, 4, 7]);
    assert_eq!(take(Slice::full().with_step(-1), 4), vec![3, 2, 1, 0]);
    assert_eq!(take(Slice::new(0, Some(5), -2), 5), vec![4, 2, 0]);
    assert_eq!(take(Slice::new(0, Some(4), -2), 5), vec![3, 1]);
    assert_eq!(take(Slice::new(1, Some(-1), -3), 6), vec![4, 1]);
    assert_eq!(take(Slice::new(2, Some(2), -1), 6), Vec::<usize>::new());
    assert_eq!(take(-1, 3), vec![2]);
}

#[test]
fn output_len_is_ceil_division() {
    assert_eq!(Slice::full().output_len(5), Ok(5));
    assert_eq!(Slice::full().with_step(2).output_len(5), Ok(3));
    assert_eq!(Slice::full().with_step(-2).output_len(4), Ok(2));
    assert_eq!(Slice::new(1, Some(7), 3).output_len(10), Ok(2));
    assert_eq!(Slice::from(2..2).output_len(10), Ok(0));
    for step in [-3isize, -2, -1, 1, 2, 3] {
        for (start, end) in [(0, 7), (2, 5), (3, 3)] {
            let s = Slice::new(start, Some(end), step);
            assert_eq!(s.output_len(7).unwrap(), s.indices(7).unwrap().count());
        }
    }
}

#[test]
fn display_and_serde() {
    assert_eq!(Slice::new(1, Some(4), 2).to_string(), "1..4;2");
    assert_eq!(Slice::full().to_string(), "0..");
    let s = Slice::new(-3, None, -1);
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<Slice>(&json).unwrap(), s);
}
