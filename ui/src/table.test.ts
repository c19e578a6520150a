// @vitest-environment happy-dom
// The table view against the mock backend: fields typed once each, one row per document, a
// found cell that opens its page at the row, an empty one that says why, and the CSV export.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { closeTopLayer } from "./components/modal";
import { openTable, parseFields } from "./components/table";
import { openViewer, type ViewerTarget } from "./components/viewer";
import { setLocale } from "./i18n";
import { createMockBackend, mockInvoke } from "./mock";

const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => Array.from(document.querySelectorAll<HTMLElement>(sel));
let calls: { cmd: string; args: unknown }[] = [];

beforeEach(() => {
  calls = [];
  const { handlers } = createMockBackend(new Set(), () => undefined);
  mockIPC((cmd, args) => {
    calls.push({ cmd, args });
    return mockInvoke(handlers, cmd, args);
  });
});

afterEach(() => {
  while (closeTopLayer());
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
});

function fill(testid: string, text: string) {
  ($(`[data-testid="${testid}"]`) as HTMLInputElement).value = text;
}

describe("the table view", () => {
  it("takes fields split by commas of either width, each once", () => {
    expect(parseFields(" SPF, capacity，spf ;; ")).toEqual(["SPF", "capacity"]);
    expect(parseFields(" , ")).toEqual([]);
  });

  it("reads a row per document, opens a found cell at its row and says why a cell is empty", async () => {
    const opened: ViewerTarget[] = [];
    openTable((t) => opened.push(t));
    fill("table-fields", "spf, heating capacity");
    fill("table-period", "2023");
    $('[data-testid="table-read"]')!.click();
    await vi.waitFor(() => expect($$('[data-testid="table-row"]').length).toBe(6));
    expect(calls.find((c) => c.cmd === "extract_table")?.args).toEqual({ fields: ["spf", "heating capacity"], period: "2023" });
    const found = $$('[data-testid="table-cell"]');
    expect(found.map((c) => c.textContent)).toEqual(["3.4", "6.9 power"]);
    expect($('[data-testid="table-summary"]')!.textContent).toBe("6 documents · 2 of 12 cells found");
    found[0].click();
    expect(opened).toEqual([{ docId: 1, page: 12, byteStart: 0, byteEnd: 18, focus: [[15, 18]] }]);
    // The viewer marks the cell within its highlighted row.
    openViewer(opened[0]);
    await vi.waitFor(() => expect($$('[data-testid="highlight-focus"]').length).toBe(1));
    expect(calls.find((c) => c.cmd === "view_page")?.args).toMatchObject({ docId: 1, page: 12, focus: [[15, 18]] });
    expect($$('[data-testid="highlight"]').length).toBe(1);
    const empty = $$('[data-testid="table-cell-empty"]')[0];
    expect(empty.textContent).toBe("—");
    expect(empty.title).toBe('no table row or column matches "heating capacity" for 2023');
  });

  it("asks for a field before reading, and exports what it reads as CSV", async () => {
    openTable(() => undefined);
    $('[data-testid="table-read"]')!.click();
    expect($('[data-testid="table-summary"]')!.textContent).toBe("Name a field to read first.");
    expect(calls.some((c) => c.cmd === "extract_table")).toBe(false);
    fill("table-fields", "spf");
    $('[data-testid="table-export"]')!.click();
    await vi.waitFor(() => expect(calls.find((c) => c.cmd === "export_table_csv")?.args).toEqual({ fields: ["spf"], period: null }));
  });

  it("speaks Chinese on a Chinese page", () => {
    setLocale("zh-CN");
    openTable(() => undefined);
    expect($('[data-testid="table-read"]')!.textContent).toBe("读取");
    expect(($('[data-testid="table-fields"]') as HTMLInputElement).placeholder).toContain("字段");
  });
});
