//! Writes the contract in TypeScript: every command with its argument and result types, and
//! every event with its payload, in `ui/src/bindings/contract.ts` beside the types themselves.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ts_rs::{Config, TypeVisitor, TS};

/// One TypeScript type as the contract names it, with the files it must import.
pub struct Spec {
    pub name: String,
    pub ts: String,
    imports: BTreeSet<(String, PathBuf)>,
    export: fn(&Config),
}

/// Calls `f` for every exportable type a contract type names: itself, or what it holds
/// (`Vec<T>`, `Option<T>`, `Channel<T>` name `T`).
fn named_types<T: TS + 'static + ?Sized>(visit: &mut impl TypeVisitor) {
    visit.visit::<T>();
    T::visit_generics(visit);
}

struct Imports<'a>(&'a Config, BTreeSet<(String, PathBuf)>);

impl TypeVisitor for Imports<'_> {
    fn visit<U: TS + 'static + ?Sized>(&mut self) {
        if let Some(path) = U::output_path() {
            self.1.insert((U::ident(self.0), path));
        }
    }
}

struct ExportEach<'a>(&'a Config);

impl TypeVisitor for ExportEach<'_> {
    fn visit<U: TS + 'static + ?Sized>(&mut self) {
        if U::output_path().is_some() {
            U::export_all(self.0).unwrap_or_else(|e| panic!("cannot export {}: {e}", U::name(self.0)));
        }
    }
}

fn export_type<T: TS + 'static + ?Sized>(cfg: &Config) {
    named_types::<T>(&mut ExportEach(cfg));
}

impl Spec {
    pub fn of<T: TS + 'static + ?Sized>(name: &str, cfg: &Config) -> Spec {
        let mut imports = Imports(cfg, BTreeSet::new());
        named_types::<T>(&mut imports);
        Spec { name: name.to_string(), ts: T::name(cfg), imports: imports.1, export: export_type::<T> }
    }
}

pub struct CommandSpec {
    pub name: &'static str,
    pub args: Vec<Spec>,
    pub result: Spec,
}

/// Tauri passes command arguments under their camelCase names.
fn camel_case(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn import_line(name: &str, path: &Path) -> String {
    let module = path.with_extension("");
    format!("import type {{ {name} }} from \"./{}\";\n", module.display())
}

/// The contract file's text.
pub fn contract_ts(commands: &[CommandSpec], events: &[Spec]) -> String {
    let mut imports = BTreeSet::new();
    let mut out = String::new();
    out.push_str("// Generated from src-tauri/src/contract by `UPDATE_BINDINGS=1 cargo test -p pagewise-app bindings`. Do not edit.\n");
    for spec in commands.iter().flat_map(|c| c.args.iter().chain([&c.result])).chain(events) {
        imports.extend(spec.imports.iter().cloned());
    }
    out.push_str("import type { Channel } from \"@tauri-apps/api/core\";\n");
    for (name, path) in &imports {
        out.push_str(&import_line(name, path));
    }
    out.push_str("\n/** Every command the shell answers: its arguments (as sent) and what it resolves with. */\nexport interface Commands {\n");
    for c in commands {
        let args: Vec<String> = c.args.iter().map(|a| format!("{}: {}", camel_case(&a.name), a.ts)).collect();
        let args = if args.is_empty() { "Record<string, never>".to_string() } else { format!("{{ {} }}", args.join("; ")) };
        out.push_str(&format!("  {}: {{ args: {args}; result: {} }};\n", c.name, c.result.ts));
    }
    out.push_str("}\n\nexport type Command = keyof Commands;\n\n/** The command names, in the order the shell registers them. */\nexport const COMMANDS: Command[] = [\n");
    for c in commands {
        out.push_str(&format!("  \"{}\",\n", c.name));
    }
    out.push_str("];\n\n/** Every event the shell sends, with its payload. */\nexport interface Events {\n");
    for e in events {
        out.push_str(&format!("  \"{}\": {};\n", e.name, e.ts));
    }
    out.push_str("}\n\nexport type EventName = keyof Events;\n");
    out
}

/// Writes every type the contract names, and the contract itself, into `dir`.
pub fn export_contract(dir: &Path, commands: &[CommandSpec], events: &[Spec]) {
    let cfg = super::bindings_config(dir);
    for spec in commands.iter().flat_map(|c| c.args.iter().chain([&c.result])).chain(events) {
        (spec.export)(&cfg);
    }
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("contract.ts"), contract_ts(commands, events)).unwrap();
}
