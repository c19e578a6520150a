// Safe Markdown subset renderer.
//
//   parse (string → plain tree of {tag, text, children})  — pure, unit-tested in node
//   mount (tree → DOM nodes via createElement/textContent) — the only DOM step
//
// Supported: paragraphs (single newlines become <br>), **bold**/__bold__,
// *italic*/_italic_, `code`, fenced code (``` / ~~~), bullet and numbered lists
// (nested by indentation), headings, block quotes, horizontal rules.
//
// Safety rules:
// - links render as plain text "text (url)" — never an <a>, never navigated;
// - images render as the text "[image: alt]" (in the page's language) — never an <img>, never fetched;
// - raw HTML is not interpreted: it ends up as literal text;
// - mount() only creates tags from a fixed allow-list and sets no attributes
//   other than `start` on <ol>.

import { t } from "./i18n";

export type MdNode =
  | { tag: "#text"; text: string }
  | { tag: BlockTag | InlineTag; children: MdNode[]; start?: number; lang?: string };

export type BlockTag = "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "ul" | "ol" | "li" | "pre" | "blockquote" | "hr";
export type InlineTag = "strong" | "em" | "code" | "br" | "span";

export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "blockquote", "hr",
  "strong", "em", "code", "br", "span",
]);

const text = (s: string): MdNode => ({ tag: "#text", text: s });
const el = (tag: BlockTag | InlineTag, children: MdNode[] = []): MdNode => ({ tag, children });

// ------------------------------------------------------------------ inline

const PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;

/** Parses inline Markdown into a flat-ish list of nodes. */
export function parseInline(src: string): MdNode[] {
  const out: MdNode[] = [];
  let buf = "";
  const flush = () => {
    if (buf) {
      const last = out[out.length - 1];
      if (last && last.tag === "#text") last.text += buf;
      else out.push(text(buf));
      buf = "";
    }
  };
  const push = (...nodes: MdNode[]) => {
    flush();
    for (const n of nodes) {
      const last = out[out.length - 1];
      if (n.tag === "#text" && last && last.tag === "#text") last.text += n.text;
      else out.push(n);
    }
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i];

    // backslash escapes
    if (c === "\\" && i + 1 < src.length && PUNCT.test(src[i + 1])) {
      buf += src[i + 1];
      i += 2;
      continue;
    }

    // code spans
    if (c === "`") {
      let n = 0;
      while (src[i + n] === "`") n++;
      const fence = "`".repeat(n);
      let j = src.indexOf(fence, i + n);
      while (j !== -1 && src[j + n] === "`") {
        // closing run must have exactly n backticks
        let k = j;
        while (src[k] === "`") k++;
        j = src.indexOf(fence, k);
      }
      if (j !== -1) {
        let code = src.slice(i + n, j).replace(/\n/g, " ");
        if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim()) code = code.slice(1, -1);
        push(el("code", [text(code)]));
        i = j + n;
        continue;
      }
      buf += fence;
      i += n;
      continue;
    }

    // images: ![alt](url) → "[image: alt]"
    if (c === "!" && src[i + 1] === "[") {
      const link = parseLinkAt(src, i + 1);
      if (link) {
        push(text(t("markdown.image", { alt: plainText(parseInline(link.label)) || link.url })));
        i = link.end;
        continue;
      }
    }

    // links: [text](url) → "text (url)"
    if (c === "[") {
      const link = parseLinkAt(src, i);
      if (link) {
        const inner = parseInline(link.label);
        const label = plainText(inner);
        if (!label || label === link.url) push(text(link.url));
        else push(el("span", [...inner, text(` (${link.url})`)]));
        i = link.end;
        continue;
      }
    }

    // autolinks <http://…> and any raw HTML: left as literal text
    // (nothing to do: falls through to the plain character case).

    // strong / emphasis
    if (c === "*" || c === "_") {
      let n = 0;
      while (src[i + n] === c) n++;
      const prev = i > 0 ? src[i - 1] : " ";
      const next = src[i + n] ?? " ";
      const canOpen = !/\s/.test(next) && (c === "*" || !/[\p{L}\p{N}]/u.test(prev));
      if (canOpen) {
        const tryDelim = (len: number): boolean => {
          const close = findCloser(src, i + len, c, len);
          if (close === -1) return false;
          const inner = src.slice(i + len, close);
          if (!inner.trim()) return false;
          const kids = parseInline(inner);
          push(len === 2 ? el("strong", kids) : len === 3 ? el("strong", [el("em", kids)]) : el("em", kids));
          i = close + len;
          return true;
        };
        if (n >= 3 && tryDelim(3)) continue;
        if (n >= 2 && tryDelim(2)) continue;
        if (tryDelim(1)) continue;
      }
      buf += c.repeat(n);
      i += n;
      continue;
    }

    buf += c;
    i++;
  }
  flush();
  return out;
}

function findCloser(src: string, from: number, ch: string, len: number): number {
  const delim = ch.repeat(len);
  let j = from;
  while (j < src.length) {
    if (src[j] === "\\") {
      j += 2;
      continue;
    }
    if (src[j] === "`") {
      // skip code spans
      let n = 0;
      while (src[j + n] === "`") n++;
      const end = src.indexOf("`".repeat(n), j + n);
      j = end === -1 ? j + n : end + n;
      continue;
    }
    if (src.startsWith(delim, j)) {
      let run = 0;
      while (src[j + run] === ch) run++;
      const prev = src[j - 1] ?? " ";
      const after = src[j + run] ?? " ";
      const rightFlanking = !/\s/.test(prev);
      const okIntraword = ch === "*" || !/[\p{L}\p{N}]/u.test(after);
      // A run of exactly `len` closes; a run of three (`***`) can close a
      // shorter opener with its last `len` characters (e.g. "**a *b***").
      if (rightFlanking && okIntraword && (run === len || (run === 3 && len < 3))) {
        return j + run - len;
      }
      j += run;
      continue;
    }
    j++;
  }
  return -1;
}

/** Parses `[label](url "title")` starting at the `[` at index i. */
function parseLinkAt(src: string, i: number): { label: string; url: string; end: number } | null {
  if (src[i] !== "[") return null;
  let depth = 0;
  let j = i;
  for (; j < src.length; j++) {
    if (src[j] === "\\") {
      j++;
      continue;
    }
    if (src[j] === "[") depth++;
    else if (src[j] === "]") {
      depth--;
      if (depth === 0) break;
    }
  }
  if (j >= src.length || src[j + 1] !== "(") return null;
  const label = src.slice(i + 1, j);
  let k = j + 2;
  let pdepth = 1;
  for (; k < src.length; k++) {
    if (src[k] === "\\") {
      k++;
      continue;
    }
    if (src[k] === "(") pdepth++;
    else if (src[k] === ")") {
      pdepth--;
      if (pdepth === 0) break;
    } else if (src[k] === "\n") return null;
  }
  if (k >= src.length) return null;
  let url = src.slice(j + 2, k).trim();
  const titled = /^(\S+)\s+(".*"|'.*'|\(.*\))$/.exec(url);
  if (titled) url = titled[1];
  if (url.startsWith("<") && url.endsWith(">")) url = url.slice(1, -1);
  return { label, url, end: k + 1 };
}

/** Concatenated text content of a tree. */
export function plainText(nodes: MdNode[]): string {
  let s = "";
  for (const n of nodes) {
    if (n.tag === "#text") s += n.text;
    else if (n.tag === "br") s += "\n";
    else s += plainText(n.children);
  }
  return s;
}

// ------------------------------------------------------------------ blocks

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)?.*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST = /^( *)([-*+]|\d{1,9}[.)])([ \t]+(.*))?$/;
const QUOTE = /^ {0,3}> ?(.*)$/;

function isBlockStart(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || LIST.test(line);
}

/** Parses block-level Markdown into a tree. */
export function parseMarkdown(src: string): MdNode[] {
  const lines = src.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n");
  return parseBlocks(lines, 0);
}

function parseBlocks(lines: string[], depth: number): MdNode[] {
  const out: MdNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${marker[0]}{${marker.length},}\\s*$`).test(lines[i])) {
        body.push(lines[i]);
        i++;
      }
      i++; // closing fence (or EOF)
      const node: MdNode = { tag: "pre", children: [el("code", [text(body.join("\n"))])] };
      if (fence[2]) node.lang = fence[2];
      out.push(node);
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length as 1 | 2 | 3 | 4 | 5 | 6;
      out.push(el(`h${level}`, parseInline((heading[2] ?? "").trim())));
      i++;
      continue;
    }

    if (HR.test(line)) {
      out.push(el("hr"));
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && lines[i].trim()) {
        const m = QUOTE.exec(lines[i]);
        body.push(m ? m[1] : lines[i]);
        i++;
      }
      out.push(el("blockquote", depth > 8 ? [el("p", parseInline(body.join("\n")))] : parseBlocks(body, depth + 1)));
      continue;
    }

    const list = LIST.exec(line);
    if (list) {
      const [node, next] = parseList(lines, i, depth);
      out.push(node);
      i = next;
      continue;
    }

    // paragraph
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() && (para.length === 0 || !isBlockStart(lines[i]))) {
      para.push(lines[i].trim());
      i++;
    }
    out.push(el("p", inlineWithBreaks(para)));
  }
  return out;
}

function inlineWithBreaks(lines: string[]): MdNode[] {
  const out: MdNode[] = [];
  lines.forEach((l, idx) => {
    if (idx > 0) out.push(el("br"));
    out.push(...parseInline(l));
  });
  return out;
}

function parseList(lines: string[], start: number, depth: number): [MdNode, number] {
  const first = LIST.exec(lines[start])!;
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list: MdNode = { tag: ordered ? "ol" : "ul", children: [] };
  if (ordered) {
    const n = parseInt(first[2], 10);
    if (n !== 1) list.start = n;
  }
  let i = start;
  let loose = false;
  while (i < lines.length) {
    const m = LIST.exec(lines[i]);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
    const contentIndent = indent + m[2].length + 1;
    const body: string[] = [m[4] ?? ""];
    i++;
    let sawBlank = false;
    while (i < lines.length) {
      const l = lines[i];
      if (!l.trim()) {
        sawBlank = true;
        body.push("");
        i++;
        continue;
      }
      const lead = l.length - l.trimStart().length;
      const sub = LIST.exec(l);
      if (lead >= contentIndent || (lead > indent && sub)) {
        body.push(l.slice(Math.min(lead, contentIndent)));
        sawBlank = false;
        i++;
        continue;
      }
      if (!sawBlank && !isBlockStart(l)) {
        body.push(l.trim()); // lazy continuation
        i++;
        continue;
      }
      break;
    }
    // trailing blanks belong between items
    while (body.length && !body[body.length - 1].trim()) {
      body.pop();
      if (i < lines.length && LIST.test(lines[i])) loose = true;
    }
    const kids = depth > 8 ? [el("p", parseInline(body.join(" ")))] : parseBlocks(body, depth + 1);
    list.children.push(el("li", kids));
  }
  // tight lists: unwrap single paragraphs inside items
  if (!loose) {
    for (const li of list.children) {
      if (li.tag === "#text") continue;
      li.children = li.children.flatMap((c) => (c.tag === "p" ? c.children : [c]));
    }
  }
  return [list, i];
}

// ------------------------------------------------------------------ mount

/** Minimal document surface used by mount (so it can be tested without a browser). */
export interface DocLike {
  createElement(tag: string): ElementLike;
  createTextNode(text: string): unknown;
  createDocumentFragment(): ElementLike;
}
export interface ElementLike {
  appendChild(child: never): unknown;
  setAttribute(name: string, value: string): void;
  className: string;
}

/** Turns a tree into DOM nodes (createElement/createTextNode only). */
export function mount<F = DocumentFragment>(nodes: MdNode[], doc: DocLike = document as unknown as DocLike): F {
  const frag = doc.createDocumentFragment();
  for (const n of nodes) frag.appendChild(mountNode(n, doc) as never);
  return frag as unknown as F;
}

function mountNode(n: MdNode, doc: DocLike): unknown {
  if (n.tag === "#text") return doc.createTextNode(n.text);
  if (!ALLOWED_TAGS.has(n.tag)) return doc.createTextNode(plainText([n]));
  const e = doc.createElement(n.tag);
  if (n.tag === "ol" && n.start !== undefined) e.setAttribute("start", String(n.start));
  if (n.tag === "span") e.className = "md-link";
  for (const c of n.children) e.appendChild(mountNode(c, doc) as never);
  return e;
}

/** Renders block Markdown to a DocumentFragment. */
export function renderMarkdown(src: string): DocumentFragment {
  return mount(parseMarkdown(src));
}

/** Renders inline Markdown (one sentence) to a DocumentFragment. */
export function renderInline(src: string): DocumentFragment {
  return mount(parseInline(src));
}
