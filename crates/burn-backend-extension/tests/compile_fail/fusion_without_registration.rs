//~ ERROR #[backend_extension] on `op`: with the `Fusion` selector each op takes one of
use burn_backend_extension::backend_extension;

#[backend_extension(Flex, Fusion)]
pub trait Ext: Sized {
    fn op(x: FloatTensor<Self>) -> FloatTensor<Self>;
}
