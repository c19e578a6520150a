use anyhow::Result;
use clap::Subcommand;
use pagewise_core::model_catalog::installed_chat_models;
use pagewise_core::models;

use crate::Context_;

#[derive(Subcommand)]
pub enum ModelsCmd {
    /// Installed GGUF chat models: which one answers by default, size, measured speed.
    List {
        #[arg(long)]
        json: bool,
    },
}

pub fn run(ctx: &Context_, cmd: ModelsCmd) -> Result<i32> {
    match cmd {
        ModelsCmd::List { json } => {
            let default = models::locate_chat_model(Some(&ctx.data_dir), None).ok();
            let extra: Vec<_> = default.iter().cloned().collect();
            let installed = installed_chat_models(&ctx.data_dir, &extra);
            if json {
                for m in &installed {
                    let mut v = serde_json::to_value(m)?;
                    v["default"] = serde_json::json!(default.as_ref() == Some(&m.path));
                    println!("{v}");
                }
                return Ok(0);
            }
            if installed.is_empty() {
                println!("no chat models installed: run models/fetch.sh, or pass --model FILE.gguf to ask");
            }
            for m in &installed {
                let mark = if default.as_ref() == Some(&m.path) { "*" } else { " " };
                let speed = match &m.speed {
                    Some(s) => format!(
                        "prompt {:.0} tok/s, generation {:.1} tok/s (measured over {} answers)",
                        s.prompt_tokens_per_s, s.generation_tokens_per_s, s.answers
                    ),
                    None => "speed not measured yet (ask a question with it)".to_string(),
                };
                println!("{mark} {:<48} {:>7.1} MB  {speed}\n    {}", m.name, m.size_bytes as f64 / 1e6, m.path.display());
            }
            Ok(0)
        }
    }
}
