//! A seeded mutation harness over both parsers: valid files written by
//! PyTorch (zip and legacy `.pt`, SafeTensors) are mutated (bit flips,
//! interesting integers over length and offset fields, truncations,
//! insertions, deletions, duplicated spans, mutations confined to the
//! pickle) and every tensor of every mutant is read. A mutant may be
//! refused or read; it must never panic.
//!
//! CI runs a few thousand cases (seconds). For a long run:
//!
//! ```text
//! BURN_STORE_MUTATION_CASES=1000000 cargo test --release -p burn-store --test mutation -- --nocapture
//! ```
//!
//! `BURN_STORE_MUTATION_SEED` changes the seed; a failure prints the seed
//! and case to replay.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use burn_store::pytorch::PytorchReader;
use burn_store::{ModuleStore, SafetensorsStore};
use common::data;

/// SplitMix64: small, seeded, good enough to spread mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

#[derive(Clone, Copy)]
enum Format {
    Pytorch,
    Safetensors,
}

struct Seed {
    name: &'static str,
    bytes: Vec<u8>,
    format: Format,
    /// Where the pickle lies (zip: the data.pkl entry), for confined mutations.
    pickle: Option<std::ops::Range<usize>>,
}

fn seeds() -> Vec<Seed> {
    let pt = |name: &'static str| {
        let bytes = std::fs::read(data(name)).unwrap();
        // The zip writer puts data.pkl first: its bytes follow the local
        // header (30 bytes + name + extra).
        let pickle = if bytes.starts_with(b"PK") {
            let name_len = u16::from_le_bytes([bytes[26], bytes[27]]) as usize;
            let extra_len = u16::from_le_bytes([bytes[28], bytes[29]]) as usize;
            let size = u32::from_le_bytes(bytes[18..22].try_into().unwrap()) as usize;
            let start = 30 + name_len + extra_len;
            Some(start..start + size)
        } else {
            Some(0..bytes.len().min(800))
        };
        Seed {
            name,
            bytes,
            format: Format::Pytorch,
            pickle,
        }
    };
    vec![
        pt("dtypes.pt"),
        pt("layouts.pt"),
        pt("layouts_legacy.pt"),
        pt("checkpoint.pt"),
        pt("protocol4.pt"),
        Seed {
            name: "dtypes.safetensors",
            bytes: std::fs::read(data("dtypes.safetensors")).unwrap(),
            format: Format::Safetensors,
            pickle: None,
        },
    ]
}

const INTERESTING: [u64; 12] = [
    0,
    1,
    2,
    0x7F,
    0xFF,
    0x7FFF_FFFF,
    0xFFFF_FFFF,
    0x8000_0000,
    1 << 40,
    (1 << 62) + 3,
    i64::MAX as u64,
    u64::MAX,
];

fn mutate(seed: &Seed, rng: &mut Rng) -> Vec<u8> {
    let mut bytes = seed.bytes.clone();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = bytes.len();
        // Half the time, aim inside the pickle, where the machine runs.
        let region = match &seed.pickle {
            Some(range) if rng.below(2) == 0 && range.end <= len && !range.is_empty() => {
                range.clone()
            }
            _ => 0..len.max(1),
        };
        let at = region.start + rng.below(region.len());
        match rng.below(8) {
            0 if len > 0 => bytes[at.min(len - 1)] ^= 1 << rng.below(8),
            1 if len > 0 => {
                bytes[at.min(len - 1)] = INTERESTING[rng.below(INTERESTING.len())] as u8
            }
            2 => {
                let width = [2, 4, 8][rng.below(3)];
                let value =
                    INTERESTING[rng.below(INTERESTING.len())].wrapping_add(rng.below(3) as u64);
                let value = value.to_le_bytes();
                for (i, b) in value.iter().take(width).enumerate() {
                    if let Some(slot) = bytes.get_mut(at + i) {
                        *slot = *b;
                    }
                }
            }
            3 => bytes.truncate(rng.below(len + 1)),
            4 => {
                let n = 1 + rng.below(16);
                let insert: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                let at = at.min(bytes.len());
                bytes.splice(at..at, insert);
            }
            5 if len > 0 => {
                let at = at.min(len - 1);
                let end = (at + 1 + rng.below(32)).min(len);
                bytes.drain(at..end);
            }
            6 if len > 0 => {
                let from = rng.below(len);
                let n = (1 + rng.below(64)).min(len - from);
                let chunk = bytes[from..from + n].to_vec();
                let at = at.min(bytes.len());
                bytes.splice(at..at, chunk);
            }
            _ if len > 0 => {
                // A pickle opcode dropped in: the machine's dispatch.
                let ops = b"()]}tlaeusdRbQqhjNK\x80\x85\x86\x87\x88\x89\x8a\x8c\x93\x94\x95.";
                bytes[at.min(len - 1)] = ops[rng.below(ops.len())];
            }
            _ => {}
        }
    }
    bytes
}

/// Opens the mutant and reads every tensor; `Ok(true)` when it was read.
fn exercise(format: Format, bytes: Vec<u8>) -> bool {
    match format {
        Format::Pytorch => match PytorchReader::from_bytes(bytes, None) {
            Ok(reader) => reader
                .keys()
                .iter()
                .all(|k| reader.get(k).unwrap().to_data().is_ok()),
            Err(e) => {
                // Every error renders (the Display impls walk their fields).
                assert!(!e.to_string().is_empty());
                false
            }
        },
        Format::Safetensors => {
            let mut store = SafetensorsStore::from_bytes(Some(bytes));
            match store.get_all_tensors() {
                Ok(tensors) => tensors.values().all(|t| t.to_data().is_ok()),
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    false
                }
            }
        }
    }
}

#[test]
fn mutated_files_never_panic() {
    let cases: u64 = std::env::var("BURN_STORE_MUTATION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let seed: u64 = std::env::var("BURN_STORE_MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_2025);
    let seeds = seeds();
    // The unmutated files read, so mutants start from the real thing.
    for s in &seeds {
        assert!(
            exercise(s.format, s.bytes.clone()),
            "{} does not read",
            s.name
        );
    }
    let started = std::time::Instant::now();
    let (mut read, mut refused) = (0u64, 0u64);
    for case in 0..cases {
        let mut rng = Rng(seed ^ case.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let s = &seeds[rng.below(seeds.len())];
        let mutant = mutate(s, &mut rng);
        let outcome = catch_unwind(AssertUnwindSafe(|| exercise(s.format, mutant)));
        match outcome {
            Ok(true) => read += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("case {case} (seed {seed}, from {}) panicked", s.name),
        }
    }
    println!(
        "mutation harness: {cases} cases (seed {seed}) in {:.1} s: {read} read, {refused} refused, 0 panics",
        started.elapsed().as_secs_f64()
    );
}
