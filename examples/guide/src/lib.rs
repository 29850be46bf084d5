//! The book's basic workflow, as a crate: [`data`] (data sets and the
//! batcher), [`model`] (a small CNN and its steps), [`training`] (the
//! Learner) and [`inference`] (loading the saved model and classifying).
//! `src/main.rs` runs them in order.

pub mod data;
pub mod inference;
pub mod model;
pub mod training;
