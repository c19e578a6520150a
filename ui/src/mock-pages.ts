// Dev mock: the sample documents' pages, as text (Markdown/plain sources) or drawn
// on a canvas (PDF pages), with highlight rectangles over the cited lines.

import { appError } from "./mock-common";
import { findDoc, type MockDoc } from "./mock-library";
import type { PageView, Rect } from "./types";

const enc = new TextEncoder();

export const FIELD_STUDY_P14 = [
  "4.2 Seasonal performance",
  "",
  "Across the 42 monitored homes the heat pumps ran for two full heating",
  "seasons. Measured electricity input and delivered heat were logged",
  "every minute and aggregated to daily totals for the analysis below.",
  "The average seasonal performance factor (SPF) was 3.4, with a",
  "spread from 2.6 to 4.3 between individual installations.",
  "Homes with underfloor heating reached a mean SPF of 3.9, as their",
  "flow temperatures rarely exceeded 35 °C during the winter months.",
  "Radiator systems averaged 3.1; several were retrofitted with larger",
  "radiators during the study, which raised their SPF by about 0.3.",
  "",
  "Table 4.3 lists the results per home, together with floor area,",
  "insulation level and the design flow temperature of each system.",
];

function pdfLines(doc: MockDoc, page: number): string[] {
  if (doc.doc_id === 1 && page === 14) return FIELD_STUDY_P14;
  const topics = ["heat demand", "flow temperature", "defrost cycles", "noise levels", "grid tariffs", "buffer tanks", "hot water", "controls"];
  const t = topics[(page + doc.doc_id) % topics.length];
  const lines = [`${Math.max(1, Math.floor(page / 4))}.${page % 4 + 1} Notes on ${t}`, ""];
  for (let i = 0; i < 16; i++) {
    lines.push(
      [
        `This section discusses ${t} in the context of the installation and its`,
        `operation over the year. Measurements were taken at regular intervals`,
        `and compared with the manufacturer's figures where these were available.`,
        `Deviations larger than ten percent are reported in the appendix tables.`,
      ][i % 4],
    );
  }
  return lines;
}

const LINE_Y0 = 0.14;
const LINE_H = 0.034;
const X0 = 0.1;

function lineRect(i: number, n = 1): Rect {
  return { x: X0 - 0.01, y: LINE_Y0 + i * LINE_H - LINE_H * 0.72, w: 0.82, h: LINE_H * n };
}

const MEETING_P1 = `# Meeting notes — Müller renovation (2024-03-12)

Attendees: Ada, Jörg Müller, Søren (installer) ☕

## Decisions
- Keep the existing radiators in the living room; replace the two in the bedrooms.
- Target flow temperature: **45 °C** at −10 °C outside.
- Budget ceiling: 18 500 € including the buffer tank.

## Open questions
1. Does the field study support 45 °C for radiator systems?
2. Noise limits at the neighbour's window (night): 35 dB(A)?

Søren noted that the retrofitted homes in the study gained about 0.3 in SPF after larger radiators were fitted — worth it for the bedrooms.
`;

const MEETING_P2 = `## Follow-up (2024-03-20)

Quotes received from two installers. Both recommend a 9 kW unit.
`;

function textPage(doc: MockDoc, page: number): string {
  if (doc.doc_id === 3) return page === 1 ? MEETING_P1 : MEETING_P2;
  return "Thermostat quick start\n\n1. Press and hold the dial for 3 seconds.\n2. Choose the heating schedule.\n3. Confirm with a short press.\n";
}

function byteRange(text: string, needle: string): [number, number] {
  const i = text.indexOf(needle);
  if (i < 0) return [0, 0];
  const start = enc.encode(text.slice(0, i)).length;
  return [start, start + enc.encode(needle).length];
}

export const MEETING_QUOTE = "the retrofitted homes in the study gained about 0.3 in SPF after larger radiators were fitted";
export const [MEET_START, MEET_END] = byteRange(MEETING_P1, MEETING_QUOTE);

async function renderPage(doc: MockDoc, page: number, widthPx: number): Promise<ArrayBuffer> {
  const w = Math.max(100, Math.min(4000, widthPx));
  const hgt = Math.round((w * 792) / 612);
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = hgt;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, w, hgt);
  ctx.fillStyle = "#6b7280";
  ctx.font = `${Math.round(w * 0.016)}px Georgia, serif`;
  ctx.fillText(doc.title, X0 * w, 0.06 * hgt);
  ctx.textAlign = "right";
  ctx.fillText(`${page}`, 0.9 * w, 0.95 * hgt);
  ctx.textAlign = "left";
  ctx.strokeStyle = "#d1d5db";
  ctx.lineWidth = Math.max(1, w / 600);
  ctx.beginPath();
  ctx.moveTo(X0 * w, 0.075 * hgt);
  ctx.lineTo(0.9 * w, 0.075 * hgt);
  ctx.stroke();
  const lines = pdfLines(doc, page);
  lines.forEach((line, i) => {
    const y = (LINE_Y0 + i * LINE_H) * hgt;
    const heading = i === 0;
    ctx.fillStyle = heading ? "#111827" : "#1f2937";
    ctx.font = `${heading ? "bold " : ""}${Math.round(w * (heading ? 0.024 : 0.019))}px Georgia, serif`;
    ctx.fillText(line, X0 * w, y, 0.8 * w);
  });
  const blob = await new Promise<Blob>((res, rej) =>
    canvas.toBlob((b) => (b ? res(b) : rej(appError("failed", "the page could not be drawn"))), "image/png"),
  );
  return blob.arrayBuffer();
}

/** PNG bytes of a PDF page, as `page_image` resolves. */
export function pageImage(docId: number, page: number, widthPx: number): Promise<ArrayBuffer> {
  const doc = findDoc(docId);
  if (!doc) throw appError("not_found", `Document ${docId} not found`);
  return renderPage(doc, page, widthPx);
}

export function viewPage(docId: number, page: number, bs: number | null, be: number | null, focus: [number, number][] = []): PageView {
  const doc = findDoc(docId);
  if (!doc) throw appError("not_found", `Document ${docId} not found`);
  if (page < 1 || page > doc.page_count) throw appError("invalid_input", `Page ${page} out of range (1–${doc.page_count})`);
  if (doc.kind === "text") {
    return {
      doc_id: docId, title: doc.title, path: doc.path, page, page_count: doc.page_count, kind: "text",
      width_pt: 0, height_pt: 0, highlights: [], focus: [], text: textPage(doc, page), highlight_start: bs, highlight_end: be,
      focus_ranges: focus, changed_since_indexed: !!doc.changed,
    };
  }
  let highlights: Rect[] = [];
  if (bs !== null && be !== null) {
    if (docId === 1 && page === 14) highlights = bs < 421 ? [lineRect(5, 2)] : [lineRect(7, 2)];
    else highlights = [lineRect(4, 2)];
  }
  // A marked cell: the right end of the highlighted row, one rectangle per part.
  const row = highlights[0];
  const marked: Rect[] = row ? focus.map(() => ({ x: row.x + row.w * 0.8, y: row.y, w: row.w * 0.2, h: row.h })) : [];
  return {
    doc_id: docId, title: doc.title, path: doc.path, page, page_count: doc.page_count, kind: "pdf",
    width_pt: 612, height_pt: 792, highlights, focus: marked, text: null, highlight_start: null, highlight_end: null,
    focus_ranges: [], changed_since_indexed: !!doc.changed,
  };
}
