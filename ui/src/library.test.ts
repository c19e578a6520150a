// @vitest-environment happy-dom
// The library panel against the mock backend: an incomplete parser sandbox is named layer by
// layer, nothing is read until the user goes on, and going on is one button.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLibraryPanel } from "./components/library";
import { setLocale } from "./i18n";
import { createMockBackend, mockInvoke } from "./mock";
import { setLibrary } from "./store";
import type { LibraryStatus } from "./types";

afterEach(() => {
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
});

function panelWith(flags: string[]): { status: () => LibraryStatus; calls: string[] } {
  const { handlers } = createMockBackend(new Set(flags as never[]), () => undefined);
  const calls: string[] = [];
  mockIPC((cmd, args) => {
    calls.push(cmd);
    return mockInvoke(handlers, cmd, args);
  });
  document.body.append(createLibraryPanel());
  const status = () => handlers.library_status({}) as LibraryStatus;
  setLibrary(status());
  return { status, calls };
}

const notice = () => document.querySelector<HTMLElement>('[data-testid="sandbox-notice"]')!;

describe("the parser sandbox notice", () => {
  it("names what is missing and lets the user go on", async () => {
    const { status, calls } = panelWith(["weaksandbox"]);
    expect(notice().hidden).toBe(false);
    expect(notice().textContent).toMatch(/sandbox is incomplete/);
    expect(notice().textContent).toMatch(/Landlock is not available/);
    expect(notice().textContent).toMatch(/No file is read until you choose to go on/);
    document.querySelector<HTMLElement>('[data-testid="accept-weak-sandbox"]')!.click();
    await vi.waitFor(() => expect(calls).toContain("accept_weak_sandbox"));
    setLibrary(status());
    expect(notice().dataset.accepted).toBe("true");
    expect(notice().textContent).toMatch(/You chose to read files anyway/);
    expect(document.querySelector<HTMLElement>('[data-testid="accept-weak-sandbox"]')!.hidden).toBe(true);
  });

  it("is absent with a complete sandbox, and speaks Chinese in the Chinese UI", () => {
    panelWith([]);
    expect(notice().hidden).toBe(true);
    document.body.replaceChildren();
    setLocale("zh-CN");
    panelWith(["weaksandbox"]);
    expect(notice().textContent).toMatch(/解析器沙箱不完整/);
    expect(notice().textContent).toMatch(/Landlock/);
  });
});
