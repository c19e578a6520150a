// The search view: passages as you type, narrowed by facets the index already knows (type,
// organisation, year, language), sorted by relevance or date, with the matching words marked.
// No model is involved. Arrow keys move through the results; Enter or a click opens the
// viewer at the passage.

import * as api from "../api";
import { button, h, icon } from "../dom";
import { formatNumber, t } from "../i18n";
import type { FacetValue, LibrarySearch, SearchFilter, SearchOrder, SearchRow } from "../types";
import { openModal, type ModalHandle } from "./modal";
import { toastError } from "./toast";
import type { ViewerTarget } from "./viewer";

const TYPE_DELAY_MS = 120;

let openHandle: ModalHandle | null = null;

/** The passage's text with the query's words wrapped in <mark>. */
export function markedText(row: Pick<SearchRow, "text" | "matches">): Node[] {
  const out: Node[] = [];
  let at = 0;
  const bytes = new TextEncoder().encode(row.text);
  const decode = (a: number, b: number) => new TextDecoder().decode(bytes.slice(a, b));
  for (const [start, end] of row.matches) {
    if (start < at || end > bytes.length) continue;
    if (start > at) out.push(document.createTextNode(decode(at, start)));
    out.push(h("mark", { text: decode(start, end) }));
    at = end;
  }
  if (at < bytes.length) out.push(document.createTextNode(decode(at, bytes.length)));
  return out;
}

function facetSelect(testid: string, label: string, values: FacetValue[], chosen: string | null, format: (v: string) => string): HTMLSelectElement {
  const select = h("select", { testid, attrs: { "aria-label": label } });
  select.append(h("option", { text: label, attrs: { value: "" } }));
  for (const v of values) {
    const option = h("option", { text: `${format(v.value)} (${formatNumber(v.documents)})`, attrs: { value: v.value } });
    if (v.value === chosen) option.selected = true;
    select.append(option);
  }
  select.disabled = values.length === 0;
  return select;
}

export function openSearch(openPassage: (target: ViewerTarget) => void): void {
  if (openHandle) {
    openHandle.dialog.querySelector<HTMLInputElement>('[data-testid="search-input"]')?.focus();
    return;
  }
  const input = h("input", {
    testid: "search-input",
    attrs: { type: "search", placeholder: t("search.placeholder"), "aria-label": t("search.placeholder"), spellcheck: "false" },
  });
  const facets = h("div", { class: "search-facets" });
  const order = h("select", { testid: "search-order", attrs: { "aria-label": t("search.order") } });
  order.append(h("option", { text: t("search.byRelevance"), attrs: { value: "relevance" } }), h("option", { text: t("search.byDate"), attrs: { value: "date" } }));
  const summary = h("div", { class: "field-note", testid: "search-summary", attrs: { role: "status" } });
  const list = h("ol", { class: "search-results", testid: "search-results", attrs: { role: "listbox", "aria-label": t("search.results") } });
  const closeBtn = button("", () => handle.close(), { class: "icon-button", attrs: { "aria-label": t("search.close") }, title: t("common.closeEsc") });
  closeBtn.append(icon("x", 18));

  const chosen: Record<"types" | "organisations" | "years" | "languages", string | null> = { types: null, organisations: null, years: null, languages: null };
  let rows: SearchRow[] = [];
  let active = -1;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const filter = (): SearchFilter => ({
    folders: [],
    types: chosen.types ? [chosen.types] : [],
    organisations: chosen.organisations ? [chosen.organisations] : [],
    years: chosen.years ? [Number(chosen.years)] : [],
    languages: chosen.languages ? [chosen.languages] : [],
  });

  const open = (row: SearchRow) => openPassage({ docId: row.doc_id, page: row.page, byteStart: row.byte_start, byteEnd: row.byte_end });

  const highlight = (i: number) => {
    active = Math.max(-1, Math.min(rows.length - 1, i));
    list.querySelectorAll<HTMLElement>(".search-result").forEach((el, j) => {
      el.classList.toggle("active", j === active);
      el.setAttribute("aria-selected", String(j === active));
      if (j === active) el.scrollIntoView({ block: "nearest" });
    });
  };

  const renderFacets = (result: LibrarySearch) => {
    const make = (key: keyof typeof chosen, testid: string, label: string, values: FacetValue[], format: (v: string) => string = (v) => v) => {
      const select = facetSelect(testid, label, values, chosen[key], format);
      select.addEventListener("change", () => {
        chosen[key] = select.value || null;
        void run();
      });
      return select;
    };
    facets.replaceChildren(
      make("types", "facet-type", t("search.anyType"), result.facets.types, (v) => v.replace(/-/g, " ")),
      make("organisations", "facet-org", t("search.anyOrg"), result.facets.organisations),
      make("years", "facet-year", t("search.anyYear"), result.facets.years),
      make("languages", "facet-lang", t("search.anyLanguage"), result.facets.languages),
      order,
    );
  };

  const renderRows = (result: LibrarySearch, query: string) => {
    rows = result.rows;
    list.replaceChildren(
      ...rows.map((row, i) => {
        const where = [t("search.page", { page: row.page }), row.heading].filter(Boolean).join(" · ");
        const item = h(
          "li",
          { class: "search-result", testid: "search-result", attrs: { role: "option", "aria-selected": "false" } },
          h("div", { class: "search-result-head" }, h("strong", { text: row.doc_title }), h("span", { class: "muted", text: ` · ${where}` })),
          row.about ? h("div", { class: "muted small", text: row.about }) : null,
          h("div", { class: "search-result-text" }, ...markedText(row)),
        );
        item.addEventListener("click", () => open(row));
        item.addEventListener("mousemove", () => {
          if (active !== i) highlight(i);
        });
        return item;
      }),
    );
    active = -1;
    if (rows.length > 0) highlight(0);
    summary.textContent = !query.trim()
      ? t("search.typeToSearch", { n: formatNumber(result.documents_admitted) })
      : rows.length === 0
        ? t("search.nothing")
        : t("search.found", { n: formatNumber(rows.length), ms: result.elapsed_ms.toFixed(0) });
  };

  async function run() {
    const query = input.value;
    const mine = ++asked;
    try {
      const result = await api.searchLibrary(query, filter(), order.value as SearchOrder);
      // A slower answer to an older query must not replace a newer one.
      if (mine !== asked) return;
      renderFacets(result);
      renderRows(result, query);
    } catch (e) {
      if (mine === asked) toastError(e, t("search.failed"));
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), TYPE_DELAY_MS);
  });
  order.addEventListener("change", () => void run());
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      highlight(active + 1);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      highlight(active - 1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      const row = rows[active];
      if (row) open(row);
    }
  });

  const handle = openModal(
    [
      h("div", { class: "dialog-head" }, h("h2", { class: "dialog-title", text: t("search.title") }), closeBtn),
      h("div", { class: "search-body" }, h("div", { class: "search-box" }, icon("search", 16), input), facets, summary, list),
    ],
    {
      testid: "search-dialog",
      label: t("search.title"),
      className: "search-dialog",
      onClose: () => {
        clearTimeout(timer);
        openHandle = null;
      },
    },
  );
  openHandle = handle;
  input.focus();
  void run();
}
