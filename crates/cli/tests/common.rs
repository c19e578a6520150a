#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repo root")
}

pub fn fixtures() -> PathBuf {
    repo_root().join("tests/fixtures")
}

/// shared/ lies beside the checkout (as CI lays it out) unless PAGEWISE_SHARED_DIR says else.
pub fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("PAGEWISE_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared"))
        .join("data");
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(std::env::var_os("CI").is_none(), "CI must have shared/data beside the checkout: {}", dir.display());
        eprintln!("shared/data not found at {}; skipping", dir.display());
        None
    }
}

pub fn pagewise(data_dir: &Path) -> Command {
    command(env!("CARGO_BIN_EXE_pagewise"), data_dir)
}

/// `pagewise-dev`: the evaluations and benchmarks.
#[allow(dead_code)]
pub fn pagewise_dev(data_dir: &Path) -> Command {
    command(env!("CARGO_BIN_EXE_pagewise-dev"), data_dir)
}

fn command(program: &str, data_dir: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.env("PAGEWISE_MODELS_DIR", repo_root().join("models")).env_remove("PAGEWISE_EMBED_MODEL").arg("--data-dir").arg(data_dir);
    cmd
}

pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("run pagewise");
    assert!(
        out.status.success(),
        "pagewise failed ({}):\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

pub fn index_json(data: &Path, paths: &[&Path]) -> serde_json::Value {
    let mut cmd = pagewise(data);
    cmd.arg("index").arg("--json");
    for p in paths {
        cmd.arg(p);
    }
    json(&run_ok(&mut cmd))
}

/// Copies files into a fresh folder.
pub fn folder_with(files: &[(&str, &Path)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, src) in files {
        let dest = dir.path().join(name);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::copy(src, &dest).expect("copy fixture");
    }
    dir
}

pub fn failed_reason(summary: &serde_json::Value, name: &str) -> Option<String> {
    summary["failed"].as_array()?.iter().find_map(|f| {
        let path = f["path"].as_str()?;
        path.ends_with(name).then(|| f["reason"].as_str().unwrap_or_default().to_string())
    })
}
