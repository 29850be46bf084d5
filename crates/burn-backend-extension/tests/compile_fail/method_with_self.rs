//~ ERROR #[backend_extension] on `scale`: ops are associated functions; `self` is not supported
use burn_backend_extension::backend_extension;

#[backend_extension(Flex)]
pub trait Ext: Sized {
    fn scale(&self, by: f32) -> FloatTensor<Self>;
}
