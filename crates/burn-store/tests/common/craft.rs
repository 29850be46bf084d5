//! Hand-made files for the hardening tests: a zip writer (stored entries,
//! with knobs to make it lie) and a pickle writer for state dicts.

/// One entry of a zip archive.
pub struct Entry<'a> {
    pub name: &'a str,
    pub data: &'a [u8],
    /// Compression method written (0 = stored).
    pub method: u16,
}

impl<'a> Entry<'a> {
    pub fn stored(name: &'a str, data: &'a [u8]) -> Self {
        Self {
            name,
            data,
            method: 0,
        }
    }
}

/// A zip archive of `entries`; `central_offset(i, real)` may change the
/// local header offset the central directory records for entry `i`.
pub fn zip_with(entries: &[Entry<'_>], central_offset: impl Fn(usize, u32) -> u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for e in entries {
        offsets.push(out.len() as u32);
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes()); // version needed
        out.extend(0u16.to_le_bytes()); // flags
        out.extend(e.method.to_le_bytes());
        out.extend([0u8; 4]); // time, date
        out.extend(0u32.to_le_bytes()); // crc (not checked)
        out.extend((e.data.len() as u32).to_le_bytes());
        out.extend((e.data.len() as u32).to_le_bytes());
        out.extend((e.name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(e.name.as_bytes());
        out.extend(e.data);
    }
    let cd_start = out.len() as u32;
    for (i, e) in entries.iter().enumerate() {
        out.extend(0x0201_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(e.method.to_le_bytes());
        out.extend([0u8; 4]);
        out.extend(0u32.to_le_bytes());
        out.extend((e.data.len() as u32).to_le_bytes());
        out.extend((e.data.len() as u32).to_le_bytes());
        out.extend((e.name.len() as u16).to_le_bytes());
        out.extend([0u8; 8]); // extra, comment, disk, internal attributes
        out.extend(0u32.to_le_bytes()); // external attributes
        out.extend(central_offset(i, offsets[i]).to_le_bytes());
        out.extend(e.name.as_bytes());
    }
    let cd_len = out.len() as u32 - cd_start;
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend(cd_len.to_le_bytes());
    out.extend(cd_start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

pub fn zip(entries: &[Entry<'_>]) -> Vec<u8> {
    zip_with(entries, |_, offset| offset)
}

/// A `torch.save` archive of `pickle` and the storages `(key, bytes)`.
pub fn torch_zip(pickle: &[u8], storages: &[(&str, &[u8])]) -> Vec<u8> {
    let names: Vec<String> = storages
        .iter()
        .map(|(k, _)| format!("archive/data/{k}"))
        .collect();
    let mut entries = vec![Entry::stored("archive/data.pkl", pickle)];
    for ((_, bytes), name) in storages.iter().zip(&names) {
        entries.push(Entry::stored(name, bytes));
    }
    zip(&entries)
}

/// A tensor of a hand-written state dict.
pub struct Spec<'a> {
    pub name: &'a str,
    pub storage: &'a str,
    pub key: &'a str,
    pub numel: u64,
    pub offset: u64,
    pub shape: Vec<u64>,
    pub stride: Vec<u64>,
}

impl<'a> Spec<'a> {
    /// A contiguous f32 vector of `len` over storage `key` of `len` elements.
    pub fn f32(name: &'a str, key: &'a str, len: u64) -> Self {
        Self {
            name,
            storage: "FloatStorage",
            key,
            numel: len,
            offset: 0,
            shape: vec![len],
            stride: vec![1],
        }
    }
}

/// Pickle opcodes, appended.
#[derive(Default)]
pub struct Pickle(pub Vec<u8>);

impl Pickle {
    pub fn new() -> Self {
        Self(vec![0x80, 2])
    }
    pub fn op(mut self, bytes: &[u8]) -> Self {
        self.0.extend_from_slice(bytes);
        self
    }
    pub fn str(self, s: &str) -> Self {
        let mut bytes = vec![b'X'];
        bytes.extend((s.len() as u32).to_le_bytes());
        bytes.extend(s.as_bytes());
        self.op(&bytes)
    }
    /// `v` as LONG1: 8 bytes, or 9 (wider than 64 bits) from 2^63 up.
    pub fn int(self, v: u64) -> Self {
        let mut bytes = vec![0x8a];
        if v < (1 << 63) {
            bytes.push(8);
            bytes.extend(v.to_le_bytes());
        } else {
            bytes.push(9);
            bytes.extend(v.to_le_bytes());
            bytes.push(0);
        }
        self.op(&bytes)
    }
    pub fn global(self, module: &str, name: &str) -> Self {
        self.op(format!("c{module}\n{name}\n").as_bytes())
    }
    pub fn ints(mut self, values: &[u64]) -> Self {
        self = self.op(b"(");
        for &v in values {
            self = self.int(v);
        }
        self.op(b"t")
    }
    pub fn tensor(self, spec: &Spec<'_>) -> Self {
        self.global("torch._utils", "_rebuild_tensor_v2")
            .op(b"((")
            .str("storage")
            .global("torch", spec.storage)
            .str(spec.key)
            .str("cpu")
            .int(spec.numel)
            .op(b"tQ")
            .int(spec.offset)
            .ints(&spec.shape)
            .ints(&spec.stride)
            .op(b"\x89}tR")
    }
    pub fn finish(self) -> Vec<u8> {
        self.op(b".").0
    }
}

/// A state dict pickle of `specs`.
pub fn state_dict(specs: &[Spec<'_>]) -> Vec<u8> {
    let mut p = Pickle::new().op(b"}(");
    for spec in specs {
        p = p.str(spec.name).tensor(spec);
    }
    p.op(b"u").finish()
}

/// `values` as little-endian f32 bytes.
pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A SafeTensors file with the header `json` (padded) and `data`.
pub fn safetensors(json: &str, data: &[u8]) -> Vec<u8> {
    let mut header = json.as_bytes().to_vec();
    header.resize(header.len().next_multiple_of(8), b' ');
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header);
    out.extend(data);
    out
}
