//! Grounded answers: evidence from retrieval, generation with llama.cpp (or an extractive
//! fallback), and citations checked against the evidence after generation.

pub mod abstain;
pub mod answerability;
pub mod asked;
pub mod ask;
mod asker;
pub mod attribute;
pub mod budget;
pub mod cite;
pub mod conversations;
mod draft;
pub mod endpoint_generator;
pub mod evidence;
pub mod export;
pub mod extractive;
pub mod facts;
mod gather;
pub mod generator;
pub mod guard;
pub mod judge;
mod library_answer;
pub mod lookup;
pub mod notice;
pub mod library_question;
pub mod numbers;
pub mod outcome;
pub mod llama;
mod mapreduce;
pub mod plan;
pub mod prompt;
pub mod repeat;
pub mod rewrite;
pub mod session;
mod stages;
pub mod suggest;
pub mod support;
pub mod tools;
mod verdict;

pub use ask::{Answer, AnswerMode, AskEvent, AskOptions, Asker, Timings};
pub use generator::{Generator, ModelInfo};
pub use llama::{LlamaGenerator, LlamaSettings};
