//~ ERROR #[backend_extension] on `count`: no tensor
use burn_backend_extension::backend_extension;

#[backend_extension(Flex)]
pub trait Ext: Sized {
    fn count(n: usize) -> usize;
}
