// Generated from src-tauri/src/contract by `UPDATE_BINDINGS=1 cargo test -p pagewise-app bindings`. Do not edit.
import type { Channel } from "@tauri-apps/api/core";
import type { Answer } from "./Answer";
import type { AppError } from "./AppError";
import type { AskStreamEvent } from "./AskStreamEvent";
import type { ConversationSummary } from "./ConversationSummary";
import type { DocumentInfo } from "./DocumentInfo";
import type { DownloadEvent } from "./DownloadEvent";
import type { ExportFormat } from "./ExportFormat";
import type { ExtractedDocument } from "./ExtractedDocument";
import type { InstalledEmbedder } from "./InstalledEmbedder";
import type { InstalledModel } from "./InstalledModel";
import type { KeySource } from "./KeySource";
import type { LibrarySearch } from "./LibrarySearch";
import type { LibraryStatus } from "./LibraryStatus";
import type { ModelKind } from "./ModelKind";
import type { ModelStatus } from "./ModelStatus";
import type { NetworkLogRow } from "./NetworkLogRow";
import type { PageView } from "./PageView";
import type { SearchFilter } from "./SearchFilter";
import type { SearchOrder } from "./SearchOrder";
import type { Settings } from "./Settings";
import type { Turn } from "./Turn";

/** Every command the shell answers: its arguments (as sent) and what it resolves with. */
export interface Commands {
  library_status: { args: Record<string, never>; result: LibraryStatus };
  add_folder_dialog: { args: Record<string, never>; result: Array<string> };
  remove_folder: { args: { folderId: string }; result: null };
  pause_indexing: { args: Record<string, never>; result: null };
  resume_indexing: { args: Record<string, never>; result: null };
  cancel_indexing: { args: Record<string, never>; result: null };
  reindex_all: { args: Record<string, never>; result: null };
  accept_weak_sandbox: { args: Record<string, never>; result: null };
  list_documents: { args: Record<string, never>; result: Array<DocumentInfo> };
  search_library: { args: { query: string; filter: SearchFilter; order: SearchOrder }; result: LibrarySearch };
  extract_table: { args: { fields: Array<string>; period: string | null }; result: Array<ExtractedDocument> };
  export_table_csv: { args: { fields: Array<string>; period: string | null }; result: string | null };
  ask: { args: { question: string; conversationId: number | null; scope: Array<string>; onEvent: Channel<AskStreamEvent> }; result: Answer };
  stop_answer: { args: Record<string, never>; result: null };
  suggested_questions: { args: Record<string, never>; result: Array<string> };
  list_conversations: { args: Record<string, never>; result: Array<ConversationSummary> };
  open_conversation: { args: { id: number }; result: Array<Turn> };
  rename_conversation: { args: { id: number; title: string }; result: null };
  delete_conversation: { args: { id: number }; result: null };
  answer_markdown: { args: { answer: Answer }; result: string };
  export_answer: { args: { conversationId: number; turn: number; format: ExportFormat }; result: string | null };
  report_citation: { args: { conversationId: number; turn: number; sentence: string; chunkId: number; label: string }; result: number };
  model_status: { args: Record<string, never>; result: ModelStatus };
  get_settings: { args: Record<string, never>; result: Settings };
  set_settings: { args: { settings: Settings }; result: null };
  pick_model_file: { args: { kind: ModelKind }; result: string | null };
  installed_models: { args: Record<string, never>; result: Array<InstalledModel> };
  endpoint_models: { args: { url: string }; result: Array<string> };
  api_key_source: { args: Record<string, never>; result: KeySource };
  set_api_key: { args: { key: string }; result: KeySource };
  network_log: { args: Record<string, never>; result: Array<NetworkLogRow> };
  installed_embedding_models: { args: Record<string, never>; result: Array<InstalledEmbedder> };
  import_model: { args: Record<string, never>; result: InstalledModel | null };
  download_model: { args: { url: string; sha256: string | null; fileName: string | null; onProgress: Channel<DownloadEvent> }; result: InstalledModel };
  cancel_download: { args: Record<string, never>; result: null };
  view_page: { args: { docId: number; page: number; byteStart: number | null; byteEnd: number | null; focus: Array<[number, number]> | null }; result: PageView };
  page_image: { args: { docId: number; page: number; widthPx: number }; result: ArrayBuffer };
  open_external: { args: { docId: number }; result: null };
}

export type Command = keyof Commands;

/** The command names, in the order the shell registers them. */
export const COMMANDS: Command[] = [
  "library_status",
  "add_folder_dialog",
  "remove_folder",
  "pause_indexing",
  "resume_indexing",
  "cancel_indexing",
  "reindex_all",
  "accept_weak_sandbox",
  "list_documents",
  "search_library",
  "extract_table",
  "export_table_csv",
  "ask",
  "stop_answer",
  "suggested_questions",
  "list_conversations",
  "open_conversation",
  "rename_conversation",
  "delete_conversation",
  "answer_markdown",
  "export_answer",
  "report_citation",
  "model_status",
  "get_settings",
  "set_settings",
  "pick_model_file",
  "installed_models",
  "endpoint_models",
  "api_key_source",
  "set_api_key",
  "network_log",
  "installed_embedding_models",
  "import_model",
  "download_model",
  "cancel_download",
  "view_page",
  "page_image",
  "open_external",
];

/** Every event the shell sends, with its payload. */
export interface Events {
  "library-status": LibraryStatus;
  "files-dropped": Array<string>;
  "app-error": AppError;
}

export type EventName = keyof Events;
