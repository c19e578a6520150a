// Conversations section of the sidebar: list, reopen, inline rename, delete.

import * as api from "../api";
import { button, h, icon, replaceChildren, withBusy } from "../dom";
import { formatAgo } from "../format";
import { t, tn } from "../i18n";
import { bus, state } from "../store";
import type { ConversationSummary } from "../types";
import { confirmDialog } from "./modal";
import { toastError } from "./toast";

export interface ConversationsDeps {
  open: (id: number) => Promise<void>;
  newChat: () => void;
}

let conversations: ConversationSummary[] = [];
let loaded = false;
let renderList: () => void = () => {};

export function conversationTitle(id: number | null): string | null {
  if (id === null) return null;
  return conversations.find((c) => c.id === id)?.title ?? null;
}

export async function refreshConversations(): Promise<void> {
  try {
    conversations = await api.listConversations();
    loaded = true;
    renderList();
    bus.emit("conversations", undefined);
  } catch (e) {
    toastError(e, t("conversations.listFailed"));
  }
}

export function createConversationsPanel(deps: ConversationsDeps): HTMLElement {
  const list = h("ul", { class: "conv-list" });
  const empty = h("div", { class: "empty-hint", text: t("conversations.empty") });
  const loading = h("div", { class: "empty-hint" }, h("span", { class: "spinner small" }), ` ${t("common.loading")}`);
  let editing: number | null = null;
  let opening: number | null = null;

  const newBtn = button("", () => deps.newChat(), {
    class: "btn small",
    testid: "new-chat-button",
    title: t("conversations.newChatTitle"),
  });
  newBtn.append(icon("plus", 14), t("conversations.newChat"));

  function item(c: ConversationSummary): HTMLElement {
    const li = h("li", {
      class: "conv-item" + (c.id === state.conversationId ? " active" : ""),
      testid: "conversation-item",
      data: { id: c.id },
    });
    if (editing === c.id) {
      const input = h("input", {
        class: "conv-rename",
        attrs: { type: "text", "aria-label": t("conversations.renameLabel"), maxlength: 200 },
      });
      input.value = c.title;
      let done = false;
      const commit = async (save: boolean) => {
        if (done) return;
        done = true;
        editing = null;
        const title = input.value.trim();
        if (save && title && title !== c.title) {
          input.disabled = true;
          try {
            await api.renameConversation(c.id, title);
            c.title = title;
            bus.emit("conversations", undefined);
          } catch (e) {
            toastError(e, t("conversations.renameFailed"));
          }
        }
        renderList();
      };
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          void commit(true);
        } else if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          void commit(false);
        }
      });
      input.addEventListener("blur", () => void commit(true));
      li.appendChild(input);
      window.requestAnimationFrame(() => {
        input.focus();
        input.select();
      });
      return li;
    }

    const openBtn = h(
      "button",
      { class: "conv-open", attrs: { type: "button" }, title: c.title },
      h("span", { class: "conv-title", text: c.title || t("conversations.untitled") }),
      h("span", {
        class: "conv-meta",
        text: `${tn("conversations.questions", c.turns)} · ${formatAgo(c.updated_at)}`,
      }),
    );
    if (opening === c.id) openBtn.prepend(h("span", { class: "spinner small" }));
    openBtn.addEventListener("click", async () => {
      if (opening !== null) return;
      opening = c.id;
      renderList();
      try {
        await deps.open(c.id);
      } finally {
        opening = null;
        renderList();
      }
    });
    openBtn.addEventListener("dblclick", () => {
      editing = c.id;
      renderList();
    });
    const renameBtn = button("", () => {
      editing = c.id;
      renderList();
    }, { class: "icon-button", title: t("conversations.rename"), attrs: { "aria-label": t("conversations.renameAria") } });
    renameBtn.appendChild(icon("pencil", 14));
    const deleteBtn = button("", async () => {
      const ok = await confirmDialog(
        t("conversations.deleteConfirmTitle"),
        t("conversations.deleteConfirmText", { title: c.title }),
        t("conversations.delete"),
        true,
      );
      if (!ok) return;
      try {
        await withBusy(deleteBtn, () => api.deleteConversation(c.id));
        conversations = conversations.filter((x) => x.id !== c.id);
        if (state.conversationId === c.id) deps.newChat();
        renderList();
        bus.emit("conversations", undefined);
      } catch (e) {
        toastError(e, t("conversations.deleteFailed"));
      }
    }, { class: "icon-button", title: t("conversations.delete"), attrs: { "aria-label": t("conversations.deleteAria") } });
    deleteBtn.appendChild(icon("trash", 14));
    li.append(openBtn, h("div", { class: "conv-actions" }, renameBtn, deleteBtn));
    return li;
  }

  renderList = () => {
    loading.hidden = loaded;
    empty.hidden = !loaded || conversations.length > 0;
    replaceChildren(list, conversations.map(item));
  };

  bus.on("chatReset", () => renderList());

  const wrap = h(
    "section",
    { class: "sidebar-section conversations", attrs: { "aria-label": t("conversations.title") } },
    h("div", { class: "section-head" }, h("h2", { text: t("conversations.title") }), newBtn),
    loading,
    empty,
    list,
  );
  renderList();
  void refreshConversations();
  return wrap;
}
