//! Optimizer trajectories against PyTorch: five updates of a fixed 2×3
//! parameter with fixed gradients, through `ModuleOptimizer::step`.
//!
//! The expected values are printed by `tests/reference/optimizers.py`
//! (torch 2.15.0, CPU, float32). SGD, Adam, AdamW, Adagrad and RMSprop use
//! `torch.optim`; Lion, Adan and Muon have no `torch.optim` class, so the
//! script writes their update rules from the papers' published algorithms.

// The reference values are pasted verbatim from the generator script.
#![allow(clippy::excessive_precision)]

extern crate burn_core as burn;

mod common;

use burn::tensor::Tolerance;
use burn_optim::momentum::MomentumConfig;
use burn_optim::{
    AdaGradConfig, AdamConfig, AdamWConfig, AdanConfig, GradientsParams, LionConfig,
    ModuleOptimizer, MuonConfig, RmsPropConfig, SgdConfig,
};
use common::{Weights, assert_close, decay, device, reference_grad};

const P0: [[f32; 3]; 2] = [[0.5, -1.0, 1.5], [2.0, -0.3, 0.8]];
const LR: f64 = 0.1;

/// Runs the reference trajectory and compares every step.
fn check(mut optimizer: ModuleOptimizer, lr: f64, expected: &[[[f32; 3]; 2]], what: &str) {
    let device = device();
    let mut model = Weights::new(P0, &device);
    for (k, expected) in expected.iter().enumerate() {
        let mut grads = GradientsParams::new();
        grads.register(model.weight.id, reference_grad(k, &device));
        model = optimizer.step(lr, model, grads);
        assert_close(
            model.weight.val(),
            *expected,
            Tolerance::rel_abs(1e-5, 1e-6),
            &format!("{what}, step {k}"),
        );
    }
}

// torch 2.15.0+cu132
const SGD_PLAIN: [[[f32; 3]; 2]; 5] = [
    [
        [5.00000000e-01, -1.06442177e+00, 1.40145504e+00],
        [1.91367900e+00, -3.33498836e-01, 8.35078359e-01],
    ],
    [
        [3.79555225e-01, -1.17808402e+00, 1.34803259e+00],
        [1.94562161e+00, -2.31214195e-01, 9.59598958e-01],
    ],
    [
        [3.02230030e-01, -1.15442216e+00, 1.46155298e+00],
        [2.09561014e+00, -1.15299515e-01, 9.86923337e-01],
    ],
    [
        [4.22589093e-01, -9.80526209e-01, 1.60719979e+00],
        [2.14450788e+00, -1.86148256e-01, 8.29649448e-01],
    ],
    [
        [5.99280059e-01, -9.05750871e-01, 1.54489148e+00],
        [1.97442055e+00, -3.84019911e-01, 6.97055578e-01],
    ],
];
const SGD_MOMENTUM: [[[f32; 3]; 2]; 5] = [
    [
        [4.97500002e-01, -1.05942178e+00, 1.39395499e+00],
        [1.90367901e+00, -3.31998825e-01, 8.31078351e-01],
    ],
    [
        [3.84610951e-01, -1.21042991e+00, 1.24416149e+00],
        [1.83717203e+00, -2.67247587e-01, 9.67377484e-01],
    ],
    [
        [2.11687371e-01, -1.31959462e+00, 1.20591688e+00],
        [1.90403807e+00, -1.03445664e-01, 1.11028540e+00],
    ],
    [
        [1.63426727e-01, -1.25539839e+00, 1.29715228e+00],
        [1.99965727e+00, -1.93222836e-02, 1.09235978e+00],
    ],
    [
        [2.78278559e-01, -1.12467468e+00, 1.31734955e+00],
        [1.92363751e+00, -1.21608779e-01, 9.51976657e-01],
    ],
];
const SGD_NESTEROV: [[[f32; 3]; 2]; 5] = [
    [
        [4.99100000e-01, -1.11415923e+00, 1.31991899e+00],
        [1.84102225e+00, -3.59757870e-01, 8.61701012e-01],
    ],
    [
        [2.81081021e-01, -1.35733557e+00, 1.15735388e+00],
        [1.83867979e+00, -1.96245193e-01, 1.10622513e+00],
    ],
    [
        [6.37296066e-02, -1.41680372e+00, 1.27334917e+00],
        [2.07939410e+00, 6.14490770e-02, 1.25011003e+00],
    ],
    [
        [1.68465137e-01, -1.16883063e+00, 1.53612721e+00],
        [2.23771882e+00, 4.70774435e-02, 1.05890012e+00],
    ],
    [
        [4.73757714e-01, -9.74002898e-01, 1.51593089e+00],
        [2.01673889e+00, -2.63945431e-01, 7.92176485e-01],
    ],
];
const ADAM: [[[f32; 3]; 2]; 5] = [
    [
        [5.00000000e-01, -1.09984505e+00, 1.40010142e+00],
        [1.90011573e+00, -3.99702400e-01, 8.99715781e-01],
    ],
    [
        [4.25840855e-01, -1.19739974e+00, 1.30572557e+00],
        [1.86310780e+00, -3.49982619e-01, 9.89234388e-01],
    ],
    [
        [3.43127340e-01, -1.26035297e+00, 1.29997408e+00],
        [1.90249383e+00, -2.77173579e-01, 1.07025504e+00],
    ],
    [
        [3.28627080e-01, -1.24548972e+00, 1.33558166e+00],
        [1.94917452e+00, -2.46408522e-01, 1.06849408e+00],
    ],
    [
        [3.57029736e-01, -1.21597826e+00, 1.34943271e+00],
        [1.94091129e+00, -2.70171046e-01, 1.03776729e+00],
    ],
];
const ADAM_WD: [[[f32; 3]; 2]; 5] = [
    [
        [4.00000036e-01, -1.10000002e+00, 1.39999998e+00],
        [1.89999998e+00, -4.00000006e-01, 8.99999976e-01],
    ],
    [
        [3.22957605e-01, -1.19712532e+00, 1.30438614e+00],
        [1.84248221e+00, -3.46943408e-01, 9.87736404e-01],
    ],
    [
        [2.38253355e-01, -1.25016046e+00, 1.28428853e+00],
        [1.86398876e+00, -2.72203684e-01, 1.06413281e+00],
    ],
    [
        [2.20162749e-01, -1.22517610e+00, 1.30777633e+00],
        [1.89154410e+00, -2.38193855e-01, 1.05317330e+00],
    ],
    [
        [2.45886758e-01, -1.18562877e+00, 1.30823052e+00],
        [1.86689019e+00, -2.59465754e-01, 1.01445651e+00],
    ],
];
const ADAMW: [[[f32; 3]; 2]; 5] = [
    [
        [4.90000010e-01, -1.07984507e+00, 1.37010145e+00],
        [1.86011577e+00, -3.93702418e-01, 8.83715749e-01],
    ],
    [
        [4.02710736e-01, -1.15683877e+00, 1.24946165e+00],
        [1.79096925e+00, -3.31357598e-01, 9.57612395e-01],
    ],
    [
        [3.09238076e-01, -1.19195282e+00, 1.22788942e+00],
        [1.80302620e+00, -2.46671006e-01, 1.01864481e+00],
    ],
    [
        [2.96410859e-01, -1.14163792e+00, 1.25032175e+00],
        [1.82062900e+00, -2.14489833e-01, 9.86039758e-01],
    ],
    [
        [3.31302285e-01, -1.07767081e+00, 1.24274325e+00],
        [1.77010107e+00, -2.45093733e-01, 9.22845960e-01],
    ],
];
const ADAGRAD: [[[f32; 3]; 2]; 5] = [
    [
        [4.88888890e-01, -1.07726026e+00, 1.40695679e+00],
        [1.90782237e+00, -3.56342494e-01, 8.51794481e-01],
    ],
    [
        [3.99253219e-01, -1.15584624e+00, 1.36086428e+00],
        [1.91837895e+00, -2.71549255e-01, 9.38621938e-01],
    ],
    [
        [3.51875097e-01, -1.13113499e+00, 1.41380978e+00],
        [1.98637998e+00, -2.07336217e-01, 9.51312780e-01],
    ],
    [
        [4.03996468e-01, -1.05988395e+00, 1.46671319e+00],
        [2.00062251e+00, -2.40289003e-01, 8.82428885e-01],
    ],
    [
        [4.59249139e-01, -1.03043854e+00, 1.43875730e+00],
        [1.93967617e+00, -3.01358372e-01, 8.35964322e-01],
    ],
];
const RMSPROP: [[[f32; 3]; 2]; 5] = [
    [
        [4.68377262e-01, -1.03162277e+00, 1.46837723e+00],
        [1.96837723e+00, -3.31622779e-01, 8.31622779e-01],
    ],
    [
        [4.36760396e-01, -1.05968428e+00, 1.45202792e+00],
        [1.97581124e+00, -3.01268071e-01, 8.62337470e-01],
    ],
    [
        [4.18935090e-01, -1.05202448e+00, 1.47384441e+00],
        [2.00248766e+00, -2.77467966e-01, 8.68412316e-01],
    ],
    [
        [4.39876676e-01, -1.02530622e+00, 1.49558032e+00],
        [2.01006460e+00, -2.90902764e-01, 8.42544675e-01],
    ],
    [
        [4.62564588e-01, -1.01363266e+00, 1.48472047e+00],
        [1.98602581e+00, -3.15720379e-01, 8.23901355e-01],
    ],
];
const RMSPROP_CENTERED: [[[f32; 3]; 2]; 5] = [
    [
        [5.00000000e-01, -1.03333330e+00, 1.46666670e+00],
        [1.96666670e+00, -3.33333343e-01, 8.33333313e-01],
    ],
    [
        [4.66666669e-01, -1.08069909e+00, 1.43273497e+00],
        [1.96165049e+00, -3.19092155e-01, 8.83071840e-01],
    ],
    [
        [4.30413663e-01, -1.09802103e+00, 1.43928647e+00],
        [1.98735368e+00, -2.86364615e-01, 9.15554047e-01],
    ],
    [
        [4.33766425e-01, -1.08044183e+00, 1.46546507e+00],
        [2.00966120e+00, -2.84014523e-01, 9.06565726e-01],
    ],
    [
        [4.58670527e-01, -1.06035769e+00, 1.46888661e+00],
        [1.99783707e+00, -3.08052480e-01, 8.83440256e-01],
    ],
];
const LION: [[[f32; 3]; 2]; 5] = [
    [
        [4.95000005e-01, -1.09000003e+00, 1.38499999e+00],
        [1.88000000e+00, -3.97000015e-01, 8.92000020e-01],
    ],
    [
        [3.90050024e-01, -1.17910004e+00, 1.27114999e+00],
        [1.96120000e+00, -2.93030024e-01, 9.83080029e-01],
    ],
    [
        [2.86149532e-01, -1.06730902e+00, 1.35843849e+00],
        [2.04158807e+00, -1.90099746e-01, 1.07324922e+00],
    ],
    [
        [3.83288026e-01, -9.56635952e-01, 1.44485414e+00],
        [2.12117219e+00, -2.88198739e-01, 9.62516665e-01],
    ],
    [
        [4.79455143e-01, -8.47069561e-01, 1.33040559e+00],
        [1.99996054e+00, -3.85316759e-01, 8.52891505e-01],
    ],
];
const ADAN: [[[f32; 3]; 2]; 5] = [
    [
        [4.97512430e-01, -1.09452736e+00, 1.39303482e+00],
        [1.89054728e+00, -3.98009956e-01, 8.95522416e-01],
    ],
    [
        [4.46529776e-01, -1.19308960e+00, 1.29039359e+00],
        [1.79510939e+00, -4.47311342e-01, 9.97634888e-01],
    ],
    [
        [4.06372398e-01, -1.27108502e+00, 1.20717382e+00],
        [1.71727812e+00, -4.86764640e-01, 1.07935429e+00],
    ],
    [
        [4.26665068e-01, -1.32070291e+00, 1.13088894e+00],
        [1.63270402e+00, -5.52271545e-01, 1.10870218e+00],
    ],
    [
        [4.59284931e-01, -1.37845874e+00, 1.04144228e+00],
        [1.53489566e+00, -6.28091633e-01, 1.13671517e+00],
    ],
];
const MUON: [[[f32; 3]; 2]; 5] = [
    [
        [4.94065970e-01, -1.04844356e+00, 1.39653385e+00],
        [1.89925730e+00, -3.29031169e-01, 8.23745191e-01],
    ],
    [
        [4.17841017e-01, -1.08622169e+00, 1.38002622e+00],
        [1.82779717e+00, -3.08454961e-01, 8.94417465e-01],
    ],
    [
        [3.41252446e-01, -1.07720971e+00, 1.43580592e+00],
        [1.82688844e+00, -2.54270881e-01, 9.46270287e-01],
    ],
    [
        [3.56532454e-01, -1.00139856e+00, 1.50224447e+00],
        [1.86553597e+00, -2.43979722e-01, 8.91743898e-01],
    ],
    [
        [4.32245970e-01, -9.73416567e-01, 1.43542862e+00],
        [1.84531188e+00, -2.89556295e-01, 8.10945332e-01],
    ],
];

// Generated by `reference/optimizers.py MUON_DAMPENED SGD_NESTEROV_DAMPENED`
// (torch 2.15): the dampened momentum Burn's MomentumConfig allows.
const MUON_DAMPENED: [[[f32; 3]; 2]; 5] = [
    [
        [4.99065995e-01, -1.05844355e+00, 1.41153383e+00],
        [1.91925716e+00, -3.32031161e-01, 8.31745267e-01],
    ],
    [
        [4.41937119e-01, -1.10987341e+00, 1.38999128e+00],
        [1.84128189e+00, -3.37262899e-01, 9.01717663e-01],
    ],
    [
        [3.58223677e-01, -1.14231133e+00, 1.42408490e+00],
        [1.81943393e+00, -2.97925800e-01, 9.83738899e-01],
    ],
    [
        [3.23951185e-01, -1.11810780e+00, 1.49538112e+00],
        [1.90886378e+00, -2.38019422e-01, 9.85946894e-01],
    ],
    [
        [4.07622218e-01, -1.08757043e+00, 1.45842254e+00],
        [1.92746592e+00, -2.78898209e-01, 9.04813111e-01],
    ],
];
const SGD_NESTEROV_DAMPENED: [[[f32; 3]; 2]; 5] = [
    [
        [4.99100000e-01, -1.11415923e+00, 1.31991899e+00],
        [1.84102237e+00, -3.59757870e-01, 8.61701012e-01],
    ],
    [
        [2.90756524e-01, -1.34833181e+00, 1.16173327e+00],
        [1.83627176e+00, -2.04456747e-01, 1.09633243e+00],
    ],
    [
        [8.73373896e-02, -1.40261388e+00, 1.27223551e+00],
        [2.06321168e+00, 3.73935401e-02, 1.23022270e+00],
    ],
    [
        [1.93562239e-01, -1.16453421e+00, 1.51907456e+00],
        [2.20679736e+00, 1.60543174e-02, 1.04372537e+00],
    ],
    [
        [4.85900223e-01, -9.83692765e-01, 1.49126315e+00],
        [1.98785233e+00, -2.84675002e-01, 7.91474164e-01],
    ],
];

#[test]
fn sgd_matches_pytorch() {
    check(SgdConfig::new().init(), LR, &SGD_PLAIN, "plain SGD");
}

#[test]
fn sgd_with_momentum_dampening_and_weight_decay_matches_pytorch() {
    // The reference ran PyTorch with dampening 0.1, Burn's default.
    let config = SgdConfig::new()
        .with_momentum(Some(MomentumConfig::new().with_momentum(0.9)))
        .with_weight_decay(decay(0.05));
    check(config.init(), LR, &SGD_MOMENTUM, "SGD momentum");
}

#[test]
fn sgd_with_nesterov_matches_pytorch() {
    let nesterov = MomentumConfig::new()
        .with_momentum(0.8)
        .with_dampening(0.0)
        .with_nesterov(true);
    let config = SgdConfig::new()
        .with_momentum(Some(nesterov))
        .with_weight_decay(decay(0.01));
    check(config.init(), LR, &SGD_NESTEROV, "SGD Nesterov");
}

#[test]
fn adam_matches_pytorch() {
    let config = AdamConfig::new().with_beta_2(0.99).with_epsilon(1e-3);
    check(config.init(), LR, &ADAM, "Adam");
}

#[test]
fn adam_with_l2_weight_decay_matches_pytorch() {
    check(
        AdamConfig::new().with_weight_decay(decay(0.1)).init(),
        LR,
        &ADAM_WD,
        "Adam weight decay",
    );
}

#[test]
fn adamw_matches_pytorch() {
    let config = AdamWConfig::new()
        .with_beta_1(0.8)
        .with_beta_2(0.95)
        .with_epsilon(1e-3)
        .with_weight_decay(0.2);
    check(config.init(), LR, &ADAMW, "AdamW");
}

#[test]
fn adagrad_matches_pytorch() {
    let config = AdaGradConfig::new()
        .with_lr_decay(0.05)
        .with_weight_decay(decay(0.1))
        .with_initial_accumulator_value(0.2);
    check(config.init(), LR, &ADAGRAD, "AdaGrad");
}

#[test]
fn rmsprop_matches_pytorch() {
    let config = RmsPropConfig::new()
        .with_alpha(0.9)
        .with_weight_decay(decay(0.05));
    check(config.init(), 0.01, &RMSPROP, "RMSProp");
}

#[test]
fn centered_rmsprop_with_momentum_matches_pytorch() {
    let config = RmsPropConfig::new()
        .with_alpha(0.9)
        .with_centered(true)
        .with_momentum(0.5);
    check(config.init(), 0.01, &RMSPROP_CENTERED, "centered RMSProp");
}

#[test]
fn lion_matches_the_paper() {
    check(
        LionConfig::new().with_weight_decay(0.1).init(),
        LR,
        &LION,
        "Lion",
    );
}

#[test]
fn adan_matches_the_paper() {
    check(
        AdanConfig::new().with_weight_decay(0.05).init(),
        LR,
        &ADAN,
        "Adan",
    );
}

#[test]
fn muon_matches_the_published_algorithm() {
    check(
        MuonConfig::new().with_weight_decay(decay(0.1)).init(),
        LR,
        &MUON,
        "Muon",
    );
}

#[test]
#[should_panic(expected = "Muon updates matrices only")]
fn muon_rejects_vectors() {
    use burn::module::Param;
    use burn::tensor::Tensor;
    let device = device();
    let bias = Param::from_tensor(Tensor::<1>::ones([3], &device));
    let mut grads = GradientsParams::new();
    grads.register(bias.id, Tensor::<1>::ones([3], &device));
    MuonConfig::new().init().step(LR, bias, grads);
}

#[test]
fn sgd_with_dampened_nesterov_momentum_matches_the_torch_rule() {
    let momentum = MomentumConfig::new()
        .with_momentum(0.8)
        .with_dampening(0.1)
        .with_nesterov(true);
    let config = SgdConfig::new()
        .with_momentum(Some(momentum))
        .with_weight_decay(decay(0.01));
    check(
        config.init(),
        LR,
        &SGD_NESTEROV_DAMPENED,
        "SGD dampened Nesterov",
    );
}

#[test]
fn muon_with_dampened_momentum_matches_the_torch_rule() {
    let momentum = MomentumConfig::new()
        .with_momentum(0.9)
        .with_dampening(0.3)
        .with_nesterov(false);
    check(
        MuonConfig::new().with_momentum(momentum).init(),
        LR,
        &MUON_DAMPENED,
        "Muon dampened",
    );
}
