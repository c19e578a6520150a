// @vitest-environment happy-dom
// The Models screen built in a DOM against the mock backend under Tauri's mockIPC: the
// installed models with their facts, the network note, a download's progress, its cancel,
// and using another chat model.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { closeTopLayer } from "./components/modal";
import { openModels, progressText } from "./components/models";
import { setLocale } from "./i18n";
import { createMockBackend, mockInvoke, type MockHandlers } from "./mock";

const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
let handlers: MockHandlers;

beforeEach(() => {
  handlers = createMockBackend(new Set(["slow"]), () => undefined).handlers;
  mockIPC((cmd, args) => mockInvoke(handlers, cmd, args), { shouldMockEvents: true });
});

afterEach(() => {
  while (closeTopLayer());
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
  vi.restoreAllMocks();
});

async function modelsDialog(): Promise<HTMLElement> {
  openModels();
  await vi.waitFor(() => expect($('[data-testid="installed-embedder"]')).not.toBeNull());
  return $('[data-testid="models-dialog"]')!;
}

describe("the Models screen", () => {
  it("lists chat and embedding models with what their files say and their speed here", async () => {
    const dialog = await modelsDialog();
    const chat = dialog.querySelector('[data-testid="installed-model"]')!.textContent!;
    expect(chat).toContain("qwen2.5-3b-instruct-q4_k_m.gguf");
    expect(chat).toMatch(/Q4_K_M/);
    expect(chat).toMatch(/32,768-token context/);
    expect(chat).toMatch(/license qwen-research/);
    expect(chat).toMatch(/7\.9 tokens\/s writing/);
    const embedder = dialog.querySelector('[data-testid="installed-embedder"]')!.textContent!;
    expect(embedder).toContain("bge-small-en-v1.5");
    expect(embedder).toMatch(/384 dimensions/);
    expect(embedder).toMatch(/5,210 tokens\/s embedding here/);
    expect(embedder).toMatch(/in use/);
    expect($('[data-testid="download-network-note"]')!.textContent).toMatch(/Uses the network: only when you press Download/);
  });

  it("shows a download's progress, then the installed model", async () => {
    await modelsDialog();
    const seen: string[] = [];
    const status = $('[data-testid="download-status"]')!;
    new MutationObserver(() => seen.push(status.textContent ?? "")).observe(status, { childList: true, characterData: true, subtree: true });
    ($('[data-testid="download-url"]') as HTMLInputElement).value = "http://127.0.0.1:8000/SmolLM2-135M.gguf";
    $('[data-testid="download-start"]')!.click();
    await vi.waitFor(() => expect(status.textContent).toMatch(/Installed SmolLM2-135M\.gguf/), { timeout: 8000 });
    expect(seen.some((s) => /MB of 98 MB \(\d+%\)/.test(s)), seen.join(" | ")).toBe(true);
    expect(($('[data-testid="download-progress"]') as HTMLProgressElement).value).toBe(100);
    expect($('[data-testid="download-cancel"]')!.hidden).toBe(true);
  });

  it("a cancelled download says it can resume, and the address is kept", async () => {
    await modelsDialog();
    const url = $('[data-testid="download-url"]') as HTMLInputElement;
    url.value = "https://mirror.example/model.gguf";
    $('[data-testid="download-start"]')!.click();
    await vi.waitFor(() => expect($('[data-testid="download-cancel"]')!.hidden).toBe(false));
    $('[data-testid="download-cancel"]')!.click();
    await vi.waitFor(() => expect($('[data-testid="download-status"]')!.textContent).toMatch(/Cancelled\. What arrived is kept/), { timeout: 8000 });
    expect(url.value).toBe("https://mirror.example/model.gguf");
  });

  it("an address that is not http(s) is refused before anything is asked", async () => {
    await modelsDialog();
    const download = vi.spyOn(handlers, "download_model");
    ($('[data-testid="download-url"]') as HTMLInputElement).value = "file:///etc/passwd";
    $('[data-testid="download-start"]')!.click();
    await new Promise((r) => setTimeout(r, 50));
    expect(download).not.toHaveBeenCalled();
    expect($('[data-testid="download-progress"]')!.parentElement!.hidden).toBe(true);
  });

  it("Use switches answers to another installed chat model", async () => {
    const before = await handlers.get_settings({});
    handlers.installed_models = () => [
      { path: "/m/llm/a.gguf", name: "a.gguf", size_bytes: 1e8, speed: null, gguf: null },
      { path: "/m/llm/b.gguf", name: "b.gguf", size_bytes: 2e8, speed: null, gguf: null },
    ];
    await modelsDialog();
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="installed-model"]')];
    rows[1]!.querySelector<HTMLElement>('[data-testid="use-model"]')!.click();
    await vi.waitFor(async () => expect((await handlers.get_settings({})).chat_model).toBe("/m/llm/b.gguf"));
    expect(before.chat_model).not.toBe("/m/llm/b.gguf");
  });

  it("progress lines give megabytes, percent, rate and a resume point", () => {
    expect(progressText({ done_bytes: 50e6, total_bytes: 200e6, resumed_from_bytes: 30e6, bytes_per_s: 12.5e6 })).toBe(
      "50 MB of 200 MB (25%) · 13 MB/s · resumed after 30 MB",
    );
    expect(progressText({ done_bytes: 5e6, total_bytes: null, resumed_from_bytes: 0, bytes_per_s: 2e6 })).toBe("5.0 MB · 2.0 MB/s");
  });
});
