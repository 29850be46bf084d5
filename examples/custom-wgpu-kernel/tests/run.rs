//! The example's check on WGPU (a Vulkan, Metal or DX12 adapter, or Mesa's
//! lavapipe): the WGSL softmax against the built-in one over shapes whose
//! rows are shorter and longer than a workgroup, within tolerance.

use burn::tensor::Device;

#[test]
fn the_wgsl_softmax_matches_the_builtin_on_wgpu() {
    let checked = custom_wgpu_kernel::check(&Device::wgpu(Default::default()));
    if let Err(err) = checked {
        panic!("{err}");
    }
}
