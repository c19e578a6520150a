// Main chat column: header, model banner, turns, empty state and composer.

import * as api from "../api";
import { button, h, icon, replaceChildren, withBusy } from "../dom";
import { t } from "../i18n";
import {
  bus,
  newUid,
  resetChat,
  selectTurn,
  setAsking,
  state,
  type UiTurn,
} from "../store";
import type { Answer, Citation, EvidencePage } from "../types";
import { TurnView } from "./answer";
import { conversationTitle, refreshConversations } from "./conversations";
import { addFolder } from "./library";
import { createScopeSelector } from "./scope";
import { toastError } from "./toast";

export interface ChatDeps {
  openCitation: (c: Citation, answer: Answer) => void;
  openSource: (p: EvidencePage) => void;
  openSettings: () => void;
  sourcesToggle: HTMLElement;
}

export interface Chat {
  el: HTMLElement;
  focusInput: () => void;
  newChat: () => void;
  openConversation: (id: number) => Promise<void>;
  ask: (q: string) => Promise<void>;
}

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD = isMac ? "⌘" : "Ctrl+";

export function createChat(deps: ChatDeps): Chat {
  const views = new Map<UiTurn, TurnView>();
  const turnDeps = {
    openCitation: deps.openCitation,
    openSource: deps.openSource,
    retry: (q: string) => void ask(q),
  };

  // ------------------------------------------------------------ header & banner
  const title = h("h1", { class: "chat-title", text: t("chat.newChat") });
  const header = h("header", { class: "chat-header" }, title, deps.sourcesToggle);

  const bannerText = h("span", { class: "banner-text" });
  const bannerBtn = button(t("chat.settingsButton"), () => deps.openSettings(), { class: "btn small" });
  const banner = h(
    "div",
    { class: "banner warn", testid: "model-banner", attrs: { role: "status" } },
    icon("alert", 18),
    bannerText,
    bannerBtn,
  );
  banner.hidden = true;
  bus.on("modelStatus", (m) => {
    const problem = m.chat_model_problem;
    banner.hidden = !problem;
    if (problem) {
      bannerText.textContent = "";
      bannerText.append(
        h("strong", { text: problem }),
        h("span", { text: t("chat.extractiveBanner") }),
      );
    }
  });

  // ------------------------------------------------------------ turns & empty state
  const list = h("div", { class: "turns" });
  const suggestions = h("div", { class: "suggestions" });
  const emptyBody = h("div", { class: "empty-body" });
  const empty = h(
    "div",
    { class: "empty-state" },
    h("div", { class: "empty-mark" }, icon("chat", 28)),
    h("h2", { class: "empty-title", text: t("chat.emptyTitle") }),
    emptyBody,
    suggestions,
  );
  const inner = h("div", { class: "chat-inner" }, empty, list);
  const scroller = h("div", { class: "chat-scroll" }, inner);

  let stick = true;
  scroller.addEventListener("scroll", () => {
    stick = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 48;
  });
  const scrollToBottom = (force = false) => {
    if (force || stick) {
      scroller.scrollTop = scroller.scrollHeight;
      stick = true;
    }
  };

  let suggestionsLoaded = false;
  let suggestionsLoading = false;
  async function loadSuggestions() {
    if (suggestionsLoading) return;
    suggestionsLoading = true;
    replaceChildren(suggestions, h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("chat.findingQuestions")}`));
    try {
      const qs = await api.suggestedQuestions();
      if (!state.library || state.library.folders.length === 0 || state.turns.length > 0) {
        replaceChildren(suggestions);
        return;
      }
      suggestionsLoaded = qs.length > 0 || !state.library.busy;
      if (qs.length === 0) {
        replaceChildren(
          suggestions,
          h("div", {
            class: "empty-hint",
            text: state.library.busy
              ? t("chat.suggestionsLater")
              : t("chat.askAnything"),
          }),
        );
        return;
      }
      replaceChildren(
        suggestions,
        qs.map((q) => {
          const b = button(q, () => void ask(q), { class: "suggestion", testid: "suggested-question" });
          return b;
        }),
      );
    } catch (e) {
      replaceChildren(suggestions);
      toastError(e, t("chat.suggestionsFailed"));
    } finally {
      suggestionsLoading = false;
    }
  }

  function renderEmpty() {
    const isEmpty = state.turns.length === 0;
    empty.hidden = !isEmpty;
    if (!isEmpty) return;
    const lib = state.library;
    if (!lib) {
      // wait for the first library status before deciding what to suggest
      replaceChildren(emptyBody, h("p", { class: "muted" }, h("span", { class: "spinner small" }), ` ${t("chat.loadingLibrary")}`));
      return;
    }
    if (lib.folders.length === 0) {
      const add = button("", (e) => void addFolder(e.currentTarget as HTMLButtonElement), { class: "btn primary" });
      add.append(icon("plus", 14), t("chat.addFolder"));
      replaceChildren(
        emptyBody,
        h("p", { class: "muted", text: t("chat.intro") }),
        add,
      );
      replaceChildren(suggestions);
      suggestionsLoaded = false;
      return;
    }
    replaceChildren(
      emptyBody,
      h("p", { class: "muted", text: t("chat.tryThese") }),
    );
    if (!suggestionsLoaded) void loadSuggestions();
  }

  // ------------------------------------------------------------ composer
  const input = h("textarea", {
    class: "question-input",
    testid: "question-input",
    attrs: {
      rows: 1,
      placeholder: t("chat.placeholder"),
      "aria-label": t("chat.questionLabel"),
      spellcheck: "true",
    },
  });
  const sendBtn = button("", () => void ask(input.value), {
    class: "send-button",
    testid: "send-button",
    title: t("chat.sendTitle"),
    attrs: { "aria-label": t("chat.send") },
  });
  sendBtn.appendChild(icon("send", 18));
  const stopBtn = button("", () => void stop(), {
    class: "stop-button",
    testid: "stop-button",
    title: t("chat.stopTitle"),
    attrs: { "aria-label": t("chat.stop") },
  });
  stopBtn.append(icon("stop", 14), h("span", { text: t("chat.stop") }));
  stopBtn.hidden = true;

  const autoGrow = () => {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight, 220)}px`;
  };
  const updateSend = () => {
    sendBtn.disabled = state.asking || !input.value.trim();
  };
  input.addEventListener("input", () => {
    autoGrow();
    updateSend();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      if (!state.asking) void ask(input.value);
    }
  });

  const composer = h(
    "footer",
    { class: "composer" },
    h(
      "div",
      { class: "composer-inner" },
      createScopeSelector(),
      h("div", { class: "input-row" }, input, sendBtn, stopBtn),
      h("div", { class: "composer-hint", text: t("chat.hint", { mod: MOD }) }),
    ),
  );

  bus.on("asking", (v) => {
    sendBtn.hidden = v;
    stopBtn.hidden = !v;
    stopBtn.disabled = false;
    updateSend();
  });

  // ------------------------------------------------------------ actions
  async function stop() {
    const last = state.turns[state.turns.length - 1];
    if (last && last.state === "streaming") last.stopped = true;
    try {
      await withBusy(stopBtn, () => api.stopAnswer());
    } catch (e) {
      toastError(e, t("chat.stopFailed"));
    }
  }

  function addView(t: UiTurn): TurnView {
    const v = new TurnView(t, turnDeps);
    views.set(t, v);
    list.appendChild(v.el);
    return v;
  }

  async function ask(raw: string): Promise<void> {
    const question = raw.trim();
    if (!question || state.asking) return;
    input.value = "";
    autoGrow();
    const epoch = state.epoch;
    const turn: UiTurn = {
      uid: newUid(),
      question,
      state: "streaming",
      streamText: "",
      evidence: [],
      steps: [],
      progress: null,
      answer: null,
      error: null,
      conversationId: state.conversationId,
      turnIndex: null,
      stopped: false,
      reported: new Set(),
    };
    state.turns.push(turn);
    renderEmpty();
    const view = addView(turn);
    setAsking(true);
    selectTurn(turn);
    scrollToBottom(true);

    try {
      const answer = await api.ask(question, state.conversationId, [...state.scope], (ev) => {
        if (epoch !== state.epoch) return;
        if (ev.kind === "token") {
          turn.streamText += ev.text;
          view.appendToken(ev.text);
        } else if (ev.kind === "evidence") {
          turn.evidence = ev.quotes;
          view.showEvidence();
        } else if (ev.kind === "step") {
          turn.steps.push(ev.step);
          view.addStep(ev.step);
        } else if (ev.kind === "progress") {
          turn.progress = { done: ev.done, total: ev.total, what: ev.what };
          view.setProgress();
        }
        scrollToBottom();
      });
      if (epoch !== state.epoch) return;
      turn.answer = answer;
      turn.state = "done";
      if (answer.steps && answer.steps.length >= turn.steps.length) turn.steps = answer.steps;
      const conv = answer.conversation_id ?? state.conversationId;
      turn.conversationId = conv;
      if (conv !== null) {
        state.conversationId = conv;
        // the backend says where the answer was stored; older backends did not, so
        // count: turns are stored in order and a rejected ask stores nothing
        turn.turnIndex =
          answer.turn ??
          state.turns.filter((t) => t !== turn && t.turnIndex !== null && t.conversationId === conv).length;
      }
      // rebuild the view so the final step list is authoritative
      const fresh = new TurnView(turn, turnDeps);
      view.el.replaceWith(fresh.el);
      views.set(turn, fresh);
      bus.emit("turnUpdated", turn);
      selectTurn(turn);
      scrollToBottom();
      void refreshConversations().then(updateTitle);
    } catch (e) {
      if (epoch !== state.epoch) return;
      if (api.isStopped(e)) {
        // stopped before any token arrived: nothing was stored; not an error
        turn.state = "stopped";
        turn.stopped = true;
        view.render();
        bus.emit("turnUpdated", turn);
        return;
      }
      turn.state = "error";
      turn.error = api.errorText(e);
      view.render();
      bus.emit("turnUpdated", turn);
      toastError(e, t("chat.answerFailed"));
    } finally {
      if (epoch === state.epoch) setAsking(false);
      updateSend();
    }
  }

  async function stopIfAsking() {
    if (state.asking) {
      try {
        await api.stopAnswer();
      } catch {
        /* ignore: we are leaving this chat anyway */
      }
    }
  }

  function renderAll() {
    views.clear();
    replaceChildren(list);
    for (const t of state.turns) addView(t);
    renderEmpty();
    updateTitle();
    updateSend();
  }

  function updateTitle() {
    title.textContent = conversationTitle(state.conversationId) ?? (state.conversationId === null ? t("chat.newChat") : t("chat.conversation"));
    title.title = title.textContent;
  }

  function newChat() {
    void stopIfAsking();
    resetChat(null, []);
    input.value = "";
    autoGrow();
    focusInput();
  }

  async function openConversation(id: number): Promise<void> {
    try {
      const turns = await api.openConversation(id);
      await stopIfAsking();
      const ui: UiTurn[] = turns.map((stored, i) => ({
        uid: newUid(),
        question: stored.question,
        state: stored.answer ? "done" : "error",
        streamText: "",
        evidence: [],
        steps: stored.answer?.steps ?? [],
        progress: null,
        answer: stored.answer,
        error: stored.answer ? null : t("chat.storedUnreadable"),
        conversationId: id,
        turnIndex: stored.answer?.turn ?? i,
        stopped: false,
        reported: new Set(),
      }));
      resetChat(id, ui);
      window.requestAnimationFrame(() => scrollToBottom(true));
    } catch (e) {
      toastError(e, t("chat.openFailed"));
    }
  }

  function focusInput() {
    input.focus();
  }

  bus.on("chatReset", renderAll);
  bus.on("conversations", updateTitle);
  bus.on("selectedTurn", (sel) => {
    for (const [t, v] of views) v.setSelected(t === sel);
  });
  let hadFolders: boolean | null = null;
  let docCount = -1;
  bus.on("library", (lib) => {
    const has = lib.folders.length > 0;
    // refresh the empty state when the library goes from empty to non-empty or grows a lot
    if (has !== hadFolders || (docCount === 0 && lib.documents > 0)) {
      suggestionsLoaded = false;
      hadFolders = has;
      renderEmpty();
    }
    docCount = lib.documents;
  });

  renderAll();

  const el = h("main", { class: "chat" }, header, banner, scroller, composer);
  return { el, focusInput, newChat, openConversation, ask };
}
