// @vitest-environment happy-dom
// A checked answer as the chat shows it: flagged sentences say why, in the page's language,
// and a passage of a document without printed pages is placed by its headings, not "p.1".

import { afterEach, describe, expect, it } from "vitest";
import { TurnView } from "./components/answer";
import { setLocale } from "./i18n";
import { answerFor, plannedSteps } from "./mock-answers";
import type { UiTurn } from "./store";

function turnWith(question: string): UiTurn {
  const answer = answerFor(question, { steps: plannedSteps(question), stopped: false, flags: new Set(), conversationId: 1, turn: 0 });
  // A citation of a Markdown section.
  const cited = answer.sentences.find((s) => s.citations.length > 0)!;
  cited.citations[0] = { ...cited.citations[0], doc_path: "/docs/ch06-01-defining-an-enum.md", section: "Defining an Enum › The Option Enum" };
  return {
    uid: 1,
    question,
    state: "done",
    streamText: "",
    evidence: [],
    steps: answer.steps,
    progress: null,
    answer,
    error: null,
    conversationId: 1,
    turnIndex: 0,
    stopped: false,
    reported: new Set(),
  } as unknown as UiTurn;
}

const deps = { openCitation: () => undefined, openSource: () => undefined, retry: () => undefined };

afterEach(() => {
  document.body.replaceChildren();
  setLocale("en");
});

describe("a checked answer", () => {
  it("says why a sentence is flagged and places a Markdown citation by its section", () => {
    const view = new TurnView(turnWith("can radiators reach a good SPF?"), deps);
    document.body.appendChild(view.el);
    const note = view.el.querySelector<HTMLElement>('[data-testid="unsupported-reason"]')!;
    expect(note.dataset.reason).toBe("negation");
    expect(note.textContent).toBe(" (not supported: the source says the opposite)");
    const chips = Array.from(view.el.querySelectorAll('[data-testid="citation-chip"]'), (c) => c.textContent ?? "");
    expect(chips.some((c) => c.includes("Defining an Enum › The Option Enum"))).toBe(true);
    expect(chips.some((c) => c.includes("Defining an Enum › The Option Enum") && c.includes("p.1"))).toBe(false);
  });

  it("says it in Chinese on a Chinese page", () => {
    setLocale("zh-CN");
    const view = new TurnView(turnWith("can radiators reach a good SPF?"), deps);
    const note = view.el.querySelector<HTMLElement>('[data-testid="unsupported-reason"]')!;
    expect(note.textContent).toBe("（不符合来源：与来源的肯定/否定相反）");
  });

  it("shows a computed answer as computed: its mode, its sentences and why no model wrote them", () => {
    const turn = turnWith("can radiators reach a good SPF?");
    const answer = turn.answer!;
    const cited = answer.sentences.find((s) => s.citations.length > 0)!;
    answer.mode = "computed";
    answer.notices = [{ code: "computed" }];
    answer.note = null;
    answer.sentences = [{ text: "Current ratio for 2023 = Total current assets 18,700 / Total current liabilities 9,350 = 2.00.", status: "computed", citations: cited.citations }];
    const view = new TurnView(turn, deps);
    document.body.appendChild(view.el);
    const sentence = view.el.querySelector<HTMLElement>(".sentence.status-computed")!;
    expect(sentence.textContent).toContain("= 2.00.");
    expect(view.el.querySelectorAll('[data-testid="unsupported-reason"]')).toHaveLength(0);
    expect(view.el.textContent).toContain("computed from the cited table cells");
    expect(view.el.textContent).toContain("the model wrote none of these figures");
  });
});

