//! The row-wise steps of a transformer layer, written as plain loops the compiler
//! vectorises: bias + GELU in one pass, residual + layer norm in one pass, softmax.

/// `x ← GELU(x + bias)` for each row, the exact (erf) GELU that BERT models are trained with.
pub fn bias_gelu(rows: &mut [f32], bias: &[f32]) {
    for row in rows.chunks_exact_mut(bias.len()) {
        for (x, b) in row.iter_mut().zip(bias) {
            let v = *x + b;
            *x = 0.5 * v * (1.0 + erf(v * std::f32::consts::FRAC_1_SQRT_2));
        }
    }
}

/// `x ← x + bias` for each row.
pub fn add_bias(rows: &mut [f32], bias: &[f32]) {
    for row in rows.chunks_exact_mut(bias.len()) {
        row.iter_mut().zip(bias).for_each(|(x, b)| *x += b);
    }
}

/// `x ← LayerNorm(x + residual)` for each row (`residual` may be empty: then only the norm).
pub fn residual_layer_norm(rows: &mut [f32], residual: &[f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let h = gamma.len();
    for (i, row) in rows.chunks_exact_mut(h).enumerate() {
        if !residual.is_empty() {
            row.iter_mut().zip(&residual[i * h..(i + 1) * h]).for_each(|(x, r)| *x += r);
        }
        let mean = row.iter().sum::<f32>() / h as f32;
        let var = row.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / h as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((x, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *x = (*x - mean) * inv * g + b;
        }
    }
}

/// Softmax of each row in place.
pub fn softmax_rows(rows: &mut [f32], width: usize) {
    for row in rows.chunks_exact_mut(width) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for x in row.iter_mut() {
            *x = (*x - max).exp();
            sum += *x;
        }
        let inv = 1.0 / sum;
        row.iter_mut().for_each(|x| *x *= inv);
    }
}

/// erf to within 1.2e-7 (Numerical Recipes' erfc, Chebyshev fit), branch-free but for the sign.
fn erf(x: f32) -> f32 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_2
        + t * (1.000_023_7
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    let r = 1.0 - erfc;
    if x >= 0.0 {
        r
    } else {
        -r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
