//! Helpers shared by the integration tests: scratch directories, a seeded
//! RNG, and a hand encoder for the little CBOR the format uses.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("burn-pack-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Names of the files in the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("read temp dir")
            .map(|e| {
                e.expect("dir entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// xorshift64* (Vigna 2016): small, seeded, good enough to pick mutations.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// Minimal CBOR encoder written from RFC 8949 §3: a head is the major type
/// in the top 3 bits and either the argument itself (< 24) or 24/25/26/27
/// followed by a 1/2/4/8-byte big-endian argument.
pub mod cbor {
    pub fn head(major: u8, arg: u64) -> Vec<u8> {
        let m = major << 5;
        match arg {
            0..=23 => vec![m | arg as u8],
            24..=0xFF => vec![m | 24, arg as u8],
            0x100..=0xFFFF => {
                let mut v = vec![m | 25];
                v.extend_from_slice(&(arg as u16).to_be_bytes());
                v
            }
            0x1_0000..=0xFFFF_FFFF => {
                let mut v = vec![m | 26];
                v.extend_from_slice(&(arg as u32).to_be_bytes());
                v
            }
            _ => {
                let mut v = vec![m | 27];
                v.extend_from_slice(&arg.to_be_bytes());
                v
            }
        }
    }

    /// Major type 0.
    pub fn uint(v: u64) -> Vec<u8> {
        head(0, v)
    }

    /// Major type 1 encodes -1 - n.
    pub fn neg(v: i64) -> Vec<u8> {
        assert!(v < 0);
        head(1, (-1 - v) as u64)
    }

    /// Major type 3, definite length, UTF-8.
    pub fn text(s: &str) -> Vec<u8> {
        let mut v = head(3, s.len() as u64);
        v.extend_from_slice(s.as_bytes());
        v
    }

    /// Major type 4 header followed by the items.
    pub fn array(items: &[Vec<u8>]) -> Vec<u8> {
        let mut v = head(4, items.len() as u64);
        items.iter().for_each(|i| v.extend_from_slice(i));
        v
    }

    /// Major type 5 header followed by key/value pairs.
    pub fn map(pairs: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
        let mut v = head(5, pairs.len() as u64);
        for (k, val) in pairs {
            v.extend_from_slice(k);
            v.extend_from_slice(val);
        }
        v
    }

    /// A map with text keys.
    pub fn tmap(pairs: &[(&str, Vec<u8>)]) -> Vec<u8> {
        let pairs: Vec<_> = pairs.iter().map(|(k, v)| (text(k), v.clone())).collect();
        map(&pairs)
    }

    /// A tensor descriptor as the format spells it.
    pub fn descriptor(dtype: Vec<u8>, shape: &[u64], start: u64, end: u64) -> Vec<u8> {
        let shape: Vec<_> = shape.iter().map(|&d| uint(d)).collect();
        tmap(&[
            ("dtype", dtype),
            ("shape", array(&shape)),
            ("data_offsets", array(&[uint(start), uint(end)])),
        ])
    }
}

/// Assemble a file from hand-encoded metadata and `(offset, bytes)` data
/// blocks placed relative to the data section, following the format: a
/// 10-byte little-endian header, the metadata, zeros up to the next multiple
/// of 256, then the data. With no blocks the file stops right after the
/// metadata, unpadded.
pub fn assemble(metadata: &[u8], blocks: &[(usize, &[u8])]) -> Vec<u8> {
    let mut file = Vec::new();
    file.extend_from_slice(&0x4255_524Eu32.to_le_bytes());
    file.extend_from_slice(&1u16.to_le_bytes());
    file.extend_from_slice(&(metadata.len() as u32).to_le_bytes());
    file.extend_from_slice(metadata);
    if blocks.is_empty() {
        return file;
    }
    let data_start = file.len().div_ceil(256) * 256;
    for &(offset, bytes) in blocks {
        file.resize(data_start + offset, 0);
        file.extend_from_slice(bytes);
    }
    file
}
