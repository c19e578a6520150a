// Modal page viewer: PDF pages as rendered images with highlight rectangles,
// text/Markdown pages as text with the cited byte range marked.

import * as api from "../api";
import { button, clear, h, icon, replaceChildren, withBusy } from "../dom";
import { markByteRanges } from "../format";
import { t } from "../i18n";
import type { PageView } from "../types";
import { openModal, type ModalHandle } from "./modal";
import { toastError } from "./toast";

export interface ViewerTarget {
  docId: number;
  page: number;
  byteStart: number | null;
  byteEnd: number | null;
  /** Byte ranges within the passage marked on their own: a table cell and its column's title. */
  focus?: [number, number][];
}

const ZOOM_LEVELS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
const PT_TO_CSS = 96 / 72;
const MAX_IMAGE_PX = 6000;

class Viewer {
  private modal: ModalHandle | null = null;
  private titleEl = h("h2", { class: "viewer-title" });
  private pathEl = h("div", { class: "viewer-path" });
  private pageLabel = h("span", { class: "viewer-page-label", testid: "viewer-page-label", attrs: { "aria-live": "polite" } });
  private zoomLabel = h("span", { class: "zoom-label" });
  private body = h("div", { class: "viewer-body", attrs: { tabindex: "0" } });
  private changedWarning = h(
    "div",
    { class: "viewer-warning", testid: "viewer-changed-warning", attrs: { role: "note" } },
    icon("alert", 14),
    h("span", { text: t("viewer.changed") }),
  );
  private prevBtn: HTMLButtonElement;
  private nextBtn: HTMLButtonElement;
  private zoomInBtn: HTMLButtonElement;
  private zoomOutBtn: HTMLButtonElement;
  private fitBtn: HTMLButtonElement;
  private extBtn: HTMLButtonElement;
  private view: PageView | null = null;
  private docId = 0;
  /** CSS px per PDF point relative to natural size, or "fit" (fit width) */
  private zoom: number | "fit" = "fit";
  private textScale = 1;
  private seq = 0;
  private imgSeq = 0;
  private objectUrl: string | null = null;
  private img: HTMLImageElement | null = null;
  private pageBox: HTMLElement | null = null;
  private imgTimer = 0;
  private loadedPx = 0;
  private resizeObs: ResizeObserver | null = null;

  constructor() {
    const mk = (name: Parameters<typeof icon>[0], label: string, testid: string, fn: () => void) => {
      const b = button("", fn, { class: "icon-button", testid, title: label, attrs: { "aria-label": label } });
      b.appendChild(icon(name, 18));
      return b;
    };
    this.prevBtn = mk("chevronLeft", t("viewer.prev"), "viewer-prev", () => this.goto(-1));
    this.nextBtn = mk("chevronRight", t("viewer.next"), "viewer-next", () => this.goto(1));
    this.zoomOutBtn = mk("minus", t("viewer.zoomOut"), "zoom-out", () => this.zoomStep(-1));
    this.zoomInBtn = mk("plus", t("viewer.zoomIn"), "zoom-in", () => this.zoomStep(1));
    this.fitBtn = mk("fit", t("viewer.fit"), "zoom-fit", () => this.setZoom("fit"));
    this.extBtn = button("", () => void withBusy(this.extBtn, () => api.openExternal(this.docId)).catch((e) => toastError(e, t("viewer.openFailed"))), {
      class: "btn small",
      testid: "open-external",
      title: t("viewer.openExternalTitle"),
    });
    this.extBtn.append(icon("external", 14), t("viewer.openExternal"));
  }

  isOpen(): boolean {
    return this.modal !== null;
  }

  open(t: ViewerTarget): void {
    if (!this.modal) this.mount();
    void this.load(t);
  }

  private mount(): void {
    const closeBtn = button("", () => this.modal?.close(), {
      class: "icon-button",
      testid: "viewer-close",
      title: t("common.closeEsc"),
      attrs: { "aria-label": t("viewer.close") },
    });
    closeBtn.appendChild(icon("x", 18));
    const header = h(
      "div",
      { class: "viewer-header" },
      h("div", { class: "viewer-heading" }, this.titleEl, this.pathEl),
      h(
        "div",
        { class: "viewer-tools" },
        h("div", { class: "tool-group" }, this.prevBtn, this.pageLabel, this.nextBtn),
        h("div", { class: "tool-group" }, this.zoomOutBtn, this.zoomLabel, this.zoomInBtn, this.fitBtn),
        this.extBtn,
        closeBtn,
      ),
    );
    this.changedWarning.hidden = true;
    this.modal = openModal([header, this.changedWarning, this.body], {
      label: t("viewer.label"),
      testid: "viewer",
      className: "viewer",
      onClose: () => this.teardown(),
    });
    this.modal.dialog.addEventListener("keydown", (e) => this.onKey(e));
    this.resizeObs = new ResizeObserver(() => {
      if (this.view?.kind === "pdf" && this.zoom === "fit") this.layoutPdf(false);
    });
    this.resizeObs.observe(this.body);
  }

  private teardown(): void {
    this.seq++;
    this.imgSeq++;
    window.clearTimeout(this.imgTimer);
    this.resizeObs?.disconnect();
    this.resizeObs = null;
    if (this.objectUrl) URL.revokeObjectURL(this.objectUrl);
    this.objectUrl = null;
    this.view = null;
    this.img = null;
    this.pageBox = null;
    this.loadedPx = 0;
    clear(this.body);
    this.modal = null;
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    if (target.tagName === "INPUT" || target.tagName === "TEXTAREA") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    let handled = true;
    if (e.key === "ArrowLeft" || e.key === "PageUp") this.goto(-1);
    else if (e.key === "ArrowRight" || e.key === "PageDown") this.goto(1);
    else if (e.key === "+" || e.key === "=") this.zoomStep(1);
    else if (e.key === "-") this.zoomStep(-1);
    else if (e.key === "0") this.setZoom("fit");
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  private async load(target: ViewerTarget): Promise<void> {
    const mySeq = ++this.seq;
    this.docId = target.docId;
    if (!this.view) this.pageLabel.textContent = t("viewer.pageLoading");
    const loading = h("div", { class: "viewer-loading" }, h("span", { class: "spinner" }), t("viewer.loading"));
    this.body.appendChild(loading);
    this.setNavDisabled(true);
    try {
      const v = await api.viewPage(target.docId, target.page, target.byteStart, target.byteEnd, target.focus?.length ? target.focus : null);
      if (mySeq !== this.seq || !this.modal) return;
      this.view = v;
      this.loadedPx = 0;
      this.render(true);
    } catch (e) {
      if (mySeq !== this.seq || !this.modal) return;
      loading.remove();
      replaceChildren(
        this.body,
        h("div", { class: "viewer-error" }, icon("alert", 18), h("span", { text: t("viewer.loadFailed", { error: api.errorText(e) }) })),
      );
      toastError(e, t("viewer.openPageFailed"));
    } finally {
      if (mySeq === this.seq) this.setNavDisabled(false);
    }
  }

  private setNavDisabled(loading: boolean): void {
    const v = this.view;
    this.prevBtn.disabled = loading || !v || v.page <= 1;
    this.nextBtn.disabled = loading || !v || v.page >= v.page_count;
  }

  private goto(delta: number): void {
    const v = this.view;
    if (!v) return;
    const page = v.page + delta;
    if (page < 1 || page > v.page_count) return;
    void this.load({ docId: v.doc_id, page, byteStart: null, byteEnd: null });
  }

  private render(scrollToHighlight: boolean): void {
    const v = this.view!;
    this.titleEl.textContent = v.title;
    this.titleEl.title = v.title;
    replaceChildren(this.pathEl, h("span", { attrs: { dir: "ltr" }, text: v.path }));
    this.pathEl.title = v.path;
    this.pageLabel.textContent = t("viewer.pageOf", { page: v.page, pages: v.page_count });
    this.changedWarning.hidden = !v.changed_since_indexed;
    this.setNavDisabled(false);
    if (v.kind === "pdf") this.renderPdf(scrollToHighlight);
    else this.renderText(scrollToHighlight);
  }

  // ------------------------------------------------------------ pdf

  private renderPdf(scrollToHighlight: boolean): void {
    const v = this.view!;
    if (this.objectUrl) URL.revokeObjectURL(this.objectUrl);
    this.objectUrl = null;
    this.img = h("img", {
      class: "viewer-image",
      testid: "viewer-image",
      attrs: { alt: t("common.titlePage", { title: v.title, page: v.page }), draggable: "false" },
    });
    const layer = h("div", { class: "highlight-layer", attrs: { "aria-hidden": "true" } });
    for (const r of v.highlights) {
      const d = h("div", { class: "highlight", testid: "highlight" });
      d.style.left = `${clampPct(r.x)}%`;
      d.style.top = `${clampPct(r.y)}%`;
      d.style.width = `${clampPct(r.w)}%`;
      d.style.height = `${clampPct(r.h)}%`;
      layer.appendChild(d);
    }
    for (const r of v.focus ?? []) {
      const d = h("div", { class: "highlight focus", testid: "highlight-focus" });
      d.style.left = `${clampPct(r.x)}%`;
      d.style.top = `${clampPct(r.y)}%`;
      d.style.width = `${clampPct(r.w)}%`;
      d.style.height = `${clampPct(r.h)}%`;
      layer.appendChild(d);
    }
    this.pageBox = h("div", { class: "page-box loading" }, this.img, layer, h("span", { class: "spinner page-spinner" }));
    replaceChildren(this.body, h("div", { class: "page-wrap" }, this.pageBox));
    this.layoutPdf(true);
    if (scrollToHighlight) this.scrollToFirstHighlight();
    else this.body.scrollTop = 0;
  }

  private naturalWidth(): number {
    const v = this.view!;
    return (v.width_pt > 0 ? v.width_pt : 612) * PT_TO_CSS;
  }

  private fitWidth(): number {
    return Math.max(200, this.body.clientWidth - 48);
  }

  private effectiveScale(): number {
    if (!this.view) return 1;
    if (this.view.kind === "text") return this.textScale;
    return this.zoom === "fit" ? this.fitWidth() / this.naturalWidth() : this.zoom;
  }

  /** Sizes the page box for the current zoom and (re)requests the image. */
  private layoutPdf(immediate: boolean): void {
    const v = this.view;
    if (!v || !this.pageBox) return;
    const width = Math.round(this.naturalWidth() * this.effectiveScale());
    const ratio = v.height_pt > 0 && v.width_pt > 0 ? v.height_pt / v.width_pt : 11 / 8.5;
    this.pageBox.style.width = `${width}px`;
    this.pageBox.style.height = `${Math.round(width * ratio)}px`;
    this.updateZoomLabel();
    const px = Math.min(MAX_IMAGE_PX, Math.round(width * (window.devicePixelRatio || 1)));
    window.clearTimeout(this.imgTimer);
    if (px === this.loadedPx) return;
    if (immediate) void this.fetchImage(px);
    else this.imgTimer = window.setTimeout(() => void this.fetchImage(px), 150);
  }

  private async fetchImage(px: number): Promise<void> {
    const v = this.view;
    if (!v || !this.img) return;
    const mySeq = ++this.imgSeq;
    const img = this.img;
    this.pageBox?.classList.add("loading");
    try {
      const blob = await api.pageImage(v.doc_id, v.page, px);
      if (mySeq !== this.imgSeq || img !== this.img) return;
      const url = URL.createObjectURL(blob);
      const old = this.objectUrl;
      this.objectUrl = url;
      this.loadedPx = px;
      img.onload = () => {
        if (old && old !== url) URL.revokeObjectURL(old);
        if (img === this.img) this.pageBox?.classList.remove("loading");
      };
      img.onerror = () => this.pageBox?.classList.remove("loading");
      img.src = url;
    } catch (e) {
      if (mySeq !== this.imgSeq) return;
      this.pageBox?.classList.remove("loading");
      this.pageBox?.classList.add("failed");
      toastError(e, t("viewer.renderFailed"));
    }
  }

  private scrollToFirstHighlight(): void {
    window.requestAnimationFrame(() => {
      const first = this.body.querySelector<HTMLElement>('[data-testid="highlight"]');
      if (first) first.scrollIntoView({ block: "center", inline: "nearest" });
      else this.body.scrollTop = 0;
    });
  }

  // ------------------------------------------------------------ text

  private renderText(scrollToHighlight: boolean): void {
    const v = this.view!;
    if (this.objectUrl) {
      URL.revokeObjectURL(this.objectUrl);
      this.objectUrl = null;
    }
    this.img = null;
    this.pageBox = null;
    const text = v.text ?? "";
    const pre = h("pre", { class: "viewer-text" });
    const parts = markByteRanges(text, v.highlight_start, v.highlight_end, v.focus_ranges ?? []);
    if (parts) {
      let mark: HTMLElement | null = null;
      for (const p of parts) {
        const piece: Node | string = p.focus ? h("span", { class: "focus-text", testid: "highlight-focus", text: p.text }) : p.text;
        if (!p.inPassage) {
          mark = null;
          pre.append(piece);
          continue;
        }
        if (!mark) {
          mark = h("mark", { class: "highlight-text", testid: "highlight" });
          pre.append(mark);
        }
        mark.append(piece);
      }
    } else {
      pre.textContent = text || t("viewer.noText");
    }
    pre.style.fontSize = `${(14 * this.textScale).toFixed(1)}px`;
    replaceChildren(this.body, h("div", { class: "text-wrap" }, pre));
    this.updateZoomLabel();
    if (scrollToHighlight && parts) this.scrollToFirstHighlight();
    else this.body.scrollTop = 0;
  }

  // ------------------------------------------------------------ zoom

  private updateZoomLabel(): void {
    const s = this.effectiveScale();
    const fit = this.view?.kind === "pdf" && this.zoom === "fit";
    this.zoomLabel.textContent = `${Math.round(s * 100)}%${fit ? ` · ${t("viewer.fitShort")}` : ""}`;
    this.fitBtn.classList.toggle("active", fit);
    this.zoomOutBtn.disabled = s <= ZOOM_LEVELS[0] + 0.001;
    this.zoomInBtn.disabled = s >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1] - 0.001;
  }

  private zoomStep(dir: 1 | -1): void {
    const cur = this.effectiveScale();
    const next =
      dir > 0
        ? ZOOM_LEVELS.find((z) => z > cur + 0.01) ?? ZOOM_LEVELS[ZOOM_LEVELS.length - 1]
        : [...ZOOM_LEVELS].reverse().find((z) => z < cur - 0.01) ?? ZOOM_LEVELS[0];
    this.setZoom(next);
  }

  private setZoom(z: number | "fit"): void {
    const v = this.view;
    if (!v) return;
    const frac = this.body.scrollHeight > 0 ? this.body.scrollTop / this.body.scrollHeight : 0;
    if (v.kind === "text") {
      this.textScale = z === "fit" ? 1 : z;
      const pre = this.body.querySelector<HTMLElement>(".viewer-text");
      if (pre) pre.style.fontSize = `${(14 * this.textScale).toFixed(1)}px`;
      this.updateZoomLabel();
    } else {
      this.zoom = z;
      this.layoutPdf(false);
    }
    this.body.scrollTop = frac * this.body.scrollHeight;
  }
}

function clampPct(f: number): string {
  const v = Math.max(0, Math.min(1, Number.isFinite(f) ? f : 0));
  return (v * 100).toFixed(3);
}

let viewer: Viewer | null = null;

export function openViewer(t: ViewerTarget): void {
  if (!viewer) viewer = new Viewer();
  viewer.open(t);
}
