//! The language of a question, by script: answers, prompts and the "not covered" sentence
//! follow it. Scripts are enough here: what matters is CJK against alphabetic text.

use serde::{Deserialize, Serialize};

use crate::text::{is_han, is_hangul, is_kana};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Lang {
    En,
    Zh,
    Ja,
    Ko,
}

impl Lang {
    /// CJK when at least a fifth of the letters are CJK ("RAG 的召回率怎么提升的" is Chinese).
    pub fn of(text: &str) -> Lang {
        let (mut letters, mut han, mut kana, mut hangul) = (0usize, 0usize, 0usize, 0usize);
        for c in text.chars().filter(|c| c.is_alphabetic()) {
            letters += 1;
            han += usize::from(is_han(c));
            kana += usize::from(is_kana(c));
            hangul += usize::from(is_hangul(c));
        }
        let cjk = han + kana + hangul;
        if letters == 0 || cjk * 5 < letters {
            Lang::En
        } else if hangul >= han.max(kana) {
            Lang::Ko
        } else if kana > 0 {
            Lang::Ja
        } else {
            Lang::Zh
        }
    }

    /// The one sentence an answer gives when the documents do not answer the question.
    pub fn not_covered(self) -> &'static str {
        match self {
            Lang::En => "The documents do not cover this.",
            Lang::Zh => "文档中没有涉及这个问题。",
            Lang::Ja => "資料にはこの内容は書かれていません。",
            Lang::Ko => "문서에는 이 내용이 없습니다.",
        }
    }

    /// "The nearest passages are …" before a list of labels.
    pub fn nearest_passages(self) -> &'static str {
        match self {
            Lang::En => "The nearest passages are",
            Lang::Zh => "最接近的段落是",
            Lang::Ja => "最も近い箇所は",
            Lang::Ko => "가장 가까운 구절은",
        }
    }

    /// Marks a sentence no source supports.
    pub fn unsupported_mark(self) -> &'static str {
        match self {
            Lang::En => "(not supported by the sources)",
            Lang::Zh => "（来源中找不到依据）",
            Lang::Ja => "（資料に根拠がありません）",
            Lang::Ko => "(출처에서 근거를 찾을 수 없음)",
        }
    }

    /// Said when the embedding model cannot read this language (never for English).
    pub fn keyword_search_note(self) -> &'static str {
        match self {
            Lang::En => "",
            Lang::Zh => "Search leaned on keywords: the embedding model does not read Chinese.",
            Lang::Ja => "Search leaned on keywords: the embedding model does not read Japanese.",
            Lang::Ko => "Search leaned on keywords: the embedding model does not read Korean.",
        }
    }

    pub fn all() -> [Lang; 4] {
        [Lang::En, Lang::Zh, Lang::Ja, Lang::Ko]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_decide() {
        assert_eq!(Lang::of("How long are logs kept?"), Lang::En);
        assert_eq!(Lang::of("RAG 的召回率怎么提升的？"), Lang::Zh);
        assert_eq!(Lang::of("客服Agent在客户投诉后多少分钟才把最新SOP向量化入库？"), Lang::Zh);
        assert_eq!(Lang::of("ログはどのくらい保存されますか"), Lang::Ja);
        assert_eq!(Lang::of("로그는 얼마나 보관됩니까?"), Lang::Ko);
        assert_eq!(Lang::of("What does 知识库 mean in this report about retrieval quality?"), Lang::En);
    }
}
