//! The contract between the shell and the page, written once: every command with its
//! argument and result types, every event with its payload, and the one error type. The
//! Tauri handlers, the handler list and the TypeScript the page is typed against
//! (`ui/src/bindings/contract.ts`) are all generated from the table below, so none of them
//! can drift from another.

pub mod error;
pub mod events;
#[cfg(test)]
mod typescript;

use std::path::PathBuf;

use pagewise_core::answer::{ConversationSummary, Turn};
use pagewise_core::answer::Answer;
use pagewise_core::extract::ExtractedDocument;
use pagewise_core::index::DocumentInfo;
use pagewise_core::library::LibraryStatus;
use pagewise_core::retrieve::SearchFilter;
use pagewise_core::library::{LibrarySearch, SearchOrder};
use pagewise_core::embedder_catalog::InstalledEmbedder;
use pagewise_core::model_catalog::InstalledModel;
use pagewise_core::netlog::Row as NetworkLogRow;
use tauri::ipc::{Channel, Response};
use tauri::{AppHandle, Runtime};

pub use error::{AppError, ErrorKind};

use pagewise_core::viewer::PageView;

use crate::dto::{AskStreamEvent, DownloadEvent, ExportFormat, ModelKind, ModelStatus};
use crate::secrets::KeySource;
use crate::settings::Settings;
use crate::state::AppState;

/// What every command runs with: the app (for native dialogs) and the shell's state.
pub struct Ctx<R: Runtime> {
    pub app: AppHandle<R>,
    pub state: AppState,
}

/// Command results as the page receives them.
pub type CmdResult<T> = Result<T, AppError>;

/// Commands run on a blocking thread: they parse, embed, generate or wait on locks, none of
/// which may hold up the async runtime.
async fn run_blocking<T: Send + 'static>(f: impl FnOnce() -> CmdResult<T> + Send + 'static) -> CmdResult<T> {
    tauri::async_runtime::spawn_blocking(f).await.map_err(|e| AppError::failed(format!("the task failed: {e}")))?
}

/// The TypeScript type of an argument or result: the Rust type's own, unless named after `as`.
#[cfg(test)]
macro_rules! ts_type {
    ($ty:ty) => { $ty };
    ($ty:ty as $ts:ty) => { $ts };
}

macro_rules! contract {
    ($( $module:ident :: $name:ident ( $( $arg:ident : $ty:ty $(as $arg_ts:ty)? ),* ) -> $result:ty $(as $result_ts:ty)? ; )*) => {
        $(
            #[tauri::command]
            async fn $name<R: Runtime>(
                app: AppHandle<R>,
                state: tauri::State<'_, AppState>,
                $( $arg: $ty ),*
            ) -> CmdResult<$result> {
                let ctx = Ctx { app, state: state.inner().clone() };
                run_blocking(move || crate::commands::$module::$name(&ctx, $( $arg ),*)).await
            }
        )*

        /// Registers every command of the contract on `builder` (the app and its tests).
        pub fn with_commands<R: Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
            builder.invoke_handler(tauri::generate_handler![$( $name ),*])
        }

        /// The command names, in table order.
        pub const COMMAND_NAMES: &[&str] = &[$( stringify!($name) ),*];

        #[cfg(test)]
        fn command_specs(cfg: &ts_rs::Config) -> Vec<typescript::CommandSpec> {
            vec![$(
                typescript::CommandSpec {
                    name: stringify!($name),
                    args: vec![$( typescript::Spec::of::<ts_type!($ty $(as $arg_ts)?)>(stringify!($arg), cfg) ),*],
                    result: typescript::Spec::of::<ts_type!($result $(as $result_ts)?)>("", cfg),
                }
            ),*]
        }
    };
}

contract! {
    library::library_status() -> LibraryStatus;
    library::add_folder_dialog() -> Vec<PathBuf>;
    library::remove_folder(folder_id: String) -> ();
    library::pause_indexing() -> ();
    library::resume_indexing() -> ();
    library::cancel_indexing() -> ();
    library::reindex_all() -> ();
    library::accept_weak_sandbox() -> ();
    library::list_documents() -> Vec<DocumentInfo>;
    search::search_library(query: String, filter: SearchFilter, order: SearchOrder) -> LibrarySearch;
    table::extract_table(fields: Vec<String>, period: Option<String>) -> Vec<ExtractedDocument>;
    table::export_table_csv(fields: Vec<String>, period: Option<String>) -> Option<String>;
    chat::ask(question: String, conversation_id: Option<i64>, scope: Vec<PathBuf>, on_event: Channel<AskStreamEvent> as ChannelOf<AskStreamEvent>) -> Answer;
    chat::stop_answer() -> ();
    chat::suggested_questions() -> Vec<String>;
    chat::list_conversations() -> Vec<ConversationSummary>;
    chat::open_conversation(id: i64) -> Vec<Turn>;
    chat::rename_conversation(id: i64, title: String) -> ();
    chat::delete_conversation(id: i64) -> ();
    export::answer_markdown(answer: Answer) -> String;
    export::export_answer(conversation_id: i64, turn: usize, format: ExportFormat) -> Option<String>;
    export::report_citation(conversation_id: i64, turn: usize, sentence: String, chunk_id: i64, label: String) -> i64;
    settings::model_status() -> ModelStatus;
    settings::get_settings() -> Settings;
    settings::set_settings(settings: Settings) -> ();
    settings::pick_model_file(kind: ModelKind) -> Option<PathBuf>;
    settings::installed_models() -> Vec<InstalledModel>;
    settings::endpoint_models(url: String) -> Vec<String>;
    settings::api_key_source() -> KeySource;
    settings::set_api_key(key: String) -> KeySource;
    settings::network_log() -> Vec<NetworkLogRow>;
    models::installed_embedding_models() -> Vec<InstalledEmbedder>;
    models::import_model() -> Option<InstalledModel>;
    models::download_model(url: String, sha256: Option<String>, file_name: Option<String>, on_progress: Channel<DownloadEvent> as ChannelOf<DownloadEvent>) -> InstalledModel;
    models::cancel_download() -> ();
    viewer::view_page(doc_id: i64, page: u32, byte_start: Option<usize>, byte_end: Option<usize>, focus: Option<Vec<(usize, usize)>>) -> PageView;
    viewer::page_image(doc_id: i64, page: u32, width_px: u32) -> Response as PngBytes;
    viewer::open_external(doc_id: i64) -> ();
}

/// How `Channel<T>` arguments look to the page.
#[cfg(test)]
struct ChannelOf<T>(std::marker::PhantomData<T>);

#[cfg(test)]
impl<T: ts_rs::TS + 'static> ts_rs::TS for ChannelOf<T> {
    type WithoutGenerics = ChannelOf<ts_rs::Dummy>;
    type OptionInnerType = Self;

    fn name(cfg: &ts_rs::Config) -> String {
        format!("Channel<{}>", T::name(cfg))
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        Self::name(cfg)
    }

    fn visit_generics(v: &mut impl ts_rs::TypeVisitor) {
        v.visit::<T>();
        T::visit_generics(v);
    }
}

/// Raw PNG bytes (a `Response`, not JSON) as the page receives them.
#[cfg(test)]
struct PngBytes;

#[cfg(test)]
impl ts_rs::TS for PngBytes {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn name(_: &ts_rs::Config) -> String {
        "ArrayBuffer".into()
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        Self::name(cfg)
    }
}

#[cfg(test)]
fn bindings_config(dir: &std::path::Path) -> ts_rs::Config {
    ts_rs::Config::new().with_large_int("number").with_out_dir(dir)
}

#[cfg(test)]
mod tests;
