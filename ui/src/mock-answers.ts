// Dev mock: the answers, shaped as the backend makes them. Evidence pages get a
// per-answer 1-based document handle and are labelled `Doc{handle}_p{page}`; steps
// are the backend's tools (`search_docs`, `read_page`), numbered from 1.

import type { MockFlags } from "./mock-common";
import { DOCS, type MockDoc } from "./mock-library";
import { FIELD_STUDY_P14, MEETING_QUOTE, MEET_END, MEET_START } from "./mock-pages";
import type { Answer, Citation, EvidencePage, EvidencePassage, Sentence, Step, Timings } from "./types";

const MODEL = "qwen2.5-3b-instruct-q4_k_m.gguf";
const [FIELD_STUDY, INSULATION, MEETING] = [DOCS[0], DOCS[1], DOCS[2]];

type Page = Omit<EvidencePage, "label" | "doc_handle">;

/** A passage as written below; its document and page come from the page it is on. */
type PassageOnPage = Omit<EvidencePassage, "doc_id" | "page">;

function page(doc: MockDoc, pageNo: number, modified: string, passages: PassageOnPage[], extra: Partial<Page> = {}): Page {
  const score = Math.max(...passages.map((p) => p.score));
  const located: EvidencePassage[] = passages.map((p) => ({ ...p, doc_id: doc.doc_id, page: pageNo }));
  return { doc_id: doc.doc_id, doc_path: doc.path, doc_title: doc.title, page: pageNo, modified, passages: located, score, ...extra };
}

/** Numbers the documents in order of first appearance, as the backend does per answer. */
function labelled(pages: Page[]): EvidencePage[] {
  const handles = new Map<number, number>();
  return pages.map((p) => {
    const handle = handles.get(p.doc_id) ?? handles.size + 1;
    handles.set(p.doc_id, handle);
    return { ...p, label: `Doc${handle}_p${p.page}`, doc_handle: handle };
  });
}

const HEADING = ["4 Results", "4.2 Seasonal performance"];

const FIELD_PAGE = page(
  FIELD_STUDY,
  14,
  "2023-11-14",
  [
    { chunk_id: 1401, byte_start: 310, byte_end: 420, heading_path: HEADING, text: FIELD_STUDY_P14.slice(5, 7).join(" "), score: 0.91 },
    { chunk_id: 1402, byte_start: 421, byte_end: 540, heading_path: HEADING, text: FIELD_STUDY_P14.slice(7, 11).join(" "), score: 0.84 },
  ],
  {
    facets: {
      organisation: "Fraunhofer ISE",
      aliases: ["fraunhofer ise"],
      period: { year: 2023, quarter: null, date: "2023-11-14" },
      kind: "paper",
      language: "en",
      years: [2022, 2023],
    },
  },
);

const MEETING_PAGE = page(MEETING, 1, "2024-03-12", [
  { chunk_id: 301, byte_start: MEET_START, byte_end: MEET_END, heading_path: ["Meeting notes — Müller renovation (2024-03-12)"], text: MEETING_QUOTE, score: 0.77 },
]);

const INSULATION_PAGE = page(INSULATION, 7, "2023-07-22", [
  { chunk_id: 207, byte_start: 0, byte_end: 200, heading_path: [], text: "Lower flow temperatures require a well insulated envelope; see chapter 3 for the minimum U-values by building age.", score: 0.52 },
]);

function cite(p: EvidencePage, passage: number, quote: string, support: number): Citation {
  const { chunk_id, byte_start, byte_end } = p.passages[passage];
  return { label: p.label, doc_id: p.doc_id, doc_path: p.doc_path, doc_title: p.doc_title, page: p.page, chunk_id, byte_start, byte_end, quote, support };
}

function timings(firstToken: number | null, total: number): Timings {
  return {
    retrieve_ms: 84,
    first_evidence_ms: 90,
    prompt_ms: 210,
    first_token_ms: firstToken,
    generation_ms: firstToken === null ? 0 : total - firstToken,
    check_ms: firstToken === null ? null : 40,
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
    judged: 0,
  };
}

const uniqueCitations = (sentences: Sentence[]) =>
  Array.from(new Map(sentences.flatMap((s) => s.citations).map((c) => [`${c.label}/${c.chunk_id}`, c])).values());

/** Questions the mock abstains on, so the "not covered" path can be tried. */
export const abstains = (question: string) => /weather|recipe|abstain|football/i.test(question);

/** The steps the backend's tools would record for this question, numbered from 1. */
export function plannedSteps(question: string): Step[] {
  const top = [FIELD_PAGE, MEETING_PAGE, INSULATION_PAGE].map((p) => `${p.doc_title} p.${p.page}`).join("; ");
  return [
    { index: 1, tool: "search_docs", input: { query: question, k: 24, doc_filter: [] }, observation: `24 passages; top: ${top}`, ms: 84 },
    { index: 2, tool: "read_page", input: { doc: FIELD_STUDY.doc_id, page: 14 }, observation: `2 passages on ${FIELD_STUDY.title} p.14`, ms: 12 },
    { index: 3, tool: "read_page", input: { doc: MEETING.doc_id, page: 1 }, observation: `1 passages on ${MEETING.title} p.1`, ms: 9 },
  ];
}

function abstained(question: string, steps: Step[]): Omit<Answer, "conversation_id" | "turn"> {
  const sources = labelled([MEETING_PAGE, INSULATION_PAGE]);
  const nearest = sources.map((p) => cite(p, 0, p.passages[0].text.slice(0, 240), 0));
  return {
    question,
    standalone_query: null,
    // the backend's English wording; the page shows its own notice, never this text
    answer: `The documents do not cover this. The nearest passages are ${nearest.map((c) => `[${c.label}]`).join("")}.`,
    citations: nearest,
    abstained: true,
    mode: "abstained",
    sentences: [],
    steps,
    sources,
    attribution: attribution([]),
    signals: signals({ coverage: 0.2, top_cosine: 0.41, missing_terms: ["weather"], unknown_terms: ["weather"] }),
    model: MODEL,
    raw_model_output: null,
    note: "Abstained: retrieval found no passage that covers the question.",
    notices: [{ code: "abstained", why: { kind: "no_passage" } }],
    timings: timings(null, 1840),
  };
}

function answered(question: string, steps: Step[], stopped: boolean, flags: MockFlags): Omit<Answer, "conversation_id" | "turn"> {
  const sources = labelled([FIELD_PAGE, MEETING_PAGE, INSULATION_PAGE]);
  const [field, meeting] = sources;
  const all: Sentence[] = [
    {
      text: "The field study measured an average **seasonal performance factor of 3.4** across 42 homes, ranging from 2.6 to 4.3.",
      status: "kept",
      citations: [cite(field, 0, "The average seasonal performance factor (SPF) was 3.4, with a spread from 2.6 to 4.3 between individual installations.", 0.82)],
    },
    {
      text: "Homes with underfloor heating did best (mean SPF 3.9) because their flow temperatures stayed around 35 °C.",
      status: "kept",
      citations: [cite(field, 1, "Homes with underfloor heating reached a mean SPF of 3.9, as their flow temperatures rarely exceeded 35 °C", 0.82)],
    },
    {
      text: "For your radiator plan, the meeting notes point out that fitting *larger radiators* raised SPF by about 0.3 in the study.",
      status: "attached",
      citations: [cite(meeting, 0, MEETING_QUOTE, 0.82)],
    },
    { text: "Radiator systems can never reach an SPF above 3.", status: "unsupported", citations: [], reason: "negation" },
  ];
  const sentences = stopped ? all.slice(0, 1) : all;
  const model = flags.has("nomodel") ? null : MODEL;
  return {
    question,
    standalone_query: question,
    answer: sentences.map((s) => s.text).join(" "),
    citations: uniqueCitations(sentences),
    abstained: false,
    mode: model ? "generated" : "extractive",
    sentences,
    steps,
    sources,
    attribution: attribution(sentences),
    signals: signals({ coverage: 0.86, top_cosine: 0.91 }),
    model,
    raw_model_output: null,
    note: stopped ? "Stopped before the model finished: the answer is incomplete." : null,
    notices: stopped ? [{ code: "stopped" }] : [],
    timings: timings(640, 3120),
  };
}

export interface AnswerOptions {
  steps: Step[];
  stopped: boolean;
  flags: MockFlags;
  conversationId: number;
  turn: number;
}

export function answerFor(question: string, o: AnswerOptions): Answer {
  const body = abstains(question) ? abstained(question, o.steps) : answered(question, o.steps, o.stopped, o.flags);
  return { ...body, conversation_id: o.conversationId, turn: o.turn };
}

/** What the model "writes": the sentences with their labels, as raw tokens carry them. */
export function rawTokens(a: Answer): string[] {
  const text = a.sentences.map((s) => s.text.replace(/\*/g, "") + (s.citations.length ? ` [${s.citations[0].label}]` : "")).join(" ");
  return text.split(/(?<= )/).filter(Boolean);
}

/** The cited source sentences the backend streams before any token. */
export function evidenceQuotes(a: Answer): Sentence[] {
  return a.sentences
    .flatMap((s) => s.citations)
    .slice(0, 2)
    .map((c) => ({ text: c.quote, status: "quote", citations: [c] }));
}

export function markdownOf(a: Answer): string {
  const body = a.sentences.map((s) => s.text + s.citations.map((c) => ` [${c.label}]`).join("")).join(" ");
  const refs = Array.from(new Map(a.citations.map((c) => [c.label, c])).values()).map((c) => `- [${c.label}] ${c.doc_title}, p. ${c.page}`);
  return `**Q:** ${a.question}\n\n${body}\n\n${refs.join("\n")}\n`;
}
