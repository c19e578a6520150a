use pagewise_core::retrieve::SearchFilter;
use pagewise_core::library::{search_library as search, LibrarySearch, SearchOrder};
use tauri::Runtime;

use crate::contract::{CmdResult, Ctx};

/// Passages for `query` within what `filter` admits, sorted as asked: the search view's
/// results, with no model call. An empty library finds nothing rather than failing.
pub fn search_library(ctx: &Ctx<impl Runtime>, query: String, filter: SearchFilter, order: SearchOrder) -> CmdResult<LibrarySearch> {
    let reader = match ctx.state.library()?.reader() {
        Ok(reader) => reader,
        Err(_) => return Ok(LibrarySearch { rows: Vec::new(), facets: Default::default(), documents_admitted: 0, elapsed_ms: 0.0 }),
    };
    Ok(search(reader.as_ref(), &query, &filter, order, 30)?)
}
