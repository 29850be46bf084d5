//! `#[backend_dispatch]`: routing bodies for an `impl XxxOps<Self> for Dispatch` block.
//!
//! Split in two so each half stays readable: [`parse`] reads the impl block
//! and classifies every parameter and return type of every bodiless fn (all
//! signature errors are reported there, naming the fn), and [`generate`]
//! turns the classified ops into `match`es over the catalog.

pub(crate) mod generate;
pub(crate) mod parse;

use proc_macro2::TokenStream;

/// Expands the attribute; errors become `compile_error!`s at their spans.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match parse::parse(attr, item) {
        Ok(block) => generate::generate(block),
        Err(error) => error.to_compile_error(),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// The expansion as a string with whitespace removed, for `contains` checks.
    fn expand(item: proc_macro2::TokenStream) -> String {
        super::expand(proc_macro2::TokenStream::new(), item)
            .to_string()
            .split_whitespace()
            .collect()
    }

    #[test]
    fn binary_op_routes_by_the_first_tensor_and_checks_the_second() {
        let out = expand(quote! {
            impl FloatTensorOps<Self> for Dispatch {
                fn float_add(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
            }
        });
        assert!(out.contains("matchlhs{"), "{out}");
        assert!(out.contains("#[cfg(feature=\"flex\")]crate::DispatchTensor::Flex(__key)"));
        assert!(out.contains("typeB=crate::backends::Flex;"));
        assert!(out.contains("crate::routing::operand::<B>(\"float_add\",&__device,rhs).float()"));
        assert!(out.contains("<BasFloatTensorOps<B>>::float_add(lhs,rhs)"));
        assert!(!out.contains("compile_error"));
    }

    #[test]
    fn creation_op_routes_by_the_device() {
        let out = expand(quote! {
            impl IntTensorOps<Self> for Dispatch {
                fn int_zeros(shape: Shape, device: &Device<Self>, dtype: DType) -> IntTensor<Self>;
            }
        });
        assert!(out.contains("matchdevice{"), "{out}");
        assert!(out.contains("crate::DispatchDevice::Cube(device)"));
        assert!(out.contains("crate::DispatchTensor::Flex(crate::BackendTensor::Int("));
    }

    #[test]
    fn skip_keeps_the_body_and_drops_the_attribute() {
        let out = expand(quote! {
            impl BoolTensorOps<Self> for Dispatch {
                #[backend_dispatch(skip)]
                fn bool_to_device(tensor: BoolTensor<Self>, device: &Device<Self>) -> BoolTensor<Self> {
                    handwritten(tensor, device)
                }
            }
        });
        assert!(out.contains("handwritten(tensor,device)"), "{out}");
        assert!(!out.contains("backend_dispatch"));
    }

    #[test]
    fn optional_operand_is_checked_when_present_and_enters_autodiff() {
        let out = expand(quote! {
            impl ModuleOps<Self> for Dispatch {
                fn conv1d(x: FloatTensor<Self>, weight: FloatTensor<Self>, bias: Option<FloatTensor<Self>>, options: ConvOptions<1>) -> FloatTensor<Self>;
            }
        });
        assert!(out.contains("matchx{"), "{out}");
        assert!(out.contains(
            "letbias=bias.map(|__tensor|{crate::routing::operand::<B>(\"conv1d\",&__device,__tensor).float()});"
        ));
        assert!(out.contains("iflet::core::option::Option::Some(__tensor)=bias.as_ref()"));
        assert!(
            out.contains("letbias=bias.map(|__tensor|crate::autodiff::float_in(__tensor,__mode));")
        );
        assert!(!out.contains("compile_error"));

        // An Option alone cannot route: it may be None.
        let out = expand(quote! {
            impl ModuleOps<Self> for Dispatch {
                fn only_optional(bias: Option<FloatTensor<Self>>) -> FloatTensor<Self>;
            }
        });
        assert!(out.contains("compile_error"), "{out}");
    }

    #[test]
    fn unsupported_signatures_are_compile_errors_naming_the_fn() {
        let out = expand(quote! {
            impl TransactionOps<Self> for Dispatch {
                fn tr_execute(t: TransactionPrimitive<Self>) -> Result<TransactionPrimitiveData, ExecutionError>;
                fn with_body(x: FloatTensor<Self>) -> FloatTensor<Self> { x }
            }
        });
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("`tr_execute`:unsupportedparametertype"));
        assert!(out.contains("`with_body`hasabody"));
    }
}
