//! Single-precision matrix products through the platform's BLAS: OpenBLAS on Linux,
//! Accelerate on macOS, loaded when first needed (so a machine without it still embeds, on
//! candle, and says why). Row-major throughout; each call is checked against the slices it is
//! given, so no caller can make the library read or write out of bounds.
//!
//! The library runs single-threaded: the encoder splits the work into row blocks on rayon's
//! pool itself, so there is one thread pool in the process, sized by `RAYON_NUM_THREADS`.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;

const ROW_MAJOR: c_int = 101;
const NO_TRANS: c_int = 111;
const TRANS: c_int = 112;

type Sgemm = unsafe extern "C" fn(c_int, c_int, c_int, c_int, c_int, c_int, f32, *const f32, c_int, *const f32, c_int, f32, *mut f32, c_int);
type SetThreads = unsafe extern "C" fn(c_int);
type Config = unsafe extern "C" fn() -> *const c_char;

struct Library {
    sgemm: Sgemm,
    name: String,
}

#[cfg(target_os = "macos")]
const CANDIDATES: &[&str] = &["/System/Library/Frameworks/Accelerate.framework/Accelerate"];
#[cfg(not(target_os = "macos"))]
const CANDIDATES: &[&str] = &["libopenblas.so.0", "libopenblas.so", "libopenblas64_.so.0"];

/// The loaded library, or why there is none.
fn library() -> Result<&'static Library, String> {
    static LIBRARY: OnceLock<Result<Library, String>> = OnceLock::new();
    LIBRARY.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn symbol(handle: *mut c_void, name: &str) -> Option<*mut c_void> {
    let name = CString::new(name).ok()?;
    // SAFETY: `handle` came from dlopen and is never closed; the name is NUL-terminated.
    let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
    (!p.is_null()).then_some(p)
}

fn load() -> Result<Library, String> {
    for candidate in CANDIDATES {
        let Ok(path) = CString::new(*candidate) else { continue };
        // SAFETY: dlopen of a library name; the handle is kept for the life of the process.
        let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            continue;
        }
        let Some(sgemm) = symbol(handle, "cblas_sgemm") else { continue };
        // SAFETY: cblas_sgemm has this C signature in every CBLAS.
        let sgemm: Sgemm = unsafe { std::mem::transmute::<*mut c_void, Sgemm>(sgemm) };
        let mut name = (*candidate).to_string();
        if let Some(set) = symbol(handle, "openblas_set_num_threads") {
            // SAFETY: OpenBLAS's documented signature; one thread per call (see the module doc).
            unsafe { std::mem::transmute::<*mut c_void, SetThreads>(set)(1) };
        }
        if let Some(config) = symbol(handle, "openblas_get_config") {
            // SAFETY: returns a static NUL-terminated string.
            let text = unsafe { std::mem::transmute::<*mut c_void, Config>(config)() };
            if !text.is_null() {
                // SAFETY: as above.
                name = format!("OpenBLAS {}", unsafe { CStr::from_ptr(text) }.to_string_lossy().trim());
            }
        }
        return Ok(Library { sgemm, name });
    }
    Err(format!("no BLAS library found ({}); install OpenBLAS (Debian: libopenblas0)", CANDIDATES.join(", ")))
}

/// What the loaded library says of itself, or why none could be loaded.
pub fn available() -> Result<String, String> {
    library().map(|l| l.name.clone())
}

/// OpenBLAS picks its kernels for the CPU when it loads, and releases before 0.3.24 take
/// newer AVX-512 CPUs for Haswell (twice as slow here). Where the CPU has AVX-512 and no
/// choice was made by the user, name the AVX-512 kernels. Must run before other threads
/// exist (it sets an environment variable), so before the library loads.
pub fn choose_kernels() {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx512 = has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl") && has!("avx512cd");
        if avx512 && std::env::var_os("OPENBLAS_CORETYPE").is_none() {
            std::env::set_var("OPENBLAS_CORETYPE", "SkylakeX");
        }
    }
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
    assert!(a.cols == b.cols && c.rows == a.rows && c.cols == b.rows, "gemm_abt: shapes disagree");
    sgemm(TRANS, alpha, a, b, beta, c);
}

/// `c = alpha · a · b + beta · c`: `a` is m × k, `b` is k × n, `c` is m × n.
pub fn gemm_ab(alpha: f32, a: Mat, b: Mat, beta: f32, c: MatMut) {
    assert!(a.cols == b.rows && c.rows == a.rows && c.cols == b.cols, "gemm_ab: shapes disagree");
    sgemm(NO_TRANS, alpha, a, b, beta, c);
}

fn sgemm(trans_b: c_int, alpha: f32, a: Mat, b: Mat, beta: f32, c: MatMut) {
    assert!(valid(&a, &b, &c), "gemm: shapes disagree with the slices");
    if c.rows == 0 || c.cols == 0 {
        return;
    }
    let Ok(blas) = library() else { panic!("gemm: no BLAS library (the encoder checks it at load)") };
    // SAFETY: `valid` checked that every row the call reads or writes lies inside the slices,
    // and the callers checked that the shapes fit the operation.
    unsafe {
        (blas.sgemm)(
            ROW_MAJOR,
            NO_TRANS,
            trans_b,
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
    #[should_panic(expected = "shapes disagree with the slices")]
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
