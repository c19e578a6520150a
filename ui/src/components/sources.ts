// Right-hand Sources panel: the evidence pages of the selected answer.

import { button, h, icon, replaceChildren } from "../dom";
import { basename, facetsSummary, pagePlace } from "../format";
import { t } from "../i18n";
import { bus, state, type UiTurn } from "../store";
import type { EvidencePage } from "../types";
import { snippet } from "./answer";

const STORAGE_KEY = "pagewise.sourcesOpen";

export interface SourcesPanel {
  el: HTMLElement;
  toggle: HTMLButtonElement;
  setOpen(open: boolean): void;
}

export function createSourcesPanel(openSource: (p: EvidencePage) => void): SourcesPanel {
  const list = h("ol", { class: "source-list" });
  const subtitle = h("div", { class: "sources-subtitle" });
  const closeBtn = button("", () => setOpen(false), {
    class: "icon-button",
    title: t("sources.hide"),
    attrs: { "aria-label": t("sources.hideAria") },
  });
  closeBtn.appendChild(icon("x", 16));
  const el = h(
    "aside",
    { class: "sources", testid: "sources-panel", attrs: { "aria-label": t("sources.title") } },
    h("div", { class: "sources-head" }, h("h2", { text: t("sources.title") }), closeBtn),
    subtitle,
    list,
  );

  const count = h("span", { class: "count" });
  const toggle = h(
    "button",
    { class: "btn small ghost sources-toggle", attrs: { type: "button", "aria-pressed": "true" }, title: t("sources.toggleTitle") },
    icon("sidebar", 14),
    t("sources.title"),
    count,
  );
  toggle.addEventListener("click", () => setOpen(Boolean(el.hidden)));

  function setOpen(open: boolean) {
    el.hidden = !open;
    toggle.setAttribute("aria-pressed", String(open));
    document.body.classList.toggle("sources-closed", !open);
    try {
      localStorage.setItem(STORAGE_KEY, open ? "1" : "0");
    } catch {
      /* storage unavailable */
    }
  }

  function item(p: EvidencePage): HTMLElement {
    const heading = p.passages.find((x) => x.heading_path.length)?.heading_path ?? [];
    const passage = p.passages[0];
    const b = h(
      "button",
      { class: "source-item", testid: "source-item", data: { page: p.page, label: p.label, "doc-id": p.doc_id }, attrs: { type: "button" }, title: p.doc_path },
      h(
        "div",
        { class: "source-top" },
        h("span", { class: "source-label", text: p.label }),
        h("span", { class: "source-title", text: p.doc_title || basename(p.doc_path) }),
      ),
      h(
        "div",
        { class: "source-meta" },
        h("span", { text: p.doc_path.toLowerCase().endsWith(".pdf") ? t("sources.page", { page: p.page }) : pagePlace(p) }),
        p.modified ? h("span", { text: p.modified }) : null,
        h("span", { class: "source-score", title: t("sources.score"), text: p.score.toFixed(2) }),
      ),
      p.facets ? h("div", { class: "source-facets", testid: "source-facets", text: facetsSummary(p.facets) }) : null,
      heading.length ? h("div", { class: "source-heading", text: heading.join(" › ") }) : null,
      passage ? h("div", { class: "source-snippet", text: snippet(passage.text, 180) }) : null,
      alsoIn(p.also_in ?? []),
    );
    b.addEventListener("click", () => openSource(p));
    return h("li", null, b);
  }

  // Identical copies of the cited file: one source, several locations.
  function alsoIn(paths: string[]): HTMLElement | null {
    if (!paths.length) return null;
    return h("div", {
      class: "source-also-in",
      testid: "source-also-in",
      title: paths.join("\n"),
      text: t("sources.alsoIn", { paths: paths.map(basename).join(t("common.listSeparator")) }),
    });
  }

  function render(turn: UiTurn | null) {
    const a = turn?.answer ?? null;
    count.textContent = a && a.sources.length ? String(a.sources.length) : "";
    if (!turn) {
      subtitle.textContent = "";
      replaceChildren(list, h("li", { class: "empty-hint", text: t("sources.placeholder") }));
      return;
    }
    subtitle.textContent = turn.question;
    subtitle.title = turn.question;
    if (!a) {
      replaceChildren(
        list,
        turn.state === "streaming"
          ? h("li", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("sources.gathering")}`)
          : h("li", { class: "empty-hint", text: t("sources.none") }),
      );
      return;
    }
    if (!a.sources.length) {
      replaceChildren(list, h("li", { class: "empty-hint", text: t("sources.noneInAnswer") }));
      return;
    }
    replaceChildren(list, a.sources.map(item));
  }

  bus.on("selectedTurn", render);
  bus.on("turnUpdated", (t) => {
    if (t === state.selectedTurn) render(t);
  });
  render(state.selectedTurn);

  // open by default, except on narrow windows where the panel overlays the chat
  let initial = !window.matchMedia("(max-width: 980px)").matches;
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored !== null && initial) initial = stored !== "0";
  } catch {
    /* ignore */
  }
  setOpen(initial);
  return { el, toggle, setOpen };
}
