import { describe, expect, it } from "vitest";
import { errorText, isStopped, normalizeAnswer } from "./api";
import type { Answer } from "./types";

describe("normalizeAnswer", () => {
  it("returns null for a missing answer", () => {
    expect(normalizeAnswer(null)).toBeNull();
    expect(normalizeAnswer(undefined)).toBeNull();
  });

  it("fills arrays missing from older stored answers", () => {
    const a = normalizeAnswer({ question: "q", answer: "x", abstained: false } as unknown as Answer)!;
    expect(a.sentences).toEqual([]);
    expect(a.sources).toEqual([]);
    expect(a.citations).toEqual([]);
    expect(a.steps).toEqual([]);
    expect(a.conversation_id).toBeNull();
    expect(a.timings.total_ms).toBe(0);
    expect(a.timings.first_token_ms).toBeNull();
    expect(a.timings.prompt_tokens).toBe(0);
    expect(a.turn).toBeNull();
    expect(a.signals).toBeNull();
    expect(a.attribution.sentences).toBe(0);
  });

  it("keeps turn and partial timings, numbers steps without an index", () => {
    const a = normalizeAnswer({
      question: "q",
      answer: "x",
      turn: 2,
      timings: { total_ms: 5, first_token_ms: 1 },
      steps: [{ tool: "search", input: null, observation: "", ms: 1 }],
    } as unknown as Answer)!;
    expect(a.turn).toBe(2);
    expect(a.timings.total_ms).toBe(5);
    expect(a.timings.first_token_ms).toBe(1);
    expect(a.timings.generated_tokens).toBe(0);
    expect(a.steps[0].index).toBe(0);
  });
});

describe("isStopped", () => {
  it("recognises the 'stopped' rejection only", () => {
    expect(isStopped("stopped")).toBe(true);
    expect(isStopped(new Error("stopped"))).toBe(true);
    expect(isStopped("The chat model crashed")).toBe(false);
    expect(isStopped("stopped by the user: partial")).toBe(false);
  });
});

describe("errorText", () => {
  it("passes backend string rejections through", () => {
    expect(errorText("Chat model not found")).toBe("Chat model not found");
    expect(errorText(new Error("boom"))).toBe("boom");
    expect(errorText({ message: "m" })).toBe("m");
  });
});
