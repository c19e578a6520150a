// Dev mock: a fake backend answering every command of the shell's contract, for
// `npm run dev` in a plain browser (installed under Tauri's own IPC by
// ./dev-backend) and for the tests. `MockHandlers` is keyed by the generated
// `Command` type, so the type check fails when the shell gains a command the mock
// does not answer or a result changes type. Errors are thrown as the shell's
// AppError `{ kind, message }`.

import { emit as tauriEmit } from "@tauri-apps/api/event";
import { COMMANDS, type Command, type Commands, type EventName, type Events } from "./bindings/contract";
import { abstains, answerFor, evidenceQuotes, markdownOf, plannedSteps, rawTokens } from "./mock-answers";
import { appError, sleep, type MockFlags } from "./mock-common";
import { DOCS, HOME, MockLibrary, now } from "./mock-library";
import { mockExtract } from "./mock-table";
import { mockSearch } from "./mock-search";
import { pageImage, viewPage } from "./mock-pages";
import type { Answer, AskStreamEvent, ConversationSummary, KeySource, ModelStatus, Settings, Step, Turn } from "./types";

export type MockHandlers = {
  [K in Command]: (args: Commands[K]["args"]) => Commands[K]["result"] | Promise<Commands[K]["result"]>;
};

export type MockEmit = <E extends EventName>(event: E, payload: Events[E]) => void;

export interface MockBackend {
  handlers: MockHandlers;
  /** Advances the indexing simulation (the dev page calls it on a timer). */
  tick(): void;
}

const tauriEmitTyped: MockEmit = (event, payload) => void tauriEmit(event, payload);

const isCommand = (cmd: string): cmd is Command => (COMMANDS as string[]).includes(cmd);

/** Answers one IPC call the way the shell would: the handler's result, or an AppError. */
export function mockInvoke(handlers: MockHandlers, cmd: string, args: unknown): unknown {
  if (!isCommand(cmd)) throw appError("failed", `mock: unknown command ${cmd}`);
  return (handlers[cmd] as (a: unknown) => unknown)(args ?? {});
}

interface MockConversation extends ConversationSummary {
  turnsList: Turn[];
}

const MODEL_DIR = "/home/ada/.local/share/pagewise/models";

export function createMockBackend(flags: MockFlags = new Set(), emit: MockEmit = tauriEmitTyped): MockBackend {
  const library = new MockLibrary(flags);
  const conversations: MockConversation[] = [];
  let nextConversationId = 3;
  let nextFeedbackId = 1;
  let stopRequested = false;
  let downloadCancelled = false;
  let settings: Settings = {
    chat_model: flags.has("nomodel") ? null : `${MODEL_DIR}/qwen2.5-3b-instruct-q4_k_m.gguf`,
    embed_model: `${MODEL_DIR}/bge-small-en-v1.5`,
    gpu_offload: false,
    skip_ocr: false,
    data_dir: "/home/ada/.local/share/pagewise",
    use_endpoint: false,
    endpoint_url: "",
    endpoint_model: "",
    embed_use_endpoint: false,
    embed_endpoint_url: "",
    embed_endpoint_model: "",
    first_token_within_s: null,
    accept_weak_sandbox: false,
  };
  let keySource: KeySource = { kind: "none" };

  // Library commands answer, then the shell reports the new status as an event.
  const changed = <T>(result: T): T => {
    emit("library-status", library.status());
    return result;
  };
  const mutate = (fn: () => void): null => {
    fn();
    return changed(null);
  };

  function conversation(id: number): MockConversation {
    const c = conversations.find((x) => x.id === id);
    if (!c) throw appError("not_found", `Conversation ${id} not found`);
    return c;
  }

  function turnOf(conversationId: number, turn: number): Turn {
    const t = conversation(conversationId).turnsList[turn];
    if (!t) throw appError("not_found", `Conversation ${conversationId} has no turn ${turn}`);
    return t;
  }

  function store(conversationId: number | null, question: string, make: (id: number, turn: number) => Answer): Answer {
    let c: MockConversation;
    if (conversationId === null) {
      c = { id: nextConversationId++, title: question.slice(0, 60), created_at: now(), updated_at: now(), turns: 0, turnsList: [] };
      conversations.unshift(c);
    } else c = conversation(conversationId);
    const answer = make(c.id, c.turnsList.length);
    c.turnsList.push({ question, standalone_query: question, answer, created_at: now() });
    c.turns = c.turnsList.length;
    c.updated_at = now();
    conversations.sort((x, y) => y.updated_at - x.updated_at);
    return answer;
  }

  function seed(id: number, title: string, question: string, ago: number) {
    const answer = answerFor(question, { steps: plannedSteps(question), stopped: false, flags, conversationId: id, turn: 0 });
    const at = now() - ago;
    conversations.push({ id, title, created_at: at, updated_at: at, turns: 1, turnsList: [{ question, standalone_query: question, answer, created_at: at }] });
  }
  if (!flags.has("empty")) {
    seed(2, "Noise limits for the outdoor unit", "What noise limits apply to the outdoor unit at night?", 3600 * 26);
    seed(1, "Buffer tank sizing", "How large should the buffer tank be?", 86400 * 4);
  }

  // Like the backend: steps, then the cited evidence, then tokens. Stopped before any
  // token → rejects with kind "stopped" and stores nothing; stopped later → a checked
  // partial answer, stored as a turn.
  async function ask({ question, conversationId, onEvent }: Commands["ask"]["args"]): Promise<Answer> {
    const send = (e: AskStreamEvent) => onEvent.onmessage(e);
    const slow = flags.has("slow") ? 3 : 1;
    stopRequested = false;
    if (!question.trim()) throw appError("invalid_input", "The question is empty");
    if (conversationId !== null) conversation(conversationId);
    if (flags.has("fail")) {
      await sleep(600);
      throw appError("failed", "The chat model crashed (mock failure)");
    }
    const done: Step[] = [];
    for (const step of plannedSteps(question)) {
      await sleep(350 * slow);
      if (stopRequested) break;
      done.push(step);
      send({ kind: "step", step });
    }
    const draft = answerFor(question, { steps: [], stopped: false, flags, conversationId: 0, turn: 0 });
    if (!abstains(question) && !stopRequested) send({ kind: "evidence", quotes: evidenceQuotes(draft) });
    const words = rawTokens(draft);
    let tokens = 0;
    for (let i = 0; i < words.length && !stopRequested; i++) {
      await sleep(45 * slow);
      if (stopRequested) break;
      send({ kind: "token", text: words[i] });
      tokens++;
      if (i === Math.floor(words.length / 2)) send({ kind: "progress", done: 2, total: 3, what: "checking citations" });
    }
    if (!stopRequested) {
      send({ kind: "progress", done: 3, total: 3, what: "checking citations" });
      await sleep(400 * slow);
    }
    if (stopRequested && tokens === 0) throw appError("stopped", "interrupted");
    const stopped = stopRequested;
    return store(conversationId, question, (id, turn) => answerFor(question, { steps: done, stopped, flags, conversationId: id, turn }));
  }

  function modelStatus(): ModelStatus {
    return {
      chat_model: settings.chat_model ? settings.chat_model.split("/").pop()! : null,
      chat_model_problem: flags.has("nomodel") ? "Chat model not found: models/qwen2.5-3b-instruct-q4_k_m.gguf. Run models/fetch.sh" : null,
      embedder: "bge-small-en-v1.5 (384 dims)",
      gpu_supported: false,
      gpu_offload: false,
    };
  }

  const handlers: MockHandlers = {
    library_status: () => library.status(),
    add_folder_dialog: () => changed(library.add([library.nextFolderPath()], 40)),
    remove_folder: ({ folderId }) => {
      if (!library.remove(folderId)) throw appError("not_found", `no folder "${folderId}" in the library`);
      return changed(null);
    },
    pause_indexing: () => mutate(() => library.pause()),
    resume_indexing: () => mutate(() => library.resume()),
    cancel_indexing: () => mutate(() => library.cancel()),
    reindex_all: () => mutate(() => library.reindex()),
    accept_weak_sandbox: () => mutate(() => library.acceptWeakSandbox()),
    search_library: ({ query, filter, order }) => mockSearch(query, filter, order),
    extract_table: ({ fields, period }) => {
      if (!fields.some((f) => f.trim())) throw appError("invalid_input", "name a field to read, such as revenue or capacity");
      return mockExtract(fields, period);
    },
    export_table_csv: ({ fields }) => {
      if (!fields.some((f) => f.trim())) throw appError("invalid_input", "name a field to read, such as revenue or capacity");
      return `${HOME}/pagewise-table.csv`;
    },
    list_documents: () => DOCS.map(({ kind: _k, folder: _f, changed: _c, ...d }) => d),
    ask,
    stop_answer: () => {
      stopRequested = true;
      return null;
    },
    suggested_questions: () => [
      "What seasonal performance factor did the field study measure?",
      "Which flow temperature did we agree on for the Müller renovation?",
      "How often does the outdoor unit need maintenance?",
    ],
    list_conversations: () => conversations.map(({ turnsList: _t, ...c }) => c),
    open_conversation: ({ id }) => structuredClone(conversation(id).turnsList),
    rename_conversation: ({ id, title }) => {
      conversation(id).title = title;
      return null;
    },
    delete_conversation: ({ id }) => {
      const i = conversations.findIndex((x) => x.id === id);
      if (i >= 0) conversations.splice(i, 1);
      return null;
    },
    answer_markdown: ({ answer }) => markdownOf(answer),
    export_answer: ({ conversationId, turn, format }) => {
      turnOf(conversationId, turn);
      return `${HOME}/pagewise-answer.${format === "csv" ? "csv" : "md"}`;
    },
    report_citation: ({ conversationId, turn }) => {
      turnOf(conversationId, turn);
      return nextFeedbackId++;
    },
    model_status: () => modelStatus(),
    get_settings: () => ({ ...settings }),
    set_settings: ({ settings: s }) => {
      settings = { ...s };
      return null;
    },
    installed_models: () => [
      {
        path: `${MODEL_DIR}/llm/qwen2.5-3b-instruct-q4_k_m.gguf`,
        name: "qwen2.5-3b-instruct-q4_k_m.gguf",
        size_bytes: 1_930_000_000,
        speed: { prompt_tokens_per_s: 61.5, generation_tokens_per_s: 7.9, answers: 4 },
        gguf: {
          version: 3,
          architecture: "qwen2",
          name: "Qwen2.5 3B Instruct",
          quantisation: "Q4_K_M",
          context_length: 32768,
          license: "qwen-research",
          has_chat_template: true,
        },
      },
    ],
    installed_embedding_models: () => [
      {
        path: `${MODEL_DIR}/bge-small-en-v1.5`,
        name: "bge-small-en-v1.5",
        size_bytes: 133_000_000,
        architecture: "bert",
        dimensions: 384,
        max_tokens: 512,
        reads_chinese: false,
        in_use: true,
        speed: { tokens_per_s: 5210, runs: 3, tokens: 1_200_000 },
      },
    ],
    import_model: () => null,
    api_key_source: () => keySource,
    // A fresh install has made no connection; `?mock=network` shows a download and a server.
    network_log: () =>
      flags.has("network")
        ? [
            { first: now() - 86400 * 2, last: now() - 86400 * 2, host: "huggingface.co", port: 443, purpose: "model_download", count: 1 },
            { first: now() - 3600, last: now() - 3500, host: "127.0.0.1", port: 8080, purpose: "answer_server", count: 6 },
          ]
        : [],
    set_api_key: ({ key }) => {
      keySource = key.trim() ? { kind: "keyring" } : { kind: "none" };
      return keySource;
    },
    download_model: async ({ url, fileName, onProgress }) => {
      if (!/^https?:\/\//.test(url.trim())) throw appError("invalid_input", `${url}: a download address starts with http:// or https://`);
      downloadCancelled = false;
      const total = 98_400_000;
      for (let done = 0; done <= total; done += 9_840_000) {
        if (downloadCancelled) throw appError("stopped", "the download was cancelled; start it again to resume where it stopped");
        onProgress.onmessage({ done_bytes: done, total_bytes: total, resumed_from_bytes: 0, bytes_per_s: 40_000_000 });
        await sleep(flags.has("slow") ? 400 : 30);
      }
      const name = fileName ?? url.split("/").pop() ?? "model.gguf";
      return { path: `${MODEL_DIR}/llm/${name}`, name, size_bytes: total, speed: null, gguf: null };
    },
    cancel_download: () => {
      downloadCancelled = true;
      return null;
    },
    endpoint_models: ({ url }) => {
      if (!/^https?:\/\//.test(url.trim())) throw appError("invalid_input", `${url}: the server's address starts with http:// or https://`);
      return ["qwen2.5-7b-instruct", "llama-3.1-8b-instruct"];
    },
    pick_model_file: ({ kind }) => (kind === "chat" ? "/home/ada/models/llama-3.2-3b-instruct-q4_k_m.gguf" : "/home/ada/models/bge-small-en-v1.5"),
    view_page: ({ docId, page, byteStart, byteEnd, focus }) => viewPage(docId, page, byteStart, byteEnd, focus ?? []),
    page_image: async ({ docId, page, widthPx }) => {
      await sleep(120);
      return pageImage(docId, page, widthPx);
    },
    open_external: ({ docId }) => {
      console.info("[mock] open_external", docId);
      return null;
    },
  };

  return {
    handlers,
    tick: () => {
      if (library.tick()) emit("library-status", library.status());
    },
  };
}
