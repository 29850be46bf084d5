//! Gradients of the host decompositions, all in one place.
//!
//! The tensor API has no custom-backward hook, so each function computes
//! its result `y` on the host and returns `y + (s − s.detach())`, where `s`
//! is a composition of tensor ops in the live input whose first derivative
//! equals the true derivative of `y`. The added term is exactly zero in
//! value (`s − s` in floating point), so forward values are untouched,
//! while autodiff sees `∂s/∂A`. Everything else in `s` (factors, inverses)
//! is a detached constant, which is why second-order gradients are NOT
//! supported: differentiating these surrogates twice gives wrong results.
//!
//! Notation: `A` live input, capitals without it constants, `Φ(X)` the
//! lower triangle of `X` with its diagonal halved, `sym(X) = (X + Xᵀ)/2`,
//! `∘` elementwise product.

use burn_tensor::Tensor;

/// `y + (s − s.detach())`: the value of `y`, the first derivative of `s`.
pub(crate) fn attach<const D: usize>(y: Tensor<D>, s: Tensor<D>) -> Tensor<D> {
    y + (s.clone() - s.detach())
}

pub(crate) fn t<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    x.swap_dims(D - 2, D - 1)
}

// solve, X = A⁻¹B: dX = A⁻¹(dB − dA·X)
//   s = A⁻¹·(B − A·X)
pub(crate) fn solve<const D: usize>(
    a: Tensor<D>,
    b: Tensor<D>,
    ainv: Tensor<D>,
    x: Tensor<D>,
) -> Tensor<D> {
    ainv.matmul(b - a.matmul(x))
}

// inverse, Y = A⁻¹: dY = −Y·dA·Y
//   s = −Y·A·Y
pub(crate) fn inverse<const D: usize>(a: Tensor<D>, y: Tensor<D>) -> Tensor<D> {
    y.clone().matmul(a).matmul(y).neg()
}

// det: d(det A) = tr(adj(A)·dA) = Σ cof(A) ∘ dA, cof = adj(A)ᵀ (= det·A⁻ᵀ
// when A is invertible; from the SVD otherwise, so singular A works too)
//   s = Σ_ij cof ∘ A          (kept as [.., 1, 1])
pub(crate) fn det<const D: usize>(a: Tensor<D>, cof: Tensor<D>) -> Tensor<D> {
    (cof * a).sum_dim(D - 1).sum_dim(D - 2)
}

// cholesky, A = L·Lᵀ: dL = L·Φ(L⁻¹·sym(dA)·L⁻ᵀ) (sym: only A's symmetric
// part is factored, and the gradient comes out symmetric, as PyTorch's)
//   s = L·(L⁻¹·sym(A)·L⁻ᵀ ∘ M),   M = lower mask with ½ on the diagonal
pub(crate) fn cholesky<const D: usize>(
    a: Tensor<D>,
    l: Tensor<D>,
    linv: Tensor<D>,
    mask: Tensor<D>,
) -> Tensor<D> {
    let sym = (a.clone() + t(a)).mul_scalar(0.5);
    l.matmul(linv.clone().matmul(sym).matmul(t(linv)) * mask)
}

// lu, A = P·L·U (square): with C = L⁻¹·Pᵀ·dA·U⁻¹ = L⁻¹dL + dU·U⁻¹,
// dL = L·tril(C, −1), dU = triu(C)·U
//   C = L⁻¹·Pᵀ·A·U⁻¹;  s_L = L·tril(C, −1);  s_U = triu(C)·U
pub(crate) fn lu<const D: usize>(
    a: Tensor<D>,
    p: Tensor<D>,
    l: Tensor<D>,
    u: Tensor<D>,
    linv: Tensor<D>,
    uinv: Tensor<D>,
) -> (Tensor<D>, Tensor<D>) {
    let c = linv.matmul(t(p)).matmul(a).matmul(uinv);
    (l.matmul(c.clone().tril(-1)), c.triu(0).matmul(u))
}

// qr, A = Q·R (m ≥ n, Q m×n): with C = Qᵀ·dA·R⁻¹ and Ω = tril(C,−1) −
// tril(C,−1)ᵀ (= Qᵀ·dQ, skew), dQ = Q·Ω + (I − QQᵀ)·dA·R⁻¹, dR = (C − Ω)·R
//   C = Qᵀ·A·R⁻¹;  s_Q = Q·Ω + A·R⁻¹ − Q·C;  s_R = (C − Ω)·R
pub(crate) fn qr<const D: usize>(
    a: Tensor<D>,
    q: Tensor<D>,
    r: Tensor<D>,
    rinv: Tensor<D>,
) -> (Tensor<D>, Tensor<D>) {
    let ar = a.matmul(rinv);
    let c = t(q.clone()).matmul(ar.clone());
    let low = c.clone().tril(-1);
    let omega = low.clone() - t(low);
    let sq = q.clone().matmul(omega.clone()) + ar - q.matmul(c.clone());
    (sq, (c - omega).matmul(r))
}

// svd, A = U·S·Vᵀ (thin, k = min(m, n)), with P = Uᵀ·dA·V and
// F_ij = 1/(σ_j² − σ_i²) (0 on the diagonal and for repeated σ):
//   dσ = diag(P)
//   dU = U·(F ∘ (P·S + S·Pᵀ)) + (I − UUᵀ)·dA·V·S⁻¹
//   dV = V·(F ∘ (S·P + Pᵀ·S)) + (I − VVᵀ)·dAᵀ·U·S⁻¹
// (S⁻¹ taken as the pseudo-inverse). The surrogates put the live A in P
// and dA; row/column scaling by σ is a broadcast multiply.
pub(crate) struct SvdConsts<const D: usize> {
    pub u: Tensor<D>,
    pub v: Tensor<D>,
    /// σ as a row `[.., 1, k]`.
    pub s_row: Tensor<D>,
    /// σ as a column `[.., k, 1]`.
    pub s_col: Tensor<D>,
    /// The pseudo-inverse of σ as a row.
    pub sinv_row: Tensor<D>,
    pub f: Tensor<D>,
}

// σ only: s_σ = diag(Uᵀ·A·V) = Σ_rows U ∘ (A·V)     (kept as [.., 1, k])
pub(crate) fn singular_values<const D: usize>(
    a: Tensor<D>,
    u: Tensor<D>,
    v: Tensor<D>,
) -> Tensor<D> {
    (u * a.matmul(v)).sum_dim(D - 2)
}

pub(crate) fn svd<const D: usize>(
    a: Tensor<D>,
    c: &SvdConsts<D>,
) -> (Tensor<D>, Tensor<D>, Tensor<D>) {
    let av = a.clone().matmul(c.v.clone());
    let atu = t(a).matmul(c.u.clone());
    let p = t(c.u.clone()).matmul(av.clone());
    let sigma = (c.u.clone() * av.clone()).sum_dim(D - 2);
    let ps = p.clone() * c.s_row.clone(); // P·S
    let sp = p.clone() * c.s_col.clone(); // S·P
    let su = c.u.clone().matmul(c.f.clone() * (ps.clone() + t(ps)))
        + (av - c.u.clone().matmul(p.clone())) * c.sinv_row.clone();
    let sv = c.v.clone().matmul(c.f.clone() * (sp.clone() + t(sp)))
        + (atu - c.v.clone().matmul(t(p))) * c.sinv_row.clone();
    (su, sigma, sv)
}

// eigh, A = V·diag(λ)·Vᵀ: with P = Vᵀ·sym(dA)·V, F_ij = 1/(λ_j − λ_i) (0 on
// the diagonal and for repeated λ): dλ = diag(P), dV = V·(F ∘ P); sym as
// the forward reads (A + Aᵀ)/2, which makes the gradient PyTorch's
//   P = Vᵀ·sym(A)·V;  s_λ = diag(P);  s_V = V·(F ∘ P)
pub(crate) fn eigh<const D: usize>(
    a: Tensor<D>,
    v: Tensor<D>,
    f: Tensor<D>,
) -> (Tensor<D>, Tensor<D>) {
    let sym = (a.clone() + t(a)).mul_scalar(0.5);
    let av = sym.matmul(v.clone());
    let lambda = (v.clone() * av.clone()).sum_dim(D - 2);
    let p = t(v.clone()).matmul(av);
    (lambda, v.matmul(f * p))
}

// lstsq, tall full column rank, X = (AᵀA)⁻¹AᵀB = G·AᵀB:
// dX = G·(dAᵀ·(B − AX) + Aᵀ·(dB − dA·X))
//   s = G·(Aᵀ·(B − A·X))
pub(crate) fn lstsq_tall<const D: usize>(
    a: Tensor<D>,
    b: Tensor<D>,
    g: Tensor<D>,
    x: Tensor<D>,
) -> Tensor<D> {
    g.matmul(t(a.clone()).matmul(b - a.matmul(x)))
}

// lstsq, wide full row rank (minimum norm), X = Aᵀ·H·B, H = (AAᵀ)⁻¹, Y = H·B:
// dX = dAᵀ·Y + Aᵀ·H·(dB − dA·X − A·dAᵀ·Y)
//   s = Aᵀ·(H·(B − A·(Aᵀ·Y))) + Aᵀ·Y
pub(crate) fn lstsq_wide<const D: usize>(
    a: Tensor<D>,
    b: Tensor<D>,
    h: Tensor<D>,
    y: Tensor<D>,
) -> Tensor<D> {
    let aty = t(a.clone()).matmul(y);
    let resid = b - a.clone().matmul(aty.clone());
    t(a).matmul(h.matmul(resid)) + aty
}
