// Settings dialog: language, models, GPU offload, data location, re-index, and the log of
// every network connection the app has made.

import * as api from "../api";
import { button, h, icon, replaceChildren, withBusy } from "../dom";
import { LOCALE_NAMES, formatDateTime, formatNumber, storePreference, storedPreference, t, tn, type Locale, type LocalePreference } from "../i18n";
import { setModelStatus } from "../store";
import type { InstalledModel, KeySource, ModelKind, ModelStatus, NetworkLogRow, NetworkPurpose, Settings } from "../types";
import { confirmDialog, openModal } from "./modal";
import { toast, toastError } from "./toast";
import { refreshLibrary } from "./library";
import { openModels } from "./models";

let openHandle: { close: () => void } | null = null;

const REOPEN_KEY = "pagewise.reopenSettings";

/** Shows the dialog again after a language change reloaded the window, now in that language. */
export function reopenSettingsAfterReload(): void {
  try {
    if (!sessionStorage.getItem(REOPEN_KEY)) return;
    sessionStorage.removeItem(REOPEN_KEY);
  } catch {
    return; // storage unavailable
  }
  openSettings();
}

// Every text on the page is read as it is built, so a new language takes a reload; the
// choice is the page's own (localStorage), not a backend setting, so Save is not needed.
function applyLanguage(preference: LocalePreference): void {
  storePreference(preference);
  try {
    sessionStorage.setItem(REOPEN_KEY, "1");
  } catch {
    /* storage unavailable: the dialog just stays closed after the reload */
  }
  location.reload();
}

const PURPOSE_TEXT: Record<NetworkPurpose, () => string> = {
  model_download: () => t("settings.networkModelDownload"),
  answer_server: () => t("settings.networkAnswerServer"),
  embedding_server: () => t("settings.networkEmbeddingServer"),
  server_models: () => t("settings.networkServerModels"),
};

function networkRow(row: NetworkLogRow): HTMLElement {
  const when = row.first === row.last ? formatDateTime(row.first) : `${formatDateTime(row.first)} – ${formatDateTime(row.last)}`;
  return h(
    "li",
    { class: "network-row", testid: "network-log-row", data: { purpose: row.purpose } },
    h("span", { class: "network-when", text: when }),
    h("span", { class: "network-host", text: `${row.host}:${row.port}` }),
    h("span", { class: "network-why", text: PURPOSE_TEXT[row.purpose]() }),
    row.count > 1 ? h("span", { class: "network-count", text: tn("settings.networkRequests", row.count) }) : null,
  );
}

/** Settings → Network: what the shell's network log holds, or that nothing connected, and
 *  that nothing outside the log connects. Loads on its own, so it shows even when the
 *  rest of the settings cannot be read. */
const NETWORK_ROWS_SHOWN = 100;

function networkSection(): HTMLElement {
  const list = h("div", { testid: "network-log-list" }, h("span", { class: "spinner small" }));
  api
    .networkLog()
    .then((rows) =>
      replaceChildren(
        list,
        rows.length
          ? h(
              "div",
              null,
              // Newest first, and only the latest: the whole log is in `pagewise network-log`.
              h("ul", { class: "network-log" }, rows.slice(-NETWORK_ROWS_SHOWN).reverse().map(networkRow)),
              rows.length > NETWORK_ROWS_SHOWN ? h("div", { class: "field-note", text: t("settings.networkEarlier", { n: rows.length - NETWORK_ROWS_SHOWN }) }) : null,
            )
          : h("div", { class: "field-note", testid: "network-log-empty", text: t("settings.networkEmpty") }),
      ),
    )
    .catch((e) => replaceChildren(list, h("div", { class: "field-note warn", text: t("settings.networkLoadFailed", { error: api.errorText(e) }) })));
  return h(
    "fieldset",
    { testid: "network-log" },
    h("legend", { text: t("settings.network") }),
    h("div", { class: "field-note", text: t("settings.networkIntro") }),
    list,
    h("div", { class: "field-note", testid: "network-log-nothing-else", text: t("settings.networkNothingElse") }),
  );
}

export function openSettings(): void {
  if (openHandle) return;
  // the backend's settings; the language field above them works without the backend
  const form = h("div", null, h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("settings.loading")}`));
  const saveBtn = button(t("settings.save"), () => void save(), { class: "btn primary", testid: "settings-save" });
  saveBtn.disabled = true;
  const cancelBtn = button(t("common.cancel"), () => handle.close(), { class: "btn", testid: "settings-cancel" });
  const closeBtn = button("", () => handle.close(), { class: "icon-button", attrs: { "aria-label": t("settings.close") }, title: t("common.closeEsc") });
  closeBtn.appendChild(icon("x", 18));

  const language = h(
    "select",
    { testid: "settings-language", attrs: { id: "set-language" } },
    h("option", { attrs: { value: "auto" }, text: t("settings.languageAuto") }),
    (Object.keys(LOCALE_NAMES) as Locale[]).map((l) => h("option", { attrs: { value: l, lang: l }, text: LOCALE_NAMES[l] })),
  );
  language.value = storedPreference();
  language.addEventListener("change", () => applyLanguage(language.value as LocalePreference));
  const body = h(
    "div",
    { class: "settings-body" },
    h(
      "fieldset",
      null,
      h("legend", { text: t("settings.language") }),
      field(t("settings.languageLabel"), "set-language", language, t("settings.languageNote")),
    ),
    form,
    networkSection(),
  );

  const handle = openModal(
    [
      h("div", { class: "dialog-head" }, h("h2", { class: "dialog-title", text: t("common.settings") }), closeBtn),
      body,
      h("div", { class: "dialog-actions" }, cancelBtn, saveBtn),
    ],
    {
      label: t("common.settings"),
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
  const chatInput = h("input", { attrs: { type: "text", id: "set-chat", placeholder: t("settings.chatPlaceholder"), spellcheck: "false" } });
  const embedInput = h("input", { attrs: { type: "text", id: "set-embed", placeholder: t("settings.embedPlaceholder"), spellcheck: "false" } });
  const gpu = h("input", { attrs: { type: "checkbox", id: "set-gpu" } });
  const ocr = h("input", { attrs: { type: "checkbox", id: "set-ocr" } });
  const firstToken = h("input", {
    attrs: { type: "number", id: "set-first-token", min: "1", step: "1", placeholder: t("settings.firstTokenNone") },
    testid: "first-token-within",
  });
  const dataDir = h("input", { attrs: { type: "text", id: "set-data", readonly: true } });
  // Where answers are written: this computer, or an OpenAI-compatible server.
  const genLocal = h("input", { testid: "generate-local", attrs: { type: "radio", name: "set-generate", id: "set-generate-local" } });
  const genServer = h("input", { testid: "generate-server", attrs: { type: "radio", name: "set-generate", id: "set-generate-server" } });
  const endpointUrl = h("input", {
    testid: "endpoint-url",
    attrs: { type: "text", inputmode: "url", id: "set-endpoint-url", placeholder: "http://127.0.0.1:8080/v1", spellcheck: "false" },
  });
  const endpointModel = h("select", { testid: "endpoint-model", attrs: { id: "set-endpoint-model" } });
  const setEndpointModels = (names: string[], chosen: string) => {
    const all = chosen && !names.includes(chosen) ? [chosen, ...names] : names;
    replaceChildren(
      endpointModel,
      h("option", { attrs: { value: "" }, text: t("settings.endpointOnlyModel") }),
      all.map((n) => h("option", { attrs: { value: n }, text: n })),
    );
    endpointModel.value = chosen;
  };
  const findModels = button(t("settings.endpointFind"), async () => {
    try {
      const names = await withBusy(findModels, () => api.endpointModels(endpointUrl.value.trim()));
      setEndpointModels(names, endpointModel.value || names[0] || "");
      toast(tn("settings.endpointFound", names.length), "success");
    } catch (e) {
      toastError(e, t("settings.endpointUnreachable"));
    }
  }, { class: "btn small", testid: "endpoint-find" });
  const endpointFields = h(
    "div",
    { class: "endpoint-fields", testid: "endpoint-fields" },
    field(t("settings.endpointUrl"), "set-endpoint-url", h("div", { class: "path-row" }, endpointUrl, findModels)),
    field(t("settings.endpointModel"), "set-endpoint-model", endpointModel),
    h("div", { class: "field-note network-note", testid: "endpoint-network-note" }, icon("alert", 14), h("span", { text: t("settings.endpointNetwork") })),
  );
  // The server's API key: stored by the shell (OS keyring, else a private file), never read back.
  const apiKey = h("input", { testid: "api-key", attrs: { type: "password", id: "set-api-key", autocomplete: "off", placeholder: t("settings.apiKeyPlaceholder") } });
  const apiKeyNote = h("div", { class: "field-note", testid: "api-key-source" });
  const showKeySource = (k: KeySource) => {
    apiKeyNote.textContent =
      k.kind === "keyring" ? t("settings.apiKeyKeyring")
      : k.kind === "environment" ? t("settings.apiKeyEnvironment")
      : k.kind === "file" ? t("settings.apiKeyFile", { path: k.path })
      : t("settings.apiKeyNone");
  };
  const saveKey = button(t("settings.apiKeySave"), async () => {
    try {
      showKeySource(await withBusy(saveKey, () => api.setApiKey(apiKey.value)));
      apiKey.value = "";
      toast(t("settings.apiKeySaved"), "success");
    } catch (e) {
      toastError(e, t("settings.apiKeySaveFailed"));
    }
  }, { class: "btn small", testid: "api-key-save" });
  endpointFields.append(field(t("settings.apiKey"), "set-api-key", h("div", { class: "path-row" }, apiKey, saveKey), apiKeyNote));
  const showGeneration = () => {
    endpointFields.hidden = !genServer.checked;
  };
  genLocal.addEventListener("change", showGeneration);
  genServer.addEventListener("change", showGeneration);

  // Where passage vectors are computed: this computer, or an OpenAI-compatible server.
  const embedLocal = h("input", { testid: "embed-local", attrs: { type: "radio", name: "set-embed-where", id: "set-embed-local" } });
  const embedServer = h("input", { testid: "embed-server", attrs: { type: "radio", name: "set-embed-where", id: "set-embed-server" } });
  const embedUrl = h("input", {
    testid: "embed-endpoint-url",
    attrs: { type: "text", inputmode: "url", id: "set-embed-url", placeholder: "http://127.0.0.1:8080/v1", spellcheck: "false" },
  });
  const embedModelName = h("input", { testid: "embed-endpoint-model", attrs: { type: "text", id: "set-embed-endpoint-model", placeholder: t("settings.endpointOnlyModel"), spellcheck: "false" } });
  const embedServerFields = h(
    "div",
    { class: "endpoint-fields", testid: "embed-endpoint-fields" },
    field(t("settings.endpointUrl"), "set-embed-url", embedUrl),
    field(t("settings.endpointModel"), "set-embed-endpoint-model", embedModelName),
    h("div", { class: "field-note network-note", testid: "embed-network-note" }, icon("alert", 14), h("span", { text: t("settings.embedEndpointNetwork") })),
  );
  const showEmbedding = () => {
    embedServerFields.hidden = !embedServer.checked;
  };
  embedLocal.addEventListener("change", showEmbedding);
  embedServer.addEventListener("change", showEmbedding);

  const pick = (kind: ModelKind, input: HTMLInputElement) => {
    const b = button(t("settings.choose"), async () => {
      try {
        const p = await withBusy(b, () => api.pickModelFile(kind));
        if (p) input.value = p;
      } catch (e) {
        toastError(e, t("settings.fileDialogFailed"));
      }
    }, { class: "btn small" });
    return b;
  };

  const reindexBtn = button("", async () => {
    const ok = await confirmDialog(
      t("settings.reindexConfirmTitle"),
      t("settings.reindexConfirmText"),
      t("settings.reindexConfirmOk"),
      true,
    );
    if (!ok) return;
    try {
      await withBusy(reindexBtn, () => api.reindexAll());
      toast(t("settings.reindexStarted"), "success");
      void refreshLibrary();
    } catch (e) {
      toastError(e, t("settings.reindexFailed"));
    }
  }, { class: "btn", testid: "reindex-button" });
  reindexBtn.append(icon("refresh", 14), t("settings.reindex"));

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
          ? tn("settings.speed", m.speed.answers, {
              gen: m.speed.generation_tokens_per_s.toFixed(1),
              prompt: Math.round(m.speed.prompt_tokens_per_s),
            })
          : t("settings.speedUnknown");
        const use = button(t("settings.use"), () => {
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
            h("span", {
              class: "model-size",
              text: [
                t("settings.modelSize", { mb: (m.size_bytes / 1e6).toFixed(0) }),
                m.gguf?.quantisation ?? null,
                m.gguf?.context_length ? t("settings.contextLength", { tokens: formatNumber(m.gguf.context_length) }) : null,
                m.gguf?.license ? t("settings.license", { license: m.gguf.license }) : null,
                current ? t("settings.inUse") : null,
              ]
                .filter((part) => part !== null)
                .join(" · "),
            }),
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
    firstToken.value = s.first_token_within_s ? String(s.first_token_within_s) : "";
    dataDir.value = s.data_dir;
    genServer.checked = s.use_endpoint;
    genLocal.checked = !s.use_endpoint;
    endpointUrl.value = s.endpoint_url;
    setEndpointModels([], s.endpoint_model);
    showGeneration();
    embedServer.checked = s.embed_use_endpoint;
    embedLocal.checked = !s.embed_use_endpoint;
    embedUrl.value = s.embed_endpoint_url;
    embedModelName.value = s.embed_endpoint_model;
    showEmbedding();
    void api.apiKeySource().then(showKeySource).catch(() => undefined);

    const chatNote = m.chat_model_problem
      ? h("span", { class: "warn" }, icon("alert", 14), ` ${m.chat_model_problem}`)
      : m.chat_model
        ? t("settings.loaded", { model: m.chat_model })
        : t("settings.noChatModel");

    replaceChildren(
      form,
      h(
        "fieldset",
        null,
        h("legend", { text: t("settings.generation") }),
        h(
          "div",
          { class: "field radio-field" },
          h("label", { attrs: { for: "set-generate-local" } }, genLocal, ` ${t("settings.generateLocal")}`),
          h("label", { attrs: { for: "set-generate-server" } }, genServer, ` ${t("settings.generateServer")}`),
        ),
        endpointFields,
      ),
      h(
        "fieldset",
        null,
        h("legend", { text: t("settings.models") }),
        field(t("settings.chatModel"), "set-chat", h("div", { class: "path-row" }, chatInput, pick("chat", chatInput)), chatNote),
        modelList(models, m.chat_model),
        h(
          "div",
          { class: "field" },
          button(t("models.manage"), () => {
            handle.close();
            openModels();
          }, { class: "btn small", testid: "manage-models" }),
        ),
        field(
          t("settings.embedModel"),
          "set-embed",
          h("div", { class: "path-row" }, embedInput, pick("embedder", embedInput)),
          t("settings.embedNote", { embedder: m.embedder }),
        ),
        h(
          "div",
          { class: "field radio-field" },
          h("label", { attrs: { for: "set-embed-local" } }, embedLocal, ` ${t("settings.embedLocal")}`),
          h("label", { attrs: { for: "set-embed-server" } }, embedServer, ` ${t("settings.embedServer")}`),
        ),
        embedServerFields,
        h(
          "div",
          { class: "field checkbox-field" + (m.gpu_supported ? "" : " disabled") },
          h("label", { attrs: { for: "set-gpu" } }, gpu, ` ${t("settings.gpu")}`),
          h("div", {
            class: "field-note",
            text: m.gpu_supported
              ? t("settings.gpuNote")
              : t("settings.gpuUnavailable"),
          }),
        ),
        field(t("settings.firstToken"), "set-first-token", firstToken, t("settings.firstTokenNote")),
      ),
      h(
        "fieldset",
        null,
        h("legend", { text: t("settings.data") }),
        field(t("settings.dataDir"), "set-data", dataDir, t("settings.dataDirNote")),
        h(
          "div",
          { class: "field checkbox-field" },
          h("label", { attrs: { for: "set-ocr" } }, ocr, ` ${t("settings.ocr")}`),
          h("div", {
            class: "field-note",
            text: t("settings.ocrNote"),
          }),
        ),
        h("div", { class: "field" }, reindexBtn, h("div", { class: "field-note", text: t("settings.reindexNote") })),
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
      first_token_within_s: firstTokenSeconds(firstToken.value),
      use_endpoint: genServer.checked,
      endpoint_url: endpointUrl.value.trim(),
      endpoint_model: endpointModel.value,
      embed_use_endpoint: embedServer.checked,
      embed_endpoint_url: embedUrl.value.trim(),
      embed_endpoint_model: embedModelName.value.trim(),
    };
    try {
      await withBusy(saveBtn, () => api.setSettings(next));
      toast(t("settings.saved"), "success");
      handle.close();
      setModelStatus(await api.modelStatus());
    } catch (e) {
      toastError(e, t("settings.saveFailed"));
    }
  }

  Promise.all([api.getSettings(), api.modelStatus(), api.installedModels().catch(() => [] as InstalledModel[])])
    .then(([s, m, models]) => {
      setModelStatus(m);
      fill(s, m, models);
    })
    .catch((e) => {
      replaceChildren(form, h("div", { class: "answer-error" }, icon("alert", 16), h("span", { text: t("settings.loadFailedDetail", { error: api.errorText(e) }) })));
      toastError(e, t("settings.loadFailed"));
    });
}

/** The first-token wait typed in the field: a positive number of seconds, or no limit. */
export function firstTokenSeconds(typed: string): number | null {
  const seconds = Number.parseFloat(typed.trim());
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}
