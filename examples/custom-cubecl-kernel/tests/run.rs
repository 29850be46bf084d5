//! The example's check on WGPU (a Vulkan, Metal or DX12 adapter, or Mesa's
//! lavapipe): the kernels' values and the handwritten gradient against the
//! composed op, within tolerance.

use burn::tensor::Device;

#[test]
fn swish_kernels_match_the_composition_on_wgpu() {
    let checked = custom_cubecl_kernel::check(&Device::wgpu(Default::default()));
    if let Err(err) = checked {
        panic!("{err}");
    }
}
