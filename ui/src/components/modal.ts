// Modal dialogs and an Esc stack shared by dialogs, the viewer and popovers.

import { button, h } from "../dom";
import { t } from "../i18n";

interface Layer {
  close: () => void;
}
const layers: Layer[] = [];

/** Registers something Esc should close; returns the unregister function. */
export function pushLayer(close: () => void): () => void {
  const layer = { close };
  layers.push(layer);
  return () => {
    const i = layers.indexOf(layer);
    if (i >= 0) layers.splice(i, 1);
  };
}

/** Closes the topmost layer; returns false when there was none. */
export function closeTopLayer(): boolean {
  const top = layers[layers.length - 1];
  if (!top) return false;
  top.close();
  return true;
}

export function hasLayers(): boolean {
  return layers.length > 0;
}

export interface ModalHandle {
  overlay: HTMLElement;
  dialog: HTMLElement;
  close: () => void;
}

export interface ModalOptions {
  testid?: string;
  label: string;
  className?: string;
  onClose?: () => void;
  /** close when the backdrop is clicked (default true) */
  backdropCloses?: boolean;
}

/** Opens a modal with the given content. Focus is restored on close. */
export function openModal(content: (Node | null)[], opts: ModalOptions): ModalHandle {
  const previouslyFocused = document.activeElement as HTMLElement | null;
  const dialog = h(
    "div",
    {
      class: `dialog ${opts.className ?? ""}`,
      testid: opts.testid,
      attrs: { role: "dialog", "aria-modal": "true", "aria-label": opts.label, tabindex: "-1" },
    },
    ...content,
  );
  const overlay = h("div", { class: "overlay" }, dialog);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unregister();
    overlay.classList.add("leaving");
    window.setTimeout(() => overlay.remove(), 120);
    opts.onClose?.();
    if (previouslyFocused && document.contains(previouslyFocused)) previouslyFocused.focus();
  };
  const unregister = pushLayer(close);
  if (opts.backdropCloses !== false) {
    overlay.addEventListener("mousedown", (e) => {
      if (e.target === overlay) close();
    });
  }
  // keep Tab inside the dialog
  dialog.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const focusables = Array.from(
      dialog.querySelectorAll<HTMLElement>(
        'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex="0"]',
      ),
    ).filter((el) => el.offsetParent !== null);
    if (!focusables.length) return;
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });
  document.body.appendChild(overlay);
  window.requestAnimationFrame(() => {
    const auto = dialog.querySelector<HTMLElement>("[autofocus]") ?? dialog;
    auto.focus();
  });
  return { overlay, dialog, close };
}

/** A confirmation dialog; resolves true when confirmed. */
export function confirmDialog(
  title: string,
  message: string,
  okLabel = t("common.ok"),
  danger = false,
): Promise<boolean> {
  return new Promise((resolve) => {
    let result = false;
    const ok = button(okLabel, () => {
      result = true;
      handle.close();
    }, { class: danger ? "btn danger" : "btn primary", testid: "confirm-ok", attrs: { autofocus: true } });
    const cancel = button(t("common.cancel"), () => handle.close(), { class: "btn", testid: "confirm-cancel" });
    const handle = openModal(
      [
        h("h2", { class: "dialog-title", text: title }),
        h("p", { class: "dialog-message", text: message }),
        h("div", { class: "dialog-actions" }, cancel, ok),
      ],
      { label: title, className: "confirm", testid: "confirm-dialog", onClose: () => resolve(result) },
    );
  });
}
