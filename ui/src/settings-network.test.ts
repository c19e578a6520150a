// @vitest-environment happy-dom
// Settings → Network built in a DOM against the mock backend under Tauri's mockIPC: a fresh
// install says it has made no connection, a logged connection is a row (when, host, why), and
// either way the dialog says that nothing else connects.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeTopLayer } from "./components/modal";
import { openSettings } from "./components/settings";
import { setLocale } from "./i18n";
import { createMockBackend, mockInvoke } from "./mock";
import type { MockFlag } from "./mock-common";

const $ = (sel: string) => document.querySelector<HTMLElement>(sel);

function withBackend(flags: MockFlag[]) {
  const handlers = createMockBackend(new Set(flags), () => undefined).handlers;
  mockIPC((cmd, args) => mockInvoke(handlers, cmd, args), { shouldMockEvents: true });
  return handlers;
}

afterEach(() => {
  while (closeTopLayer());
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
  vi.restoreAllMocks();
});

describe("Settings → Network", () => {
  it("says a fresh install has made no connection, and that nothing else connects", async () => {
    withBackend([]);
    openSettings();
    await vi.waitFor(() => expect($('[data-testid="network-log-empty"]')).not.toBeNull());
    const section = $('[data-testid="network-log"]')!;
    expect(section.textContent).toMatch(/No connections: Pagewise has made no network connection\./);
    expect(section.textContent).toMatch(/Nothing else connects: no telemetry, no update checks, no remote fonts\./);
    expect(section.querySelectorAll('[data-testid="network-log-row"]')).toHaveLength(0);
  });

  it("lists each logged connection with when, host and why, newest first", async () => {
    const handlers = withBackend(["network"]);
    const [download] = await handlers.network_log({});
    openSettings();
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid="network-log-row"]')).toHaveLength(2));
    const [newest, oldest] = [...document.querySelectorAll<HTMLElement>('[data-testid="network-log-row"]')];
    const rows = [oldest, newest];
    expect(rows[0]!.textContent).toContain("huggingface.co:443");
    expect(rows[0]!.textContent).toContain("model download");
    expect(rows[0]!.querySelector(".network-when")!.textContent).not.toBe("");
    expect(rows[0]!.dataset.purpose).toBe(download!.purpose);
    expect(rows[1]!.textContent).toMatch(/127\.0\.0\.1:8080.*answer server.*6 requests/);
    expect($('[data-testid="network-log-empty"]')).toBeNull();
    expect($('[data-testid="network-log-nothing-else"]')!.textContent).toMatch(/no telemetry/);
  });

  it("is in Chinese too", async () => {
    setLocale("zh-CN");
    withBackend(["network"]);
    openSettings();
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid="network-log-row"]')).toHaveLength(2));
    expect($('[data-testid="network-log"]')!.textContent).toContain("模型下载");
    expect($('[data-testid="network-log-nothing-else"]')!.textContent).toContain("没有遥测");
  });
});
