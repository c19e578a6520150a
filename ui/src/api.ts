// Typed wrappers around the shell's commands and events. Every name, argument and
// result type comes from ./bindings/contract (generated from the Rust shell), so a
// command the shell renames or drops fails the type check here.
//
// Calls always go through Tauri's `invoke`/`listen`. In a plain browser during
// `npm run dev`, main.ts installs the fake backend (./dev-backend) underneath
// them with Tauri's own mockIPC, so this module never knows about the mock.

import { Channel, invoke } from "@tauri-apps/api/core";
import { listen as tauriListen } from "@tauri-apps/api/event";
import type { Command, Commands, EventName, Events } from "./bindings/contract";
import { toCommandError } from "./errors";
import { t } from "./i18n";
import type { Answer, AppError, AskStreamEvent, DownloadEvent, ExportFormat, LibraryStatus, ModelKind, SearchFilter, SearchOrder, Settings, Timings, Turn } from "./types";

export { CommandError, errorKind, errorText, isStopped, toCommandError } from "./errors";

export type Unlisten = () => void;

type Args<K extends Command> = Commands[K]["args"];
type Result<K extends Command> = Commands[K]["result"];
/** Arguments may be left out only for commands that take none. */
type CallArgs<K extends Command> = [Args<K>] extends [Record<string, never>] ? [args?: Args<K>] : [args: Args<K>];

/** Invokes a command; rejects with a CommandError (see ./errors). */
export async function call<K extends Command>(cmd: K, ...args: CallArgs<K>): Promise<Result<K>> {
  try {
    return await invoke<Result<K>>(cmd, (args[0] ?? {}) as Record<string, unknown>);
  } catch (e) {
    throw toCommandError(e);
  }
}

/** Subscribes to a shell event with its payload typed by the contract. */
export function listen<E extends EventName>(event: E, handler: (payload: Events[E]) => void): Promise<Unlisten> {
  return tauriListen<Events[E]>(event, (e) => handler(e.payload));
}

// ---------------------------------------------------------------- library

export const libraryStatus = () => call("library_status");
/** Resolves with the canonicalised folders that were added (empty if the dialog was cancelled). */
export const addFolderDialog = () => call("add_folder_dialog");
/** Resolves with the canonicalised paths that were added. */
export const removeFolder = (folderId: string) => call("remove_folder", { folderId });
export const pauseIndexing = () => call("pause_indexing");
export const resumeIndexing = () => call("resume_indexing");
export const cancelIndexing = () => call("cancel_indexing");
export const reindexAll = () => call("reindex_all");
/** Asks in a system dialog, then parses although the sandbox lacks a layer. */
export const acceptWeakSandbox = () => call("accept_weak_sandbox");
export const listDocuments = () => call("list_documents");
/** Passages for a query within the facets chosen; no model call. */
export const searchLibrary = (query: string, filter: SearchFilter, order: SearchOrder) => call("search_library", { query, filter, order });

// ---------------------------------------------------------------- asking

/**
 * Asks a question. Stopping (`stopAnswer`) after tokens arrived resolves with a
 * checked partial answer (stored as a turn, `note` says it was stopped); stopping
 * earlier rejects with kind "stopped" (see `isStopped`).
 */
export async function ask(
  question: string,
  conversationId: number | null,
  scope: string[],
  onEvent: (ev: AskStreamEvent) => void,
): Promise<Answer> {
  const a = await call("ask", { question, conversationId, scope, onEvent: new Channel<AskStreamEvent>(onEvent) });
  const answer = normalizeAnswer(a);
  if (!answer) throw toCommandError(t("api.answerUnreadable"));
  return answer;
}

const EMPTY_TIMINGS: Timings = {
  retrieve_ms: 0,
  first_evidence_ms: null,
  prompt_ms: 0,
  first_token_ms: null,
  generation_ms: 0,
  check_ms: null,
  total_ms: 0,
  prompt_tokens: 0,
  reused_prompt_tokens: 0,
  generated_tokens: 0,
};

/**
 * Fills in missing arrays/fields so that answers stored by older versions (or a
 * `null` answer the backend could not decode) never break rendering.
 */
export function normalizeAnswer(a: Answer | null | undefined): Answer | null {
  if (!a || typeof a !== "object") return null;
  return {
    ...a,
    question: a.question ?? "",
    standalone_query: a.standalone_query ?? null,
    answer: a.answer ?? "",
    citations: Array.isArray(a.citations) ? a.citations : [],
    abstained: !!a.abstained,
    sentences: Array.isArray(a.sentences) ? a.sentences.map((s) => ({ ...s, citations: s.citations ?? [] })) : [],
    steps: Array.isArray(a.steps) ? a.steps.map((st, i) => ({ ...st, index: typeof st.index === "number" ? st.index : i + 1 })) : [],
    sources: Array.isArray(a.sources) ? a.sources.map((p) => ({ ...p, passages: p.passages ?? [] })) : [],
    model: a.model ?? null,
    note: a.note ?? null,
    notices: Array.isArray(a.notices) ? a.notices : [],
    conversation_id: a.conversation_id ?? null,
    turn: typeof a.turn === "number" ? a.turn : null,
    raw_model_output: a.raw_model_output ?? null,
    signals: a.signals ?? null,
    attribution: a.attribution ?? {
      sentences: 0,
      kept: 0,
      attached: 0,
      replaced: 0,
      unsupported: 0,
      not_covered: 0,
      invalid_labels_dropped: 0,
      judged: 0,
    },
    timings: { ...EMPTY_TIMINGS, ...(a.timings as Partial<Timings> | undefined) },
  };
}

export const stopAnswer = () => call("stop_answer");
export const suggestedQuestions = () => call("suggested_questions");

// ---------------------------------------------------------------- conversations

export const listConversations = () => call("list_conversations");
/** Turns of a conversation; `answer` is null where the stored answer could not be read. */
export async function openConversation(id: number): Promise<(Omit<Turn, "answer"> & { answer: Answer | null })[]> {
  const turns = await call("open_conversation", { id });
  return turns.map((t) => ({ ...t, answer: normalizeAnswer(t.answer) }));
}
export const renameConversation = (id: number, title: string) =>
  call("rename_conversation", { id, title });
export const deleteConversation = (id: number) => call("delete_conversation", { id });
/** The same fields read from every document's tables, one row per document. */
export const extractTable = (fields: string[], period: string | null) => call("extract_table", { fields, period });
/** The table saved as CSV where the user chooses; null when they cancel. */
export const exportTableCsv = (fields: string[], period: string | null) => call("export_table_csv", { fields, period });
/** The answer as Markdown with its citations, built by the core (saved or not). */
export const answerMarkdown = (answer: Answer) => call("answer_markdown", { answer });
export const exportAnswer = (conversationId: number, turn: number, format: ExportFormat) =>
  call("export_answer", { conversationId, turn, format });
export const reportCitation = (
  conversationId: number,
  turn: number,
  sentence: string,
  chunkId: number,
  label: string,
) => call("report_citation", { conversationId, turn, sentence, chunkId, label });

// ---------------------------------------------------------------- models & settings

export const modelStatus = () => call("model_status");
export const getSettings = () => call("get_settings");
export const setSettings = (settings: Settings) => call("set_settings", { settings });
export const pickModelFile = (kind: ModelKind) =>
  call("pick_model_file", { kind });
export const installedModels = () => call("installed_models");
export const endpointModels = (url: string) => call("endpoint_models", { url });
export const installedEmbeddingModels = () => call("installed_embedding_models");
export const apiKeySource = () => call("api_key_source");
/** Stores the server's API key in the OS keyring (or a private file); "" forgets it. */
export const setApiKey = (key: string) => call("set_api_key", { key });
/** Every connection the app has made from its data dir, grouped by host and purpose; [] on a fresh install. */
export const networkLog = () => call("network_log");
/** Opens the native file dialog and copies the chosen GGUF into the data dir; null when cancelled. */
export const importModel = () => call("import_model");
/** Downloads a GGUF by URL; rejects with kind "stopped" when cancelled (the part is kept for a resume). */
export const downloadModel = (url: string, sha256: string | null, fileName: string | null, onProgress: (p: DownloadEvent) => void) =>
  call("download_model", { url, sha256, fileName, onProgress: new Channel<DownloadEvent>(onProgress) });
export const cancelDownload = () => call("cancel_download");

// ---------------------------------------------------------------- viewer

/** `focus`: byte ranges within the passage to mark on their own (a table cell, its column's title). */
export const viewPage = (docId: number, page: number, byteStart: number | null, byteEnd: number | null, focus: [number, number][] | null = null) =>
  call("view_page", { docId, page, byteStart, byteEnd, focus });

/** PNG bytes of a rendered page. The contract says ArrayBuffer; depending on the
 *  transport it arrives as an ArrayBuffer, a typed array or number[]. */
export async function pageImage(docId: number, page: number, widthPx: number): Promise<Blob> {
  const raw: unknown = await call("page_image", { docId, page, widthPx: Math.round(widthPx) });
  let bytes: BlobPart;
  if (raw instanceof ArrayBuffer) bytes = raw;
  else if (ArrayBuffer.isView(raw)) bytes = raw as Uint8Array<ArrayBuffer>;
  else if (Array.isArray(raw)) bytes = Uint8Array.from(raw as number[]);
  else if (raw instanceof Blob) return raw;
  else throw toCommandError("page_image returned an unexpected value");
  return new Blob([bytes], { type: "image/png" });
}

export const openExternal = (docId: number) => call("open_external", { docId });

// ---------------------------------------------------------------- events

export const onLibraryStatus = (handler: (s: LibraryStatus) => void) => listen("library-status", handler);
export const onFilesDropped = (handler: (paths: string[]) => void) => listen("files-dropped", handler);
/** Failures of work the shell does on its own (adding dropped files), not of a command. */
export const onAppError = (handler: (e: AppError) => void) =>
  listen("app-error", (payload) => {
    const { kind, message } = toCommandError(payload);
    handler({ kind, message });
  });
