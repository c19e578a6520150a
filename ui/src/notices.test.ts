import { afterEach, describe, expect, it } from "vitest";

import { setLocale } from "./i18n";
import { answerNotes, libraryNoticeText, noticeText } from "./notices";

afterEach(() => setLocale("en"));

describe("notices", () => {
  it("say why an answer abstained in the page's language, with the near miss", () => {
    const notice = { code: "abstained", why: { kind: "other_kind" }, near_miss: "direction" } as const;
    setLocale("en");
    expect(noticeText(notice)).toBe(
      "Not answered: the sources name the subject, but no checked sentence gives the kind of value asked for. The closest sentence: the source states the other direction.",
    );
    setLocale("zh-CN");
    const zh = noticeText(notice);
    expect(zh).toContain("未作回答");
    expect(zh).toContain("与来源的变化方向相反");
    expect(zh).not.toMatch(/[A-Za-z]{4}/);
  });

  it("fill their parameters and name the language search could not read", () => {
    setLocale("zh-CN");
    expect(noticeText({ code: "keyword_search", lang: "zh" })).toBe("检索主要依靠关键词：嵌入模型无法读取中文。");
    expect(noticeText({ code: "read_sections", sections: 4, documents: 2 })).toContain("4");
    expect(noticeText({ code: "abstained", why: { kind: "other_periods", period: "Q3 2026" } })).toContain("Q3 2026");
    expect(noticeText({ code: "abstained", why: { kind: "not_mentioned", name: "A100" } })).toContain("A100");
    expect(noticeText({ code: "abstained", why: { kind: "other_subject", name: "Redis" } })).toContain("Redis");
    setLocale("en");
    expect(noticeText({ code: "abstained", why: { kind: "other_subject", name: "harwood and lyle" } })).toContain("harwood and lyle");
    expect(noticeText({ code: "keyword_search", lang: "en" })).toBe("");
  });

  it("say that a computed answer's figures come from the cited cells, not the model", () => {
    setLocale("en");
    expect(noticeText({ code: "computed" })).toContain("the model wrote none of these figures");
    setLocale("zh-CN");
    expect(noticeText({ code: "computed" })).toContain("模型没有写出");
  });

  it("fall back to the English note of a turn stored before notices existed", () => {
    setLocale("zh-CN");
    expect(answerNotes({ notices: [], note: "Abstained: retrieval found no passage that covers the question." })).toEqual([
      "Abstained: retrieval found no passage that covers the question.",
    ]);
    expect(answerNotes({ notices: [{ code: "no_model" }, { code: "keyword_search", lang: "zh" }], note: "ignored" })).toEqual([
      "未加载对话模型：以下是与问题最匹配的来源句子。",
      "检索主要依靠关键词：嵌入模型无法读取中文。",
    ]);
    expect(answerNotes({ notices: [], note: null })).toEqual([]);
  });

  it("say what happened to the library in the page's language, with its figures", () => {
    const stopped = { code: "embedding_server_stopped", why: "connection refused", waiting: 1234 } as const;
    setLocale("en");
    expect(libraryNoticeText(stopped)).toBe(
      "The embedding server stopped answering (connection refused): 1,234 passages are searchable by keyword and get their vectors once it answers again.",
    );
    setLocale("zh-CN");
    expect(libraryNoticeText(stopped)).toContain("嵌入服务器停止了响应");
    expect(libraryNoticeText(stopped)).toContain("1,234");
    expect(libraryNoticeText({ code: "model_changed", from: "a", to: "b", passages: 7 })).toBe("嵌入模型已更换（a → b）：正在重新嵌入 7 个段落。");
    for (const n of [{ code: "starting" }, { code: "rebuilding_for_new_version" }, { code: "events_lost", why: "x" }] as const) {
      expect(libraryNoticeText(n).replace("Pagewise", "")).not.toMatch(/[A-Za-z]{4}/);
    }
  });
});
