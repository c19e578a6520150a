// @vitest-environment happy-dom
// The search view against the mock backend: results as you type with the words marked,
// keyboard navigation, a facet that narrows, and Enter opening the viewer at the passage.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { closeTopLayer } from "./components/modal";
import { markedText, openSearch } from "./components/search";
import type { ViewerTarget } from "./components/viewer";
import { setLocale } from "./i18n";
import { createMockBackend, mockInvoke } from "./mock";

const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => Array.from(document.querySelectorAll<HTMLElement>(sel));

beforeEach(() => {
  const { handlers } = createMockBackend(new Set(), () => undefined);
  mockIPC((cmd, args) => mockInvoke(handlers, cmd, args));
});

afterEach(() => {
  while (closeTopLayer());
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
});

function type(text: string) {
  const input = $('[data-testid="search-input"]') as HTMLInputElement;
  input.value = text;
  input.dispatchEvent(new Event("input"));
}

describe("the search view", () => {
  it("finds passages as you type, marks the words and opens the one chosen by keyboard", async () => {
    const opened: ViewerTarget[] = [];
    openSearch((t) => opened.push(t));
    type("flow temperature");
    await vi.waitFor(() => expect($$('[data-testid="search-result"]').length).toBe(2));
    const marks = $$('[data-testid="search-result"] mark').map((m) => m.textContent);
    expect(marks).toContain("flow");
    expect(marks).toContain("temperature");
    expect($('[data-testid="search-summary"]')!.textContent).toMatch(/2 passages/);
    const input = $('[data-testid="search-input"]')!;
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown" }));
    expect($$('[data-testid="search-result"]')[1].classList.contains("active")).toBe(true);
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    expect(opened).toHaveLength(1);
    expect(opened[0].page).toBeGreaterThan(0);
  });

  it("narrows by a facet", async () => {
    openSearch(() => undefined);
    type("flow temperature");
    await vi.waitFor(() => expect($$('[data-testid="search-result"]').length).toBe(2));
    const typeFacet = $('[data-testid="facet-type"]') as HTMLSelectElement;
    expect(Array.from(typeFacet.options).map((o) => o.value)).toContain("md");
    typeFacet.value = "md";
    typeFacet.dispatchEvent(new Event("change"));
    await vi.waitFor(() => expect($$('[data-testid="search-result"]').length).toBe(1));
    expect($('[data-testid="search-result"]')!.textContent).toMatch(/Müller renovation/);
  });

  it("marks by byte ranges, so text beyond ASCII stays whole", () => {
    const text = "Die Müller-Sanierung: 45 °C";
    const start = new TextEncoder().encode("Die Müller-").length;
    const nodes = markedText({ text, matches: [[start, start + "Sanierung".length]] });
    const holder = document.createElement("div");
    holder.append(...nodes);
    expect(holder.textContent).toBe(text);
    expect(holder.querySelector("mark")!.textContent).toBe("Sanierung");
  });
});
