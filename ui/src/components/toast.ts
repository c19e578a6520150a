import { errorText } from "../errors";
import { h, icon } from "../dom";
import { t } from "../i18n";

let container: HTMLElement | null = null;

function root(): HTMLElement {
  if (!container) {
    container = h("div", { class: "toasts", attrs: { "aria-live": "polite", role: "status" } });
    document.body.appendChild(container);
  }
  return container;
}

export type ToastKind = "info" | "success" | "error";

/** Shows a transient message. Errors stay longer and can be dismissed. */
export function toast(message: string, kind: ToastKind = "info", ms?: number): HTMLElement {
  const close = h("button", {
    class: "toast-close icon-button",
    attrs: { type: "button", "aria-label": t("toast.dismiss") },
  }, icon("x", 14));
  const el = h(
    "div",
    { class: `toast toast-${kind}`, testid: "toast", attrs: { role: kind === "error" ? "alert" : "status" } },
    kind === "error" ? icon("alert", 16) : null,
    h("span", { class: "toast-text", text: message }),
    close,
  );
  const remove = () => {
    el.classList.add("leaving");
    window.setTimeout(() => el.remove(), 180);
  };
  close.addEventListener("click", remove);
  root().appendChild(el);
  // keep at most 5 on screen
  while (root().children.length > 5) root().firstElementChild?.remove();
  window.setTimeout(remove, ms ?? (kind === "error" ? 9000 : 4000));
  return el;
}

/** Toast for a rejected promise (shows the error message; see ../errors). */
export function toastError(e: unknown, prefix?: string): void {
  const msg = errorText(e);
  console.error(prefix ?? "error", e);
  toast(prefix ? t("common.errorWithPrefix", { prefix, message: msg }) : msg, "error");
}
