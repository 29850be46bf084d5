//! Seeded mutation fuzzing of the reader: valid packs are truncated, have
//! bytes flipped, inserted or removed, get lying lengths and descriptors, and
//! are read back. Every case must end in `Ok` or `Err`, never a panic, and a
//! counting allocator checks that no case allocates more than a small bound
//! beyond its input, whatever the file claims.
//!
//! One test in this binary, so the allocator's counts are its alone.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use burn_pack::{Reader, Tensor, Writer};
use burn_std::{BoolStore, Bytes, DType};
use common::XorShift;
use common::cbor::{array, head, text, tmap, uint};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call forwards to `System` with the caller's arguments; the
// counters are plain atomics and never influence the returned pointers.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                let now = CURRENT.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                    + (new_size - layout.size());
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allowed allocation beyond the input while reading one case: serde
/// pre-allocates up to 1 MiB for a sequence whatever its claimed length.
const ALLOCATION_BOUND: usize = 4 << 20;

const CASES: usize = 6000;

/// A few valid packs of different shapes to mutate.
fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    out.push(
        Writer::new(vec![
            Tensor::new("w", DType::F32, [2, 3], Bytes::from_elems(vec![1.0f32; 6]))
                .with_param_id(1),
            Tensor::new("b", DType::Bool(BoolStore::Native), [3], vec![1u8, 0, 1]),
            Tensor::new("e", DType::I64, [0], Vec::new()),
            Tensor::new("s", DType::BF16, [], vec![0x80u8, 0x3F]),
        ])
        .with_metadata("name", "fuzz")
        .with_scalar("lr", 0.1f64)
        .with_scalar("step", 3u64)
        .into_bytes()
        .unwrap()
        .to_vec(),
    );
    out.push(Writer::new(vec![]).into_bytes().unwrap().to_vec());
    let many = (0..12)
        .map(|i| {
            Tensor::new(
                format!("layer.{i}.weight"),
                DType::U8,
                [i + 1],
                vec![i as u8; i + 1],
            )
        })
        .collect();
    out.push(Writer::new(many).into_bytes().unwrap().to_vec());
    out.push(
        Writer::new(vec![Tensor::new("big", DType::U16, [300], vec![7u8; 600])])
            .with_scalar("flag", true)
            .into_bytes()
            .unwrap()
            .to_vec(),
    );
    out
}

/// A CBOR head with an argument chosen to provoke: huge, boundary, or small.
fn lying_number(rng: &mut XorShift) -> u64 {
    match rng.below(6) {
        0 => u64::MAX - rng.below(3) as u64,
        1 => 1 << (rng.below(63) + 1),
        2 => u32::MAX as u64 + rng.below(3) as u64,
        3 => 256 * rng.below(8) as u64,
        _ => rng.below(1024) as u64,
    }
}

/// A structurally valid document whose numbers lie: random shapes, offsets
/// and dtypes, some of them consistent by chance.
fn lying_document(rng: &mut XorShift) -> Vec<u8> {
    let dtypes = ["F32", "U8", "BF16", "I64", "Q8", ""];
    let count = rng.below(4);
    let mut tensors = head(5, count as u64);
    for i in 0..count {
        tensors.extend(text(&format!("t{}", i % 3)));
        let rank = rng.below(4);
        let shape: Vec<_> = (0..rank)
            .map(|_| {
                uint(if rng.chance(70) {
                    rng.below(9) as u64
                } else {
                    lying_number(rng)
                })
            })
            .collect();
        let dtype = if rng.chance(15) {
            tmap(&[("Bool", text(["Native", "U8", "U32", "X"][rng.below(4)]))])
        } else {
            text(dtypes[rng.below(dtypes.len())])
        };
        let start = if rng.chance(60) {
            256 * rng.below(4) as u64
        } else {
            lying_number(rng)
        };
        let end = if rng.chance(60) {
            start.saturating_add(rng.below(40) as u64)
        } else {
            lying_number(rng)
        };
        tensors.extend(tmap(&[
            ("dtype", dtype),
            ("shape", array(&shape)),
            ("data_offsets", array(&[uint(start), uint(end)])),
        ]));
    }
    let metadata = tmap(&[("tensors", tensors)]);
    let data_len = rng.below(1200);
    let mut file = common::assemble(&metadata, &[]);
    let data_start = file.len().div_ceil(256) * 256;
    file.resize(data_start + data_len, 0x5A);
    file
}

fn mutate(rng: &mut XorShift, seed: &[u8]) -> Vec<u8> {
    let mut file = seed.to_vec();
    let metadata_end =
        (10 + u32::from_le_bytes(file[6..10].try_into().unwrap()) as usize).min(file.len());
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        if file.is_empty() {
            break;
        }
        // Most interesting bytes are in the header and metadata.
        let pos = if rng.chance(75) {
            rng.below(metadata_end.min(file.len()))
        } else {
            rng.below(file.len())
        };
        match rng.below(8) {
            0 => file.truncate(rng.below(file.len())),
            1 => file[pos] ^= 1 << rng.below(8),
            2 => file[pos] = rng.next_u64() as u8,
            3 => {
                // A CBOR head with a huge argument (major types 0-5).
                let major = rng.below(6) as u8;
                let h = head(major, lying_number(rng));
                let end = (pos + h.len()).min(file.len());
                file.splice(pos..end, h);
            }
            4 => {
                // The header's metadata length lies.
                let len = match rng.below(3) {
                    0 => rng.next_u64() as u32,
                    1 => (metadata_end as u32)
                        .wrapping_sub(10)
                        .wrapping_add(rng.below(9) as u32)
                        .wrapping_sub(4),
                    _ => u32::MAX - rng.below(4) as u32,
                };
                if file.len() >= 10 {
                    file[6..10].copy_from_slice(&len.to_le_bytes());
                }
            }
            5 => {
                file.insert(pos, rng.next_u64() as u8);
            }
            6 => {
                file.remove(pos);
            }
            _ => {
                // Indefinite-length / break markers.
                file[pos] = [0x9F, 0xBF, 0xFF, 0x5F, 0x7F, 0xC0, 0xF7][rng.below(7)];
            }
        }
    }
    file
}

/// Read `file` and touch everything a loaded pack exposes.
fn exercise(file: Vec<u8>) -> bool {
    let input = Bytes::from_vec(file);
    let input_len = input.len();
    let baseline = CURRENT.load(Ordering::Relaxed);
    PEAK.store(baseline, Ordering::Relaxed);

    let ok = match Reader::from_bytes(input) {
        Ok(reader) => {
            let mut checksum = 0u64;
            for tensor in &reader {
                let bytes = tensor.bytes().expect("read tensors are never deferred");
                assert_eq!(bytes.len(), tensor.byte_len());
                let elems: usize = tensor.shape.dims.iter().product();
                assert_eq!(bytes.len(), elems * tensor.dtype.size());
                checksum = bytes
                    .iter()
                    .fold(checksum, |acc, &b| acc.wrapping_mul(31) ^ u64::from(b));
            }
            std::hint::black_box(checksum);
            let _ = reader.metadata().len() + reader.scalars().len();
            for tensor in reader.into_tensors() {
                tensor.into_bytes().expect("stored bytes copy out");
            }
            true
        }
        Err(err) => {
            // Formatting the error chain must not panic either.
            let mut message = err.to_string();
            let mut source = std::error::Error::source(&err);
            while let Some(s) = source {
                message.push_str(&s.to_string());
                source = s.source();
            }
            std::hint::black_box(message);
            false
        }
    };

    let extra = PEAK.load(Ordering::Relaxed).saturating_sub(baseline);
    // The input buffer has already been counted in `baseline`; copies of
    // tensors out of it are bounded by its length.
    assert!(
        extra <= ALLOCATION_BOUND + input_len,
        "reading a {input_len}-byte input allocated {extra} bytes"
    );
    ok
}

#[test]
fn mutated_packs_never_panic_or_allocate_hugely() {
    let seeds = seeds();
    for seed in &seeds {
        assert!(exercise(seed.clone()), "seed packs are valid");
    }
    let mut rng = XorShift::new(0x5EED_B0A7_2024_0001);
    let (mut accepted, mut refused) = (0usize, 0usize);
    for case in 0..CASES {
        let file = if case % 4 == 3 {
            lying_document(&mut rng)
        } else {
            let seed = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, seed)
        };
        if exercise(file) {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    // Both outcomes occur, so the generator neither breaks every file nor
    // leaves them all intact.
    assert!(
        accepted > CASES / 50,
        "accepted {accepted}, refused {refused}"
    );
    assert!(
        refused > CASES / 2,
        "accepted {accepted}, refused {refused}"
    );
}
