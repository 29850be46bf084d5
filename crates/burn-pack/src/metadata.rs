//! Decoding the CBOR metadata of an untrusted file.
//!
//! The document is decoded with serde into plain "raw" types that accept
//! anything well-formed; the meaning (known dtype, sane offsets, lengths that
//! match shapes) is checked afterwards in `reader.rs`, where the errors can
//! name the tensor concerned.
//!
//! Allocation stays bounded by the input: the metadata slice itself is capped
//! by [`ReadLimits::max_metadata_bytes`] before decoding starts, ciborium
//! reads long strings in chunks (a lying length hits the end of the slice
//! rather than a huge allocation), serde's `Vec` pre-allocates at most 1 MiB
//! whatever the declared length, and the tensor map below checks its declared
//! entry count against [`ReadLimits::max_tensor_count`] before reserving
//! anything. Nesting is capped through ciborium's recursion limit.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use burn_std::quantization::QuantScheme;
use burn_std::{BoolStore, DType, Scalar};
use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};

use crate::{Error, ReadLimits};

/// The whole document. Unknown top-level keys are ignored so that a later
/// minor addition to the format does not lock old readers out; serde's derive
/// rejects a key given twice.
#[derive(Deserialize)]
pub(crate) struct RawMetadata {
    pub tensors: RawTensors,
    #[serde(default)]
    pub metadata: UniqueMap<String>,
    #[serde(default)]
    pub scalars: UniqueMap<Scalar>,
}

#[derive(Deserialize)]
pub(crate) struct RawDescriptor {
    pub dtype: RawDType,
    pub shape: Vec<u64>,
    pub data_offsets: (u64, u64),
    #[serde(default)]
    pub param_id: Option<u64>,
}

/// A dtype as spelled in the file, before it is matched against [`DType`],
/// so an unknown one is reported with the tensor's name instead of as a
/// generic decode error.
pub(crate) enum RawDType {
    /// A unit variant: `"F32"`.
    Unit(String),
    /// A variant with data: `{"Bool": "Native"}`.
    Tagged(String, String),
    /// A quantized dtype: `{"QFloat": scheme}`.
    Quantized(QuantScheme),
}

impl RawDType {
    pub fn resolve(&self) -> Option<DType> {
        Some(match self {
            RawDType::Unit(name) => match name.as_str() {
                "F64" => DType::F64,
                "F32" => DType::F32,
                "F16" => DType::F16,
                "BF16" => DType::BF16,
                "I64" => DType::I64,
                "I32" => DType::I32,
                "I16" => DType::I16,
                "I8" => DType::I8,
                "U64" => DType::U64,
                "U32" => DType::U32,
                "U16" => DType::U16,
                "U8" => DType::U8,
                _ => return None,
            },
            RawDType::Tagged(tag, value) => match (tag.as_str(), value.as_str()) {
                ("Bool", "Native") => DType::Bool(BoolStore::Native),
                ("Bool", "U8") => DType::Bool(BoolStore::U8),
                ("Bool", "U32") => DType::Bool(BoolStore::U32),
                _ => return None,
            },
            RawDType::Quantized(scheme) => DType::QFloat(*scheme),
        })
    }
}

impl fmt::Display for RawDType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawDType::Unit(name) => write!(f, "{name:?}"),
            RawDType::Tagged(tag, value) => write!(f, "{{{tag:?}: {value:?}}}"),
            RawDType::Quantized(scheme) => write!(f, "{{\"QFloat\": {scheme}}}"),
        }
    }
}

impl<'de> Deserialize<'de> for RawDType {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DTypeVisitor;

        impl<'de> Visitor<'de> for DTypeVisitor {
            type Value = RawDType;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a dtype name or a one-entry map such as {\"Bool\": \"Native\"}")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawDType, E> {
                Ok(RawDType::Unit(v.to_owned()))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawDType, A::Error> {
                let Some(tag) = map.next_key::<String>()? else {
                    return Err(de::Error::invalid_length(0, &"a one-entry map"));
                };
                let dtype = if tag == "QFloat" {
                    RawDType::Quantized(map.next_value::<QuantScheme>()?)
                } else {
                    RawDType::Tagged(tag, map.next_value::<String>()?)
                };
                if map.next_key::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(2, &"a one-entry map"));
                }
                Ok(dtype)
            }
        }

        deserializer.deserialize_any(DTypeVisitor)
    }
}

/// A string-keyed map that refuses repeated keys (serde's `BTreeMap` keeps
/// the last one silently, which would hide a corrupted or forged file).
pub(crate) struct UniqueMap<V>(pub BTreeMap<String, V>);

impl<V> Default for UniqueMap<V> {
    fn default() -> Self {
        UniqueMap(BTreeMap::new())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UniqueMap<V> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(std::marker::PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = UniqueMap<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map with string keys")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((key, value)) = map.next_entry::<String, V>()? {
                    if out.contains_key(&key) {
                        return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
                    }
                    out.insert(key, value);
                }
                Ok(UniqueMap(out))
            }
        }

        deserializer.deserialize_map(MapVisitor(std::marker::PhantomData))
    }
}

/// The `tensors` map, in the order the file lists it.
pub(crate) struct RawTensors(pub Vec<(String, RawDescriptor)>);

thread_local! {
    // serde's `Deserialize` has no way to pass context to a nested type, and
    // ciborium only offers entry points for `DeserializeOwned`; the tensor
    // limit and the structured "too many" error travel through here instead.
    // Set and cleared around each decode by `decode` on the same thread.
    static TENSOR_LIMIT: Cell<usize> = const { Cell::new(usize::MAX) };
    static TENSOR_OVERFLOW: Cell<Option<u64>> = const { Cell::new(None) };
}

impl<'de> Deserialize<'de> for RawTensors {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TensorsVisitor;

        impl<'de> Visitor<'de> for TensorsVisitor {
            type Value = RawTensors;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map from tensor name to descriptor")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawTensors, A::Error> {
                let limit = TENSOR_LIMIT.with(Cell::get);
                let too_many = |found: u64| {
                    TENSOR_OVERFLOW.with(|cell| cell.set(Some(found)));
                    de::Error::custom("too many tensors")
                };
                let declared = map.size_hint();
                if let Some(declared) = declared
                    && declared > limit
                {
                    return Err(too_many(declared as u64));
                }
                // The declared count passed the limit, but it is still only a
                // claim: reserve no more than a few entries' worth up front.
                let mut tensors = Vec::with_capacity(declared.unwrap_or(0).min(1024));
                while let Some(name) = map.next_key::<String>()? {
                    if tensors.len() == limit {
                        return Err(too_many(limit as u64 + 1));
                    }
                    let descriptor = map.next_value::<RawDescriptor>()?;
                    tensors.push((name, descriptor));
                }
                Ok(RawTensors(tensors))
            }
        }

        deserializer.deserialize_map(TensorsVisitor)
    }
}

/// Decode `bytes`, the metadata region exactly as long as the header says.
pub(crate) fn decode(bytes: &[u8], limits: &ReadLimits) -> Result<RawMetadata, Error> {
    TENSOR_LIMIT.with(|cell| cell.set(limits.max_tensor_count));
    TENSOR_OVERFLOW.with(|cell| cell.set(None));

    let mut rest = bytes;
    let result = ciborium::de::from_reader_with_recursion_limit::<RawMetadata, _>(
        &mut rest,
        limits.max_nesting_depth,
    );

    TENSOR_LIMIT.with(|cell| cell.set(usize::MAX));
    let overflow = TENSOR_OVERFLOW.with(Cell::take);

    let metadata = match result {
        Ok(metadata) => metadata,
        Err(_) if overflow.is_some() => {
            return Err(Error::TooManyTensors {
                found: overflow.unwrap_or_default(),
                limit: limits.max_tensor_count,
            });
        }
        Err(ciborium::de::Error::RecursionLimitExceeded) => {
            return Err(Error::MetadataTooDeep {
                limit: limits.max_nesting_depth,
            });
        }
        Err(err) => {
            return Err(Error::MetadataDecode {
                source: Box::new(err),
            });
        }
    };

    if !rest.is_empty() {
        return Err(Error::MetadataTrailingBytes {
            unused: rest.len() as u64,
            declared: bytes.len() as u64,
        });
    }
    Ok(metadata)
}
