// Fake backend for `npm run dev` in a plain browser (no Tauri).
// Only ever loaded through a dynamic import guarded by import.meta.env.DEV,
// so it is not part of production builds.
//
// Query parameters (comma separated in ?mock=…): empty (no folders),
// nomodel (chat model missing banner), slow (slower streaming), fail (ask rejects),
// liberror (the library could not start), notice (a library notice).
//
// Everything returned here is typed with the generated bindings (./types), so the
// mock keeps satisfying the real contract.

import type { CommandResults, Transport, Unlisten } from "./api";
import type {
  Answer,
  AskStreamEvent,
  Citation,
  ConversationSummary,
  DocumentInfo,
  EvidencePage,
  ExportFormat,
  FolderStatus,
  JsonValue,
  LibraryStatus,
  ModelKind,
  ModelStatus,
  PageKind,
  PageView,
  Rect,
  Sentence,
  Settings,
  Step,
  Timings,
  Turn,
} from "./types";

const flags = new Set((new URLSearchParams(location.search).get("mock") ?? "").split(",").filter(Boolean));
const HOME = "/home/ada/Documents";
const enc = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => Math.floor(Date.now() / 1000);

// ------------------------------------------------------------------ sample library

interface MockDoc extends DocumentInfo {
  kind: PageKind;
  folder: string;
  /** the file changed on disk after it was indexed */
  changed?: boolean;
}

const RESEARCH = `${HOME}/Research`;
const MANUALS = `${HOME}/Manuals`;

const DOCS: MockDoc[] = [
  { doc_id: 1, path: `${RESEARCH}/heat-pump-field-study-2023.pdf`, title: "Heat Pump Field Study 2023 — Final Report", mtime_ns: 1_700_000_000e9, page_count: 48, kind: "pdf", folder: RESEARCH },
  { doc_id: 2, path: `${RESEARCH}/insulation-guidelines.pdf`, title: "Insulation Guidelines for Older Buildings", mtime_ns: 1_690_000_000e9, page_count: 22, kind: "pdf", folder: RESEARCH, changed: true },
  { doc_id: 3, path: `${RESEARCH}/notes/meeting-2024-03-12.md`, title: "Meeting notes — Müller renovation", mtime_ns: 1_710_000_000e9, page_count: 2, kind: "text", folder: RESEARCH },
  { doc_id: 4, path: `${MANUALS}/arotherm-plus-installation.pdf`, title: "aroTHERM plus Installation and Maintenance Manual", mtime_ns: 1_650_000_000e9, page_count: 96, kind: "pdf", folder: MANUALS },
  { doc_id: 5, path: `${MANUALS}/thermostat-quickstart.txt`, title: "Thermostat quick start", mtime_ns: 1_660_000_000e9, page_count: 1, kind: "text", folder: MANUALS },
  { doc_id: 6, path: `${RESEARCH}/grid-tariffs-overview.pdf`, title: "Dynamic Grid Tariffs: An Overview", mtime_ns: 1_705_000_000e9, page_count: 12, kind: "pdf", folder: RESEARCH },
];

function folder(path: string, over: Partial<FolderStatus>): FolderStatus {
  return {
    path,
    state: "up_to_date",
    files_total: 0,
    files_done: 0,
    pages: 0,
    chunks: 0,
    embedded: 0,
    embed_total: 0,
    rate_files_per_s: null,
    eta_s: null,
    failed: [],
    last_indexed: now() - 3600 * 5,
    error: null,
    ...over,
  };
}

let folders: FolderStatus[] = flags.has("empty")
  ? []
  : [
      folder(RESEARCH, {
        files_total: 214,
        files_done: 214,
        pages: 3120,
        chunks: 9870,
        failed: [
          { path: `${RESEARCH}/scans/old-invoice-1998.pdf`, reason: "no text layer (scanned image); OCR is not enabled" },
          { path: `${RESEARCH}/drafts/locked.pdf`, reason: "encrypted PDF (password required)" },
        ],
      }),
      folder(MANUALS, {
        state: "indexing",
        files_total: 120,
        files_done: 37,
        pages: 1480,
        chunks: 4410,
        rate_files_per_s: 2.4,
        eta_s: 35,
        last_indexed: null,
      }),
      folder(`${HOME}/Archive (external disk)`, { state: "unavailable", files_total: 88, files_done: 88, pages: 910, chunks: 2700, last_indexed: now() - 86400 * 12 }),
    ];
let paused = false;
const listeners = new Map<string, Set<(p: unknown) => void>>();

function emit(event: string, payload: unknown): void {
  for (const fn of listeners.get(event) ?? []) fn(payload);
}

function status(): LibraryStatus {
  const busy = folders.some((f) => f.state === "indexing" || f.state === "embedding" || f.state === "queued");
  return {
    folders: structuredClone(folders),
    documents: flags.has("empty") && folders.length === 0 ? 0 : DOCS.length + folders.reduce((a, f) => a + f.files_done, 0),
    chunks: folders.reduce((a, f) => a + f.chunks, 0),
    pending_vectors: folders.reduce((a, f) => a + Math.max(0, f.embed_total - f.embedded), 0),
    paused,
    busy: busy && !paused,
    error: flags.has("liberror")
      ? "The library could not start: embedding model not found at models/bge-small-en-v1.5. Run models/fetch.sh"
      : null,
    notice: flags.has("notice") ? "Re-scanning folders: some file changes were missed while the app was closed." : null,
  };
}

// indexing simulation
setInterval(() => {
  if (paused) return;
  let changed = false;
  for (const f of folders) {
    if (f.state === "queued") {
      f.state = "indexing";
      f.files_total = f.files_total || 60;
      changed = true;
    } else if (f.state === "indexing") {
      f.files_done = Math.min(f.files_total, f.files_done + 1);
      f.pages += 11;
      f.chunks += 33;
      f.rate_files_per_s = 2.2 + Math.random() * 0.6;
      f.eta_s = (f.files_total - f.files_done) / f.rate_files_per_s;
      if (f.files_done >= f.files_total) {
        f.state = "embedding";
        f.embed_total = 600;
        f.embedded = 0;
        f.rate_files_per_s = null;
      }
      changed = true;
    } else if (f.state === "embedding") {
      f.embedded = Math.min(f.embed_total, f.embedded + 60);
      f.eta_s = (f.embed_total - f.embedded) / 120;
      if (f.embedded >= f.embed_total) {
        f.state = "up_to_date";
        f.eta_s = null;
        f.embedded = f.embed_total = 0;
        f.last_indexed = now();
      }
      changed = true;
    }
  }
  if (changed) emit("library-status", status());
}, 500);

// ------------------------------------------------------------------ page content

const FIELD_STUDY_P14 = [
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

const MEETING_QUOTE = "the retrofitted homes in the study gained about 0.3 in SPF after larger radiators were fitted";
const [MEET_START, MEET_END] = byteRange(MEETING_P1, MEETING_QUOTE);

// ------------------------------------------------------------------ answers

function citation(label: string, doc: MockDoc, page: number, chunk: number, bs: number, be: number, quote: string): Citation {
  return { label, doc_id: doc.doc_id, doc_path: doc.path, doc_title: doc.title, page, chunk_id: chunk, byte_start: bs, byte_end: be, quote, support: 0.82 };
}

const C1 = citation("S1", DOCS[0], 14, 1401, 310, 420, "The average seasonal performance factor (SPF) was 3.4, with a spread from 2.6 to 4.3 between individual installations.");
const C1b = citation("S1", DOCS[0], 14, 1402, 421, 540, "Homes with underfloor heating reached a mean SPF of 3.9, as their flow temperatures rarely exceeded 35 °C");
const C2 = citation("S2", DOCS[2], 1, 301, MEET_START, MEET_END, MEETING_QUOTE);

function sources(): EvidencePage[] {
  return [
    {
      label: "S1", doc_handle: 1, doc_id: 1, doc_path: DOCS[0].path, doc_title: DOCS[0].title, page: 14, modified: "2023-11-14",
      passages: [
        { chunk_id: 1401, byte_start: 310, byte_end: 420, heading_path: ["4 Results", "4.2 Seasonal performance"], text: FIELD_STUDY_P14.slice(5, 7).join(" "), score: 0.91 },
        { chunk_id: 1402, byte_start: 421, byte_end: 540, heading_path: ["4 Results", "4.2 Seasonal performance"], text: FIELD_STUDY_P14.slice(7, 11).join(" "), score: 0.84 },
      ],
      score: 0.91,
      facets: {
        organisation: "Fraunhofer ISE",
        aliases: ["fraunhofer ise"],
        period: { year: 2023, quarter: null, date: "2023-11-14" },
        kind: "paper",
        language: "en",
        years: [2022, 2023],
      },
    },
    {
      label: "S2", doc_handle: 2, doc_id: 3, doc_path: DOCS[2].path, doc_title: DOCS[2].title, page: 1, modified: "2024-03-12",
      passages: [{ chunk_id: 301, byte_start: MEET_START, byte_end: MEET_END, heading_path: ["Meeting notes — Müller renovation (2024-03-12)"], text: MEETING_QUOTE, score: 0.77 }],
      score: 0.77,
    },
    {
      label: "S3", doc_handle: 3, doc_id: 2, doc_path: DOCS[1].path, doc_title: DOCS[1].title, page: 7, modified: "2023-07-22",
      passages: [{ chunk_id: 207, byte_start: 0, byte_end: 200, heading_path: [], text: "Lower flow temperatures require a well insulated envelope; see chapter 3 for the minimum U-values by building age.", score: 0.52 }],
      score: 0.52,
    },
  ];
}

function timings(firstToken: number | null, total: number): Timings {
  return {
    retrieve_ms: 84,
    first_evidence_ms: 90,
    prompt_ms: 210,
    first_token_ms: firstToken,
    generation_ms: firstToken === null ? 0 : total - firstToken,
    total_ms: total,
    prompt_tokens: 1840,
    reused_prompt_tokens: 0,
    generated_tokens: firstToken === null ? 0 : 96,
  };
}

type Signals = NonNullable<Answer["signals"]>;

function signals(partial: Partial<Signals>): Signals {
  return {
    coverage: 0,
    idf_coverage: partial.coverage ?? 0,
    sentence_coverage: partial.coverage ?? 0,
    top_cosine: 0,
    vector_margin: 2.5,
    lexical_margin: 3,
    agreement: 1,
    typed_match: partial.coverage ?? 0,
    model_yes: null,
    missing_terms: [],
    missing_names: [],
    unknown_terms: [],
    ...partial,
  };
}

function attribution(sentences: Sentence[]): Answer["attribution"] {
  const n = (st: Sentence["status"]) => sentences.filter((s) => s.status === st).length;
  return {
    sentences: sentences.length,
    kept: n("kept"),
    attached: n("attached"),
    replaced: n("replaced"),
    unsupported: n("unsupported"),
    not_covered: n("not_covered"),
    invalid_labels_dropped: 0,
  };
}

function answerFor(question: string, conversationId: number, turn: number, stepsDone: Step[], stopped: boolean): Answer {
  const abstain = /weather|recipe|abstain|football/i.test(question);
  if (abstain) {
    return {
      question, standalone_query: null, answer: "", citations: [], abstained: true, mode: "abstained", sentences: [], steps: stepsDone,
      sources: sources().slice(1), attribution: attribution([]),
      signals: signals({ coverage: 0.2, top_cosine: 0.41, missing_terms: ["weather"], unknown_terms: ["weather"] }),
      model: "qwen2.5-3b-instruct-q4_k_m.gguf", raw_model_output: null, note: "Closest matches scored below the relevance threshold.",
      timings: timings(null, 1840), conversation_id: conversationId, turn,
    };
  }
  const sentences: Sentence[] = [
    { text: "The field study measured an average **seasonal performance factor of 3.4** across 42 homes, ranging from 2.6 to 4.3.", status: "kept", citations: [C1] },
    { text: "Homes with underfloor heating did best (mean SPF 3.9) because their flow temperatures stayed around 35 °C.", status: "kept", citations: [C1b] },
    { text: "For your radiator plan, the meeting notes point out that fitting *larger radiators* raised SPF by about 0.3 in the study.", status: "attached", citations: [C2] },
    { text: "Radiator systems can never reach an SPF above 3.", status: "unsupported", citations: [] },
  ];
  const all = stopped ? sentences.slice(0, 1) : sentences;
  return {
    question,
    standalone_query: question,
    answer: all.map((s) => s.text).join(" "),
    citations: [C1, C1b, C2],
    abstained: false,
    mode: flags.has("nomodel") ? "extractive" : "generated",
    sentences: all,
    steps: stepsDone,
    sources: sources(),
    attribution: attribution(all),
    signals: signals({ coverage: 0.86, top_cosine: 0.91 }),
    model: flags.has("nomodel") ? null : "qwen2.5-3b-instruct-q4_k_m.gguf",
    raw_model_output: null,
    note: stopped ? "Stopped by the user: the answer may be incomplete." : null,
    timings: timings(640, 3120),
    conversation_id: conversationId,
    turn,
  };
}

// ------------------------------------------------------------------ conversations

interface MockConv extends ConversationSummary {
  turnsList: Turn[];
}
let nextConvId = 3;
const conversations: MockConv[] = [];
function seedConversation(id: number, title: string, q: string, ago: number) {
  const a = answerFor(q, id, 0, [], false);
  conversations.push({ id, title, created_at: now() - ago, updated_at: now() - ago, turns: 1, turnsList: [{ question: q, standalone_query: q, answer: a, created_at: now() - ago }] });
}
if (!flags.has("empty")) {
  seedConversation(2, "Noise limits for the outdoor unit", "What noise limits apply to the outdoor unit at night?", 3600 * 26);
  seedConversation(1, "Buffer tank sizing", "How large should the buffer tank be?", 86400 * 4);
}

let stopFlag = false;
let nextFeedbackId = 1;
let settings: Settings = {
  chat_model: flags.has("nomodel") ? null : "/home/ada/.local/share/pagewise/models/qwen2.5-3b-instruct-q4_k_m.gguf",
  embed_model: "/home/ada/.local/share/pagewise/models/bge-small-en-v1.5",
  gpu_offload: false,
  data_dir: "/home/ada/.local/share/pagewise",
};

function modelStatus(): ModelStatus {
  return {
    chat_model: settings.chat_model ? settings.chat_model.split("/").pop()! : null,
    chat_model_problem: flags.has("nomodel") ? "Chat model not found: models/qwen2.5-3b-instruct-q4_k_m.gguf. Run models/fetch.sh" : null,
    embedder: "bge-small-en-v1.5 (384 dims)",
    gpu_supported: false,
    gpu_offload: false,
  };
}

// ------------------------------------------------------------------ page rendering

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
  const blob = await new Promise<Blob>((res, rej) => canvas.toBlob((b) => (b ? res(b) : rej("toBlob failed")), "image/png"));
  return blob.arrayBuffer();
}

function viewPage(docId: number, page: number, bs: number | null, be: number | null): PageView {
  const doc = DOCS.find((d) => d.doc_id === docId);
  if (!doc) throw `Document ${docId} not found`;
  if (page < 1 || page > doc.page_count) throw `Page ${page} out of range (1–${doc.page_count})`;
  if (doc.kind === "text") {
    return {
      doc_id: docId, title: doc.title, path: doc.path, page, page_count: doc.page_count, kind: "text",
      width_pt: 0, height_pt: 0, highlights: [], text: textPage(doc, page), highlight_start: bs, highlight_end: be,
      changed_since_indexed: !!doc.changed,
    };
  }
  let highlights: Rect[] = [];
  if (bs !== null && be !== null) {
    if (docId === 1 && page === 14) highlights = bs < 421 ? [lineRect(5, 2)] : [lineRect(7, 2)];
    else highlights = [lineRect(4, 2)];
  }
  return {
    doc_id: docId, title: doc.title, path: doc.path, page, page_count: doc.page_count, kind: "pdf",
    width_pt: 612, height_pt: 792, highlights, text: null, highlight_start: null, highlight_end: null,
    changed_since_indexed: !!doc.changed,
  };
}

// ------------------------------------------------------------------ transport

async function ask(args: Record<string, unknown>): Promise<Answer> {
  const question = String(args.question);
  const channel = args.onEvent as { onmessage: (e: AskStreamEvent) => void };
  const send = (e: AskStreamEvent) => channel.onmessage(e);
  const slow = flags.has("slow") ? 3 : 1;
  stopFlag = false;
  if (flags.has("fail")) {
    await sleep(600);
    throw "The chat model crashed (mock failure)";
  }
  let convId = args.conversationId as number | null;
  const scope: JsonValue = Array.isArray(args.scope) ? (args.scope as string[]) : [];
  const steps: Step[] = [
    { index: 0, tool: "search", input: { query: question, scope, k: 24 }, observation: "24 passages from 9 documents (best 0.91: Heat Pump Field Study 2023 p.14)", ms: 84 },
    { index: 1, tool: "read_page", input: { doc: 1, page: 14 }, observation: FIELD_STUDY_P14.slice(5, 11).join(" "), ms: 12 },
    { index: 2, tool: "read_page", input: { doc: 3, page: 1 }, observation: MEETING_QUOTE, ms: 9 },
  ];
  const done: Step[] = [];
  for (const s of steps) {
    await sleep(350 * slow);
    if (stopFlag) break;
    done.push(s);
    send({ kind: "step", step: s });
  }
  const draft = answerFor(question, 0, 0, [], false);
  if (!draft.abstained && !stopFlag) {
    // As the backend does: the best evidence sentences first, cited, before any token.
    send({ kind: "evidence", quotes: draft.sentences.filter((q) => q.citations.length).slice(0, 2).map((q) => ({ ...q, status: "quote" })) });
  }
  const text = draft.abstained ? "" : draft.sentences.map((s) => s.text.replace(/\*/g, "") + (s.citations.length ? ` [${s.citations[0].label}]` : "")).join(" ");
  const words = text.split(/(?<= )/);
  let tokens = 0;
  for (let i = 0; i < words.length && !stopFlag; i++) {
    await sleep(45 * slow);
    if (stopFlag) break;
    send({ kind: "token", text: words[i] });
    tokens++;
    if (i === Math.floor(words.length / 2)) send({ kind: "progress", done: 2, total: 3, what: "checking citations" });
  }
  if (!stopFlag) {
    send({ kind: "progress", done: 3, total: 3, what: "checking citations" });
    await sleep(400 * slow);
  }
  // like the backend: stopped before any token → reject with "stopped", store nothing;
  // stopped later → a checked partial answer, stored as a turn
  if (stopFlag && tokens === 0) throw "stopped";
  if (convId === null) {
    convId = nextConvId++;
    conversations.unshift({ id: convId, title: question.slice(0, 60), created_at: now(), updated_at: now(), turns: 0, turnsList: [] });
  }
  const conv = conversations.find((c) => c.id === convId)!;
  const a = answerFor(question, convId, conv.turnsList.length, done, stopFlag);
  conv.turnsList.push({ question, standalone_query: question, answer: a, created_at: now() });
  conv.turns = conv.turnsList.length;
  conv.updated_at = now();
  conversations.sort((x, y) => y.updated_at - x.updated_at);
  return a;
}

function markdownOf(a: Answer): string {
  const body = a.sentences.map((s) => s.text + s.citations.map((c) => ` [${c.label}]`).join("")).join(" ");
  const refs = Array.from(new Map(a.citations.map((c) => [c.label, c])).values()).map((c) => `- [${c.label}] ${c.doc_title}, p. ${c.page}`);
  return `**Q:** ${a.question}\n\n${body}\n\n${refs.join("\n")}\n`;
}

type Handlers = {
  [K in keyof CommandResults]: (args: Record<string, unknown>) => CommandResults[K] | Promise<CommandResults[K]>;
};

const handlers: Handlers = {
  library_status: () => status(),
  add_folder_dialog: () => {
    const p = `${HOME}/Papers ${folders.length + 1}`;
    folders.push(folder(p, { state: "queued", files_total: 40, last_indexed: null }));
    emit("library-status", status());
    return [p];
  },
  add_paths: ({ paths }) => {
    const added = (paths as string[]).filter((p) => !folders.some((f) => f.path === p));
    for (const p of added) folders.push(folder(p, { state: "queued", files_total: 10, last_indexed: null }));
    emit("library-status", status());
    return added;
  },
  remove_folder: ({ path }) => {
    folders = folders.filter((f) => f.path !== path);
    emit("library-status", status());
  },
  pause_indexing: () => {
    paused = true;
    for (const f of folders) if (f.state === "indexing" || f.state === "embedding") f.state = "paused";
    emit("library-status", status());
  },
  resume_indexing: () => {
    paused = false;
    for (const f of folders) if (f.state === "paused") f.state = f.embed_total ? "embedding" : "indexing";
    emit("library-status", status());
  },
  cancel_indexing: () => {
    paused = false;
    for (const f of folders) {
      if (["indexing", "embedding", "paused", "queued"].includes(f.state)) {
        f.state = "stopped"; // partly indexed
        f.eta_s = null;
        f.rate_files_per_s = null;
      }
    }
    emit("library-status", status());
  },
  reindex_all: () => {
    for (const f of folders) if (f.state !== "unavailable") Object.assign(f, { state: "queued", files_done: 0, pages: 0, chunks: 0 });
    emit("library-status", status());
  },
  list_documents: () => DOCS.map(({ kind: _k, folder: _f, changed: _c, ...d }) => d),
  ask: (args) => ask(args),
  stop_answer: () => {
    stopFlag = true;
  },
  suggested_questions: () => [
    "What seasonal performance factor did the field study measure?",
    "Which flow temperature did we agree on for the Müller renovation?",
    "How often does the outdoor unit need maintenance?",
  ],
  list_conversations: () => conversations.map(({ turnsList: _t, ...c }) => c),
  open_conversation: ({ id }) => {
    const c = conversations.find((x) => x.id === id);
    if (!c) throw `Conversation ${id} not found`;
    return structuredClone(c.turnsList);
  },
  rename_conversation: ({ id, title }) => {
    const c = conversations.find((x) => x.id === id);
    if (c) c.title = String(title);
  },
  delete_conversation: ({ id }) => {
    const i = conversations.findIndex((x) => x.id === id);
    if (i >= 0) conversations.splice(i, 1);
  },
  answer_markdown: ({ conversationId, turn }) => {
    const c = conversations.find((x) => x.id === conversationId);
    const t = c?.turnsList[turn as number];
    if (!t) throw "Turn not found";
    return markdownOf(t.answer);
  },
  export_answer: ({ format }) => `${HOME}/pagewise-answer.${(format as ExportFormat) === "csv" ? "csv" : "md"}`,
  report_citation: () => nextFeedbackId++,
  model_status: () => modelStatus(),
  get_settings: () => ({ ...settings }),
  set_settings: ({ settings: s }) => {
    settings = { ...(s as Settings) };
  },
  installed_models: () => [
    {
      path: "/home/ada/.local/share/pagewise/models/llm/qwen2.5-3b-instruct-q4_k_m.gguf",
      name: "qwen2.5-3b-instruct-q4_k_m.gguf",
      size_bytes: 1_930_000_000,
      speed: { prompt_tokens_per_s: 61.5, generation_tokens_per_s: 7.9, answers: 4 },
    },
  ],
  pick_model_file: ({ kind }) => ((kind as ModelKind) === "chat" ? "/home/ada/models/llama-3.2-3b-instruct-q4_k_m.gguf" : "/home/ada/models/bge-small-en-v1.5"),
  view_page: ({ docId, page, byteStart, byteEnd }) =>
    viewPage(docId as number, page as number, byteStart as number | null, byteEnd as number | null),
  page_image: async ({ docId, page, widthPx }) => {
    const doc = DOCS.find((d) => d.doc_id === docId);
    if (!doc) throw "Document not found";
    await sleep(120);
    return renderPage(doc, page as number, widthPx as number);
  },
  open_external: ({ docId }) => {
    console.info("[mock] open_external", docId);
  },
};

export function createMockTransport(): Transport {
  console.info("[pagewise] using the mock backend (plain browser, dev mode)");
  return {
    async invoke<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
      const fn = (handlers as Record<string, Handlers[keyof Handlers] | undefined>)[cmd];
      if (!fn) throw `mock: unknown command ${cmd}`;
      await sleep(cmd === "ask" || cmd === "page_image" ? 0 : 60 + Math.random() * 120);
      return (await fn(args)) as T;
    },
    async listen<T>(event: string, handler: (p: T) => void): Promise<Unlisten> {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const fn = handler as (p: unknown) => void;
      set.add(fn);
      return () => set!.delete(fn);
    },
    channel<T>(onMessage: (m: T) => void): unknown {
      return { onmessage: onMessage };
    },
  };
}
