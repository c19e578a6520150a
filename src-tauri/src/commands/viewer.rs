use pagewise_core::Queries;
use pagewise_core::viewer::{is_pdf, PageRequest, PageView, ViewedDocument};
use tauri::ipc::Response;
use tauri::Runtime;
use tauri_plugin_opener::OpenerExt;

use crate::contract::{AppError, CmdResult, Ctx};
use crate::state::AppState;

/// Documents are named by id, never by path: the page can only open what is indexed.
fn document(state: &AppState, doc_id: i64) -> CmdResult<ViewedDocument> {
    let reader = state.library()?.reader().map_err(AppError::not_indexed)?;
    reader.viewed_document(doc_id)?.ok_or_else(|| AppError::not_found(format!("document {doc_id} is not in the library")))
}

/// `focus`: byte ranges of the page text to mark on their own within the passage (a cited
/// table cell and its column's title).
pub fn view_page(ctx: &Ctx<impl Runtime>, doc_id: i64, page: u32, byte_start: Option<usize>, byte_end: Option<usize>, focus: Option<Vec<(usize, usize)>>) -> CmdResult<PageView> {
    let doc = document(&ctx.state, doc_id)?;
    let reader = ctx.state.library()?.reader().map_err(AppError::not_indexed)?;
    let page = page.clamp(1, doc.page_count.max(1));
    let page_text = reader.page_text(doc_id, page)?.unwrap_or_default();
    let view = PageView::new(&doc, page, page_text, byte_start, byte_end, &focus.unwrap_or_default());
    match view.render_request() {
        Some(request) => Ok(view.with_render(ctx.state.render_page(&doc.path, request)?)),
        None => Ok(view),
    }
}

/// The page as PNG bytes, `width_px` wide (raw bytes, not JSON).
pub fn page_image(ctx: &Ctx<impl Runtime>, doc_id: i64, page: u32, width_px: u32) -> CmdResult<Response> {
    let doc = document(&ctx.state, doc_id)?;
    if !is_pdf(&doc.path) {
        return Err(AppError::invalid(format!("{} is not a PDF", doc.path.display())));
    }
    let rendered = ctx.state.render_page(&doc.path, PageRequest { page, width_px: Some(width_px), quote: None, focus: Vec::new() })?;
    rendered.png.map(Response::new).ok_or_else(|| AppError::failed("the page was not rendered"))
}

pub fn open_external(ctx: &Ctx<impl Runtime>, doc_id: i64) -> CmdResult<()> {
    let doc = document(&ctx.state, doc_id)?;
    ctx.app.opener().open_path(doc.path.to_string_lossy(), None::<&str>).map_err(AppError::failed)
}
