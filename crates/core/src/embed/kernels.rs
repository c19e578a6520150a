//! The row-wise steps of a transformer layer, written as plain loops the compiler
//! vectorises: bias + GELU in one pass, residual + layer norm in one pass, softmax. exp is a
//! polynomial rather than libm's, so those loops vectorise too; on x86-64 CPUs with AVX2 each
//! kernel runs a copy compiled for it (chosen at run time): eight lanes, or sixteen with
//! AVX-512, instead of four.

/// Defines `pub fn $name` that runs `$body` compiled for AVX2 + FMA where the CPU has them.
macro_rules! dispatched {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $body:block) => {
        $(#[$doc])*
        pub fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn generic($($arg: $ty),*) $body

            #[cfg(target_arch = "x86_64")]
            {
                use std::arch::is_x86_feature_detected as has;
                #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
                unsafe fn avx512($($arg: $ty),*) {
                    generic($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn avx2($($arg: $ty),*) {
                    generic($($arg),*)
                }
                if has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl") {
                    // SAFETY: the CPU was just found to have these features.
                    return unsafe { avx512($($arg),*) };
                }
                if has!("avx2") && has!("fma") {
                    // SAFETY: as above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            generic($($arg),*)
        }
    };
}

dispatched! {
    /// `x ← GELU(x + bias)` for each row, the exact (erf) GELU that BERT models are trained with.
    fn bias_gelu(rows: &mut [f32], bias: &[f32]) {
        for row in rows.chunks_exact_mut(bias.len()) {
            for (x, b) in row.iter_mut().zip(bias) {
                let v = *x + b;
                *x = 0.5 * v * (1.0 + erf(v * std::f32::consts::FRAC_1_SQRT_2));
            }
        }
    }
}

dispatched! {
    /// `x ← x + bias` for each row.
    fn add_bias(rows: &mut [f32], bias: &[f32]) {
        for row in rows.chunks_exact_mut(bias.len()) {
            row.iter_mut().zip(bias).for_each(|(x, b)| *x += b);
        }
    }
}

dispatched! {
    /// `x ← LayerNorm(x + residual)` for each row (`residual` may be empty: then only the norm).
    fn residual_layer_norm(rows: &mut [f32], residual: &[f32], gamma: &[f32], beta: &[f32], eps: f32) {
        let h = gamma.len();
        for (i, row) in rows.chunks_exact_mut(h).enumerate() {
            if !residual.is_empty() {
                row.iter_mut().zip(&residual[i * h..(i + 1) * h]).for_each(|(x, r)| *x += r);
            }
            let mean = lanes_sum(row, |x| x) / h as f32;
            let var = lanes_sum(row, |x| (x - mean) * (x - mean)) / h as f32;
            let inv = 1.0 / (var + eps).sqrt();
            for ((x, g), b) in row.iter_mut().zip(gamma).zip(beta) {
                *x = (*x - mean) * inv * g + b;
            }
        }
    }
}

dispatched! {
    /// Softmax of each row in place.
    fn softmax_rows(rows: &mut [f32], width: usize) {
        for row in rows.chunks_exact_mut(width) {
            let max = lanes_max(row);
            row.iter_mut().for_each(|x| *x = exp(*x - max));
            let inv = 1.0 / lanes_sum(row, |x| x);
            row.iter_mut().for_each(|x| *x *= inv);
        }
    }
}

/// Σ f(x) over sixteen running sums, which the compiler keeps in one vector register (a
/// single running sum is a chain of dependent adds it may not reorder).
#[inline(always)]
fn lanes_sum(xs: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut acc = [0.0f32; 16];
    let chunks = xs.chunks_exact(16);
    let rest: f32 = chunks.remainder().iter().map(|&x| f(x)).sum();
    for c in chunks {
        for i in 0..16 {
            acc[i] += f(c[i]);
        }
    }
    acc.iter().sum::<f32>() + rest
}

#[inline(always)]
fn lanes_max(xs: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; 16];
    let chunks = xs.chunks_exact(16);
    let rest = chunks.remainder().iter().fold(f32::NEG_INFINITY, |m, &x| if x > m { x } else { m });
    for c in chunks {
        for i in 0..16 {
            acc[i] = if c[i] > acc[i] { c[i] } else { acc[i] };
        }
    }
    acc.iter().fold(rest, |m, &x| if x > m { x } else { m })
}

/// eˣ to about 2e-7 relative: n = round(x / ln 2) (Cody–Waite: ln 2 in two parts, so the
/// remainder keeps its bits), eʳ by a degree-7 polynomial on |r| ≤ ln 2 / 2, times 2ⁿ from the
/// exponent bits. Below -87 it gives ~0, as expf does (the softmax's masked entries).
#[inline(always)]
fn exp(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    let x = x.clamp(-87.0, 88.0);
    // Round to nearest without a libm call: adding 1.5·2²³ pushes the fraction out.
    let n = (x * std::f32::consts::LOG2_E + 12_582_912.0) - 12_582_912.0;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    p * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

/// erf to within 1.2e-7 (Numerical Recipes' erfc, Chebyshev fit), branch-free.
#[inline(always)]
fn erf(x: f32) -> f32 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_2
        + t * (1.000_023_7
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    (1.0 - t * exp(poly)).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_libm() {
        for i in -2000..=2000 {
            let x = i as f32 * 0.043;
            let (got, want) = (exp(x), x.exp());
            assert!((got - want).abs() <= want * 4e-7, "exp({x}) = {got}, not {want}");
        }
        assert!(exp(-1e9) < 1e-37 && exp(-1e9) >= 0.0, "large negative inputs give ~0");
    }

    #[test]
    fn erf_matches_known_values() {
        // erf values from tables (Abramowitz & Stegun 7.1).
        for (x, want) in [(0.0, 0.0), (0.5, 0.520_499_9), (1.0, 0.842_700_8), (2.0, 0.995_322_3), (-1.5, -0.966_105_1), (4.0, 0.999_999_98)] {
            assert!((erf(x) - want).abs() < 1e-6, "erf({x}) = {} not {want}", erf(x));
        }
    }

    #[test]
    fn gelu_softmax_and_norm_behave() {
        let mut g = vec![-3.0, 0.0, 1.0, 3.0];
        bias_gelu(&mut g, &[0.0; 4]);
        // GELU(1) = 0.841345, GELU(-3) = -0.00404951, GELU(3) = 2.99595.
        assert!((g[2] - 0.841_345).abs() < 1e-5 && (g[0] + 0.004_049_5).abs() < 1e-5 && (g[3] - 2.995_95).abs() < 1e-4);

        let mut s = vec![1.0, 2.0, 3.0, 1000.0, 1000.0, 1000.0];
        softmax_rows(&mut s, 3);
        assert!((s[0] + s[1] + s[2] - 1.0).abs() < 1e-6 && s[2] > s[1] && (s[3] - 1.0 / 3.0).abs() < 1e-6);

        let mut x = vec![1.0, 2.0, 3.0, 4.0];
        residual_layer_norm(&mut x, &[1.0, 1.0, 1.0, 1.0], &[1.0; 4], &[0.5; 4], 1e-12);
        let mean: f32 = x.iter().sum::<f32>() / 4.0;
        assert!((mean - 0.5).abs() < 1e-6 && (x[3] - x[0] - 2.683_28).abs() < 1e-4);
    }
}
