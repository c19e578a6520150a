// What an answer says about itself, in the page's language: the backend sends notices as
// codes with parameters (its English `note` is for the command line and older turns).

import type { Abstention } from "./bindings/Abstention";
import type { LibraryNotice } from "./bindings/LibraryNotice";
import type { Notice } from "./bindings/Notice";
import { formatNumber, t } from "./i18n";

function abstention(why: Abstention): string {
  switch (why.kind) {
    case "no_passage":
      return t("abstention.no_passage");
    case "other_periods":
      return t("abstention.other_periods", { period: why.period });
    case "not_mentioned":
      return t("abstention.not_mentioned", { name: why.name });
    case "model_judged":
      return t("abstention.model_judged");
    case "other_kind":
      return t("abstention.other_kind");
    case "checked_other_periods":
      return t("abstention.checked_other_periods");
    case "nothing_stated":
      return t("abstention.nothing_stated");
    case "other_subject":
      return t("abstention.other_subject", { name: why.name });
  }
}

export function noticeText(n: Notice): string {
  switch (n.code) {
    case "abstained":
      return n.near_miss
        ? t("notice.abstainedNearMiss", { why: abstention(n.why), reason: t(`reason.${n.near_miss}`) })
        : t("notice.abstained", { why: abstention(n.why) });
    case "no_model":
      return t("notice.noModel");
    case "generation_failed":
      return t("notice.generationFailed", { error: n.error });
    case "model_found_nothing":
      return t("notice.modelFoundNothing");
    case "nothing_matched":
      return t("notice.nothingMatched");
    case "sources_first":
      return t("notice.sourcesFirst");
    case "stopped":
      return t("notice.stopped");
    case "keyword_search":
      return n.lang === "en" ? "" : t("notice.keywordSearch", { language: t(`language.${n.lang}`) });
    case "from_index":
      return t("notice.fromIndex");
    case "read_sections":
      return t("notice.readSections", { sections: n.sections, documents: n.documents });
    case "computed":
      return t("notice.computed");
  }
}

/** The answer's notes in the page's language: from its notices, or its English note where it has none. */
export function answerNotes(a: { notices: Notice[]; note: string | null }): string[] {
  if (a.notices.length) return a.notices.map(noticeText).filter((s) => s.length > 0);
  return a.note ? [a.note] : [];
}

/** What the library status says about the library as a whole, in the page's language. */
export function libraryNoticeText(n: LibraryNotice): string {
  switch (n.code) {
    case "starting":
      return t("libraryNotice.starting");
    case "rebuilding_for_new_version":
      return t("libraryNotice.rebuilding_for_new_version");
    case "model_changed":
      return t("libraryNotice.model_changed", { from: n.from, to: n.to, passages: formatNumber(n.passages) });
    case "vectors_rebuilt":
      return t("libraryNotice.vectors_rebuilt", { vectors: formatNumber(n.vectors) });
    case "keyword_index_rebuilt":
      return t("libraryNotice.keyword_index_rebuilt", { extra: formatNumber(n.extra), missing: formatNumber(n.missing) });
    case "embedded_with_other_model":
      return t("libraryNotice.embedded_with_other_model", { model: n.model, current: n.current });
    case "no_gpu":
      return t("libraryNotice.no_gpu", { gpu: n.gpu, why: n.why });
    case "embedding_server_unreachable":
      return t("libraryNotice.embedding_server_unreachable", { why: n.why });
    case "embedding_server_stopped":
      return t("libraryNotice.embedding_server_stopped", { why: n.why, waiting: formatNumber(n.waiting) });
    case "events_lost":
      return t("libraryNotice.events_lost", { why: n.why });
  }
}
