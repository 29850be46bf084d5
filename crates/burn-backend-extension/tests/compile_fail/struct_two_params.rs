//~ ERROR the type takes exactly one type parameter, its backend
use burn_backend_extension::ExtensionType;

#[derive(ExtensionType)]
pub struct Pair<B, C> {
    pub a: FloatTensor<B>,
    pub b: C,
}
