// Application state and a tiny typed event bus.
//
// State flows one way: backend calls/events → store (mutate + emit) →
// components that subscribed re-render the part they own. Components never
// talk to each other directly; they call store actions or emit on the bus.

import type { Answer, DocumentInfo, LibraryStatus, ModelStatus, Sentence, Step } from "./types";
import * as api from "./api";

export interface UiTurn {
  /** local id, unique for the page's lifetime */
  uid: number;
  question: string;
  /** "stopped": stopped before any answer was written (nothing was stored) */
  state: "streaming" | "done" | "stopped" | "error";
  streamText: string;
  /** cited evidence quotes shown while the model is still writing */
  evidence: Sentence[];
  steps: Step[];
  progress: { done: number; total: number; what: string } | null;
  answer: Answer | null;
  error: string | null;
  /** conversation this turn belongs to (known once `ask` resolved) */
  conversationId: number | null;
  /** 0-based index of the turn inside its conversation (for copy/export/report);
   *  `Answer.turn` when the backend sent it */
  turnIndex: number | null;
  /** the user pressed Stop while this turn was streaming */
  stopped: boolean;
  /** keys of citations already reported */
  reported: Set<string>;
}

type Events = {
  library: LibraryStatus;
  documents: DocumentInfo[];
  modelStatus: ModelStatus;
  /** the whole chat was replaced (new chat / opened conversation) */
  chatReset: void;
  turnAdded: UiTurn;
  turnUpdated: UiTurn;
  selectedTurn: UiTurn | null;
  asking: boolean;
  conversations: void;
  scope: string[];
};

type Handler<T> = (v: T) => void;

class Bus {
  private handlers = new Map<keyof Events, Set<Handler<never>>>();
  on<K extends keyof Events>(k: K, fn: Handler<Events[K]>): () => void {
    let set = this.handlers.get(k);
    if (!set) this.handlers.set(k, (set = new Set()));
    set.add(fn as Handler<never>);
    return () => set!.delete(fn as Handler<never>);
  }
  emit<K extends keyof Events>(k: K, v: Events[K]): void {
    for (const fn of this.handlers.get(k) ?? []) {
      try {
        (fn as Handler<Events[K]>)(v);
      } catch (e) {
        console.error(`handler for ${String(k)} failed`, e);
      }
    }
  }
}

export const bus = new Bus();

export const state = {
  library: null as LibraryStatus | null,
  documents: null as DocumentInfo[] | null,
  modelStatus: null as ModelStatus | null,
  conversationId: null as number | null,
  turns: [] as UiTurn[],
  selectedTurn: null as UiTurn | null,
  asking: false,
  scope: [] as string[],
  /** incremented on every chat reset; late callbacks of an older chat are ignored */
  epoch: 0,
};

let nextUid = 1;
export const newUid = () => nextUid++;

export function setLibrary(s: LibraryStatus): void {
  const docsChanged = !state.library || state.library.documents !== s.documents;
  state.library = s;
  if (docsChanged) state.documents = null; // stale; reloaded on demand
  bus.emit("library", s);
}

let docsPromise: Promise<DocumentInfo[]> | null = null;
/** The document list, cached until the library's document count changes. */
export function loadDocuments(force = false): Promise<DocumentInfo[]> {
  if (state.documents && !force) return Promise.resolve(state.documents);
  if (!docsPromise || force) {
    docsPromise = api
      .listDocuments()
      .then((docs) => {
        state.documents = docs;
        bus.emit("documents", docs);
        return docs;
      })
      .finally(() => {
        docsPromise = null;
      });
  }
  return docsPromise;
}

export function setModelStatus(m: ModelStatus): void {
  state.modelStatus = m;
  bus.emit("modelStatus", m);
}

export function selectTurn(t: UiTurn | null): void {
  state.selectedTurn = t;
  bus.emit("selectedTurn", t);
}

export function setScope(paths: string[]): void {
  state.scope = Array.from(new Set(paths));
  bus.emit("scope", state.scope);
}

export function setAsking(v: boolean): void {
  state.asking = v;
  bus.emit("asking", v);
}

export function resetChat(conversationId: number | null, turns: UiTurn[]): void {
  state.epoch++;
  state.conversationId = conversationId;
  state.turns = turns;
  state.selectedTurn = null;
  for (let i = turns.length - 1; i >= 0; i--) {
    if (turns[i].answer) {
      state.selectedTurn = turns[i];
      break;
    }
  }
  if (state.asking) setAsking(false);
  bus.emit("chatReset", undefined);
  bus.emit("selectedTurn", state.selectedTurn);
}

export function citationKey(sentenceIdx: number, chunkId: number, label: string): string {
  return `${sentenceIdx}:${chunkId}:${label}`;
}
