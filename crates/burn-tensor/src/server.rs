//! Serving this machine's devices to remote clients.
//!
//! ```no_run
//! use burn_tensor::Device;
//! use burn_tensor::server::{RemoteServer, WebSocketTransport};
//!
//! // Blocks, serving the default device on 127.0.0.1:3000.
//! RemoteServer::new(vec![Device::default()]).serve(WebSocketTransport::new(3000).unwrap());
//! ```
//!
//! Each connection is a session with its own tensors, run in order on the
//! chosen device and freed when the session ends. Malformed, oversized or
//! out-of-order messages end their session only; see
//! [`ServerSettings`] for the limits.

use std::string::String;
use std::vec::Vec;

use burn_dispatch::Dispatch;
pub use burn_remote::server::{ServerHandle, ServerSettings, WebSocketTransport};

use crate::Device;

/// A server of local devices (of any backend), picked by index by its clients.
pub struct RemoteServer {
    inner: burn_remote::server::RemoteServer<Dispatch>,
}

impl RemoteServer {
    /// A server of `devices` (their autodiff context, if any, stays on the
    /// client side: the server runs plain operations).
    ///
    /// # Panics
    /// If `devices` is empty.
    pub fn new(devices: Vec<Device>) -> Self {
        let devices = devices
            .into_iter()
            .map(|device| device.dispatch().clone().without_autodiff())
            .collect();
        Self {
            inner: burn_remote::server::RemoteServer::new(devices),
        }
    }

    /// Replaces the limits and timeouts.
    pub fn with_settings(self, settings: ServerSettings) -> Self {
        Self {
            inner: self.inner.with_settings(settings),
        }
    }

    /// Accepts a session only when `authorize` approves its credential.
    pub fn with_authorizer(
        self,
        authorize: impl Fn(Option<&str>) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self {
            inner: self.inner.with_authorizer(authorize),
        }
    }

    /// Accepts only clients presenting `token`.
    pub fn with_token(self, token: impl Into<String>) -> Self {
        Self {
            inner: self.inner.with_token(token),
        }
    }

    /// Serves until the process ends.
    pub fn serve(self, transport: WebSocketTransport) {
        self.inner.serve(transport)
    }

    /// Serves from a thread of its own; the handle stops it.
    pub fn spawn(self, transport: WebSocketTransport) -> ServerHandle {
        self.inner.spawn(transport)
    }

    /// Serves on the caller's async runtime.
    pub async fn serve_async(self, transport: WebSocketTransport) {
        self.inner.serve_async(transport).await
    }
}
