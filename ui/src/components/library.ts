// Library section of the sidebar: folders with live indexing status.

import * as api from "../api";
import { button, h, icon, replaceChildren, withBusy } from "../dom";
import { basename, folderFraction, folderProgressText, formatAgo } from "../format";
import { formatNumber, t, tn } from "../i18n";
import { libraryNoticeText } from "../notices";
import { bus, setLibrary, state } from "../store";
import type { FolderStatus, LibraryStatus } from "../types";
import { confirmDialog } from "./modal";
import { toast, toastError } from "./toast";

/** One folder row; updated in place so clicks are never lost to re-renders. */
class FolderRow {
  readonly el: HTMLElement;
  private name = h("span", { class: "folder-name" });
  private badge = h("span", { class: "badge" });
  private progress = h("div", { class: "progress", testid: "folder-progress", attrs: { role: "progressbar" } });
  private bar = h("div", { class: "progress-bar" });
  private detail = h("div", { class: "folder-detail" });
  private failedBtn = h("button", { class: "link-button failed-count", testid: "folder-failed-count", attrs: { type: "button" } });
  private failedList = h("ul", { class: "failed-list" });
  private errorLine = h("div", { class: "folder-error" });
  private expanded = false;
  private status!: FolderStatus;

  constructor(status: FolderStatus) {
    this.progress.appendChild(this.bar);
    const remove = button("", () => void this.remove(remove), {
      class: "icon-button folder-remove",
      testid: "remove-folder-button",
      title: t("folder.removeTitle"),
      attrs: { "aria-label": t("folder.remove") },
    });
    remove.appendChild(icon("trash", 14));
    this.failedBtn.addEventListener("click", () => {
      this.expanded = !this.expanded;
      this.renderFailed();
    });
    this.el = h(
      "li",
      { class: "folder-item", testid: "folder-item" },
      h("div", { class: "folder-head" }, icon("folder", 15), this.name, this.badge, remove),
      this.progress,
      this.detail,
      this.errorLine,
      h("div", { class: "folder-failed" }, this.failedBtn),
      this.failedList,
    );
    this.update(status);
  }

  update(s: FolderStatus): void {
    this.status = s;
    this.el.dataset.path = s.path;
    this.el.dataset.state = s.state;
    this.el.title = s.path;
    this.name.textContent = basename(s.path);
    this.badge.textContent = t(`folder.state.${s.state}`);
    this.badge.className = `badge state-${s.state}`;

    const running = s.state === "indexing" || s.state === "embedding";
    this.progress.hidden = !running;
    if (running) {
      const frac = folderFraction(s);
      this.progress.classList.toggle("indeterminate", frac === null);
      this.bar.style.width = frac === null ? "30%" : `${(frac * 100).toFixed(1)}%`;
      this.progress.setAttribute("aria-valuemin", "0");
      this.progress.setAttribute("aria-valuemax", "100");
      if (frac !== null) this.progress.setAttribute("aria-valuenow", String(Math.round(frac * 100)));
      else this.progress.removeAttribute("aria-valuenow");
      // a scanned file takes seconds a page: say which one is being read
      this.detail.textContent = s.ocr
        ? `${folderProgressText(s)} · ${t("folder.ocr", { file: basename(s.ocr.path), page: s.ocr.page, pages: s.ocr.pages })}`
        : folderProgressText(s);
    } else if (s.state === "up_to_date") {
      const when = s.last_indexed ? ` · ${t("folder.indexedAgo", { ago: formatAgo(s.last_indexed) })}` : "";
      this.detail.textContent = `${tn("count.files", s.files_total)} · ${tn("count.pages", s.pages)}${when}`;
    } else if (s.state === "queued") {
      this.detail.textContent = t("folder.waiting");
    } else if (s.state === "paused") {
      this.detail.textContent = t("folder.pausedAt", { done: s.files_done, total: s.files_total });
    } else if (s.state === "stopped") {
      this.detail.textContent = t("folder.stoppedAt", { done: s.files_done, total: s.files_total });
    } else if (s.state === "unavailable") {
      this.detail.textContent = t("folder.unreachable");
    } else {
      this.detail.textContent = `${tn("count.files", s.files_total)} · ${tn("count.pages", s.pages)}`;
    }

    this.errorLine.textContent = s.error ?? "";
    this.errorLine.hidden = !s.error;

    const n = s.failed.length;
    this.failedBtn.parentElement!.hidden = n === 0;
    this.failedBtn.textContent = `${tn("folder.failed", n)} ${this.expanded ? "▴" : "▾"}`;
    this.failedBtn.setAttribute("aria-expanded", String(this.expanded));
    if (n === 0) this.expanded = false;
    this.renderFailed();
  }

  private renderFailed(): void {
    const n = this.status.failed.length;
    this.failedBtn.textContent = `${tn("folder.failed", n)} ${this.expanded ? "▴" : "▾"}`;
    this.failedBtn.setAttribute("aria-expanded", String(this.expanded));
    this.failedList.hidden = !this.expanded;
    if (!this.expanded) return;
    replaceChildren(
      this.failedList,
      this.status.failed.map((f) =>
        h(
          "li",
          { class: "failed-file", testid: "failed-file", title: f.path },
          h("span", { class: "failed-path", text: f.path }),
          h("span", { class: "failed-reason", text: f.reason }),
        ),
      ),
    );
  }

  private async remove(btn: HTMLButtonElement): Promise<void> {
    const path = this.status.path;
    const ok = await confirmDialog(
      t("folder.removeConfirmTitle"),
      `${t("folder.removeConfirmText", { name: basename(path) })}\n\n${path}`,
      t("folder.removeConfirmOk"),
      true,
    );
    if (!ok) return;
    try {
      await withBusy(btn, () => api.removeFolder(this.status.id));
      toast(t("folder.removed", { name: basename(path) }), "success");
      void refreshLibrary();
    } catch (e) {
      toastError(e, t("folder.removeFailed"));
    }
  }
}

export async function refreshLibrary(): Promise<void> {
  try {
    setLibrary(await api.libraryStatus());
  } catch (e) {
    toastError(e, t("library.statusFailed"));
  }
}

export async function addFolder(btn: HTMLButtonElement | null): Promise<void> {
  try {
    const added = await withBusy(btn, () => api.addFolderDialog());
    if (added.length) {
      toast(added.length === 1 ? t("library.addingFolder", { name: basename(added[0]) }) : t("library.addingFolders", { n: added.length }), "success");
      void refreshLibrary();
    }
  } catch (e) {
    toastError(e, t("library.addFolderFailed"));
  }
}

/** What the parser's sandbox lacks here, and (until the user chooses) the way to go on. */
function createSandboxNotice(): { el: HTMLElement; render: (s: LibraryStatus["sandbox"]) => void } {
  const layers = h("ul", { class: "sandbox-layers" });
  const state = h("div", { class: "sandbox-state" });
  const accept = button(
    t("library.sandboxAccept"),
    async (e) => {
      try {
        await withBusy(e.currentTarget as HTMLButtonElement, api.acceptWeakSandbox);
        void refreshLibrary();
      } catch (err) {
        toastError(err, t("library.sandboxAcceptFailed"));
      }
    },
    { class: "btn small", testid: "accept-weak-sandbox" },
  );
  const el = h(
    "div",
    { class: "library-error sandbox-notice", testid: "sandbox-notice", attrs: { role: "alert" } },
    icon("alert", 16),
    h("div", {}, h("strong", { text: t("library.sandboxIncomplete") }), layers, state, accept),
  );
  el.hidden = true;
  const render = (s: LibraryStatus["sandbox"]) => {
    const missing = s?.missing ?? [];
    el.hidden = missing.length === 0;
    layers.replaceChildren(...missing.map((m) => h("li", { text: t(`sandbox.${m}`) })));
    state.textContent = s?.accepted ? t("library.sandboxAccepted") : t("library.sandboxWaiting");
    accept.hidden = !!s?.accepted;
    el.dataset.accepted = String(!!s?.accepted);
  };
  return { el, render };
}

export function createLibraryPanel(): HTMLElement {
  const rows = new Map<string, FolderRow>();
  const list = h("ul", { class: "folder-list" });
  const summary = h("div", { class: "library-summary", testid: "library-summary" });
  // the library as a whole could not start (index unreadable, models missing…)
  const errorText = h("span", { class: "library-error-text" });
  const errorBox = h(
    "div",
    { class: "library-error", testid: "library-error", attrs: { role: "alert" } },
    icon("alert", 16),
    errorText,
  );
  errorBox.hidden = true;
  // something to know that is not an error ("starting…", a rescan)
  const notice = h("div", { class: "library-notice", testid: "library-notice", attrs: { role: "status" } });
  notice.hidden = true;
  const sandbox = createSandboxNotice();
  const empty = h("div", { class: "empty-hint", text: t("library.empty") });
  const loading = h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("library.loading")}`);

  const addBtn = button("", (e) => void addFolder(e.currentTarget as HTMLButtonElement), {
    class: "btn small",
    testid: "add-folder-button",
    title: t("library.addFolderTitle"),
  });
  addBtn.append(icon("plus", 14), t("library.addFolder"));

  const pauseBtn = button("", (e) => void act(e.currentTarget as HTMLButtonElement, api.pauseIndexing, t("library.pauseFailed")), {
    class: "btn small",
    testid: "pause-button",
    title: t("library.pauseTitle"),
  });
  pauseBtn.append(icon("pause", 14), t("library.pause"));
  const resumeBtn = button("", (e) => void act(e.currentTarget as HTMLButtonElement, api.resumeIndexing, t("library.resumeFailed")), {
    class: "btn small",
    testid: "resume-button",
    title: t("library.resumeTitle"),
  });
  resumeBtn.append(icon("play", 14), t("library.resume"));
  const cancelBtn = button(
    "",
    async (e) => {
      const btn = e.currentTarget as HTMLButtonElement;
      const ok = await confirmDialog(
        t("library.cancelConfirmTitle"),
        t("library.cancelConfirmText"),
        t("library.cancelConfirmOk"),
        true,
      );
      if (ok) await act(btn, api.cancelIndexing, t("library.cancelFailed"));
    },
    { class: "btn small", testid: "cancel-button", title: t("library.cancelTitle") },
  );
  cancelBtn.append(icon("stop", 14), t("library.cancel"));
  const controls = h("div", { class: "library-controls" }, pauseBtn, resumeBtn, cancelBtn);

  async function act(btn: HTMLButtonElement, fn: () => Promise<unknown>, what: string) {
    try {
      await withBusy(btn, fn);
      void refreshLibrary();
    } catch (err) {
      toastError(err, what);
    }
  }

  const render = (s: LibraryStatus | null) => {
    loading.hidden = s !== null;
    if (!s) return;
    errorBox.hidden = !s.error;
    errorText.textContent = s.error ?? "";
    notice.hidden = !s.notice;
    notice.textContent = s.notice ? libraryNoticeText(s.notice) : "";
    sandbox.render(s.sandbox);
    empty.hidden = s.folders.length > 0 || !!s.error;
    const seen = new Set<string>();
    s.folders.forEach((f, i) => {
      seen.add(f.path);
      let row = rows.get(f.path);
      if (!row) {
        row = new FolderRow(f);
        rows.set(f.path, row);
      } else {
        row.update(f);
      }
      if (list.children[i] !== row.el) list.insertBefore(row.el, list.children[i] ?? null);
    });
    for (const [path, row] of rows) {
      if (!seen.has(path)) {
        row.el.remove();
        rows.delete(path);
      }
    }
    const parts = [tn("count.documents", s.documents), tn("count.passages", s.chunks)];
    if (s.pending_vectors > 0) parts.push(t("library.vectorsPending", { n: formatNumber(s.pending_vectors) }));
    summary.textContent = parts.join(" · ");
    summary.dataset.documents = String(s.documents);
    summary.hidden = s.folders.length === 0;

    const anyRunning = s.busy || s.folders.some((f) => ["queued", "indexing", "embedding"].includes(f.state));
    pauseBtn.hidden = s.paused || !anyRunning;
    resumeBtn.hidden = !s.paused;
    cancelBtn.hidden = !(anyRunning || s.paused);
    controls.hidden = pauseBtn.hidden && resumeBtn.hidden && cancelBtn.hidden;
  };

  bus.on("library", render);
  render(state.library);

  return h(
    "section",
    { class: "sidebar-section library", attrs: { "aria-label": t("library.title") } },
    h("div", { class: "section-head" }, h("h2", { text: t("library.title") }), addBtn),
    errorBox,
    sandbox.el,
    notice,
    summary,
    controls,
    loading,
    empty,
    list,
  );
}
