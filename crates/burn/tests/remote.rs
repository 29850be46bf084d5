//! Remote devices through the facade: the published API, tensors moving
//! between a local and a remote device, gradients on a remote device, a
//! module trained there, and the errors a client can get.
#![cfg(all(feature = "remote-server", feature = "flex"))]

use std::sync::OnceLock;

use burn::nn::{Linear, LinearConfig};
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use burn::remote::{ConnectError, RemoteHost};
use burn::server::{RemoteServer, ServerHandle, WebSocketTransport};

fn server() -> &'static ServerHandle {
    static SERVER: OnceLock<ServerHandle> = OnceLock::new();
    SERVER.get_or_init(|| {
        RemoteServer::new(vec![Device::flex()]).spawn(WebSocketTransport::new(0).unwrap())
    })
}

fn remote() -> Device {
    let host = RemoteHost::websocket(server().url());
    Device::remote_options(&host)
        .device_index(0)
        .init()
        .unwrap()
}

#[test]
fn the_host_lists_its_devices() {
    let host = RemoteHost::websocket(server().url());
    let devices = host.devices().unwrap();
    assert_eq!(devices.len(), 1);
    assert!(
        devices[0].contains("Flex") || devices[0].contains("flex"),
        "{devices:?}"
    );
}

#[test]
fn tensors_move_between_local_and_remote_devices() {
    let (local, remote) = (Device::flex(), remote());
    let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &local);
    let on_remote = x.clone().to_device(&remote);
    assert_eq!(on_remote.device(), remote);
    let y = (on_remote.matmul(Tensor::<2>::ones([2, 2], &remote)) + 1.0).to_device(&local);
    assert_eq!(y.device(), local);
    y.into_data()
        .assert_eq(&TensorData::from([[4.0f32, 4.0], [8.0, 8.0]]), false);
}

#[test]
fn gradients_on_a_remote_device() {
    let device = remote().autodiff();
    let x = Tensor::<1>::from_floats([1.0, -2.0, 3.0], &device).require_grad();
    let grads = (x.clone() * x.clone()).sum().backward();
    x.grad(&grads)
        .unwrap()
        .into_data()
        .assert_eq(&TensorData::from([2.0f32, -4.0, 6.0]), false);
}

#[derive(Module, Debug)]
struct Model {
    linear: Linear,
}

#[test]
fn a_module_trains_on_a_remote_device() {
    let device = remote().autodiff();
    let mut model = Model {
        linear: LinearConfig::new(2, 1).init(&device),
    };
    let mut optimizer = SgdConfig::new().init();
    let x = Tensor::<2>::from_floats([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], &device);
    let y = Tensor::<2>::from_floats([[1.0], [2.0], [3.0]], &device);
    let loss_of = |model: &Model| {
        (model.linear.forward(x.clone()) - y.clone())
            .powf_scalar(2.0)
            .mean()
    };
    let first = loss_of(&model).into_scalar::<f32>();
    for _ in 0..50 {
        let loss = loss_of(&model);
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optimizer.step(0.1, model, grads);
    }
    let last = loss_of(&model).into_scalar::<f32>();
    assert!(last < first / 10.0, "loss {first} -> {last}");
}

#[test]
fn connecting_where_no_server_listens_is_an_error() {
    // A port just freed: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let host = RemoteHost::websocket(format!("ws://127.0.0.1:{port}"));
    match Device::remote_options(&host).init() {
        Err(ConnectError::Connect { .. }) => {}
        other => panic!("expected a connection error, got {other:?}"),
    }
    let bad = RemoteHost::websocket("http://127.0.0.1:1");
    assert!(matches!(
        Device::remote_options(&bad).init(),
        Err(ConnectError::InvalidUrl { .. })
    ));
}
