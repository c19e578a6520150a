//! Where model files and the PDFium library are found, and the error that says what is
//! missing and how to fetch it.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Default embedding model folder name inside a models directory.
pub const DEFAULT_EMBEDDER_DIR: &str = "all-MiniLM-L6-v2";

/// Files an embedding model folder (BERT or XLM-RoBERTa) must hold.
const EMBEDDER_FILES: [&str; 3] = ["model.safetensors", "tokenizer.json", "config.json"];

/// The model files this run will use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPaths {
    pub embedder_dir: PathBuf,
    pub pdfium_lib: PathBuf,
}

/// The places searched for models, in order: `$PAGEWISE_MODELS_DIR`, then for a program run
/// from a build the source tree's `models/`, the app data dir's `models/` (what the user
/// installed), and for an installed program the models its package carries beside it. An
/// installed program never reads a source tree that happens to be on the machine.
pub fn candidate_model_dirs(data_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os("PAGEWISE_MODELS_DIR") {
        dirs.push(PathBuf::from(dir));
    }
    let bundled = std::env::current_exe().ok().and_then(|exe| bundled_models_dir(&exe));
    if bundled.is_none() {
        let source_tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        dirs.push(source_tree.canonicalize().unwrap_or(source_tree));
    }
    if let Some(data) = data_dir {
        dirs.push(data.join("models"));
    }
    dirs.extend(bundled);
    dirs
}

/// The product's folder name in packages (Tauri's `productName`).
const PRODUCT_NAME: &str = "Pagewise";

/// Where a package puts its models relative to the program `exe`, if that folder exists:
/// `/usr/lib/Pagewise/models` for `/usr/bin/pagewise-app` (.deb, .rpm; also inside a folder
/// the package was unpacked into), `Pagewise.app/Contents/Resources/models` on macOS, and
/// `models\` beside the program on Windows — the places Tauri bundles resources to.
pub fn bundled_models_dir(exe: &Path) -> Option<PathBuf> {
    let exe = exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf());
    let bin = exe.parent()?;
    let dir = if cfg!(target_os = "macos") {
        bin.join("../Resources/models")
    } else if cfg!(target_os = "windows") {
        bin.join("models")
    } else {
        bin.join("../lib").join(PRODUCT_NAME).join("models")
    };
    dir.canonicalize().ok().filter(|d| d.is_dir())
}

fn pdfium_file_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libpdfium.dylib"
    } else if cfg!(target_os = "windows") {
        "pdfium.dll"
    } else {
        "libpdfium.so"
    }
}

/// Finds the embedding model and the PDFium library. `embedder_override` and
/// `$PAGEWISE_EMBED_MODEL` / `$PAGEWISE_PDFIUM_LIB` name explicit locations.
pub fn locate(data_dir: Option<&Path>, embedder_override: Option<&Path>) -> Result<ModelPaths> {
    let dirs = candidate_model_dirs(data_dir);
    let env_embedder = std::env::var_os("PAGEWISE_EMBED_MODEL").map(PathBuf::from);
    let embedder_explicit = embedder_override.map(Path::to_path_buf).or(env_embedder);
    let embedder_dir = match &embedder_explicit {
        Some(dir) => Some(dir.clone()).filter(|d| has_embedder_files(d)),
        None => dirs
            .iter()
            .map(|d| d.join(DEFAULT_EMBEDDER_DIR))
            .find(|d| has_embedder_files(d)),
    };
    let pdfium_explicit = std::env::var_os("PAGEWISE_PDFIUM_LIB").map(PathBuf::from);
    let pdfium_lib = match &pdfium_explicit {
        Some(lib) => Some(lib.clone()).filter(|l| l.is_file()),
        None => dirs.iter().map(|d| d.join("pdfium").join(pdfium_file_name())).find(|p| p.is_file()),
    };
    match (embedder_dir, pdfium_lib) {
        (Some(embedder_dir), Some(pdfium_lib)) => Ok(ModelPaths { embedder_dir, pdfium_lib }),
        (embedder, pdfium) => {
            let mut missing = Vec::new();
            if embedder.is_none() {
                missing.push(match &embedder_explicit {
                    Some(dir) => format!(
                        "embedding model: {} does not hold {}",
                        dir.display(),
                        EMBEDDER_FILES.join(", ")
                    ),
                    None => format!(
                        "embedding model: no {DEFAULT_EMBEDDER_DIR}/ with {}",
                        EMBEDDER_FILES.join(", ")
                    ),
                });
            }
            if pdfium.is_none() {
                missing.push(match &pdfium_explicit {
                    Some(lib) => format!("PDFium library: {} does not exist", lib.display()),
                    None => format!("PDFium library: no pdfium/{}", pdfium_file_name()),
                });
            }
            let searched: Vec<String> = dirs.iter().map(|d| format!("  {}", d.display())).collect();
            Err(Error::ModelsMissing(format!(
                "models not found:\n  - {}\nsearched:\n{}\nfetch them with `models/fetch.sh` from the \
                 source tree, or set PAGEWISE_MODELS_DIR to a folder that holds them",
                missing.join("\n  - "),
                searched.join("\n")
            )))
        }
    }
}

pub(crate) fn has_embedder_files(dir: &Path) -> bool {
    EMBEDDER_FILES.iter().all(|f| dir.join(f).is_file())
}

/// The default chat model, as `models/fetch.sh` places it under `llm/`: of the models
/// measured (README.md, "Choosing the default model") the one whose answers state the right
/// fact most often.
pub const DEFAULT_CHAT_MODEL: &str = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf";

/// Finds the GGUF chat model: `explicit` (a flag) or `$PAGEWISE_CHAT_MODEL` when given,
/// otherwise `llm/` + [`DEFAULT_CHAT_MODEL`] in the model folders, otherwise the first GGUF
/// (by name) in the first model folder's `llm/` that holds one — a package may carry
/// another model than the default, and a user may have installed only their own.
pub fn locate_chat_model(data_dir: Option<&Path>, explicit: Option<&Path>) -> Result<PathBuf> {
    let explicit = explicit.map(Path::to_path_buf).or_else(|| std::env::var_os("PAGEWISE_CHAT_MODEL").map(PathBuf::from));
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(path)
        } else {
            Err(Error::ModelsMissing(format!("chat model: {} does not exist (any GGUF file works)", path.display())))
        };
    }
    let dirs = candidate_model_dirs(data_dir);
    let default = dirs.iter().map(|d| d.join("llm").join(DEFAULT_CHAT_MODEL)).find(|p| p.is_file());
    default.or_else(|| dirs.iter().find_map(|d| first_gguf(&d.join("llm")))).ok_or_else(|| {
        let searched: Vec<String> = dirs.iter().map(|d| format!("  {}", d.display())).collect();
        Error::ModelsMissing(format!(
            "chat model: no llm/{DEFAULT_CHAT_MODEL}\nsearched:\n{}\nfetch it with `models/fetch.sh`, point --model \
             (or PAGEWISE_CHAT_MODEL) at any GGUF file, or use --extractive to answer without a model",
            searched.join("\n")
        ))
    })
}

/// The first `.gguf` file in `dir` by name (a download in progress is `.gguf.part`).
fn first_gguf(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("gguf")))
        .collect();
    found.sort();
    found.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_layout_is_found_beside_the_program() {
        let root = tempfile::tempdir().unwrap();
        let bin = root.path().join("usr/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let exe = bin.join("pagewise-app");
        std::fs::write(&exe, b"").unwrap();
        assert_eq!(bundled_models_dir(&exe), None, "no models folder, nothing found");
        let models = if cfg!(target_os = "macos") {
            root.path().join("usr/Resources/models")
        } else if cfg!(target_os = "windows") {
            bin.join("models")
        } else {
            root.path().join("usr/lib/Pagewise/models")
        };
        std::fs::create_dir_all(&models).unwrap();
        assert_eq!(bundled_models_dir(&exe), Some(models.canonicalize().unwrap()));
    }

    #[test]
    fn any_gguf_is_found_when_the_default_is_not_there() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(first_gguf(dir.path()), None);
        std::fs::write(dir.path().join("b-model.gguf"), b"x").unwrap();
        std::fs::write(dir.path().join("a-model.gguf.part"), b"x").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
        assert_eq!(first_gguf(dir.path()), Some(dir.path().join("b-model.gguf")));
    }
}
