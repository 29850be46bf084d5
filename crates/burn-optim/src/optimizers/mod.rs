//! The optimizers, one file per family.

mod adagrad;
mod adam;
mod adan;
mod lbfgs;
mod lion;
mod muon;
mod rmsprop;
mod sgd;

pub use adagrad::{AdaGrad, AdaGradConfig, AdaGradState};
pub use adam::{Adam, AdamConfig, AdamState, AdamW, AdamWConfig};
pub use adan::{Adan, AdanConfig, AdanState};
pub use lbfgs::{Lbfgs, LbfgsConfig};
pub use lion::{Lion, LionConfig, LionState};
pub use muon::{Muon, MuonConfig, MuonState};
pub use rmsprop::{RmsProp, RmsPropConfig, RmsPropState};
pub use sgd::{Sgd, SgdConfig, SgdState};
