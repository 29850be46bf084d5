//! The shared backend test suite. The tests live in `tests/`; this library is
//! empty. Run a backend's suites from this directory with its alias, e.g.
//! `cargo test-flex --test tensor`.
