// Pure formatting helpers (unit-tested in node), in the page's language (./i18n).

import { formatNumber, t, tn } from "./i18n";

/** Shortens a title to at most `max` characters, ending with an ellipsis. */
export function shorten(title: string, max = 28): string {
  const t = title.trim().replace(/\s+/g, " ");
  const chars = Array.from(t); // don't cut surrogate pairs
  if (chars.length <= max) return t;
  return chars.slice(0, max - 1).join("").trimEnd() + "…";
}

/** Last path component (folder or file name), handling / and \ separators. */
export function basename(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, "");
  const parts = trimmed.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/** "1h 02m", "3m 05s", "42s" */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "–";
  const s = Math.round(seconds);
  if (s < 60) return t("time.seconds", { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t("time.minutesSeconds", { m, s: String(s % 60).padStart(2, "0") });
  const hrs = Math.floor(m / 60);
  return t("time.hoursMinutes", { h: hrs, m: String(m % 60).padStart(2, "0") });
}

export function formatRate(rate: number | null): string | null {
  if (rate === null || !Number.isFinite(rate)) return null;
  return t("progress.filesPerSecond", { rate: rate >= 10 ? Math.round(rate) : rate.toFixed(1) });
}

/** Relative time for unix seconds, e.g. "5 min ago", falling back to a date. */
export function formatAgo(unixSecs: number, now = Date.now() / 1000): string {
  const d = now - unixSecs;
  if (d < 45) return t("time.justNow");
  if (d < 3600) return t("time.minutesAgo", { n: Math.round(d / 60) });
  if (d < 86400) return t("time.hoursAgo", { n: Math.round(d / 3600) });
  if (d < 86400 * 7) return t("time.daysAgo", { n: Math.round(d / 86400) });
  return new Date(unixSecs * 1000).toISOString().slice(0, 10);
}

export function formatMs(ms: number): string {
  if (ms < 1000) return t("time.ms", { n: Math.round(ms) });
  return t("time.s", { n: (ms / 1000).toFixed(ms < 10000 ? 2 : 1) });
}

export function folderProgressText(f: {
  state: string;
  files_done: number;
  files_total: number;
  pages: number;
  embedded: number;
  embed_total: number;
  rate_files_per_s: number | null;
  eta_s: number | null;
}): string {
  const parts: string[] = [];
  if (f.state === "embedding") {
    parts.push(t("progress.vectors", { done: formatNumber(f.embedded), total: formatNumber(f.embed_total) }));
    parts.push(tn("count.pages", f.pages));
  } else {
    parts.push(t("progress.files", { done: formatNumber(f.files_done), total: formatNumber(f.files_total) }));
    parts.push(tn("count.pages", f.pages));
    const r = formatRate(f.rate_files_per_s);
    if (r) parts.push(r);
  }
  if (f.eta_s !== null && Number.isFinite(f.eta_s)) parts.push(t("progress.eta", { duration: formatDuration(f.eta_s) }));
  return parts.join(" · ");
}

/** Fraction 0..1 of the current run of a folder, or null when unknown. */
export function folderFraction(f: {
  state: string;
  files_done: number;
  files_total: number;
  embedded: number;
  embed_total: number;
}): number | null {
  if (f.state === "embedding") return f.embed_total > 0 ? Math.min(1, f.embedded / f.embed_total) : null;
  return f.files_total > 0 ? Math.min(1, f.files_done / f.files_total) : null;
}

// ------------------------------------------------------------------ UTF-8 byte ranges

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8");

/**
 * Splits `text` at the UTF-8 byte range [start, end) into [before, inside, after].
 * Offsets are clamped into the text; an offset that falls inside a multi-byte
 * character is moved to that character's start (for `start`) or end (for `end`),
 * so no character is ever cut in half. Returns null when there is no range.
 */
export function splitByteRange(
  text: string,
  start: number | null,
  end: number | null,
): [string, string, string] | null {
  if (start === null || end === null) return null;
  const bytes = enc.encode(text);
  let s = Math.max(0, Math.min(bytes.length, Math.floor(start)));
  let e = Math.max(0, Math.min(bytes.length, Math.floor(end)));
  if (e < s) [s, e] = [e, s];
  while (s > 0 && s < bytes.length && (bytes[s] & 0xc0) === 0x80) s--;
  while (e < bytes.length && e > 0 && (bytes[e] & 0xc0) === 0x80) e++;
  if (e === s) return null;
  return [dec.decode(bytes.subarray(0, s)), dec.decode(bytes.subarray(s, e)), dec.decode(bytes.subarray(e))];
}

/** One run of a page's text for the viewer: whether it lies in the passage, and whether it
 *  is a part marked on its own (a table cell, its column's title). */
export interface MarkedRun {
  text: string;
  inPassage: boolean;
  focus: boolean;
}

/** The text cut at the passage `start..end` and at the `focus` ranges (byte offsets of UTF-8,
 *  moved to character boundaries); null when there is no passage. */
export function markByteRanges(text: string, start: number | null, end: number | null, focus: [number, number][]): MarkedRun[] | null {
  const whole = splitByteRange(text, start, end);
  if (!whole) return null;
  const bytes = enc.encode(text);
  const s = enc.encode(whole[0]).length;
  const e = s + enc.encode(whole[1]).length;
  const boundary = (i: number) => {
    let at = Math.max(0, Math.min(bytes.length, Math.floor(i)));
    while (at > 0 && at < bytes.length && (bytes[at] & 0xc0) === 0x80) at--;
    return at;
  };
  const marked = focus.map(([a, b]) => [boundary(a), boundary(b)] as [number, number]).filter(([a, b]) => a < b);
  const cuts = [...new Set([0, s, e, bytes.length, ...marked.flat()])].sort((x, y) => x - y);
  const runs: MarkedRun[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [a, b] = [cuts[i], cuts[i + 1]];
    if (a >= b) continue;
    runs.push({ text: dec.decode(bytes.subarray(a, b)), inPassage: a >= s && b <= e, focus: marked.some(([x, y]) => a >= x && b <= y) });
  }
  return runs;
}

/** Document kinds the page has words for; any other kind is left out of the summary. */
const KINDS = ["annual-report", "quarterly-report", "current-report", "earnings-release", "contract", "paper", "handbook", "minutes"] as const;
const isKnownKind = (k: string): k is (typeof KINDS)[number] => (KINDS as readonly string[]).includes(k);

/** "Best Buy Co., Inc. · annual report · 2023" from a document's extracted facets. */
export function facetsSummary(
  f:
    | {
        organisation: string | null;
        kind: string;
        period: { year: number | null; quarter: number | null; date: string | null };
        language: string;
      }
    | null
    | undefined,
): string {
  if (!f) return "";
  const parts: string[] = [];
  if (f.organisation) parts.push(f.organisation);
  if (isKnownKind(f.kind)) parts.push(t(`kind.${f.kind}`));
  const { year, quarter, date } = f.period;
  if (year !== null && quarter !== null) parts.push(t("facets.yearQuarter", { year, quarter }));
  else if (year !== null) parts.push(String(year));
  else if (date) parts.push(date);
  if (f.language && f.language !== "und" && f.language !== "en") parts.push(f.language);
  return parts.join(" · ");
}

/** Where a cited passage stands: its heading path in a document without printed pages
 * (Markdown, HTML, DOCX, EPUB, text), else its page. */
export function placeOf(c: { page: number; section?: string }): string {
  return c.section ? c.section : t("common.pageShort", { page: c.page });
}

/** Where an evidence page's first passage stands: the heading path for documents without
 * printed pages, else the page. */
export function pagePlace(p: { page: number; doc_path: string; passages: { heading_path: string[] }[] }): string {
  const path = p.passages[0]?.heading_path ?? [];
  const paged = p.doc_path.toLowerCase().endsWith(".pdf");
  return !paged && path.length ? path.join(" › ") : t("common.pageShort", { page: p.page });
}
