//~ ERROR `Wgpu` is a backend alias, not a selector
use burn_backend_extension::backend_extension;

#[backend_extension(Wgpu)]
pub trait Ext: Sized {
    fn op(x: FloatTensor<Self>) -> FloatTensor<Self>;
}
