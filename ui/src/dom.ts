// Tiny DOM helpers. Everything is built with createElement/textContent;
// there is deliberately no way to pass HTML strings.

type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  testid?: string;
  title?: string;
  attrs?: Record<string, string | number | boolean | null | undefined>;
  data?: Record<string, string | number | null | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.class) el.className = props.class;
    if (props.testid) el.setAttribute("data-testid", props.testid);
    if (props.title) el.title = props.title;
    if (props.attrs) {
      for (const [k, v] of Object.entries(props.attrs)) {
        if (v === null || v === undefined || v === false) continue;
        el.setAttribute(k, v === true ? "" : String(v));
      }
    }
    if (props.data) {
      for (const [k, v] of Object.entries(props.data)) {
        if (v !== null && v !== undefined) el.setAttribute(`data-${k}`, String(v));
      }
    }
    if (props.on) {
      for (const [k, fn] of Object.entries(props.on)) {
        if (fn) el.addEventListener(k, fn as EventListener);
      }
    }
    if (props.text !== undefined) el.textContent = props.text;
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function replaceChildren(el: Node, ...children: (Child | Child[])[]): void {
  clear(el);
  append(el, children);
}

export function button(
  label: string,
  onClick: (ev: MouseEvent) => void,
  props: Props = {},
): HTMLButtonElement {
  const b = h("button", { ...props, attrs: { type: "button", ...(props.attrs ?? {}) }, text: label });
  b.addEventListener("click", onClick);
  return b;
}

export function spinner(small = true): HTMLSpanElement {
  return h("span", { class: small ? "spinner small" : "spinner", attrs: { "aria-hidden": "true" } });
}

/**
 * Runs an async action while showing a spinner in (and disabling) a button,
 * so the window never looks frozen. Returns the action's result.
 */
export async function withBusy<T>(btn: HTMLButtonElement | null, action: () => Promise<T>): Promise<T> {
  if (!btn) return action();
  const wasDisabled = btn.disabled;
  btn.disabled = true;
  btn.classList.add("busy");
  btn.setAttribute("aria-busy", "true");
  const sp = spinner();
  btn.prepend(sp);
  try {
    return await action();
  } finally {
    sp.remove();
    btn.classList.remove("busy");
    btn.removeAttribute("aria-busy");
    btn.disabled = wasDisabled;
  }
}

export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}

/** Small SVG icons made with createElementNS (no markup strings). */
export function icon(name: keyof typeof ICONS, size = 16): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("icon");
  for (const d of ICONS[name]) {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    svg.appendChild(p);
  }
  return svg;
}

const ICONS = {
  plus: ["M12 5v14", "M5 12h14"],
  folder: ["M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"],
  pause: ["M8 5v14", "M16 5v14"],
  play: ["M7 5l12 7-12 7z"],
  stop: ["M6 6h12v12H6z"],
  x: ["M6 6l12 12", "M18 6L6 18"],
  trash: ["M4 7h16", "M10 11v6", "M14 11v6", "M6 7l1 13h10l1-13", "M9 7V4h6v3"],
  pencil: ["M4 20h4L19 9l-4-4L4 16z"],
  send: ["M5 12h14", "M13 6l6 6-6 6"],
  gear: [
    "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
    "M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z",
  ],
  copy: ["M9 9h11v11H9z", "M5 15H4V4h11v1"],
  download: ["M12 4v12", "M7 11l5 5 5-5", "M5 20h14"],
  layers: ["M12 3l9 5-9 5-9-5z", "M3 13l9 5 9-5", "M3 17l9 5 9-5"],
  flag: ["M5 21V4", "M5 4h11l-2 4 2 4H5"],
  chevronLeft: ["M15 6l-6 6 6 6"],
  chevronRight: ["M9 6l6 6-6 6"],
  chevronDown: ["M6 9l6 6 6-6"],
  external: ["M14 4h6v6", "M20 4l-9 9", "M18 14v6H4V6h6"],
  minus: ["M5 12h14"],
  fit: ["M4 9V4h5", "M20 9V4h-5", "M4 15v5h5", "M20 15v5h-5"],
  sidebar: ["M4 4h16v16H4z", "M15 4v16"],
  search: ["M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z", "M20 20l-4-4"],
  table: ["M4 5h16v14H4z", "M4 10h16", "M4 15h16", "M10 5v14"],
  alert: ["M12 3l10 18H2z", "M12 10v4", "M12 17v.5"],
  chat: ["M4 5h16v11H9l-5 4z"],
  refresh: ["M20 11a8 8 0 1 0-2.3 5.7", "M20 4v7h-7"],
} as const;
