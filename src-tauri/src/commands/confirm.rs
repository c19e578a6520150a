//! Confirmations the page cannot give itself: anything that sends the user's documents
//! somewhere new, runs a model the user did not pick in a system dialog, or weakens the
//! parser's sandbox is asked in the system's own dialog, which a compromised page cannot
//! click.

use tauri::Runtime;
use tauri_plugin_dialog::{DialogExt, MessageDialogButtons, MessageDialogKind};

use crate::contract::{AppError, CmdResult, Ctx, ErrorKind};

/// Asks `question`; an error the page can show when the user says no.
pub fn ask<R: Runtime>(ctx: &Ctx<R>, title: &str, question: &str, yes: &str) -> CmdResult<()> {
    let agreed = match ctx.state.confirm_override(question) {
        Some(answer) => answer,
        None => ctx
            .app
            .dialog()
            .message(question)
            .title(title)
            .kind(MessageDialogKind::Warning)
            .buttons(MessageDialogButtons::OkCancelCustom(yes.to_string(), "Cancel".to_string()))
            .blocking_show(),
    };
    if agreed {
        Ok(())
    } else {
        Err(AppError::new(ErrorKind::Declined, format!("not changed: {title} was declined")))
    }
}
