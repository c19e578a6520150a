//! What an answer says about itself — why it abstained, why source sentences stand in for the
//! model's, that it was stopped — as codes with parameters, so that the app says them in the
//! user's language. [`Notice::english`] is the wording of the command line and of `note`.

use serde::{Deserialize, Serialize};

use super::facts::Reason;
use crate::lang::Lang;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Notice {
    /// The library does not state the asked fact: only the nearest passages are shown.
    Abstained {
        why: Abstention,
        /// What the closest sentence got wrong, when one came close.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        near_miss: Option<Reason>,
    },
    /// No chat model is loaded: the best source sentences are the answer.
    NoModel,
    /// The model failed: the best source sentences are the answer.
    GenerationFailed { error: String },
    /// The model said the passages do not answer; the best source sentences are shown.
    ModelFoundNothing,
    /// No sentence of the model's answer matched the sources; the best source sentences are shown.
    NothingMatched,
    /// Some of the model's sentences matched no source: the source sentences come first.
    SourcesFirst,
    /// The user stopped the model before it finished.
    Stopped,
    /// The embedding model does not read the question's language: search leaned on keywords.
    KeywordSearch { lang: Lang },
    /// A question about the library itself, answered from the index.
    FromIndex,
    /// A whole-document task read in sections whose notes were combined.
    ReadSections { sections: usize, documents: usize },
    /// The figures were computed by Pagewise from the cited table cells, not by the model.
    Computed,
}

/// Why an answer abstained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Abstention {
    /// Retrieval found no passage that covers the question.
    NoPassage,
    /// The sources state other periods than the one asked about.
    OtherPeriods { period: String },
    /// The question names something (a model number, a version, a figure) the sources never
    /// write.
    NotMentioned { name: String },
    /// The model judged that the passages do not answer.
    ModelJudged,
    /// The sources name the subject, but no checked sentence gives the kind of value asked for.
    OtherKind,
    /// The checked sentences are about other periods than the one asked about.
    CheckedOtherPeriods,
    /// Neither the model nor the best source sentences state a value of the asked kind or period.
    NothingStated,
    /// The question names something the sources name too, but the sentences that would answer
    /// are about other things.
    OtherSubject { name: String },
}

impl Abstention {
    fn english(&self) -> String {
        match self {
            Abstention::NoPassage => "retrieval found no passage that covers the question".into(),
            Abstention::OtherPeriods { period } => format!("the sources state other periods than the one asked about ({period})"),
            Abstention::NotMentioned { name } => format!("the sources do not mention {name}"),
            Abstention::ModelJudged => "the model judged that the passages do not answer the question".into(),
            Abstention::OtherKind => "the sources name the subject but no checked sentence gives the kind of value asked for".into(),
            Abstention::CheckedOtherPeriods => "the checked sentences are about other periods than the one asked about".into(),
            Abstention::NothingStated => {
                "neither the model nor the best source sentences state a value of the kind or period asked for".into()
            }
            Abstention::OtherSubject { name } => format!("the sources name {name}, but the sentences that would answer are about other things"),
        }
    }
}

impl Notice {
    pub fn english(&self) -> String {
        match self {
            Notice::Abstained { why, near_miss: None } => format!("Abstained: {}.", why.english()),
            Notice::Abstained { why, near_miss: Some(reason) } => {
                format!("Abstained: {}. Nearest near miss: {}.", why.english(), reason.label(Lang::En))
            }
            Notice::NoModel => {
                "Extractive answer: no language model is loaded; these are the source sentences that best match the question.".into()
            }
            Notice::GenerationFailed { error } => format!("Extractive answer: generation failed ({error})."),
            Notice::ModelFoundNothing => {
                "The model found no answer in these passages; these are the source sentences that best match the question.".into()
            }
            Notice::NothingMatched => "Extractive answer: no sentence of the model's answer could be matched to the sources, so these are the source sentences that best match the question.".into(),
            Notice::SourcesFirst => "Some of the model's sentences could not be matched to the sources: the source sentences come first.".into(),
            Notice::Stopped => "Stopped before the model finished: the answer is incomplete.".into(),
            Notice::KeywordSearch { lang } => lang.keyword_search_note().into(),
            Notice::FromIndex => "Answered from the library's index (no model involved).".into(),
            Notice::ReadSections { sections, documents } => {
                format!("Read {sections} sections of {documents} document(s) and combined their notes.")
            }
            Notice::Computed => "Computed by Pagewise from the cited table cells; the model wrote none of it.".into(),
        }
    }
}

/// The notices in English, one after the other: an answer's `note`.
pub fn english(notices: &[Notice]) -> Option<String> {
    let said: Vec<String> = notices.iter().map(Notice::english).filter(|s| !s.is_empty()).collect();
    (!said.is_empty()).then(|| said.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_travel_as_codes_and_read_as_the_command_line_has_them() {
        let notice = Notice::Abstained { why: Abstention::OtherKind, near_miss: Some(Reason::Direction) };
        let wire = serde_json::to_value(&notice).unwrap();
        assert_eq!(wire["code"], "abstained");
        assert_eq!(wire["why"]["kind"], "other_kind");
        assert_eq!(wire["near_miss"], "direction");
        assert!(notice.english().starts_with("Abstained: the sources name the subject"), "{}", notice.english());
        assert!(notice.english().ends_with(&format!("Nearest near miss: {}.", Reason::Direction.label(Lang::En))));
        let gap = Notice::KeywordSearch { lang: Lang::Zh };
        assert_eq!(serde_json::to_value(&gap).unwrap()["lang"], "zh");
        assert_eq!(english(&[Notice::Stopped, gap]).unwrap(), format!("{} {}", Notice::Stopped.english(), Lang::Zh.keyword_search_note()));
        assert_eq!(english(&[Notice::KeywordSearch { lang: Lang::En }]), None, "an English question has no keyword note");
    }
}
