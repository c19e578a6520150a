// What an answer says about itself, in the page's language: the backend sends notices as
// codes with parameters (its English `note` is for the command line and older turns).

import type { Abstention } from "./bindings/Abstention";
import type { Notice } from "./bindings/Notice";
import { t } from "./i18n";

function abstention(why: Abstention): string {
  switch (why.kind) {
    case "no_passage":
      return t("abstention.no_passage");
    case "other_periods":
      return t("abstention.other_periods", { period: why.period });
    case "model_judged":
      return t("abstention.model_judged");
    case "other_kind":
      return t("abstention.other_kind");
    case "checked_other_periods":
      return t("abstention.checked_other_periods");
    case "nothing_stated":
      return t("abstention.nothing_stated");
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
  }
}

/** The answer's notes in the page's language: from its notices, or its English note where it has none. */
export function answerNotes(a: { notices: Notice[]; note: string | null }): string[] {
  if (a.notices.length) return a.notices.map(noticeText).filter((s) => s.length > 0);
  return a.note ? [a.note] : [];
}
