import { describe, expect, it } from "vitest";
import { basename, facetsSummary, folderProgressText, formatDuration, markByteRanges, pagePlace, placeOf, shorten, splitByteRange } from "./format";

describe("markByteRanges (a cited cell within its row, its title above)", () => {
  it("cuts the passage and the marked parts, inside the passage or not", () => {
    const page = "Region\tCapacity\nRiverside\t960\nEnd";
    const row = [page.indexOf("Riverside"), page.indexOf("960") + 3];
    const cell: [number, number] = [page.indexOf("960"), page.indexOf("960") + 3];
    const title: [number, number] = [page.indexOf("Capacity"), page.indexOf("Capacity") + 8];
    const runs = markByteRanges(page, row[0], row[1], [cell, title])!;
    expect(runs.filter((r) => r.focus).map((r) => [r.text, r.inPassage])).toEqual([["Capacity", false], ["960", true]]);
    expect(runs.filter((r) => r.inPassage).map((r) => r.text).join("")).toBe("Riverside\t960");
    expect(runs.map((r) => r.text).join("")).toBe(page);
    expect(markByteRanges(page, null, null, [cell])).toBeNull();
  });

  it("keeps characters whole", () => {
    const runs = markByteRanges("Größe 12", 0, 9, [[3, 5]])!;
    expect(runs.map((r) => r.text).join("")).toBe("Größe 12");
    expect(runs.find((r) => r.focus)?.text).toBe("ö");
  });
});

describe("splitByteRange (UTF-8 byte offsets)", () => {
  it("ASCII", () => {
    expect(splitByteRange("hello world", 6, 11)).toEqual(["hello ", "world", ""]);
  });

  it("multi-byte characters before the range shift byte offsets", () => {
    // "Größe" = G r ö(2) ß(2) e → 7 bytes
    const text = "Größe: 12 cm";
    const start = new TextEncoder().encode("Größe: ").length; // 9
    expect(splitByteRange(text, start, start + 2)).toEqual(["Größe: ", "12", " cm"]);
  });

  it("emoji and CJK", () => {
    const text = "🙂 日本語 text";
    const b = new TextEncoder().encode("🙂 ").length;
    const e = b + new TextEncoder().encode("日本語").length;
    expect(splitByteRange(text, b, e)).toEqual(["🙂 ", "日本語", " text"]);
  });

  it("offsets inside a character snap outwards", () => {
    // "é" is 2 bytes: [0xc3, 0xa9]; start=1 lands inside it
    expect(splitByteRange("éa", 1, 2)).toEqual(["", "é", "a"]);
    expect(splitByteRange("aé", 0, 2)).toEqual(["", "aé", ""]);
  });

  it("clamps and handles null/empty ranges", () => {
    expect(splitByteRange("abc", 1, 99)).toEqual(["a", "bc", ""]);
    expect(splitByteRange("abc", null, 2)).toBeNull();
    expect(splitByteRange("abc", 2, 2)).toBeNull();
  });
});

describe("formatting helpers", () => {
  it("shorten", () => {
    expect(shorten("Short title")).toBe("Short title");
    const s = shorten("A very long document title that keeps going");
    expect(Array.from(s).length).toBeLessThanOrEqual(28);
    expect(s.endsWith("…")).toBe(true);
  });

  it("basename", () => {
    expect(basename("/home/me/Documents/Research/")).toBe("Research");
    expect(basename("C:\\Users\\me\\Notes")).toBe("Notes");
  });

  it("durations", () => {
    expect(formatDuration(42)).toBe("42s");
    expect(formatDuration(185)).toBe("3m 05s");
    expect(formatDuration(3720)).toBe("1h 02m");
  });

  it("folder progress line", () => {
    expect(
      folderProgressText({
        state: "indexing",
        files_done: 12,
        files_total: 40,
        pages: 310,
        embedded: 0,
        embed_total: 0,
        rate_files_per_s: 2.5,
        eta_s: 11,
      }),
    ).toBe("12/40 files · 310 pages · 2.5 files/s · ETA 11s");
  });
});

describe("facetsSummary", () => {
  it("names organisation, kind and period, and the language when not English", () => {
    const period = { year: 2024, quarter: 2, date: "2023-07-29" };
    expect(facetsSummary({ organisation: "Acme Inc.", kind: "quarterly-report", period, language: "en" })).toBe(
      "Acme Inc. · quarterly report · 2024 Q2",
    );
    expect(facetsSummary({ organisation: null, kind: "other", period: { year: null, quarter: null, date: null }, language: "zh" })).toBe("zh");
    expect(facetsSummary(null)).toBe("");
  });
});

describe("where a citation stands", () => {
  it("a PDF page by number, a Markdown section by its headings", () => {
    expect(placeOf({ page: 14 })).toBe("p.14");
    expect(placeOf({ page: 1, section: "Defining an Enum › The Option Enum" })).toBe("Defining an Enum › The Option Enum");
    const passage = (heading_path: string[]) => ({ heading_path });
    expect(pagePlace({ page: 3, doc_path: "/r/report.pdf", passages: [passage(["Risk"])] })).toBe("p.3");
    expect(pagePlace({ page: 1, doc_path: "/b/ch06.md", passages: [passage(["Enums", "Option"])] })).toBe("Enums › Option");
    expect(pagePlace({ page: 1, doc_path: "/b/notes.txt", passages: [passage([])] })).toBe("p.1");
  });
});
