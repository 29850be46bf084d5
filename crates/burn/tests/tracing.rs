//! The `tracing` feature: trace-level spans for each dispatched operation
//! and for the autodiff backward pass and its steps, seen by a subscriber
//! of the test's own that records every span it is handed.
#![cfg(all(feature = "tracing", feature = "flex", feature = "autodiff"))]

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use burn::tensor::{Device, Tensor};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A span as recorded: its name and its `op` field, if any.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    name: &'static str,
    op: Option<String>,
}

#[derive(Default)]
struct Recorder {
    spans: Mutex<Vec<Seen>>,
    next: AtomicU64,
}

struct OpField(Option<String>);

impl Visit for OpField {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "op" {
            self.0 = Some(value.to_owned());
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "op" {
            self.0 = Some(format!("{value:?}"));
        }
    }
}

impl Subscriber for &'static Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut op = OpField(None);
        span.record(&mut op);
        self.spans.lock().unwrap().push(Seen {
            name: span.metadata().name(),
            op: op.0,
        });
        Id::from_u64(self.next.fetch_add(1, Ordering::Relaxed) + 1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn recorded(f: impl FnOnce()) -> Vec<Seen> {
    let recorder: &'static Recorder = Box::leak(Box::default());
    tracing::subscriber::with_default(recorder, f);
    recorder.spans.lock().unwrap().clone()
}

fn named<'a>(spans: &'a [Seen], name: &str) -> Vec<&'a Seen> {
    spans.iter().filter(|s| s.name == name).collect()
}

#[test]
fn each_dispatched_operation_has_a_span_named_by_the_op() {
    let device = Device::flex();
    let spans = recorded(|| {
        let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device);
        let y = (x.clone() * x).exp().sum();
        assert_eq!(y.dims(), [1]);
    });
    for op in ["float_mul", "float_exp", "float_sum"] {
        assert_eq!(named(&spans, op).len(), 1, "{op} in {spans:?}");
    }
}

#[test]
fn the_backward_pass_and_its_steps_have_spans() {
    let device = Device::flex().autodiff();
    let x = Tensor::<1>::from_floats([0.5, -1.0], &device).require_grad();
    let spans = recorded(|| {
        let loss = (x.clone().exp() * 3.0).sum();
        let grads = loss.backward();
        assert!(x.grad(&grads).is_some());
    });
    assert_eq!(named(&spans, "autodiff.backward").len(), 1, "{spans:?}");
    // One step per recorded op between the loss and `x`: sum, the scalar
    // product and exp, each named by its op.
    let steps: Vec<String> = named(&spans, "autodiff.step")
        .iter()
        .map(|s| s.op.clone().expect("a step names its op"))
        .collect();
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert!(
        steps.iter().any(|op| op.to_lowercase().contains("exp")),
        "{steps:?}"
    );
}
