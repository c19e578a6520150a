// Typed wrappers around the Tauri commands and events of the UI contract.
//
// In the Tauri webview `window.__TAURI_INTERNALS__` exists and every call goes
// through `invoke`. In a plain browser during `npm run dev` (no Tauri) a fake
// backend from ./mock.ts is used instead; the dynamic import is guarded by
// `import.meta.env.DEV`, so production builds do not contain the mock.

import { Channel, invoke as tauriInvoke } from "@tauri-apps/api/core";
import { listen as tauriListen } from "@tauri-apps/api/event";
import type {
  Answer,
  AskStreamEvent,
  ConversationSummary,
  DocumentInfo,
  ExportFormat,
  InstalledModel,
  LibraryStatus,
  ModelKind,
  ModelStatus,
  PageView,
  Settings,
  Timings,
  Turn,
} from "./types";

export type Unlisten = () => void;

/** What the rest of the UI needs from a backend (Tauri or the dev mock). */
export interface Transport {
  invoke<T>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  listen<T>(event: string, handler: (payload: T) => void): Promise<Unlisten>;
  /** Something that can be passed as a Channel argument to `invoke`. */
  channel<T>(onMessage: (msg: T) => void): unknown;
}

const tauriTransport: Transport = {
  invoke: (cmd, args) => tauriInvoke(cmd, args),
  listen: (event, handler) => tauriListen(event, (e) => handler(e.payload as never)),
  channel: (onMessage) => new Channel(onMessage),
};

let transportPromise: Promise<Transport> | null = null;

export function isTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

function transport(): Promise<Transport> {
  if (!transportPromise) {
    if (import.meta.env.DEV && !isTauri()) {
      transportPromise = import("./mock").then((m) => m.createMockTransport());
    } else {
      transportPromise = Promise.resolve(tauriTransport);
    }
  }
  return transportPromise;
}

/** True when running against the dev mock backend. */
export async function usingMock(): Promise<boolean> {
  return (await transport()) !== tauriTransport;
}

/** What each command resolves with (the mock backend is checked against this too). */
export interface CommandResults {
  library_status: LibraryStatus;
  add_folder_dialog: string[];
  add_paths: string[];
  remove_folder: void;
  pause_indexing: void;
  resume_indexing: void;
  cancel_indexing: void;
  reindex_all: void;
  list_documents: DocumentInfo[];
  ask: Answer;
  stop_answer: void;
  suggested_questions: string[];
  list_conversations: ConversationSummary[];
  open_conversation: Turn[];
  rename_conversation: void;
  delete_conversation: void;
  answer_markdown: string;
  /** the saved path, null when the save dialog was cancelled */
  export_answer: string | null;
  /** the feedback id */
  report_citation: number;
  model_status: ModelStatus;
  get_settings: Settings;
  set_settings: void;
  pick_model_file: string | null;
  installed_models: InstalledModel[];
  view_page: PageView;
  /** PNG bytes (ArrayBuffer, typed array or number[]) */
  page_image: unknown;
  open_external: void;
}
export type Command = keyof CommandResults;

async function call<K extends Command>(cmd: K, args?: Record<string, unknown>): Promise<CommandResults[K]> {
  const t = await transport();
  try {
    return await t.invoke<CommandResults[K]>(cmd, args);
  } catch (e) {
    // The contract says errors reject with a string; normalise anything else.
    throw new Error(errorText(e));
  }
}

export function errorText(e: unknown): string {
  if (typeof e === "string") return e;
  if (e instanceof Error) return e.message;
  if (e && typeof e === "object" && "message" in e) return String((e as { message: unknown }).message);
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

// ---------------------------------------------------------------- library

export const libraryStatus = () => call("library_status");
/** Resolves with the canonicalised folders that were added (empty if the dialog was cancelled). */
export const addFolderDialog = () => call("add_folder_dialog");
/** Resolves with the canonicalised paths that were added. */
export const addPaths = (paths: string[]) => call("add_paths", { paths });
export const removeFolder = (path: string) => call("remove_folder", { path });
export const pauseIndexing = () => call("pause_indexing");
export const resumeIndexing = () => call("resume_indexing");
export const cancelIndexing = () => call("cancel_indexing");
export const reindexAll = () => call("reindex_all");
export const listDocuments = () => call("list_documents");

// ---------------------------------------------------------------- asking

/** What `ask` rejects with when it was stopped before any token arrived. */
export const STOPPED = "stopped";

/** True for the rejection of an answer stopped before anything was written. */
export function isStopped(e: unknown): boolean {
  return errorText(e).trim() === STOPPED;
}

/**
 * Asks a question. Stopping (`stopAnswer`) after tokens arrived resolves with a
 * checked partial answer (stored as a turn, `note` says it was stopped); stopping
 * earlier rejects with "stopped" (see `isStopped`).
 */
export async function ask(
  question: string,
  conversationId: number | null,
  scope: string[],
  onEvent: (ev: AskStreamEvent) => void,
): Promise<Answer> {
  const t = await transport();
  const channel = t.channel<AskStreamEvent>(onEvent);
  const a = await call("ask", { question, conversationId, scope, onEvent: channel });
  return normalizeAnswer(a) ?? Promise.reject(new Error("The answer could not be read"));
}

const EMPTY_TIMINGS: Timings = {
  retrieve_ms: 0,
  first_evidence_ms: null,
  prompt_ms: 0,
  first_token_ms: null,
  generation_ms: 0,
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
    steps: Array.isArray(a.steps) ? a.steps.map((st, i) => ({ ...st, index: typeof st.index === "number" ? st.index : i })) : [],
    sources: Array.isArray(a.sources) ? a.sources.map((p) => ({ ...p, passages: p.passages ?? [] })) : [],
    model: a.model ?? null,
    note: a.note ?? null,
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
export const answerMarkdown = (conversationId: number, turn: number) =>
  call("answer_markdown", { conversationId, turn });
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

// ---------------------------------------------------------------- viewer

export const viewPage = (docId: number, page: number, byteStart: number | null, byteEnd: number | null) =>
  call("view_page", { docId, page, byteStart, byteEnd });

/** PNG bytes of a rendered page. Accepts ArrayBuffer, typed arrays or number[]. */
export async function pageImage(docId: number, page: number, widthPx: number): Promise<Blob> {
  const raw = await call("page_image", { docId, page, widthPx: Math.round(widthPx) });
  let bytes: BlobPart;
  if (raw instanceof ArrayBuffer) bytes = raw;
  else if (ArrayBuffer.isView(raw)) bytes = raw as Uint8Array<ArrayBuffer>;
  else if (Array.isArray(raw)) bytes = Uint8Array.from(raw as number[]);
  else if (raw instanceof Blob) return raw;
  else throw new Error("page_image returned an unexpected value");
  return new Blob([bytes], { type: "image/png" });
}

export const openExternal = (docId: number) => call("open_external", { docId });

// ---------------------------------------------------------------- events

export async function onLibraryStatus(handler: (s: LibraryStatus) => void): Promise<Unlisten> {
  return (await transport()).listen<LibraryStatus>("library-status", handler);
}
export async function onFilesDropped(handler: (paths: string[]) => void): Promise<Unlisten> {
  return (await transport()).listen<string[]>("files-dropped", handler);
}
export async function onNewChat(handler: () => void): Promise<Unlisten> {
  return (await transport()).listen<unknown>("new-chat", () => handler());
}
