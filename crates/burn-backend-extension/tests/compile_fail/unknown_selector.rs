//~ ERROR unknown selector `Flux`
use burn_backend_extension::backend_extension;

#[backend_extension(Flex, Flux)]
pub trait Ext: Sized {
    fn op(x: FloatTensor<Self>) -> FloatTensor<Self>;
}
