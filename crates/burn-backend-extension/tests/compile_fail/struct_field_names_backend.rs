//~ ERROR field `rows` names `B` but is not a tensor primitive
use burn_backend_extension::ExtensionType;

#[derive(ExtensionType)]
pub struct Rows<B> {
    pub rows: Vec<Vec<FloatTensor<B>>>,
}
