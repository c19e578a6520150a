// The search view's mock: a few passages of the mock library, matched by word, narrowed by
// file type, and sorted by relevance (words matched) or date.

import { DOCS } from "./mock-library";
import type { LibrarySearch, SearchFilter, SearchOrder, SearchRow } from "./types";

const PASSAGES: [docId: number, page: number, heading: string, text: string][] = [
  [1, 12, "Results › Seasonal performance", "The measured seasonal performance factor (SPF) across all 42 heat pumps was 3.4, with air-source units at 3.1 and ground-source units at 4.1."],
  [1, 3, "Summary", "This field study followed 42 heat pumps in older buildings through two heating seasons."],
  [2, 7, "Walls", "Insulating older walls from the inside needs a vapour check; the heat pump then runs at lower flow temperatures."],
  [3, 1, "Decisions", "We agreed on a flow temperature of 45 °C for the Müller renovation, checked again after the first winter."],
  [4, 58, "Maintenance › Outdoor unit", "Clean the outdoor unit's evaporator once a year and check the condensate drain before winter."],
  [6, 4, "Time-of-use tariffs", "Dynamic grid tariffs reward running the heat pump when power is cheap, such as at night."],
];

const enc = new TextEncoder();

function matchesOf(text: string, words: string[]): [number, number][] {
  const lower = text.toLowerCase();
  const out: [number, number][] = [];
  for (const w of words) {
    let at = lower.indexOf(w);
    while (at >= 0) {
      const start = enc.encode(text.slice(0, at)).length;
      out.push([start, start + enc.encode(text.slice(at, at + w.length)).length]);
      at = lower.indexOf(w, at + w.length);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

export function mockSearch(query: string, filter: SearchFilter, order: SearchOrder): LibrarySearch {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2);
  const ext = (path: string) => path.split(".").pop() ?? "";
  const admitted = DOCS.filter((d) => filter.types.length === 0 || filter.types.includes(ext(d.path)));
  const rows: SearchRow[] = [];
  for (const [docId, page, heading, text] of PASSAGES) {
    const doc = admitted.find((d) => d.doc_id === docId);
    if (!doc || words.length === 0) continue;
    const matches = matchesOf(text, words);
    if (matches.length === 0) continue;
    rows.push({
      doc_id: docId, doc_title: doc.title, doc_path: doc.path, page, byte_start: 0, byte_end: enc.encode(text).length,
      heading, text, matches, score: matches.length, about: "",
    });
  }
  if (order === "date") rows.sort((a, b) => (DOCS.find((d) => d.doc_id === b.doc_id)?.mtime_ns ?? 0) - (DOCS.find((d) => d.doc_id === a.doc_id)?.mtime_ns ?? 0));
  else rows.sort((a, b) => b.score - a.score);
  const counts = new Map<string, number>();
  for (const d of DOCS) counts.set(ext(d.path), (counts.get(ext(d.path)) ?? 0) + 1);
  return {
    rows,
    facets: { types: [...counts].map(([value, documents]) => ({ value, documents })), organisations: [], years: [], languages: [{ value: "en", documents: DOCS.length }] },
    documents_admitted: admitted.length,
    elapsed_ms: 3,
  };
}
