// @vitest-environment happy-dom
// The first-token wait in Settings, against the mock backend under Tauri's mockIPC: what the
// user types is saved as seconds, and an empty field as no limit.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeTopLayer } from "./components/modal";
import { firstTokenSeconds, openSettings } from "./components/settings";
import { setLocale } from "./i18n";
import { createMockBackend, mockInvoke } from "./mock";

afterEach(() => {
  while (closeTopLayer());
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
});

describe("the first-token wait", () => {
  it("is a positive number of seconds, or no limit", () => {
    expect(firstTokenSeconds("8")).toBe(8);
    expect(firstTokenSeconds(" 4.5 ")).toBe(4.5);
    expect(firstTokenSeconds("")).toBeNull();
    expect(firstTokenSeconds("0")).toBeNull();
    expect(firstTokenSeconds("-2")).toBeNull();
    expect(firstTokenSeconds("soon")).toBeNull();
  });

  it("is saved from Settings and shown again when they reopen", async () => {
    const handlers = createMockBackend(new Set(), () => undefined).handlers;
    mockIPC((cmd, args) => mockInvoke(handlers, cmd, args), { shouldMockEvents: true });
    openSettings();
    const field = await vi.waitFor(() => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="first-token-within"]');
      expect(input).not.toBeNull();
      return input!;
    });
    expect(field.value).toBe("");
    field.value = "8";
    document.querySelector<HTMLButtonElement>('[data-testid="settings-save"]')!.click();
    await vi.waitFor(async () => expect((await handlers.get_settings({})).first_token_within_s).toBe(8));
    while (closeTopLayer());
    openSettings();
    await vi.waitFor(() => expect(document.querySelector<HTMLInputElement>('[data-testid="first-token-within"]')!.value).toBe("8"));
  });
});
