//! Single-precision matrix products through the platform's BLAS: OpenBLAS on Linux,
//! Accelerate on macOS. Row-major throughout; each call is checked against the slices it is
//! given, so no caller can make the library read or write out of bounds.
//!
//! The library runs single-threaded: the encoder splits the work into row blocks on rayon's
//! pool itself, so there is one thread pool in the process, sized by `RAYON_NUM_THREADS`.

use std::os::raw::c_int;

const ROW_MAJOR: c_int = 101;
const NO_TRANS: c_int = 111;
const TRANS: c_int = 112;

#[cfg_attr(target_os = "linux", link(name = "openblas"))]
#[cfg_attr(target_os = "macos", link(name = "Accelerate", kind = "framework"))]
extern "C" {
    #[allow(clippy::too_many_arguments)]
    fn cblas_sgemm(
        order: c_int,
        trans_a: c_int,
        trans_b: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        b: *const f32,
        ldb: c_int,
        beta: f32,
        c: *mut f32,
        ldc: c_int,
    );
}

#[cfg(target_os = "linux")]
extern "C" {
    fn openblas_set_num_threads(threads: c_int);
    fn openblas_get_config() -> *const std::os::raw::c_char;
}

/// A row-major matrix view: `rows` rows of `cols` values, each row `stride` values apart.
#[derive(Clone, Copy)]
pub struct Mat<'a> {
    pub data: &'a [f32],
    pub rows: usize,
    pub cols: usize,
    pub stride: usize,
}

/// A writable row-major matrix view.
pub struct MatMut<'a> {
    pub data: &'a mut [f32],
    pub rows: usize,
    pub cols: usize,
    pub stride: usize,
}

fn fits(len: usize, rows: usize, cols: usize, stride: usize) -> bool {
    rows == 0 || cols == 0 || (stride >= cols && (rows - 1).checked_mul(stride).and_then(|x| x.checked_add(cols)).is_some_and(|need| need <= len))
}

fn dim(x: usize) -> c_int {
    c_int::try_from(x).unwrap_or(c_int::MAX)
}

/// Whether the views describe memory inside their slices and sizes BLAS can take.
fn valid(a: &Mat, b: &Mat, c: &MatMut) -> bool {
    let small = [a.rows, a.cols, a.stride, b.rows, b.cols, b.stride, c.rows, c.cols, c.stride].iter().all(|&x| x < c_int::MAX as usize);
    small && fits(a.data.len(), a.rows, a.cols, a.stride) && fits(b.data.len(), b.rows, b.cols, b.stride) && fits(c.data.len(), c.rows, c.cols, c.stride)
}

/// `c = alpha · a · bᵀ + beta · c`: `a` is m × k, `b` is n × k (a weight matrix stored as
/// PyTorch stores a linear layer's), `c` is m × n.
pub fn gemm_abt(alpha: f32, a: Mat, b: Mat, beta: f32, c: MatMut) {
    assert!(a.cols == b.cols && c.rows == a.rows && c.cols == b.rows && valid(&a, &b, &c), "gemm_abt: shapes disagree");
    if c.rows == 0 || c.cols == 0 {
        return;
    }
    // SAFETY: `valid` checked that every row the call reads or writes lies inside the slices.
    unsafe {
        cblas_sgemm(
            ROW_MAJOR,
            NO_TRANS,
            TRANS,
            dim(c.rows),
            dim(c.cols),
            dim(a.cols),
            alpha,
            a.data.as_ptr(),
            dim(a.stride),
            b.data.as_ptr(),
            dim(b.stride),
            beta,
            c.data.as_mut_ptr(),
            dim(c.stride),
        )
    }
}

/// `c = alpha · a · b + beta · c`: `a` is m × k, `b` is k × n, `c` is m × n.
pub fn gemm_ab(alpha: f32, a: Mat, b: Mat, beta: f32, c: MatMut) {
    assert!(a.cols == b.rows && c.rows == a.rows && c.cols == b.cols && valid(&a, &b, &c), "gemm_ab: shapes disagree");
    if c.rows == 0 || c.cols == 0 {
        return;
    }
    // SAFETY: as in `gemm_abt`.
    unsafe {
        cblas_sgemm(
            ROW_MAJOR,
            NO_TRANS,
            NO_TRANS,
            dim(c.rows),
            dim(c.cols),
            dim(a.cols),
            alpha,
            a.data.as_ptr(),
            dim(a.stride),
            b.data.as_ptr(),
            dim(b.stride),
            beta,
            c.data.as_mut_ptr(),
            dim(c.stride),
        )
    }
}

/// Makes the library run each call on the calling thread; returns what it says of itself.
pub fn single_threaded() -> String {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain configuration calls; the config string is static and NUL-terminated.
        unsafe {
            openblas_set_num_threads(1);
            let config = openblas_get_config();
            if config.is_null() {
                return "OpenBLAS".into();
            }
            format!("OpenBLAS {}", std::ffi::CStr::from_ptr(config).to_string_lossy().trim())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        "Accelerate".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_abt(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[j * k + p]).sum();
            }
        }
        c
    }

    #[test]
    fn products_match_the_definition() {
        let (m, n, k) = (5, 7, 3);
        let a: Vec<f32> = (0..m * k).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..n * k).map(|i| (i as f32 * 0.11).cos()).collect();
        let mut c = vec![1.0; m * n];
        gemm_abt(1.0, Mat { data: &a, rows: m, cols: k, stride: k }, Mat { data: &b, rows: n, cols: k, stride: k }, 0.0, MatMut {
            data: &mut c,
            rows: m,
            cols: n,
            stride: n,
        });
        let want = naive_abt(&a, &b, m, n, k);
        assert!(c.iter().zip(&want).all(|(x, y)| (x - y).abs() < 1e-5), "{c:?} vs {want:?}");

        // a · b with b = the transpose of the earlier b, written out, and beta accumulating.
        let bt: Vec<f32> = (0..k * n).map(|i| b[(i % n) * k + i / n]).collect();
        let mut c2 = want.clone();
        gemm_ab(1.0, Mat { data: &a, rows: m, cols: k, stride: k }, Mat { data: &bt, rows: k, cols: n, stride: n }, 1.0, MatMut {
            data: &mut c2,
            rows: m,
            cols: n,
            stride: n,
        });
        assert!(c2.iter().zip(&want).all(|(x, y)| (x - 2.0 * y).abs() < 1e-5));
    }

    #[test]
    #[should_panic(expected = "shapes disagree")]
    fn a_view_past_its_slice_is_refused() {
        let a = vec![0.0; 6];
        let mut c = vec![0.0; 4];
        // Three rows of stride 3 need 9 values; the slice has 6.
        gemm_abt(1.0, Mat { data: &a, rows: 3, cols: 2, stride: 3 }, Mat { data: &a, rows: 2, cols: 2, stride: 2 }, 0.0, MatMut {
            data: &mut c,
            rows: 3,
            cols: 2,
            stride: 2,
        });
    }
}
