//! Grounded answers: evidence from retrieval, generation with llama.cpp (or an extractive
//! fallback), and citations checked against the evidence after generation.

pub(crate) mod abstain;
pub(crate) mod answerability;
pub(crate) mod asked;
pub(crate) mod ask;
mod asker;
pub(crate) mod attribute;
pub(crate) mod budget;
pub(crate) mod cite;
pub(crate) mod conversations;
mod draft;
pub(crate) mod endpoint_generator;
pub(crate) mod evidence;
pub(crate) mod export;
pub(crate) mod extractive;
pub(crate) mod facts;
mod gather;
pub(crate) mod generator;
pub(crate) mod guard;
pub(crate) mod judge;
mod library_answer;
pub(crate) mod lookup;
pub(crate) mod notice;
pub(crate) mod library_question;
pub(crate) mod numbers;
pub(crate) mod outcome;
pub(crate) mod llama;
mod mapreduce;
pub(crate) mod plan;
pub(crate) mod prompt;
pub(crate) mod repeat;
pub(crate) mod rewrite;
pub(crate) mod session;
mod stages;
pub(crate) mod suggest;
pub(crate) mod support;
pub(crate) mod tools;
mod verdict;

// The front door: what the CLI, the app and the tests use. The modules stay the crate's own.
pub use ask::{Answer, AnswerMode, AskEvent, AskOptions, Asker, Timings};
pub use attribute::{attribute, section_label, Sentence, SentenceStatus, Vectors};
pub use cite::{best_quote, find_labels, split_claims, Claim};
pub use conversations::{ConversationSummary, Conversations, Turn, ANSWER_FORMAT};
pub use endpoint_generator::EndpointGenerator;
pub use evidence::{date_of, label, EvidencePage, EvidencePassage, EvidenceSet};
pub use export::{provenance_csv, to_markdown, AnswerRecord};
pub use generator::{ChatMessage, GenerationEvent, GenerationRequest, GenerationStats, Generator, ModelInfo, Prompt, Role};
pub use guard::neutralised;
pub use judge::{claim_supported, settle_unsure};
pub use llama::{LlamaGenerator, LlamaSettings};
pub use lookup::{asks_for_figure, rows_on_page};
pub use prompt::{answer_messages, completion_layout};
pub use session::ask_in_conversation;
pub use suggest::suggested_questions;
pub use support::{source_names, support, ClaimFacts};
pub use tools::Step;
