//! Each command becomes a permission (allow-<name>) that the window's capability grants. The
//! command names are read from the contract table in `src/contract/mod.rs` (the one place
//! they are written), so a new command cannot be forgotten here.

fn contract_commands(source: &str) -> Vec<String> {
    let table = source.split("contract! {").nth(1).and_then(|rest| rest.split("\n}").next()).unwrap_or("");
    table
        .lines()
        .filter_map(|line| {
            let (path, _) = line.trim().split_once('(')?;
            let (_, name) = path.split_once("::")?;
            Some(name.to_string())
        })
        .collect()
}

fn main() {
    println!("cargo:rerun-if-changed=src/contract/mod.rs");
    let source = std::fs::read_to_string("src/contract/mod.rs").expect("src/contract/mod.rs holds the contract table");
    let commands = contract_commands(&source);
    assert!(commands.len() > 10, "no commands found in the contract table of src/contract/mod.rs");
    // tauri-build keeps the names for the whole build: a build script may leak them.
    let names: &'static [&'static str] = Box::leak(commands.into_iter().map(|c| &*Box::leak(c.into_boxed_str())).collect::<Vec<&str>>().into_boxed_slice());
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(names)))
        .expect("tauri build script failed");
}
