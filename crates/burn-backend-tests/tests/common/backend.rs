//! The backend under test, chosen by the crate's features: `router` (Flex
//! through the operation IR) when on, else the first in `Device::default()`
//! order (cuda, wgpu, flex), so a build
//! with more features than needed (clippy's) still tests one backend.
//!
//! Each executable fixes its float precision (`FloatElem`) and builds its
//! `device()` on [`configured_device`]; this file says which hardware and
//! which int dtype.

use std::io::Write;
use std::sync::Once;

use burn::tensor::{DType, Device, DeviceConfig, DeviceError, Element};

/// The int element type of every executable: `i64` on Flex; `i32` on the
/// CubeCL backend (`wgpu`, `cuda`), its default int dtype (64-bit integers
/// are optional on GPUs: WGSL has none). Tests that need 64-bit integers
/// ask for `DType::I64` explicitly and skip themselves where
/// `device.supports_dtype(DType::I64)` is false.
#[cfg(not(any(feature = "wgpu", feature = "cuda")))]
pub type IntElem = i64;
/// The int element type of every executable: `i64` on Flex; `i32` on the
/// CubeCL backend (`wgpu`, `cuda`), its default int dtype (64-bit integers
/// are optional on GPUs: WGSL has none). Tests that need 64-bit integers
/// ask for `DType::I64` explicitly and skip themselves where
/// `device.supports_dtype(DType::I64)` is false.
#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub type IntElem = i32;

/// The device under test, without any autodiff context or settings.
pub fn plain_device() -> Device {
    // A remote device served by Flex in this process, over WebSocket on
    // loopback: the suites check the wire, the server and the client. In a
    // build with the router too (run-checks builds once for both runs),
    // `BURN_BACKEND_TESTS_REMOTE` picks it.
    #[cfg(feature = "remote")]
    if !cfg!(feature = "router") || std::env::var_os(REMOTE_VAR).is_some() {
        return remote_device();
    }
    // The router over Flex: the suites check the IR round trip.
    #[cfg(feature = "router")]
    return Device::router(&Device::flex());
    #[cfg(all(feature = "cuda", not(feature = "router")))]
    return Device::cuda(0);
    #[cfg(all(feature = "wgpu", not(any(feature = "cuda", feature = "router"))))]
    return Device::wgpu(Default::default());
    // Flex: the default device, so `BURN_DEVICE` can still pick it.
    #[cfg(not(any(feature = "wgpu", feature = "cuda", feature = "router")))]
    Device::default()
}

/// Set (to anything) to test the remote device in a build that also has
/// the router.
#[cfg(feature = "remote")]
pub const REMOTE_VAR: &str = "BURN_BACKEND_TESTS_REMOTE";

/// Device 0 of a server of Flex started once per test process on a free
/// loopback port.
#[cfg(feature = "remote")]
fn remote_device() -> Device {
    use burn::remote::RemoteHost;
    use burn::server::{RemoteServer, ServerHandle, WebSocketTransport};
    use std::sync::OnceLock;

    static SERVER: OnceLock<ServerHandle> = OnceLock::new();
    let server = SERVER.get_or_init(|| {
        let transport = WebSocketTransport::new(0).expect("bind a loopback port");
        RemoteServer::new(vec![Device::flex()]).spawn(transport)
    });
    Device::remote_options(&RemoteHost::websocket(server.url()))
        .device_index(0)
        .init()
        .expect("connect to the in-process server")
}

/// The device under test with `float` and [`IntElem`] as its default
/// dtypes, configured once, before any test creates a tensor.
///
/// A device that cannot hold `float` (an f16 suite on an adapter without
/// 16-bit floats) has nothing to test here: the first test to ask prints
/// that the executable is skipped and why, then ends the process with
/// success. The notice goes to stderr directly, past the test harness's
/// output capture, so `cargo test` shows it.
pub fn configured_device(float: DType) -> Device {
    static CONFIGURE: Once = Once::new();
    let mut device = plain_device();
    CONFIGURE.call_once(|| {
        if !device.supports_dtype(float) {
            let _ = writeln!(
                std::io::stderr(),
                "{}: skipped, the device under test ({device}) does not support {float}",
                env!("CARGO_CRATE_NAME"),
            );
            std::process::exit(0);
        }
        let config = DeviceConfig::default()
            .float_dtype(float)
            .int_dtype(<IntElem as Element>::DTYPE);
        match device.configure(config) {
            Ok(()) | Err(DeviceError::AlreadyInitialized { .. }) => {}
            Err(err) => panic!("cannot configure the test device: {err}"),
        }
    });
    let settings = device.settings();
    assert!(
        settings.float_dtype == float && settings.int_dtype == <IntElem as Element>::DTYPE,
        "the test device was initialized with other dtypes ({settings:?}) before `device()` \
         configured it"
    );
    device
}
