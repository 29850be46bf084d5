//! Devices of a remote tensor server, as a client reaches them.
//!
//! ```no_run
//! use burn_tensor::remote::RemoteHost;
//! use burn_tensor::{Device, Tensor};
//!
//! let host = RemoteHost::websocket("ws://127.0.0.1:3000").with_credential("shared secret");
//! println!("the server offers {:?}", host.devices()?);
//! let device = Device::remote_options(&host).device_index(0).init()?;
//! let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device);
//! println!("{}", (x * 2.0).into_data());
//! # Ok::<(), burn_tensor::remote::ConnectError>(())
//! ```
//!
//! A remote device is a `Device` like any other: every op on its tensors is
//! recorded as IR and sent to the server in batches; reads block until the
//! server answers; `device.autodiff()` keeps the graph on this side and
//! runs its ops there. If the server dies, the next read fails (the next
//! other op panics) within 8 seconds, with the reason.

use std::string::String;
use std::vec::Vec;

use burn_dispatch::DispatchDevice;
pub use burn_remote::{ClientOptions, ConnectError};

use crate::{Device, DeviceIndex};

/// A tensor server as a client reaches it: where, over which transport, and
/// the credential its authorizer checks. Building one opens nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RemoteHost {
    url: String,
    options: ClientOptions,
}

impl RemoteHost {
    /// The WebSocket server at `url`, such as `ws://127.0.0.1:3000`.
    ///
    /// WebSocket is not encrypted: a credential keeps stray clients out on
    /// a network you trust, not eavesdroppers out of one you do not.
    pub fn websocket(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            options: ClientOptions::default(),
        }
    }

    /// Presents `token` to the server's authorizer.
    pub fn with_credential(mut self, token: impl Into<String>) -> Self {
        self.options.token = Some(token.into());
        self
    }

    /// Replaces the batching, size and timeout options (the credential
    /// set by [`with_credential`](Self::with_credential) is kept unless
    /// `options` has one).
    pub fn with_options(mut self, options: ClientOptions) -> Self {
        let token = self.options.token.take();
        self.options = options;
        if self.options.token.is_none() {
            self.options.token = token;
        }
        self
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The devices the server offers, by index (their names there).
    pub fn devices(&self) -> Result<Vec<String>, ConnectError> {
        burn_remote::list_devices(&self.url, &self.options)
    }
}

/// How to open a device of a [`RemoteHost`]: [`Device::remote_options`].
#[derive(Clone, Debug)]
pub struct RemoteOptions {
    host: RemoteHost,
    index: DeviceIndex,
}

impl RemoteOptions {
    /// Which of the server's devices (the first by default).
    pub fn device_index(mut self, index: impl Into<DeviceIndex>) -> Self {
        self.index = index.into();
        self
    }

    /// Connects: the device is ready when this returns. The same host and
    /// index give the same device (one session per process), reconnected
    /// if its connection was lost.
    pub fn init(self) -> Result<Device, ConnectError> {
        let index = u32::try_from(self.index.resolve()).map_err(|_| ConnectError::Refused {
            url: self.host.url.clone(),
            reason: String::from("the device index does not fit in 32 bits"),
        })?;
        let device = burn_remote::RemoteDevice::new(&self.host.url, index);
        device.connect(&self.host.options)?;
        Ok(Device::from_dispatch(DispatchDevice::Remote(device)))
    }
}

impl Device {
    /// Options for a device of the server `host`; `.init()` connects.
    pub fn remote_options(host: &RemoteHost) -> RemoteOptions {
        RemoteOptions {
            host: host.clone(),
            index: DeviceIndex::Default,
        }
    }
}
