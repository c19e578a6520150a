// Models screen: the chat and embedding models on this computer with what each costs here,
// importing a GGUF file, and downloading one by URL (the only thing here that uses the
// network, and only when asked) with progress, cancel and resume.

import * as api from "../api";
import { button, h, icon, replaceChildren, withBusy } from "../dom";
import { formatNumber, t, tn } from "../i18n";
import { setModelStatus } from "../store";
import type { DownloadEvent, InstalledEmbedder, InstalledModel, ModelStatus, Settings } from "../types";
import { openModal } from "./modal";
import { toast, toastError } from "./toast";

let openHandle: { close: () => void } | null = null;

const mb = (bytes: number) => (bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0);

/** "312 MB of 1,117 MB · 42 MB/s" for a download's progress line. */
export function progressText(p: DownloadEvent): string {
  const rate = t("models.rate", { mb: mb(p.bytes_per_s) });
  const done = p.total_bytes
    ? t("models.progressOf", { done: mb(p.done_bytes), total: mb(p.total_bytes), percent: Math.floor((100 * p.done_bytes) / p.total_bytes) })
    : t("models.progressUnknown", { done: mb(p.done_bytes) });
  const resumed = p.resumed_from_bytes > 0 ? t("models.resumedFrom", { mb: mb(p.resumed_from_bytes) }) : null;
  return [done, rate, resumed].filter((x) => x !== null).join(" · ");
}

function chatFacts(m: InstalledModel, current: boolean): string {
  return [
    t("settings.modelSize", { mb: mb(m.size_bytes) }),
    m.gguf?.architecture ?? null,
    m.gguf?.quantisation ?? null,
    m.gguf?.context_length ? t("settings.contextLength", { tokens: formatNumber(m.gguf.context_length) }) : null,
    m.gguf?.license ? t("settings.license", { license: m.gguf.license }) : null,
    current ? t("settings.inUse") : null,
  ]
    .filter((part) => part !== null)
    .join(" · ");
}

function embedderFacts(m: InstalledEmbedder): string {
  return [
    t("settings.modelSize", { mb: mb(m.size_bytes) }),
    m.architecture,
    m.dimensions ? t("models.dimensions", { n: m.dimensions }) : null,
    m.max_tokens ? t("models.maxTokens", { n: formatNumber(m.max_tokens) }) : null,
    m.reads_chinese === null ? null : m.reads_chinese ? t("models.readsChinese") : t("models.noChinese"),
    m.in_use ? t("settings.inUse") : null,
  ]
    .filter((part) => part !== null && part !== undefined)
    .join(" · ");
}

export function openModels(): void {
  if (openHandle) return;
  const closeBtn = button("", () => handle.close(), { class: "icon-button", attrs: { "aria-label": t("models.close") }, title: t("common.closeEsc") });
  closeBtn.appendChild(icon("x", 18));
  const chatList = h("div", { testid: "models-chat" }, h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("settings.loading")}`));
  const embedList = h("div", { testid: "models-embedders" });

  // Download by URL.
  const url = h("input", { testid: "download-url", attrs: { type: "text", inputmode: "url", id: "dl-url", placeholder: "https://…/model.gguf", spellcheck: "false" } });
  const sha = h("input", { testid: "download-sha256", attrs: { type: "text", id: "dl-sha", placeholder: t("models.sha256Placeholder"), spellcheck: "false" } });
  const name = h("input", { testid: "download-name", attrs: { type: "text", id: "dl-name", placeholder: t("models.namePlaceholder"), spellcheck: "false" } });
  const bar = h("progress", { testid: "download-progress", attrs: { max: "100", value: "0" } });
  const status = h("div", { class: "field-note", testid: "download-status" });
  const progressRow = h("div", { class: "download-progress" }, bar, status);
  progressRow.hidden = true;
  const cancelBtn = button(t("common.cancel"), () => void api.cancelDownload(), { class: "btn small", testid: "download-cancel" });
  cancelBtn.hidden = true;
  const startBtn = button(t("models.download"), () => void startDownload(), { class: "btn small primary", testid: "download-start" });

  async function startDownload() {
    const address = url.value.trim();
    if (!/^https?:\/\//.test(address)) {
      toast(t("models.urlNeeded"), "error");
      url.focus();
      return;
    }
    progressRow.hidden = false;
    cancelBtn.hidden = false;
    startBtn.disabled = true;
    bar.removeAttribute("value");
    status.textContent = t("models.connecting");
    try {
      const installed = await api.downloadModel(address, sha.value.trim() || null, name.value.trim() || null, (p) => {
        if (p.total_bytes) bar.value = (100 * p.done_bytes) / p.total_bytes;
        status.textContent = progressText(p);
      });
      bar.value = 100;
      status.textContent = t("models.installed", { name: installed.name });
      toast(t("models.installed", { name: installed.name }), "success");
      url.value = "";
      sha.value = "";
      name.value = "";
      await load();
    } catch (e) {
      status.textContent = api.isStopped(e) ? t("models.cancelled") : t("models.downloadFailed", { error: api.errorText(e) });
      if (!api.isStopped(e)) toastError(e, t("models.downloadFailedShort"));
    } finally {
      cancelBtn.hidden = true;
      startBtn.disabled = false;
    }
  }

  const importBtn = button("", async () => {
    try {
      const installed = await withBusy(importBtn, () => api.importModel());
      if (!installed) return;
      toast(t("models.installed", { name: installed.name }), "success");
      await load();
    } catch (e) {
      toastError(e, t("models.importFailed"));
    }
  }, { class: "btn small", testid: "import-model" });
  importBtn.append(icon("plus", 14), t("models.import"));

  const downloadSection = h(
    "fieldset",
    null,
    h("legend", { text: t("models.downloadTitle") }),
    h("div", { class: "field-note network-note", testid: "download-network-note" }, icon("alert", 14), h("span", { text: t("models.networkNote") })),
    h("div", { class: "field" }, h("label", { class: "field-label", attrs: { for: "dl-url" }, text: t("models.url") }), url),
    h("div", { class: "field" }, h("label", { class: "field-label", attrs: { for: "dl-sha" }, text: t("models.sha256") }), sha),
    h("div", { class: "field" }, h("label", { class: "field-label", attrs: { for: "dl-name" }, text: t("models.fileName") }), name),
    h("div", { class: "field path-row" }, startBtn, cancelBtn),
    progressRow,
  );

  const handle = openModal(
    [
      h("div", { class: "dialog-head" }, h("h2", { class: "dialog-title", text: t("models.title") }), closeBtn),
      h(
        "div",
        { class: "settings-body" },
        h("fieldset", null, h("legend", { text: t("models.chatTitle") }), chatList, h("div", { class: "field" }, importBtn, h("div", { class: "field-note", text: t("models.importNote") }))),
        h("fieldset", null, h("legend", { text: t("models.embedTitle") }), embedList),
        downloadSection,
      ),
    ],
    {
      label: t("models.title"),
      testid: "models-dialog",
      className: "settings",
      onClose: () => {
        openHandle = null;
      },
    },
  );
  openHandle = handle;

  async function useChatModel(m: InstalledModel, settings: Settings) {
    try {
      await api.setSettings({ ...settings, chat_model: m.path, use_endpoint: false });
      setModelStatus(await api.modelStatus());
      toast(t("models.nowUsing", { name: m.name }), "success");
      await load();
    } catch (e) {
      toastError(e, t("settings.saveFailed"));
    }
  }

  function chatRows(models: InstalledModel[], status: ModelStatus, settings: Settings): HTMLElement {
    if (!models.length) return h("div", { class: "empty-hint", text: t("models.noChat") });
    return h(
      "ul",
      { class: "model-list", testid: "installed-models" },
      models.map((m) => {
        const current = !settings.use_endpoint && status.chat_model !== null && status.chat_model === m.path;
        const speed = m.speed
          ? tn("settings.speed", m.speed.answers, {
              gen: m.speed.generation_tokens_per_s.toFixed(1),
              prompt: Math.round(m.speed.prompt_tokens_per_s),
            })
          : t("settings.speedUnknown");
        const use = button(t("settings.use"), () => void useChatModel(m, settings), { class: "btn small", testid: "use-model" });
        return h(
          "li",
          { class: "model-row" + (current ? " current" : ""), testid: "installed-model", title: m.path },
          h("div", { class: "model-main" }, h("span", { class: "model-name", text: m.name }), h("span", { class: "model-size", text: chatFacts(m, current) })),
          h("div", { class: "model-speed", text: speed }),
          current ? null : use,
        );
      }),
    );
  }

  function embedRows(models: InstalledEmbedder[]): HTMLElement {
    if (!models.length) return h("div", { class: "empty-hint", text: t("models.noEmbedders") });
    return h(
      "ul",
      { class: "model-list", testid: "installed-embedders" },
      models.map((m) =>
        h(
          "li",
          { class: "model-row" + (m.in_use ? " current" : ""), testid: "installed-embedder", title: m.path },
          h("div", { class: "model-main" }, h("span", { class: "model-name", text: m.name }), h("span", { class: "model-size", text: embedderFacts(m) })),
          h("div", {
            class: "model-speed",
            text: m.speed ? t("models.embedSpeed", { rate: formatNumber(Math.round(m.speed.tokens_per_s)), runs: m.speed.runs }) : t("models.embedSpeedUnknown"),
          }),
        ),
      ),
    );
  }

  async function load() {
    try {
      const [settings, status, chat, embedders] = await Promise.all([
        api.getSettings(),
        api.modelStatus(),
        api.installedModels(),
        api.installedEmbeddingModels(),
      ]);
      replaceChildren(chatList, chatRows(chat, status, settings));
      replaceChildren(embedList, embedRows(embedders), h("div", { class: "field-note", text: t("models.embedNote") }));
    } catch (e) {
      replaceChildren(chatList, h("div", { class: "answer-error" }, icon("alert", 16), h("span", { text: api.errorText(e) })));
    }
  }
  void load();
}
