// Entry point: builds the layout, loads initial state, wires backend events
// and global keyboard shortcuts. In a plain browser during `npm run dev` it first
// installs the mock backend under Tauri's IPC (see ./dev-backend).

import "./styles.css";
import * as api from "./api";
import { button, h, icon } from "./dom";
import { initLocale, t, tn } from "./i18n";
import { createChat } from "./components/chat";
import { createConversationsPanel } from "./components/conversations";
import { createLibraryPanel, refreshLibrary } from "./components/library";
import { closeTopLayer, hasLayers } from "./components/modal";
import { openModels } from "./components/models";
import { openSearch } from "./components/search";
import { openTable } from "./components/table";
import { openSettings, reopenSettingsAfterReload } from "./components/settings";
import { createSourcesPanel } from "./components/sources";
import { toast, toastError } from "./components/toast";
import { showTooltip } from "./components/tooltip";
import { openViewer } from "./components/viewer";
import { loadDocuments, setLibrary, setModelStatus } from "./store";
import type { Answer, Citation, EvidencePage } from "./types";

// ?theme=dark|light forces a theme (debugging / screenshots).
const theme = new URLSearchParams(location.search).get("theme");
if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;

/**
 * The document id of a citation. Citations carry `doc_id`; answers stored by
 * older versions may not, so then the document is looked up by its path.
 */
async function docIdForCitation(c: Citation, a: Answer): Promise<number | null> {
  if (typeof c.doc_id === "number") return c.doc_id;
  const byPath = a.sources.find((p) => p.doc_path === c.doc_path);
  if (byPath) return byPath.doc_id;
  const docs = await loadDocuments();
  return docs.find((d) => d.path === c.doc_path)?.doc_id ?? null;
}

function openCitation(c: Citation, a: Answer): void {
  docIdForCitation(c, a)
    .then((docId) => {
      if (docId === null) {
        toast(t("app.citationGone", { title: c.doc_title }), "error");
        return;
      }
      openViewer({ docId, page: c.page, byteStart: c.byte_start, byteEnd: c.byte_end, focus: c.focus ?? [] });
    })
    .catch((e) => toastError(e, t("app.openCitationFailed")));
}

function openSource(p: EvidencePage): void {
  const first = p.passages[0];
  openViewer({
    docId: p.doc_id,
    page: p.page,
    byteStart: first ? first.byte_start : null,
    byteEnd: first ? first.byte_end : null,
  });
}

function build(mock: boolean): void {
  const app = document.getElementById("app")!;
  const sources = createSourcesPanel(openSource);
  const chat = createChat({ openCitation, openSource, openSettings, sourcesToggle: sources.toggle });

  const settingsBtn = button("", () => openSettings(), {
    class: "btn ghost settings-button",
    testid: "settings-button",
    title: t("common.settings"),
  });
  settingsBtn.append(icon("gear", 16), t("common.settings"));
  const modelsBtn = button("", () => openModels(), {
    class: "btn ghost settings-button",
    testid: "models-button",
    title: t("models.title"),
  });
  modelsBtn.append(icon("layers", 16), t("models.open"));
  const searchBtn = button("", () => openSearch(openViewer), {
    class: "btn ghost settings-button",
    testid: "search-button",
    title: t("search.openTitle"),
  });
  searchBtn.append(icon("search", 16), t("search.open"));
  const tableBtn = button("", () => openTable(openViewer), {
    class: "btn ghost settings-button",
    testid: "table-button",
    title: t("table.openTitle"),
  });
  tableBtn.append(icon("table", 16), t("table.open"));

  const sidebar = h(
    "nav",
    { class: "sidebar", attrs: { "aria-label": t("app.navLabel") } },
    h("div", { class: "brand" }, h("span", { class: "brand-mark", text: "P" }), h("span", { class: "brand-name", text: "Pagewise" })),
    h(
      "div",
      { class: "sidebar-scroll" },
      createLibraryPanel(),
      createConversationsPanel({ open: chat.openConversation, newChat: chat.newChat }),
    ),
    h("div", { class: "sidebar-foot" }, searchBtn, tableBtn, modelsBtn, settingsBtn),
  );

  app.append(h("div", { class: "layout" }, sidebar, chat.el, sources.el));

  // ---------------------------------------------------------- keyboard
  document.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.shiftKey && !e.altKey && e.key.toLowerCase() === "f") {
      e.preventDefault();
      if (!hasLayers()) openSearch(openViewer);
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      if (!hasLayers()) chat.focusInput();
    } else if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "n") {
      e.preventDefault();
      if (hasLayers()) return;
      chat.newChat();
    } else if (e.key === "Escape" && !e.defaultPrevented) {
      if (closeTopLayer()) e.preventDefault();
    }
  });

  // ---------------------------------------------------------- drag & drop overlay
  // The shell handles real OS drops (and emits files-dropped); this overlay is
  // only visual feedback where the webview sees the drag.
  const overlay = h(
    "div",
    { class: "drop-overlay", attrs: { "aria-hidden": "true" } },
    h("div", { class: "drop-box" }, icon("plus", 28), h("div", { text: t("app.dropHint") })),
  );
  overlay.hidden = true;
  document.body.appendChild(overlay);
  let dragDepth = 0;
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes("Files");
  window.addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    dragDepth++;
    overlay.hidden = false;
  });
  window.addEventListener("dragover", (e) => {
    if (hasFiles(e)) e.preventDefault();
  });
  window.addEventListener("dragleave", () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) overlay.hidden = true;
  });
  window.addEventListener("drop", (e) => {
    dragDepth = 0;
    overlay.hidden = true;
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (mock) {
      const n = e.dataTransfer?.files.length ?? 0;
      toast(tn("app.addingItems", n), "info");
    }
  });

  // ---------------------------------------------------------- backend events & initial state
  // Subscribed before the first look, so the state the library settles in after that look is
  // heard (the shell announces it once the library has opened).
  const libraryEvents = api.onLibraryStatus(setLibrary).catch((e) => toastError(e, t("app.libraryStatusSubscribeFailed")));
  void api
    .onFilesDropped((paths) => {
      toast(tn("app.addingItems", paths.length), "info");
      void refreshLibrary();
    })
    .catch((e) => toastError(e));
  // failures of what the shell does on its own, such as adding dropped files
  void api.onAppError((e) => toast(e.message, "error")).catch((e) => toastError(e));

  void libraryEvents.then(() => refreshLibrary());
  api
    .modelStatus()
    .then(setModelStatus)
    .catch((e) => toastError(e, t("app.modelStatusFailed")));

  if (mock) {
    document.body.classList.add("mock-backend");
    void debugHooks(chat.ask);
  }

  chat.focusInput();
  reopenSettingsAfterReload();
}

/**
 * Dev-mock only, for screenshots: ?ask=question asks on load, then
 * ?open=citation|text|settings|scope|failed|search|table opens that part of the UI (?search=words
 * types them into the search view, ?fields=a,b reads them in the table view).
 */
async function debugHooks(ask: (q: string) => Promise<void>): Promise<void> {
  const params = new URLSearchParams(location.search);
  const q = params.get("ask");
  const open = params.get("open");
  const click = (sel: string) => document.querySelector<HTMLElement>(sel)?.click();
  if (q) await ask(q);
  await new Promise((r) => setTimeout(r, 300));
  if (open === "citation") click('[data-testid="citation-chip"]');
  else if (open === "text") {
    const chips = document.querySelectorAll<HTMLElement>('[data-testid="citation-chip"]');
    chips[chips.length - 1]?.click();
  } else if (open === "settings") openSettings();
  else if (open === "models") openModels();
  else if (open === "search") {
    openSearch(openViewer);
    const input = document.querySelector<HTMLInputElement>('[data-testid="search-input"]');
    if (input) {
      input.value = params.get("search") ?? "";
      input.dispatchEvent(new Event("input"));
    }
  }
  else if (open === "table") {
    openTable(openViewer);
    const input = document.querySelector<HTMLInputElement>('[data-testid="table-fields"]');
    if (input) input.value = params.get("fields") ?? "";
    click('[data-testid="table-read"]');
  }
  else if (open === "scope") click('[data-testid="scope-button"]');
  else if (open === "failed") click('[data-testid="folder-failed-count"]');
  else if (open === "tooltip") {
    const chip = document.querySelector<HTMLElement>('[data-testid="citation-chip"]');
    if (chip) showTooltip(chip, chip.textContent ?? "", chip.title.split("\n")[1] ?? "");
  }
}

async function start(): Promise<void> {
  initLocale(); // before anything is drawn: components read their texts as they build
  // `import.meta.env.DEV` first, so production builds drop the import (and the mock)
  const mock = import.meta.env.DEV && !("__TAURI_INTERNALS__" in window);
  if (mock) (await import("./dev-backend")).installMockBackend();
  build(mock);
}

void start();
