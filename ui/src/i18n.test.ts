import { afterEach, describe, expect, it } from "vitest";
import { folderProgressText, formatAgo, formatDuration, formatMs } from "./format";
import { resolveLocale, setLocale, t, tn } from "./i18n";
import { en } from "./locales/en";
import { zhCN } from "./locales/zh-CN";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const keys = Object.keys(en) as (keyof typeof en)[];

afterEach(() => setLocale("en"));

describe("catalogues", () => {
  it("zh-CN has a non-empty message for every English key, and no other keys", () => {
    expect(Object.keys(zhCN).sort()).toEqual([...keys].sort());
    for (const k of keys) {
      expect(en[k].trim(), k).not.toBe("");
      expect(zhCN[k].trim(), k).not.toBe("");
    }
  });

  it("each message has the same placeholders in both languages", () => {
    for (const k of keys) expect(placeholders(zhCN[k]), k).toEqual(placeholders(en[k]));
  });

  it("the n = 1 form of a message has the placeholders of its plural form", () => {
    for (const k of keys.filter((k) => k.endsWith(".one"))) {
      const plural = k.slice(0, -".one".length) as keyof typeof en;
      expect(en[plural], k).toBeDefined();
      expect(placeholders(en[k]), k).toEqual(placeholders(en[plural]));
      expect(placeholders(en[k]), k).toContain("n");
    }
  });

  it("every Chinese message has Chinese words, except punctuation and units", () => {
    const latinOnly = keys.filter((k) => !/\p{Script=Han}/u.test(zhCN[k]));
    expect(latinOnly.sort()).toEqual(["common.errorWithPrefix", "common.listSeparator", "settings.modelSize", "table.none"]);
  });
});

describe("t and tn", () => {
  it("fills {name} placeholders", () => {
    expect(t("viewer.pageOf", { page: 3, pages: 48 })).toBe("Page 3 of 48");
    setLocale("zh-CN");
    expect(t("viewer.pageOf", { page: 3, pages: 48 })).toBe("第 3 页，共 48 页");
    expect(t("common.settings")).toBe("设置");
  });

  it("picks the n = 1 form in English and groups digits", () => {
    expect(tn("count.files", 1)).toBe("1 file");
    expect(tn("count.files", 2)).toBe("2 files");
    expect(tn("count.pages", 1204)).toBe("1,204 pages");
    expect(tn("folder.failed", 1)).toBe("1 file failed");
    setLocale("zh-CN");
    expect(tn("count.files", 1)).toBe("1\u00a0个文件");
    expect(tn("count.files", 2)).toBe("2\u00a0个文件");
  });

  it("formats progress, durations and relative dates in the page's language", () => {
    const folder = {
      state: "indexing",
      files_done: 12,
      files_total: 40,
      pages: 310,
      embedded: 0,
      embed_total: 0,
      rate_files_per_s: 2.5,
      eta_s: 185,
    };
    const now = 1_700_000_000;
    expect(folderProgressText(folder)).toBe("12/40 files · 310 pages · 2.5 files/s · ETA 3m 05s");
    expect(formatAgo(now - 600, now)).toBe("10 min ago");
    setLocale("zh-CN");
    expect(folderProgressText(folder)).toBe(
      "12/40\u00a0个文件 · 310\u00a0页 · 2.5\u00a0个文件/秒 · 预计剩余\u00a03\u00a0分\u00a005\u00a0秒",
    );
    expect(formatDuration(3720)).toBe("1\u00a0小时\u00a002\u00a0分");
    expect(formatAgo(now - 10, now)).toBe("刚刚");
    expect(formatAgo(now - 600, now)).toBe("10\u00a0分钟前");
    expect(formatMs(1500)).toBe("1.50\u00a0秒");
  });
});

describe("resolveLocale", () => {
  it("follows the OS: any Chinese is Simplified Chinese, anything else English", () => {
    for (const lang of ["zh-TW", "zh-CN", "zh", "zh-Hant-HK", "ZH-cn", "zh_CN"]) expect(resolveLocale("auto", [lang]), lang).toBe("zh-CN");
    for (const lang of ["en-US", "de", "en", "ja-JP", "zu"]) expect(resolveLocale("auto", [lang]), lang).toBe("en");
    expect(resolveLocale("auto", [])).toBe("en");
  });

  it("goes by the first, preferred, language", () => {
    expect(resolveLocale("auto", ["zh-CN", "en-US"])).toBe("zh-CN");
    expect(resolveLocale("auto", ["en-US", "zh-CN"])).toBe("en");
  });

  it("a stored preference overrides the OS", () => {
    expect(resolveLocale("en", ["zh-CN"])).toBe("en");
    expect(resolveLocale("zh-CN", ["en-US"])).toBe("zh-CN");
    expect(resolveLocale("zh-CN", ["de"])).toBe("zh-CN");
  });
});
