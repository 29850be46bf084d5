//! `RemoteDevice`, `RemoteChannel` and the process's table of connections.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::sync::Mutex;

use burn_backend::{DeviceId, DeviceOps};
use burn_router::{BackendRouter, RunnerChannel, RunnerClient};

use crate::client::{ClientOptions, ConnectError, RemoteClient};

/// The backend of remote devices: the router over [`RemoteChannel`].
pub type RemoteBackend = BackendRouter<RemoteChannel>;

/// A device of a remote server: its URL and its index there.
///
/// A handle of one pointer (it sits inside `DispatchDevice`); two handles
/// naming the same server and index are the same device, with one
/// connection for the process, opened by [`RemoteDevice::connect`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RemoteDevice {
    key: Arc<DeviceKey>,
}

impl core::fmt::Debug for RemoteDevice {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} #{}", self.key.url, self.key.index)
    }
}

#[derive(Debug, PartialEq, Eq, Hash)]
struct DeviceKey {
    url: String,
    index: u32,
    /// The process-wide number of this (url, index), for [`DeviceId`].
    number: u32,
}

impl Default for RemoteDevice {
    /// Device 0 of `ws://127.0.0.1:3000`, the examples' server; it still
    /// has to be connected before use.
    fn default() -> Self {
        Self::new("ws://127.0.0.1:3000", 0)
    }
}

impl RemoteDevice {
    /// Device `index` of the server at `url` (no connection is opened).
    pub fn new(url: &str, index: u32) -> Self {
        let mut table = lock_table();
        if let Some(entry) = table
            .iter()
            .find(|entry| entry.device.key.url == url && entry.device.key.index == index)
        {
            return entry.device.clone();
        }
        let device = Self {
            key: Arc::new(DeviceKey {
                url: String::from(url),
                index,
                number: table.len() as u32,
            }),
        };
        table.push(Entry {
            device: device.clone(),
            client: None,
        });
        device
    }

    /// Opens the session of this device, unless one is open and alive.
    ///
    /// Threads connecting the same device at once get the same session:
    /// two sessions would make the device's tensors unusable together.
    pub fn connect(&self, options: &ClientOptions) -> Result<(), ConnectError> {
        // One connection attempt at a time in the process, outside the
        // table's lock (an attempt takes up to the connect timeout).
        static CONNECTING: Mutex<()> = Mutex::new(());
        let _connecting = CONNECTING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(client) = self.client_if_connected()
            && client.connection_error().is_none()
        {
            return Ok(());
        }
        let client = RemoteClient::connect(self.clone(), options.clone())?;
        let mut table = lock_table();
        let entry = &mut table[self.key.number as usize];
        entry.client = Some(client);
        Ok(())
    }

    /// Forgets this device's session: the connection closes when the last
    /// tensor still on it is dropped (the server then frees the session's
    /// tensors). A later [`connect`](Self::connect) opens a new session.
    pub fn disconnect(&self) {
        let client = lock_table()[self.key.number as usize].client.take();
        drop(client);
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        &self.key.url
    }

    /// The device's index on its server.
    pub fn index(&self) -> u32 {
        self.key.index
    }

    /// The open session, if any (alive or not).
    pub fn client_if_connected(&self) -> Option<Arc<RemoteClient>> {
        lock_table()[self.key.number as usize].client.clone()
    }
}

impl DeviceOps for RemoteDevice {
    fn id(&self) -> DeviceId {
        DeviceId::new(0, self.key.number)
    }
}

struct Entry {
    device: RemoteDevice,
    client: Option<Arc<RemoteClient>>,
}

static TABLE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn lock_table() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The channel of remote devices: the session opened for each.
#[derive(Clone, Copy, Default, Debug)]
pub struct RemoteChannel;

impl RunnerChannel for RemoteChannel {
    type Device = RemoteDevice;

    /// # Panics
    /// If the device was never connected (`Device::remote_options(..).init()`
    /// connects it).
    fn client(device: &RemoteDevice) -> Arc<dyn RunnerClient> {
        match device.client_if_connected() {
            Some(client) => client,
            None => panic!(
                "remote: device {} of {} is not connected; create it with \
                 Device::remote_options(&host).device_index({}).init()",
                device.index(),
                device.url(),
                device.index()
            ),
        }
    }

    fn name(device: &RemoteDevice) -> String {
        match device.client_if_connected() {
            Some(client) => format!(
                "remote<{} #{}: {}>",
                device.url(),
                device.index(),
                client.device_name()
            ),
            None => format!("remote<{} #{}>", device.url(), device.index()),
        }
    }
}
