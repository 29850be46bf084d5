//! Helpers shared by the test files: devices, tensors from reference
//! slices, and comparisons with a stated tolerance.
#![allow(dead_code)]

use burn_core::tensor::{Device, Int, Tensor, TensorData};

/// Forward passes run on Flex.
pub fn device() -> Device {
    Device::flex()
}

/// Gradients run on Flex with the autodiff context.
pub fn autodiff() -> Device {
    Device::flex().autodiff()
}

/// A float tensor of `shape` from reference values.
pub fn tensor<const D: usize>(values: &[f32], shape: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), device)
}

/// An int tensor of `shape` from reference values.
pub fn ints<const D: usize>(values: &[i64], shape: [usize; D], device: &Device) -> Tensor<D, Int> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), device)
}

/// A leaf that records gradients, on the autodiff device.
pub fn leaf<const D: usize>(values: &[f32], shape: [usize; D]) -> Tensor<D> {
    tensor(values, shape, &autodiff()).require_grad()
}

/// The values of `tensor` as f32.
pub fn values<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().convert::<f32>().to_vec::<f32>().unwrap()
}

/// Asserts `actual` matches `expected` element-wise within `atol + rtol·|expected|`
/// (f32 arithmetic against float64 references).
#[track_caller]
pub fn assert_close<const D: usize>(actual: Tensor<D>, expected: &[f32], what: &str) {
    assert_close_tol(actual, expected, 1e-4, 1e-4, what);
}

#[track_caller]
pub fn assert_close_tol<const D: usize>(
    actual: Tensor<D>,
    expected: &[f32],
    atol: f32,
    rtol: f32,
    what: &str,
) {
    let actual = values(actual);
    assert_eq!(actual.len(), expected.len(), "{what}: length differs");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= atol + rtol * e.abs(),
            "{what}: element {i} is {a}, expected {e}\nactual: {actual:?}\nexpected: {expected:?}"
        );
    }
}

/// `sum(y · g)`: backpropagating it gives `g` as the upstream gradient of `y`.
pub fn weighted_sum<const D: usize>(y: Tensor<D>, g: Tensor<D>) -> Tensor<1> {
    (y * g).sum()
}

/// A record of `(path, values, shape)` entries, to load reference weights.
pub fn record_of(entries: &[(&str, &[f32], &[usize])]) -> burn_core::record::ModuleRecord {
    let mut record = burn_core::record::ModuleRecord::new();
    for (path, values, shape) in entries {
        record.insert(
            *path,
            burn_core::module::ParamId::new(),
            TensorData::new(values.to_vec(), shape.to_vec()),
        );
    }
    record
}

/// Every float parameter's path and gradient (if it has one) in `grads`.
struct GradCollector<'a> {
    path: burn_core::module::ModulePath,
    grads: &'a burn_core::tensor::Gradients,
    found: Vec<(String, Option<Vec<f32>>)>,
}

impl burn_core::module::ModuleVisitor for GradCollector<'_> {
    fn enter_module(&mut self, name: &str, _container: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container: &str) {
        self.path.exit();
    }

    fn visit_float<const D: usize>(&mut self, param: &burn_core::module::Param<Tensor<D>>) {
        let grad = param.val().grad(self.grads).map(values);
        self.found.push((self.path.to_string(), grad));
    }
}

/// Asserts the gradient of every float parameter of `module` matches the
/// reference entry of the same path, and that every path has one.
#[track_caller]
pub fn assert_param_grads<M: burn_core::module::Module>(
    module: &M,
    grads: &burn_core::tensor::Gradients,
    expected: &[(&str, &[f32], &[usize])],
    what: &str,
) {
    let mut collector = GradCollector {
        path: Default::default(),
        grads,
        found: Vec::new(),
    };
    module.visit(&mut collector);
    assert_eq!(
        collector.found.len(),
        expected.len(),
        "{what}: the module has {} float parameters, the reference {}",
        collector.found.len(),
        expected.len()
    );
    for (path, grad) in collector.found {
        let (_, reference, _) = expected
            .iter()
            .find(|(p, _, _)| *p == path)
            .unwrap_or_else(|| panic!("{what}: no reference for parameter {path}"));
        let grad = grad.unwrap_or_else(|| panic!("{what}: no gradient for {path}"));
        assert_eq!(grad.len(), reference.len(), "{what}: {path} length");
        for (i, (a, e)) in grad.iter().zip(reference.iter()).enumerate() {
            assert!(
                (a - e).abs() <= 2e-4 + 2e-4 * e.abs(),
                "{what}: grad of {path}[{i}] is {a}, expected {e}"
            );
        }
    }
}
