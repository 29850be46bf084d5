//! Hand-written kernels (`template` feature): source text in the runtime's
//! own language, compiled by the runtime at the first launch and cached
//! like any `#[cube]` kernel, launched on the backend's streams and buffers.
//!
//! - WGSL on the WGPU runtimes: the shader is handed to wgpu as written
//!   (its bind group layout is derived from the shader), so its bindings are
//!   the tensors in argument order, then the scalars. Declare every one
//!   `var<storage, read_write>`: the runtime allocates tensors inside
//!   shared device buffers, and wgpu refuses a buffer bound both read-only
//!   and writable in one dispatch.
//! - CUDA C++ on the CUDA runtime: NVRTC compiles it for the device's
//!   architecture; the entry point is `extern "C" __global__` and takes one
//!   pointer per tensor, then a pointer to the scalars.
//!
//! The scalars are 32-bit words ([`SourceArgs::u32`], [`SourceArgs::f32`]),
//! uploaded as one small buffer bound after the tensors
//! (`var<storage, read_write> scalars: array<u32>` in WGSL, `const
//! uint32_t*` in CUDA), so no layout rules of uniform buffers apply. A [`SourceTemplate`]
//! fills `{{ name }}` placeholders (workgroup sizes, element types) before
//! compilation; the completed text is the kernel's cache key.

use core::fmt::Display;

use cubecl::ir::{ElemType, Scope, StorageType, UIntKind};
use cubecl::prelude::*;
use cubecl::server::{Binding, KernelArguments};
use cubecl::{CompilationError, Compiler, CubeTask};

use crate::{CubeDevice, CubeTensor};

/// The language a [`KernelSource`] is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceLanguage {
    /// WGSL, for the WGPU runtimes (Vulkan, Metal, WebGPU, DirectX).
    Wgsl,
    /// CUDA C++, for the CUDA runtime (compiled by NVRTC).
    Cuda,
}

impl SourceLanguage {
    /// The language source kernels are written in for `device`: WGSL on a
    /// WGPU adapter, CUDA C++ on an NVIDIA GPU, none elsewhere.
    pub fn of(device: &CubeDevice) -> Option<Self> {
        match device {
            #[cfg(feature = "cuda")]
            CubeDevice::Cuda(_) => Some(Self::Cuda),
            #[cfg(feature = "rocm")]
            CubeDevice::Rocm(_) => None,
            #[cfg(feature = "wgpu")]
            CubeDevice::Wgpu(_) => Some(Self::Wgsl),
            #[cfg(feature = "cpu")]
            CubeDevice::Cpu => None,
        }
    }

    /// Whether a runtime whose compiler writes files of `extension` takes it.
    fn runs_on(self, extension: &str) -> bool {
        match self {
            Self::Wgsl => matches!(extension, "wgsl" | "spv" | "msl"),
            Self::Cuda => extension == "cpp",
        }
    }
}

/// Kernel source with `{{ name }}` placeholders.
#[derive(Clone, Debug)]
pub struct SourceTemplate {
    text: String,
}

impl SourceTemplate {
    /// A template of `text`.
    pub fn new(text: impl Into<String>) -> Self {
        Self { text: text.into() }
    }

    /// Replaces every `{{ name }}` (spaces inside the braces optional) with `value`.
    pub fn register(mut self, name: &str, value: impl Display) -> Self {
        let value = value.to_string();
        for pattern in [format!("{{{{ {name} }}}}"), format!("{{{{{name}}}}}")] {
            self.text = self.text.replace(&pattern, &value);
        }
        self
    }

    /// The source, every placeholder filled.
    ///
    /// # Errors
    /// Names the first placeholder left unfilled.
    pub fn complete(self) -> Result<String, String> {
        match self.text.find("{{") {
            Some(start) => {
                let end = self.text[start..]
                    .find("}}")
                    .map_or(self.text.len(), |e| start + e + 2);
                Err(format!(
                    "placeholder `{}` has no value (register it on the SourceTemplate)",
                    &self.text[start..end]
                ))
            }
            None => Ok(self.text),
        }
    }
}

/// A hand-written kernel: its language, its source, its entry point.
pub trait KernelSource: Send + Sync + 'static {
    /// The language of [`source`](Self::source).
    fn language(&self) -> SourceLanguage;
    /// The source, placeholders and all.
    fn source(&self) -> SourceTemplate;
    /// The entry point's name in the source.
    fn entry_point(&self) -> &'static str {
        "main"
    }
}

/// The arguments of a source kernel: tensor buffers in binding order, then
/// the scalar words.
#[derive(Default)]
pub struct SourceArgs {
    buffers: Vec<Binding>,
    words: Vec<u32>,
}

impl SourceArgs {
    /// No arguments yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The next binding: `tensor`'s whole buffer. The kernel indexes it from
    /// the tensor's [`offset`](CubeTensor::offset) with its strides (pass
    /// them as scalars, or make the tensor contiguous first).
    pub fn tensor(mut self, tensor: &CubeTensor) -> Self {
        self.buffers.push(tensor.handle.clone().binding());
        self
    }

    /// Appends a scalar word.
    pub fn u32(mut self, value: u32) -> Self {
        self.words.push(value);
        self
    }

    /// Appends an f32 scalar (its bits; `bitcast<f32>` in WGSL,
    /// `__uint_as_float` in CUDA).
    pub fn f32(self, value: f32) -> Self {
        self.u32(value.to_bits())
    }
}

/// A [`KernelSource`] ready to compile: its completed text and cube dim.
struct SourceTask<K> {
    kernel: K,
    text: String,
    cube_dim: CubeDim,
}

impl<K: KernelSource> KernelMetadata for SourceTask<K> {
    fn name(&self) -> &'static str {
        core::any::type_name::<K>()
    }

    fn id(&self) -> KernelId {
        KernelId::new::<K>()
            .info(self.text.clone())
            .cube_dim(self.cube_dim)
    }

    fn address_type(&self) -> StorageType {
        StorageType::Scalar(ElemType::UInt(UIntKind::U32))
    }
}

impl<C: Compiler, K: KernelSource> CubeTask<C> for SourceTask<K> {
    fn compile(
        &self,
        compiler: &mut C,
        options: &C::CompilationOptions,
        mode: ExecutionMode,
        address_type: StorageType,
    ) -> Result<CompiledKernel<C>, CompilationError> {
        let language = self.kernel.language();
        let extension = compiler.extension();
        if !language.runs_on(extension) {
            return Err(CompilationError::Generic {
                reason: format!(
                    "source kernel {}: written in {language:?}, but this device's runtime \
                     compiles `{extension}`",
                    self.name()
                ),
                backtrace: Default::default(),
            });
        }
        // The CUDA runtime sizes the launch's shared memory from a compiled
        // representation: that of an empty kernel (the source declares its
        // shared memory statically). WGPU takes the source alone.
        let repr = match language {
            SourceLanguage::Cuda => {
                let empty = KernelDefinition {
                    buffers: Vec::new(),
                    tensor_maps: Vec::new(),
                    scalars: Vec::new(),
                    cube_dim: self.cube_dim,
                    body: Scope::root(false),
                    options: KernelOptions {
                        kernel_name: self.kernel.entry_point().into(),
                        debug_symbols: false,
                        cluster_dim: None,
                    },
                };
                Some(compiler.compile(empty, options, mode, address_type)?)
            }
            SourceLanguage::Wgsl => None,
        };
        Ok(CompiledKernel {
            entrypoint_name: self.kernel.entry_point().into(),
            debug_name: Some(core::any::type_name::<K>()),
            source: self.text.clone(),
            repr,
            cube_dim: self.cube_dim,
            debug_info: None,
        })
    }
}

/// Launches `kernel` on `client`'s device over `count` cubes of `dim`
/// units, with `args` bound in order.
///
/// # Panics
/// If a placeholder of the source has no value.
///
/// # Safety
/// The kernel is not checked: it must read and write only inside the
/// buffers it is given (their lengths are the tensors' buffers, not their
/// shapes) and terminate.
pub unsafe fn launch_source<R: Runtime, K: KernelSource>(
    client: &ComputeClient<R>,
    kernel: K,
    count: CubeCount,
    dim: CubeDim,
    args: SourceArgs,
) {
    let text = match kernel.source().complete() {
        Ok(text) => text,
        Err(why) => panic!("source kernel {}: {why}", core::any::type_name::<K>()),
    };
    let SourceArgs { mut buffers, words } = args;
    // At least one word: an empty buffer cannot be bound.
    let words = if words.is_empty() { vec![0] } else { words };
    let scalars = client.create_from_slice(bytemuck::cast_slice(&words));
    buffers.push(scalars.binding());
    let task = SourceTask {
        kernel,
        text,
        cube_dim: dim,
    };
    let bindings = KernelArguments::new().with_buffers(buffers);
    // SAFETY: the caller vouches for the kernel (see above).
    unsafe { client.launch_unchecked(Box::new(task), count, bindings) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_placeholders_and_name_the_missing_one() {
        let t = SourceTemplate::new("@workgroup_size({{ wg }}) fn {{name}}() { {{ body }} }")
            .register("wg", 64)
            .register("name", "main");
        let err = t.clone().complete().unwrap_err();
        assert!(err.contains("`{{ body }}`"), "{err}");
        let text = t.register("body", "return;").complete().unwrap();
        assert_eq!(text, "@workgroup_size(64) fn main() { return; }");
    }

    #[test]
    fn languages_match_their_runtimes() {
        assert!(SourceLanguage::Wgsl.runs_on("wgsl") && SourceLanguage::Wgsl.runs_on("spv"));
        assert!(!SourceLanguage::Wgsl.runs_on("cpp"));
        assert!(SourceLanguage::Cuda.runs_on("cpp") && !SourceLanguage::Cuda.runs_on("spv"));
    }
}
