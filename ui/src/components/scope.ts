// Scope selector above the question box: "All documents" or a chosen set of
// folders and/or documents. The chosen paths are sent as `scope` with `ask`.

import { button, h, icon, replaceChildren } from "../dom";
import { basename, facetsSummary, shorten } from "../format";
import { t } from "../i18n";
import { bus, loadDocuments, setScope, state } from "../store";
import type { DocumentInfo } from "../types";
import { pushLayer } from "./modal";
import { toastError } from "./toast";

const MAX_DOCS_SHOWN = 200;

export function createScopeSelector(): HTMLElement {
  const chips = h("div", { class: "scope-chips" });
  const btnLabel = h("span", { text: t("scope.all") });
  const scopeBtn = h(
    "button",
    {
      class: "scope-button",
      testid: "scope-button",
      attrs: { type: "button", "aria-haspopup": "dialog", "aria-expanded": "false" },
      title: t("scope.buttonTitle"),
    },
    icon("search", 14),
    btnLabel,
    icon("chevronDown", 14),
  );
  const popover = h("div", {
    class: "popover scope-popover",
    attrs: { role: "dialog", "aria-label": t("scope.label") },
  });
  popover.hidden = true;
  const wrap = h("div", { class: "scope" }, scopeBtn, chips, popover);

  let unregister: (() => void) | null = null;
  let filter = "";

  const titleFor = (path: string): string => {
    const doc = state.documents?.find((d) => d.path === path);
    return doc ? doc.title || basename(doc.path) : basename(path);
  };

  const renderChips = () => {
    const scope = state.scope;
    btnLabel.textContent = scope.length === 0 ? t("scope.all") : t("scope.selected", { n: scope.length });
    replaceChildren(
      chips,
      scope.map((p) => {
        const isFolder = state.library?.folders.some((f) => f.path === p) ?? false;
        const x = button("", () => setScope(state.scope.filter((s) => s !== p)), {
          class: "chip-remove",
          attrs: { "aria-label": t("scope.removeChip", { name: basename(p) }) },
        });
        x.appendChild(icon("x", 12));
        return h(
          "span",
          { class: "scope-chip", testid: "scope-chip", title: p, data: { path: p } },
          isFolder ? icon("folder", 12) : null,
          h("span", { text: shorten(isFolder ? basename(p) : titleFor(p), 24) }),
          x,
        );
      }),
    );
  };

  const optionRow = (path: string, label: string, sub: string | null, isFolder: boolean) => {
    const cb = h("input", { attrs: { type: "checkbox" } });
    cb.checked = state.scope.includes(path);
    cb.addEventListener("change", () => {
      setScope(cb.checked ? [...state.scope, path] : state.scope.filter((s) => s !== path));
    });
    return h(
      "label",
      { class: "scope-option", testid: "scope-option", data: { path }, title: path },
      cb,
      isFolder ? icon("folder", 14) : null,
      h("span", { class: "scope-option-text" }, h("span", { class: "scope-option-label", text: label }), sub ? h("span", { class: "scope-option-sub", text: sub }) : null),
    );
  };

  const body = h("div", { class: "scope-body" });
  const search = h("input", {
    class: "scope-filter",
    attrs: { type: "search", placeholder: t("scope.filterPlaceholder"), "aria-label": t("scope.filterLabel") },
  });
  search.addEventListener("input", () => {
    filter = search.value.toLowerCase();
    renderBody(state.documents);
  });
  const allBtn = button(t("scope.all"), () => {
    setScope([]);
    close();
  }, { class: "btn small" });
  const doneBtn = button(t("scope.done"), () => close(), { class: "btn small primary" });
  popover.append(search, body, h("div", { class: "popover-actions" }, allBtn, doneBtn));

  function renderBody(docs: DocumentInfo[] | null) {
    const match = (s: string) => !filter || s.toLowerCase().includes(filter);
    const folders = (state.library?.folders ?? []).filter((f) => match(f.path));
    const items: (HTMLElement | null)[] = [];
    items.push(h("div", { class: "scope-group", text: t("scope.folders") }));
    if (folders.length === 0) items.push(h("div", { class: "empty-hint", text: t("scope.noFolders") }));
    for (const f of folders) items.push(optionRow(f.path, basename(f.path), f.path, true));
    items.push(h("div", { class: "scope-group", text: t("scope.documents") }));
    if (!docs) {
      items.push(h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("scope.loadingDocuments")}`));
    } else {
      const matching = docs.filter((d) => match(d.title) || match(d.path) || match(facetsSummary(d.facets)));
      if (matching.length === 0) items.push(h("div", { class: "empty-hint", text: t("scope.noDocuments") }));
      for (const d of matching.slice(0, MAX_DOCS_SHOWN)) {
        items.push(optionRow(d.path, d.title || basename(d.path), facetsSummary(d.facets) || d.path, false));
      }
      if (matching.length > MAX_DOCS_SHOWN) {
        items.push(h("div", { class: "empty-hint", text: t("scope.more", { n: matching.length - MAX_DOCS_SHOWN }) }));
      }
    }
    replaceChildren(body, items);
  }

  function open() {
    popover.hidden = false;
    scopeBtn.setAttribute("aria-expanded", "true");
    unregister = pushLayer(close);
    renderBody(state.documents);
    search.focus();
    loadDocuments()
      .then((docs) => {
        if (!popover.hidden) renderBody(docs);
        renderChips();
      })
      .catch((e) => toastError(e, t("scope.listFailed")));
    window.setTimeout(() => document.addEventListener("mousedown", outside, true));
  }

  function close() {
    if (popover.hidden) return;
    popover.hidden = true;
    scopeBtn.setAttribute("aria-expanded", "false");
    unregister?.();
    unregister = null;
    document.removeEventListener("mousedown", outside, true);
  }

  function outside(e: MouseEvent) {
    if (!wrap.contains(e.target as Node)) close();
  }

  scopeBtn.addEventListener("click", () => (popover.hidden ? open() : close()));
  bus.on("scope", () => {
    renderChips();
    if (!popover.hidden) {
      for (const cb of popover.querySelectorAll<HTMLLabelElement>(".scope-option")) {
        const input = cb.querySelector("input")!;
        input.checked = state.scope.includes(cb.dataset.path!);
      }
    }
  });
  // re-render only when the set of folders changes (status events come ~4/s)
  let folderKey = "";
  bus.on("library", (lib) => {
    const key = lib.folders.map((f) => f.path).join("\n");
    if (key === folderKey) return;
    folderKey = key;
    if (!popover.hidden) renderBody(state.documents);
  });
  bus.on("documents", () => renderChips());
  renderChips();
  return wrap;
}
