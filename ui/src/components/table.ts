// The table view: the same fields read from the tables of every document in the library, one
// row per document. A found cell shows its figure and opens the page at its row; an empty one
// says why the document has none. Export CSV saves the same rows with each cell's source.

import * as api from "../api";
import { button, h, icon } from "../dom";
import { formatNumber, t } from "../i18n";
import type { ExtractedDocument, ExtractedValue } from "../types";
import { openModal, type ModalHandle } from "./modal";
import { toast, toastError } from "./toast";
import type { ViewerTarget } from "./viewer";

let openHandle: ModalHandle | null = null;

/** The fields typed into the box: split on commas (either width), trimmed, each once. */
export function parseFields(text: string): string[] {
  const out: string[] = [];
  for (const f of text.split(/[,，;；]/).map((s) => s.trim())) {
    if (f && !out.some((o) => o.toLowerCase() === f.toLowerCase())) out.push(f);
  }
  return out;
}

function cell(v: ExtractedValue, doc: ExtractedDocument, openPassage: (target: ViewerTarget) => void): HTMLElement {
  if (v.value === null || v.page === null) {
    return h("td", { class: "table-cell empty muted", testid: "table-cell-empty", title: v.reason ?? "", text: t("table.none") });
  }
  const unit = [v.unit, v.scale].filter(Boolean).join(", ");
  const focus: [number, number][] = [];
  if (v.cell_start !== null && v.cell_end !== null) focus.push([v.cell_start, v.cell_end]);
  if (v.header_start !== null && v.header_end !== null) focus.push([v.header_start, v.header_end]);
  const link = button("", () => openPassage({ docId: doc.doc_id, page: v.page!, byteStart: v.byte_start, byteEnd: v.byte_end, focus }), {
    class: "table-value",
    testid: "table-cell",
    title: t("table.cellTitle", { page: v.page, row: v.row ?? "", column: v.column ?? "" }),
  });
  link.append(h("span", { text: v.value }));
  if (unit) link.append(h("span", { class: "muted small", text: ` ${unit}` }));
  return h("td", { class: "table-cell" }, link);
}

/** The rows as a table: a document per row, a field per column. */
export function renderTable(rows: ExtractedDocument[], fields: string[], openPassage: (target: ViewerTarget) => void): HTMLElement {
  const head = h("tr", null, h("th", { text: t("table.document") }), ...fields.map((f) => h("th", { text: f })));
  const body = rows.map((doc) =>
    h("tr", { testid: "table-row" }, h("td", { class: "table-doc", title: doc.path, text: doc.title || doc.path }), ...doc.values.map((v) => cell(v, doc, openPassage))),
  );
  return h("table", { class: "extract-table", testid: "extract-table" }, h("thead", null, head), h("tbody", null, ...body));
}

export function openTable(openPassage: (target: ViewerTarget) => void): void {
  if (openHandle) return;
  const fieldsInput = h("input", { testid: "table-fields", attrs: { type: "text", placeholder: t("table.fields"), "aria-label": t("table.fields"), spellcheck: "false" } });
  const periodInput = h("input", { testid: "table-period", attrs: { type: "text", placeholder: t("table.period"), "aria-label": t("table.period"), spellcheck: "false" } });
  const summary = h("div", { class: "field-note", testid: "table-summary", attrs: { role: "status" } });
  const result = h("div", { class: "extract-result" });
  const closeBtn = button("", () => handle.close(), { class: "icon-button", attrs: { "aria-label": t("table.close") }, title: t("common.closeEsc") });
  closeBtn.append(icon("x", 18));

  const asked = () => ({ fields: parseFields(fieldsInput.value), period: periodInput.value.trim() || null });

  const read = async () => {
    const { fields, period } = asked();
    if (fields.length === 0) {
      summary.textContent = t("table.needField");
      return;
    }
    try {
      const rows = await api.extractTable(fields, period);
      const cells = rows.length * fields.length;
      const found = rows.reduce((n, d) => n + d.values.filter((v) => v.value !== null).length, 0);
      summary.textContent = t("table.summary", { documents: formatNumber(rows.length), found: formatNumber(found), cells: formatNumber(cells) });
      result.replaceChildren(renderTable(rows, fields, openPassage));
    } catch (e) {
      toastError(e, t("table.failed"));
    }
  };

  const exportCsv = async () => {
    const { fields, period } = asked();
    if (fields.length === 0) {
      summary.textContent = t("table.needField");
      return;
    }
    try {
      const path = await api.exportTableCsv(fields, period);
      if (path) toast(t("table.savedTo", { path }), "success");
    } catch (e) {
      toastError(e, t("table.exportFailed"));
    }
  };

  const readBtn = button(t("table.read"), () => void read(), { class: "btn", testid: "table-read" });
  const exportBtn = button("", () => void exportCsv(), { class: "btn ghost", testid: "table-export" });
  exportBtn.append(icon("download", 14), t("table.exportCsv"));
  for (const input of [fieldsInput, periodInput]) {
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        void read();
      }
    });
  }

  const handle = openModal(
    [
      h("div", { class: "dialog-head" }, h("h2", { class: "dialog-title", text: t("table.title") }), closeBtn),
      h("div", { class: "table-body" }, h("div", { class: "table-form" }, fieldsInput, periodInput, readBtn, exportBtn), summary, result),
    ],
    { testid: "table-dialog", label: t("table.title"), className: "search-dialog", onClose: () => (openHandle = null) },
  );
  openHandle = handle;
  fieldsInput.focus();
}
