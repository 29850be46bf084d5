//! Flex under the Fusion decorator: operations queued and run lazily.
//!
//! No block is fused yet, so `Fusion<Flex>` computes what `Flex` computes,
//! one operation at a time at the next read.

impl burn_fusion::FusionBackend for crate::Flex {}
