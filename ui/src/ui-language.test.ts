// @vitest-environment happy-dom
// Components built in a DOM (happy-dom) against the mock backend under Tauri's mockIPC,
// in each language: the language is chosen once, before anything is built.

import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLibraryPanel } from "./components/library";
import { closeTopLayer } from "./components/modal";
import { openSettings, reopenSettingsAfterReload } from "./components/settings";
import { initLocale, setLocale } from "./i18n";
import { createMockBackend, mockInvoke } from "./mock";
import { setLibrary } from "./store";
import * as api from "./api";

const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const texts = (sel: string) => Array.from(document.querySelectorAll(sel), (e) => e.textContent?.trim());

/** Opens the settings dialog and waits for the backend's part of it. */
async function settingsDialog(): Promise<HTMLElement> {
  openSettings();
  await vi.waitFor(() => expect($('[data-testid="installed-model"]')).not.toBeNull());
  return $('[data-testid="settings-dialog"]')!;
}

beforeEach(() => {
  const { handlers } = createMockBackend(new Set(), () => undefined);
  mockIPC((cmd, args) => mockInvoke(handlers, cmd, args), { shouldMockEvents: true });
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  while (closeTopLayer());
  document.body.replaceChildren();
  clearMocks();
  setLocale("en");
  vi.restoreAllMocks();
});

describe("the page's language", () => {
  it("follows navigator.language when nothing is stored, and is set on <html>", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["zh-TW", "en-US"]);
    expect(initLocale()).toBe("zh-CN");
    expect(document.documentElement.lang).toBe("zh-CN");
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["en-US"]);
    expect(initLocale()).toBe("en");
    expect(document.documentElement.lang).toBe("en");
  });

  it("a stored preference overrides the OS", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["en-US"]);
    localStorage.setItem("pagewise.locale", "zh-CN");
    expect(initLocale()).toBe("zh-CN");
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["zh-CN"]);
    localStorage.setItem("pagewise.locale", "en");
    expect(initLocale()).toBe("en");
    localStorage.setItem("pagewise.locale", "auto");
    expect(initLocale()).toBe("zh-CN");
  });
});

describe("settings dialog", () => {
  it("is in English for an English OS, with today's texts", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["en-US"]);
    initLocale();
    const dialog = await settingsDialog();
    expect(dialog.getAttribute("aria-label")).toBe("Settings");
    expect(texts(".dialog-title")).toEqual(["Settings"]);
    expect(texts("legend")).toEqual(["Language", "Answers", "Models", "Data", "Network"]);
    expect(texts('[data-testid="settings-language"] option')).toEqual(["Automatic (system)", "English", "简体中文"]);
    expect($('[data-testid="settings-save"]')!.textContent).toBe("Save");
    expect($('[data-testid="settings-cancel"]')!.textContent).toBe("Cancel");
    expect($('label[for="set-chat"]')!.textContent).toBe("Chat model file");
    // the e2e suite reads these
    const model = $('[data-testid="installed-model"]')!.textContent!;
    expect(model).toMatch(/MB/);
    expect(model).toContain("7.9 tokens/s writing, 62 tokens/s reading (measured here over 4 answers)");
    // what the GGUF header says, beside the size
    expect(model).toContain("1930 MB · Q4_K_M · 32,768-token context · license qwen-research");
    // answers stay local until a server is chosen; choosing one shows that it uses the network
    const fields = $('[data-testid="endpoint-fields"]') as HTMLElement;
    expect(fields.hidden).toBe(true);
    ($('[data-testid="generate-server"]') as HTMLInputElement).click();
    expect(fields.hidden).toBe(false);
    expect($('[data-testid="endpoint-network-note"]')!.textContent).toMatch(/Uses the network/);
  });

  it("keeps the API key in the keyring, never shows it back, and saves the embedding server", async () => {
    await settingsDialog();
    await vi.waitFor(() => expect($('[data-testid="api-key-source"]')!.textContent).toMatch(/No key saved/));
    const key = $('[data-testid="api-key"]') as HTMLInputElement;
    expect(key.type).toBe("password");
    key.value = "sk-test-123";
    $('[data-testid="api-key-save"]')!.click();
    await vi.waitFor(() => expect($('[data-testid="api-key-source"]')!.textContent).toMatch(/system keyring/));
    expect(key.value).toBe("");
    // vectors stay local until a server is chosen; choosing one says what it sends
    const fields = $('[data-testid="embed-endpoint-fields"]') as HTMLElement;
    expect(fields.hidden).toBe(true);
    ($('[data-testid="embed-server"]') as HTMLInputElement).click();
    expect(fields.hidden).toBe(false);
    expect($('[data-testid="embed-network-note"]')!.textContent).toMatch(/every passage of the library/);
    ($('[data-testid="embed-endpoint-url"]') as HTMLInputElement).value = "http://127.0.0.1:8080/v1";
    ($('[data-testid="embed-endpoint-model"]') as HTMLInputElement).value = "bge-m3";
    $('[data-testid="settings-save"]')!.click();
    await vi.waitFor(async () => {
      const s = await api.getSettings();
      expect([s.embed_use_endpoint, s.embed_endpoint_url, s.embed_endpoint_model]).toEqual([true, "http://127.0.0.1:8080/v1", "bge-m3"]);
    });
  });

  it("is in Chinese for a Chinese OS", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["zh-CN"]);
    initLocale();
    const dialog = await settingsDialog();
    expect(dialog.getAttribute("aria-label")).toBe("设置");
    expect(texts(".dialog-title")).toEqual(["设置"]);
    expect(texts("legend")).toEqual(["语言", "回答", "模型", "数据", "网络"]);
    expect(texts('[data-testid="settings-language"] option')).toEqual(["自动（跟随系统）", "English", "简体中文"]);
    expect($('[data-testid="settings-save"]')!.textContent).toBe("保存");
    expect($('[data-testid="settings-cancel"]')!.textContent).toBe("取消");
    expect($('label[for="set-chat"]')!.textContent).toBe("对话模型文件");
    expect($('label[for="set-language"]')!.textContent).toBe("界面语言");
    expect($('[data-testid="installed-model"]')!.textContent).toContain("生成 7.9 tokens/s，读取 62 tokens/s（本机 4 次回答实测）");
    expect(dialog.textContent).not.toMatch(/Settings|Models|Save|Cancel/);
  });

  it("stores a new language and reloads into it, with the dialog open again", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["en-US"]);
    initLocale();
    await settingsDialog();
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload } as Location);
    const select = $('[data-testid="settings-language"]') as HTMLSelectElement;
    expect(select.value).toBe("auto");
    select.value = "zh-CN";
    select.dispatchEvent(new Event("change"));
    expect(reload).toHaveBeenCalledOnce();
    expect(localStorage.getItem("pagewise.locale")).toBe("zh-CN");

    // what main.ts does once the reloaded page is built
    closeTopLayer();
    await vi.waitFor(() => expect($('[data-testid="settings-dialog"]')).toBeNull());
    reopenSettingsAfterReload();
    expect($('[data-testid="settings-dialog"]')).not.toBeNull();
    closeTopLayer();
    reopenSettingsAfterReload(); // once only
    await vi.waitFor(() => expect($('[data-testid="settings-dialog"]')).toBeNull());
  });
});

describe("library panel", () => {
  it("names states and counts in the page's language", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["zh-CN"]);
    initLocale();
    document.body.append(createLibraryPanel());
    setLibrary(await api.libraryStatus());
    expect(texts(".section-head h2")).toEqual(["文档库"]);
    expect($('[data-testid="add-folder-button"]')!.textContent).toBe("添加文件夹");
    expect(texts(".badge")).toContain("索引中");
    expect($(".library-summary")!.textContent).toMatch(/^[\d,]+\s个文档 · [\d,]+\s个段落/);
  });
});
