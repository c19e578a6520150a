use pagewise_core::index::DocumentInfo;
use pagewise_core::viewer::PageRequest;
use tauri::ipc::Response;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_opener::OpenerExt;

use super::{blocking, text, CmdResult};
use crate::dto::{PageKind, PageView};
use crate::state::AppState;

/// Documents are named by id, never by path: the page can only open what is indexed.
fn document(state: &AppState, doc_id: i64) -> CmdResult<DocumentInfo> {
    let reader = state.library()?.reader().map_err(text)?;
    reader.with_store(|s| s.document_info(doc_id)).map_err(text)?.ok_or_else(|| format!("document {doc_id} is not in the library"))
}

fn is_pdf(info: &DocumentInfo) -> bool {
    info.path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}

#[tauri::command]
pub async fn view_page(
    state: State<'_, AppState>,
    doc_id: i64,
    page: u32,
    byte_start: Option<usize>,
    byte_end: Option<usize>,
) -> CmdResult<PageView> {
    let state = state.inner().clone();
    blocking(move || {
        let info = document(&state, doc_id)?;
        let page = page.clamp(1, info.page_count.max(1));
        let reader = state.library()?.reader().map_err(text)?;
        let page_text = reader.with_store(|s| s.page_text(doc_id, page)).map_err(text)?.unwrap_or_default();
        let range = match (byte_start, byte_end) {
            (Some(s), Some(e)) if s < e && e <= page_text.len() && page_text.is_char_boundary(s) && page_text.is_char_boundary(e) => Some((s, e)),
            _ => None,
        };
        let changed = std::fs::metadata(&info.path)
            .and_then(|m| m.modified())
            .map(|t| t.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as i64).unwrap_or(0) != info.mtime_ns)
            .unwrap_or(true);
        let mut view = PageView {
            doc_id,
            title: info.title.clone(),
            path: info.path.clone(),
            page,
            page_count: info.page_count,
            kind: if is_pdf(&info) { PageKind::Pdf } else { PageKind::Text },
            width_pt: 0.0,
            height_pt: 0.0,
            highlights: Vec::new(),
            text: None,
            highlight_start: None,
            highlight_end: None,
            changed_since_indexed: changed,
        };
        if view.kind == PageKind::Pdf {
            let quote = range.map(|(s, e)| page_text[s..e].to_string());
            let rendered = state.render_page(&info.path, PageRequest { page, width_px: None, quote })?;
            view.highlights = rendered.rects;
            view.width_pt = rendered.size.width_pt;
            view.height_pt = rendered.size.height_pt;
        } else {
            view.highlight_start = range.map(|r| r.0);
            view.highlight_end = range.map(|r| r.1);
            view.text = Some(page_text);
        }
        Ok(view)
    })
    .await
}

/// The page as PNG bytes, `width_px` wide (raw bytes, not JSON).
#[tauri::command]
pub async fn page_image(state: State<'_, AppState>, doc_id: i64, page: u32, width_px: u32) -> CmdResult<Response> {
    let state = state.inner().clone();
    blocking(move || {
        let info = document(&state, doc_id)?;
        if !is_pdf(&info) {
            return Err(format!("{} is not a PDF", info.path.display()));
        }
        let rendered = state.render_page(&info.path, PageRequest { page, width_px: Some(width_px), quote: None })?;
        rendered.png.map(Response::new).ok_or_else(|| "the page was not rendered".to_string())
    })
    .await
}

#[tauri::command]
pub async fn open_external<R: Runtime>(app: AppHandle<R>, state: State<'_, AppState>, doc_id: i64) -> CmdResult<()> {
    let state = state.inner().clone();
    let info = blocking(move || document(&state, doc_id)).await?;
    app.opener().open_path(info.path.to_string_lossy(), None::<&str>).map_err(text)
}
