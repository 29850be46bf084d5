//! Tensor code as an application writes it: no backend type anywhere, only
//! `Device` and the upstream method names. `cargo xtask rebuild-time` edits
//! the marked line and times the rebuild.

use burn::prelude::*;
use burn::tensor::activation::{gelu, log_softmax, relu, sigmoid, silu, softmax};

fn main() {
    let device = Device::default();
    let scale = 2.5; // edited by the probe

    let x = Tensor::<2>::from_data([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], &device);
    let w = Tensor::<2>::from_data([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], &device);

    let y = x.clone().matmul(w) * scale; // [2, 2]
    let stats = Tensor::cat(
        vec![
            x.clone().sum_dim(1),
            x.clone().mean_dim(1),
            x.clone().max_dim(1),
            x.clone().var(1),
            x.clone().cumsum(1).narrow(1, 2, 1),
        ],
        1,
    ); // [2, 5]
    let picked = x.clone().argmax(1); // [2, 1]
    let gathered = x.clone().gather(1, picked.clone());
    let rows = x.clone().select(0, Tensor::<1, Int>::from_data([1, 0], &device));

    let moved = x
        .clone()
        .swap_dims(0, 1)
        .permute([1, 0])
        .reshape([3, 2])
        .flip([0])
        .slice([0..2, 0..2]);
    let stacked = Tensor::stack::<3>(vec![moved.clone(), y.clone()], 0); // [2, 2, 2]
    let expanded = x.clone().narrow(0, 0, 1).expand([4, 3]).repeat_dim(0, 2);
    let lifted = x.clone().unsqueeze_dim::<3>(0);

    let positive = x.clone().greater(Tensor::zeros([2, 3], &device));
    let small = x.clone().lower_equal(Tensor::ones([2, 3], &device));
    let same = x.clone().equal(x.clone());
    let filled = x.clone().mask_fill(small.clone(), 0.0);
    let chosen = x.clone().mask_where(positive, Tensor::full([2, 3], -7.0, &device));

    let sorted = x.clone().sort(1);
    let order = x.clone().argsort(1);
    let top = x.clone().topk(2, 1);
    let shaped = x.clone().clamp(-1.5, 3.5).powf(Tensor::full([2, 3], 2.0, &device));
    let special = x.clone().erf() + x.clone().abs().recip();

    let acts = softmax(x.clone(), 1)
        + log_softmax(x.clone(), 1)
        + gelu(x.clone())
        + silu(x.clone())
        + sigmoid(x.clone())
        + relu(x);

    println!("y = {y}");
    println!("stats = {stats}");
    println!("picked = {picked}, gathered = {gathered}, rows = {rows}");
    println!("moved = {moved}, stacked = {stacked}");
    println!("expanded dims = {:?}, lifted dims = {:?}", expanded.dims(), lifted.dims());
    println!("same = {same}, filled = {filled}, chosen = {chosen}");
    println!("sorted = {sorted}, order = {order}, top = {top}");
    println!("shaped = {shaped}, special = {special}");
    println!("acts = {acts}");
}
