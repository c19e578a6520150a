// One question/answer turn in the chat: live step trace and token stream while
// answering, then the checked answer rendered sentence by sentence with citations.

import * as api from "../api";
import { button, clear, h, icon, replaceChildren, withBusy } from "../dom";
import { basename, formatMs, pagePlace, placeOf, shorten } from "../format";
import { t, tn } from "../i18n";
import { answerNotes } from "../notices";
import { renderInline, renderMarkdown } from "../markdown";
import { citationKey, selectTurn, state, type UiTurn } from "../store";
import type { Answer, Citation, EvidencePage, ExportFormat, Sentence, Step } from "../types";
import { toast, toastError } from "./toast";
import { attachTooltip } from "./tooltip";

export interface AnswerDeps {
  openCitation: (c: Citation, answer: Answer) => void;
  openSource: (p: EvidencePage) => void;
  retry: (question: string) => void;
}

export class TurnView {
  readonly el: HTMLElement;
  private answerEl: HTMLElement;
  private trace: HTMLDetailsElement;
  private traceSummary = h("summary", { class: "trace-summary" });
  private traceList = h("ol", { class: "trace-list" });
  private traceTouched = false;
  private progressLine = h("div", { class: "progress-line" });
  private evidenceEl = h("div", { class: "live-evidence", testid: "live-evidence" });
  private textEl = h("div", { class: "answer-text", testid: "answer-text" });
  private streamNode: Text | null = null;
  private footer = h("div", { class: "answer-footer" });

  constructor(
    readonly turn: UiTurn,
    private deps: AnswerDeps,
  ) {
    this.trace = h("details", { class: "step-trace", testid: "step-trace" }, this.traceSummary, this.traceList);
    this.trace.addEventListener("toggle", () => {
      // a toggle that we did not cause programmatically
      if (this.trace.open !== this.expectOpen) this.traceTouched = true;
    });
    this.answerEl = h(
      "article",
      { class: "answer", testid: "answer", attrs: { "aria-live": "polite", tabindex: "-1" } },
      this.trace,
      this.progressLine,
      this.evidenceEl,
      this.textEl,
      this.footer,
    );
    this.answerEl.addEventListener("click", (e) => {
      if (this.turn.answer && !(e.target as HTMLElement).closest("button, a, summary, input")) selectTurn(this.turn);
    });
    this.el = h(
      "div",
      { class: "turn" },
      h("div", { class: "question-row" }, h("div", { class: "question-bubble", text: turn.question })),
      this.answerEl,
    );
    for (const s of turn.steps) this.traceList.appendChild(stepItem(s));
    this.render();
  }

  private expectOpen = false;
  private setTraceOpen(open: boolean) {
    if (this.traceTouched) return;
    this.expectOpen = open;
    this.trace.open = open;
  }

  /** Appends a streamed token (plain text while streaming). */
  appendToken(text: string): void {
    if (!this.streamNode) {
      clear(this.textEl);
      this.streamNode = document.createTextNode("");
      this.textEl.append(this.streamNode, h("span", { class: "caret", attrs: { "aria-hidden": "true" } }));
    }
    this.streamNode.appendData(text);
  }

  /** The sources' best sentences, shown while the model is still working. */
  showEvidence(): void {
    const quotes = this.turn.state === "streaming" ? this.turn.evidence : [];
    this.evidenceEl.hidden = quotes.length === 0;
    if (!quotes.length) {
      clear(this.evidenceEl);
      return;
    }
    replaceChildren(
      this.evidenceEl,
      h("div", { class: "live-evidence-title", text: t("answer.fromSources") }),
      h(
        "ul",
        { class: "live-evidence-list" },
        quotes.map((q) => {
          const c = q.citations[0];
          const where = c ? `${shorten(c.doc_title || basename(c.doc_path))} · ${placeOf(c)}` : "";
          return h(
            "li",
            { testid: "live-evidence-quote" },
            h("q", { text: q.text }),
            where ? h("span", { class: "live-evidence-where", text: ` ${where}` }) : null,
          );
        }),
      ),
    );
  }

  addStep(step: Step): void {
    this.traceList.appendChild(stepItem(step));
    this.updateTraceSummary();
  }

  setProgress(): void {
    const p = this.turn.progress;
    this.progressLine.hidden = !p || this.turn.state !== "streaming";
    if (p) {
      clear(this.progressLine);
      this.progressLine.append(
        h("span", { class: "spinner small" }),
        ` ${p.what}${p.total > 0 ? ` ${p.done}/${p.total}` : ""}`,
      );
    }
  }

  setSelected(selected: boolean): void {
    this.answerEl.classList.toggle("selected", selected);
  }

  private updateTraceSummary(): void {
    const n = this.turn.steps.length;
    this.trace.hidden = n === 0;
    const last = this.turn.steps[n - 1];
    const live = this.turn.state === "streaming" && last ? ` · ${last.tool}` : "";
    const total = this.turn.steps.reduce((a, s) => a + (s.ms || 0), 0);
    this.traceSummary.textContent = `${tn("answer.steps", n)}${live}${
      this.turn.state !== "streaming" && total ? ` · ${formatMs(total)}` : ""
    }`;
  }

  /** Full re-render for the current state. */
  render(): void {
    const turn = this.turn;
    this.answerEl.dataset.state = turn.state;
    this.answerEl.setAttribute("aria-busy", String(turn.state === "streaming"));
    this.updateTraceSummary();
    this.setProgress();
    this.setSelected(state.selectedTurn === turn);
    this.showEvidence();

    if (turn.state === "streaming") {
      this.setTraceOpen(true);
      this.textEl.classList.add("streaming");
      if (!this.streamNode) {
        replaceChildren(
          this.textEl,
          turn.streamText
            ? turn.streamText
            : h("span", { class: "thinking" }, h("span", { class: "spinner small" }), ` ${t("answer.searching")}`),
        );
        if (turn.streamText) {
          this.streamNode = this.textEl.firstChild as Text;
          this.textEl.append(h("span", { class: "caret", attrs: { "aria-hidden": "true" } }));
        }
      }
      clear(this.footer);
      return;
    }

    this.setTraceOpen(false);
    this.textEl.classList.remove("streaming");
    this.streamNode = null;

    if (turn.state === "stopped") {
      replaceChildren(this.textEl, h("p", { class: "muted stopped-note", testid: "stopped-note", text: t("answer.stopped") }));
      replaceChildren(
        this.footer,
        h(
          "div",
          { class: "answer-actions" },
          button(t("answer.askAgain"), () => this.deps.retry(turn.question), { class: "btn small" }),
        ),
      );
      return;
    }

    if (turn.state === "error") {
      replaceChildren(
        this.textEl,
        h("div", { class: "answer-error" }, icon("alert", 16), h("span", { text: turn.error ?? t("answer.somethingWrong") })),
      );
      replaceChildren(
        this.footer,
        h(
          "div",
          { class: "answer-actions" },
          button(t("answer.retry"), () => this.deps.retry(turn.question), { class: "btn small" }),
        ),
      );
      return;
    }

    const a = turn.answer!;
    clear(this.textEl);
    if (a.abstained) {
      this.textEl.appendChild(
        h(
          "div",
          { class: "abstained-notice", testid: "abstained-notice", attrs: { role: "note" } },
          h("strong", { text: t("answer.notCovered") }),
        ),
      );
    }
    // Decided by fields only, never by the answer's wording. An abstained answer's
    // text is the backend's "not covered" sentence (in the question's language) with
    // labels: the notice and the nearest passages below say it for the page.
    if (a.sentences.length) {
      this.textEl.appendChild(this.renderSentences(a));
    } else if (!a.abstained) {
      this.textEl.appendChild(
        a.answer.trim()
          ? h("div", { class: "md" }, renderMarkdown(a.answer)) // stored before sentences were recorded
          : h("p", { class: "muted", text: turn.stopped ? t("answer.stoppedBeforeAnswer") : t("answer.noAnswer") }),
      );
    }
    if (a.abstained && a.sources.length) {
      this.textEl.appendChild(
        h(
          "div",
          { class: "nearest" },
          h("h3", { class: "nearest-title", text: t("answer.nearest") }),
          h("ul", { class: "nearest-list" }, a.sources.map((p) => this.nearestItem(p))),
        ),
      );
    }
    // a stopped answer is checked and stored, and its notices say so; our own line only
    // where the backend left no note
    const notes = answerNotes(a);
    if (turn.stopped && !notes.length) {
      this.textEl.appendChild(h("p", { class: "note", text: t("answer.stoppedIncomplete") }));
    }
    for (const note of notes) this.textEl.appendChild(h("p", { class: "note", testid: "answer-note", text: note }));
    this.renderFooter(a);
  }

  private nearestItem(p: EvidencePage): HTMLElement {
    const passage = p.passages[0];
    const b = h(
      "button",
      { class: "nearest-item", attrs: { type: "button" }, title: p.doc_path },
      h("span", { class: "nearest-head", text: `${p.doc_title || basename(p.doc_path)} · ${pagePlace(p)}` }),
      passage ? h("span", { class: "nearest-text", text: snippet(passage.text, 220) }) : null,
    );
    b.addEventListener("click", () => this.deps.openSource(p));
    return h("li", null, b);
  }

  private renderSentences(a: Answer): HTMLElement {
    const wrap = h("div", { class: "sentences" });
    let para: HTMLElement = h("p");
    let breakNext = false;
    const newPara = () => {
      if (para.childNodes.length) wrap.appendChild(para);
      para = h("p");
    };
    a.sentences.forEach((s, idx) => {
      let text = s.text;
      const list = /^\s*([-*+•]|\d{1,3}[.)])\s+/.exec(text);
      const heading = /^\s*#{1,6}\s+/.exec(text);
      if (breakNext || /^\s*\n/.test(text) || list || heading) newPara();
      if (list) {
        para.classList.add("md-li");
        text = text.slice(list[0].length);
        para.appendChild(h("span", { class: "li-marker", text: /\d/.test(list[1]) ? `${list[1]} ` : "• " }));
      } else if (heading) {
        para.classList.add("md-h");
        text = text.slice(heading[0].length);
      }
      breakNext = /\n\s*$/.test(s.text);
      para.appendChild(this.sentence(s, idx, text.trim(), a));
      para.appendChild(document.createTextNode(" "));
    });
    newPara();
    return wrap;
  }

  private sentence(s: Sentence, idx: number, text: string, a: Answer): HTMLElement {
    const span = h("span", { class: `sentence status-${s.status}` });
    span.appendChild(renderInline(text));
    if (s.status === "unsupported") {
      const why = s.reason && s.reason !== "not_stated" ? t("answer.unsupportedBecause", { reason: t(`reason.${s.reason}`) }) : t("answer.unsupported");
      span.appendChild(h("span", { class: "unsupported-note", testid: "unsupported-reason", data: { reason: s.reason ?? "not_stated" }, text: why }));
    } else if (s.status === "not_covered") {
      span.appendChild(h("span", { class: "unsupported-note", text: t("answer.notCoveredBySources") }));
    }
    for (const c of s.citations) span.append(" ", this.chip(c, idx, s, a));
    return span;
  }

  private chip(c: Citation, idx: number, s: Sentence, a: Answer): HTMLElement {
    const title = c.doc_title || basename(c.doc_path);
    const chip = h(
      "button",
      {
        class: "chip",
        testid: "citation-chip",
        data: { label: c.label, page: c.page, "chunk-id": c.chunk_id },
        attrs: { type: "button" },
        title: `${t("common.titlePage", { title, page: c.page })}${c.quote ? `\n“${c.quote}”` : ""}`,
      },
      h("span", { class: "chip-text", text: `${shorten(title)} · ${placeOf(c)}` }),
    );
    chip.addEventListener("click", () => this.deps.openCitation(c, a));
    attachTooltip(chip, () => t("answer.chipTooltip", { title, page: c.page }), () => (c.quote ? `“${c.quote}”` : ""));

    const key = citationKey(idx, c.chunk_id, c.label);
    const turn = this.turn;
    const canReport = turn.conversationId !== null && turn.turnIndex !== null;
    const flag = h("button", {
      class: "chip-flag",
      testid: "citation-flag",
      attrs: {
        type: "button",
        "aria-label": t("answer.reportAria", { title, page: c.page }),
      },
      title: canReport ? t("answer.reportTitle") : t("answer.reportLater"),
    });
    const markReported = () => {
      flag.disabled = true;
      flag.classList.add("reported");
      flag.textContent = t("answer.reported");
      flag.title = t("answer.reportedTitle");
      flag.dataset.reported = "true";
    };
    if (turn.reported.has(key)) markReported();
    else {
      flag.appendChild(icon("flag", 12));
      flag.disabled = !canReport;
      flag.addEventListener("click", async () => {
        if (turn.conversationId === null || turn.turnIndex === null) return;
        try {
          await withBusy(flag, () =>
            api.reportCitation(turn.conversationId!, turn.turnIndex!, s.text, c.chunk_id, c.label),
          );
          turn.reported.add(key);
          markReported();
        } catch (e) {
          toastError(e, t("answer.reportFailed"));
        }
      });
    }
    return h("span", { class: "cite" }, chip, flag);
  }

  private renderFooter(a: Answer): void {
    const turn = this.turn;
    const saved = turn.conversationId !== null && turn.turnIndex !== null;
    const copyBtn = button("", (e) => void this.copy(e.currentTarget as HTMLButtonElement, a), {
      class: "btn small ghost",
      title: t("answer.copyTitle"),
    });
    copyBtn.append(icon("copy", 14), h("span", { text: t("answer.copy") }));
    const exportMd = button("", (e) => void this.export(e.currentTarget as HTMLButtonElement, "markdown"), {
      class: "btn small ghost",
      title: saved ? t("answer.exportMarkdownTitle") : t("answer.exportLater"),
    });
    exportMd.append(icon("download", 14), t("answer.exportMarkdown"));
    const exportCsv = button("", (e) => void this.export(e.currentTarget as HTMLButtonElement, "csv"), {
      class: "btn small ghost",
      title: saved ? t("answer.exportCsvTitle") : t("answer.exportLater"),
    });
    exportCsv.append(icon("download", 14), t("answer.exportCsv"));
    exportMd.disabled = exportCsv.disabled = !saved;

    const meta: string[] = [t(`answer.mode.${a.mode}`)];
    if (a.timings?.total_ms) meta.push(formatMs(a.timings.total_ms));
    if (a.model) meta.push(basename(a.model));
    replaceChildren(
      this.footer,
      h("div", { class: "answer-actions" }, copyBtn, exportMd, exportCsv),
      h("div", { class: "answer-meta", text: meta.join(" · ") }),
    );
  }

  private async copy(btn: HTMLButtonElement, a: Answer): Promise<void> {
    try {
      const md = await withBusy(btn, () => api.answerMarkdown(a));
      await copyText(md);
      const label = btn.querySelector("span");
      if (label) {
        label.textContent = t("answer.copied");
        window.setTimeout(() => (label.textContent = t("answer.copy")), 1500);
      }
    } catch (e) {
      toastError(e, t("answer.copyFailed"));
    }
  }

  private async export(btn: HTMLButtonElement, format: ExportFormat): Promise<void> {
    const turn = this.turn;
    if (turn.conversationId === null || turn.turnIndex === null) return;
    try {
      const path = await withBusy(btn, () => api.exportAnswer(turn.conversationId!, turn.turnIndex!, format));
      if (path) toast(t("answer.savedTo", { path }), "success");
    } catch (e) {
      toastError(e, t("answer.exportFailed"));
    }
  }
}

function stepItem(s: Step): HTMLElement {
  let input: string;
  let oneLine: string;
  try {
    input = typeof s.input === "string" ? s.input : JSON.stringify(s.input, null, 2) ?? "";
    oneLine = typeof s.input === "string" ? s.input : JSON.stringify(s.input) ?? "";
  } catch {
    input = oneLine = String(s.input);
  }
  // one compact line per step; input JSON and observation on expand
  return h(
    "li",
    { class: "step" },
    h(
      "details",
      null,
      h(
        "summary",
        { class: "step-head" },
        h("span", { class: "step-tool", text: s.tool }),
        h("span", { class: "step-brief", text: snippet(oneLine, 90) }),
        h("span", { class: "step-ms", text: formatMs(s.ms) }),
      ),
      h("div", { class: "step-label", text: t("answer.stepInput") }),
      h("pre", { class: "step-input", text: input }),
      s.observation ? h("div", { class: "step-label", text: t("answer.stepObservation") }) : null,
      s.observation ? h("pre", { class: "step-observation", text: s.observation }) : null,
    ),
  );
}

export function snippet(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1).trimEnd() + "…" : flat;
}

/** Clipboard write with a fallback for webviews without the async API. */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // fall through to the legacy path
  }
  const ta = h("textarea", { class: "visually-hidden", attrs: { readonly: true, "aria-hidden": "true" } });
  ta.value = text;
  document.body.appendChild(ta);
  const prev = document.activeElement as HTMLElement | null;
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } finally {
    ta.remove();
    prev?.focus();
  }
  if (!ok) throw new Error(t("answer.clipboardUnavailable"));
}
