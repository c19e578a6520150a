// Settings dialog: models, GPU offload, data location, re-index.

import * as api from "../api";
import { button, h, icon, replaceChildren, withBusy } from "../dom";
import { setModelStatus } from "../store";
import type { InstalledModel, ModelKind, ModelStatus, Settings } from "../types";
import { confirmDialog, openModal } from "./modal";
import { toast, toastError } from "./toast";
import { refreshLibrary } from "./library";

let openHandle: { close: () => void } | null = null;

export function openSettings(): void {
  if (openHandle) return;
  const body = h("div", { class: "settings-body" }, h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), " Loading settings…"));
  const saveBtn = button("Save", () => void save(), { class: "btn primary", testid: "settings-save" });
  saveBtn.disabled = true;
  const cancelBtn = button("Cancel", () => handle.close(), { class: "btn", testid: "settings-cancel" });
  const closeBtn = button("", () => handle.close(), { class: "icon-button", attrs: { "aria-label": "Close settings" }, title: "Close (Esc)" });
  closeBtn.appendChild(icon("x", 18));

  const handle = openModal(
    [
      h("div", { class: "dialog-head" }, h("h2", { class: "dialog-title", text: "Settings" }), closeBtn),
      body,
      h("div", { class: "dialog-actions" }, cancelBtn, saveBtn),
    ],
    {
      label: "Settings",
      testid: "settings-dialog",
      className: "settings",
      backdropCloses: false,
      onClose: () => {
        openHandle = null;
      },
    },
  );
  openHandle = handle;

  let settings: Settings | null = null;
  const chatInput = h("input", { attrs: { type: "text", id: "set-chat", placeholder: "path to a .gguf chat model", spellcheck: "false" } });
  const embedInput = h("input", { attrs: { type: "text", id: "set-embed", placeholder: "path to the embedding model folder", spellcheck: "false" } });
  const gpu = h("input", { attrs: { type: "checkbox", id: "set-gpu" } });
  const ocr = h("input", { attrs: { type: "checkbox", id: "set-ocr" } });
  const dataDir = h("input", { attrs: { type: "text", id: "set-data", readonly: true } });

  const pick = (kind: ModelKind, input: HTMLInputElement) => {
    const b = button("Choose…", async () => {
      try {
        const p = await withBusy(b, () => api.pickModelFile(kind));
        if (p) input.value = p;
      } catch (e) {
        toastError(e, "Could not open the file dialog");
      }
    }, { class: "btn small" });
    return b;
  };

  const reindexBtn = button("", async () => {
    const ok = await confirmDialog(
      "Re-index everything?",
      "All folders are read, parsed and embedded again. Search keeps working meanwhile; this can take a while for large libraries.",
      "Re-index",
      true,
    );
    if (!ok) return;
    try {
      await withBusy(reindexBtn, () => api.reindexAll());
      toast("Re-indexing started", "success");
      void refreshLibrary();
    } catch (e) {
      toastError(e, "Could not re-index");
    }
  }, { class: "btn", testid: "reindex-button" });
  reindexBtn.append(icon("refresh", 14), "Re-index everything");

  function field(label: string, forId: string, control: Node, note?: Node | string | null): HTMLElement {
    return h(
      "div",
      { class: "field" },
      h("label", { class: "field-label", attrs: { for: forId }, text: label }),
      control,
      note ? h("div", { class: "field-note" }, note) : null,
    );
  }

  // Installed chat models with what they cost on this machine; "Use" fills the path.
  function modelList(models: InstalledModel[], inUse: string | null): HTMLElement | null {
    if (!models.length) return null;
    return h(
      "ul",
      { class: "model-list", testid: "installed-models" },
      models.map((m) => {
        const speed = m.speed
          ? `${m.speed.generation_tokens_per_s.toFixed(1)} tokens/s writing, ${Math.round(m.speed.prompt_tokens_per_s)} tokens/s reading (measured here over ${m.speed.answers} ${m.speed.answers === 1 ? "answer" : "answers"})`
          : "speed not measured yet: ask a question with it";
        const use = button("Use", () => {
          chatInput.value = m.path;
        }, { class: "btn small" });
        const current = inUse !== null && (inUse === m.path || inUse.endsWith(`/${m.name}`));
        return h(
          "li",
          { class: "model-row" + (current ? " current" : ""), testid: "installed-model", title: m.path },
          h(
            "div",
            { class: "model-main" },
            h("span", { class: "model-name", text: m.name }),
            h("span", { class: "model-size", text: `${(m.size_bytes / 1e6).toFixed(0)} MB${current ? " · in use" : ""}` }),
          ),
          h("div", { class: "model-speed", text: speed }),
          current ? null : use,
        );
      }),
    );
  }

  function fill(s: Settings, m: ModelStatus, models: InstalledModel[]) {
    settings = s;
    chatInput.value = s.chat_model ?? "";
    embedInput.value = s.embed_model ?? "";
    gpu.checked = s.gpu_offload && m.gpu_supported;
    gpu.disabled = !m.gpu_supported;
    ocr.checked = !s.skip_ocr;
    dataDir.value = s.data_dir;

    const chatNote = m.chat_model_problem
      ? h("span", { class: "warn" }, icon("alert", 14), ` ${m.chat_model_problem}`)
      : m.chat_model
        ? `Loaded: ${m.chat_model}`
        : "Without a chat model, answers are extractive (evidence sentences with citations).";

    replaceChildren(
      body,
      h(
        "fieldset",
        null,
        h("legend", { text: "Models" }),
        field("Chat model file", "set-chat", h("div", { class: "path-row" }, chatInput, pick("chat", chatInput)), chatNote),
        modelList(models, m.chat_model),
        field(
          "Embedding model folder",
          "set-embed",
          h("div", { class: "path-row" }, embedInput, pick("embedder", embedInput)),
          `In use: ${m.embedder}. Changing the embedder re-embeds the library.`,
        ),
        h(
          "div",
          { class: "field checkbox-field" + (m.gpu_supported ? "" : " disabled") },
          h("label", { attrs: { for: "set-gpu" } }, gpu, " Offload the chat model to the GPU"),
          h("div", {
            class: "field-note",
            text: m.gpu_supported
              ? "Faster answers if your GPU has enough memory for the model."
              : "Not available: this build or machine has no supported GPU, so models run on the CPU.",
          }),
        ),
      ),
      h(
        "fieldset",
        null,
        h("legend", { text: "Data" }),
        field("Data location", "set-data", dataDir, "Index, conversations and settings are stored here. Changes take effect after a restart."),
        h(
          "div",
          { class: "field checkbox-field" },
          h("label", { attrs: { for: "set-ocr" } }, ocr, " Read scanned pages with OCR"),
          h("div", {
            class: "field-note",
            text: "Pages without a text layer are read with Tesseract (English and Chinese). Applies to files indexed from now on.",
          }),
        ),
        h("div", { class: "field" }, reindexBtn, h("div", { class: "field-note", text: "Rebuilds the whole index from your folders." })),
      ),
    );
    saveBtn.disabled = false;
    chatInput.focus();
  }

  async function save() {
    if (!settings) return;
    const next: Settings = {
      ...settings,
      chat_model: chatInput.value.trim() || null,
      embed_model: embedInput.value.trim() || null,
      gpu_offload: gpu.checked,
      skip_ocr: !ocr.checked,
    };
    try {
      await withBusy(saveBtn, () => api.setSettings(next));
      toast("Settings saved", "success");
      handle.close();
      setModelStatus(await api.modelStatus());
    } catch (e) {
      toastError(e, "Could not save settings");
    }
  }

  Promise.all([api.getSettings(), api.modelStatus(), api.installedModels().catch(() => [] as InstalledModel[])])
    .then(([s, m, models]) => {
      setModelStatus(m);
      fill(s, m, models);
    })
    .catch((e) => {
      replaceChildren(body, h("div", { class: "answer-error" }, icon("alert", 16), h("span", { text: `Could not load settings: ${api.errorText(e)}` })));
      toastError(e, "Could not load settings");
    });
}
