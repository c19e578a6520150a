// One shared custom tooltip element (for citation quotes). Content is text only.

import { h, replaceChildren } from "../dom";

let tip: HTMLElement | null = null;
let owner: HTMLElement | null = null;

function el(): HTMLElement {
  if (!tip) {
    tip = h("div", { class: "tooltip", attrs: { role: "tooltip", id: "pw-tooltip" } });
    tip.hidden = true;
    document.body.appendChild(tip);
    window.addEventListener("scroll", hideTooltip, true);
    window.addEventListener("resize", hideTooltip);
  }
  return tip;
}

export function showTooltip(anchor: HTMLElement, heading: string, body: string): void {
  const t = el();
  owner = anchor;
  replaceChildren(
    t,
    h("div", { class: "tooltip-heading", text: heading }),
    body ? h("blockquote", { class: "tooltip-body", text: body }) : null,
  );
  t.hidden = false;
  anchor.setAttribute("aria-describedby", "pw-tooltip");
  const r = anchor.getBoundingClientRect();
  const tr = t.getBoundingClientRect();
  const margin = 8;
  let left = r.left + r.width / 2 - tr.width / 2;
  left = Math.max(margin, Math.min(left, window.innerWidth - tr.width - margin));
  let top = r.top - tr.height - 8;
  if (top < margin) top = r.bottom + 8;
  t.style.left = `${Math.round(left)}px`;
  t.style.top = `${Math.round(top)}px`;
}

export function hideTooltip(): void {
  if (tip) tip.hidden = true;
  owner?.removeAttribute("aria-describedby");
  owner = null;
}

/** Attaches hover/focus handlers that show a text tooltip. */
export function attachTooltip(anchor: HTMLElement, heading: () => string, body: () => string): void {
  let timer = 0;
  const open = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => showTooltip(anchor, heading(), body()), 250);
  };
  const close = () => {
    window.clearTimeout(timer);
    if (owner === anchor) hideTooltip();
  };
  anchor.addEventListener("mouseenter", open);
  anchor.addEventListener("focus", open);
  anchor.addEventListener("mouseleave", close);
  anchor.addEventListener("blur", close);
  anchor.addEventListener("click", close);
}
