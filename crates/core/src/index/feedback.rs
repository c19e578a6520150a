//! "Does not support this" reports on citations, kept beside the conversations, and their
//! export as evaluation questions so that the evals grow from use.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection};
use serde::Serialize;

use super::CONVERSATIONS_FILE;
use crate::error::{Error, Result};

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS citation_feedback (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER,
    turn INTEGER,
    question TEXT NOT NULL,
    claim TEXT NOT NULL,
    label TEXT NOT NULL,
    doc_path TEXT NOT NULL,
    page INTEGER NOT NULL,
    chunk_id INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
"#;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationFeedback {
    pub id: i64,
    pub conversation_id: Option<i64>,
    pub turn: Option<i64>,
    pub question: String,
    pub claim: String,
    pub label: String,
    pub doc_path: PathBuf,
    pub page: u32,
    pub chunk_id: i64,
    pub verdict: String,
    pub created_at: i64,
}

/// A report to record: the user says the passage at (doc_path, page, chunk_id) does not
/// support `claim` in the answer to `question`.
#[derive(Debug, Clone)]
pub struct NewFeedback<'a> {
    pub conversation_id: Option<i64>,
    pub turn: Option<i64>,
    pub question: &'a str,
    pub claim: &'a str,
    pub label: &'a str,
    pub doc_path: &'a Path,
    pub page: u32,
    pub chunk_id: i64,
}

pub const DOES_NOT_SUPPORT: &str = "does_not_support";

pub struct FeedbackStore {
    conn: Connection,
    path: PathBuf,
}

impl FeedbackStore {
    pub fn open(data_dir: &Path) -> Result<FeedbackStore> {
        crate::data_dir::claim(data_dir)?;
        let path = data_dir.join(CONVERSATIONS_FILE);
        let conn = Connection::open(&path).map_err(|source| Error::Conversations { path: path.clone(), source })?;
        let store = FeedbackStore { conn, path };
        store
            .conn
            .execute_batch(&format!("PRAGMA journal_mode=WAL; PRAGMA busy_timeout=5000; {SCHEMA}"))
            .map_err(|e| store.e(e))?;
        // The database and its journal were just created with the default umask.
        crate::data_dir::make_private(data_dir)?;
        Ok(store)
    }

    fn e(&self, source: rusqlite::Error) -> Error {
        Error::Conversations { path: self.path.clone(), source }
    }

    pub fn add(&self, f: &NewFeedback<'_>) -> Result<i64> {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        self.conn
            .execute(
                "INSERT INTO citation_feedback (conversation_id, turn, question, claim, label, doc_path, page, chunk_id, verdict, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    f.conversation_id,
                    f.turn,
                    f.question,
                    f.claim,
                    f.label,
                    f.doc_path.to_string_lossy(),
                    f.page,
                    f.chunk_id,
                    DOES_NOT_SUPPORT,
                    now
                ],
            )
            .map_err(|e| self.e(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn list(&self) -> Result<Vec<CitationFeedback>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, conversation_id, turn, question, claim, label, doc_path, page, chunk_id, verdict, created_at
                 FROM citation_feedback ORDER BY id",
            )
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(CitationFeedback {
                    id: r.get(0)?,
                    conversation_id: r.get(1)?,
                    turn: r.get(2)?,
                    question: r.get(3)?,
                    claim: r.get(4)?,
                    label: r.get(5)?,
                    doc_path: PathBuf::from(r.get::<_, String>(6)?),
                    page: r.get(7)?,
                    chunk_id: r.get(8)?,
                    verdict: r.get(9)?,
                    created_at: r.get(10)?,
                })
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }
}

/// The reports as evaluation questions (the JSONL that `pagewise-dev eval` reads): the question,
/// no gold evidence yet (a person adds it), and the page that was wrongly cited, so the
/// answer evals can count how often it is cited again.
pub fn as_eval_questions(items: &[CitationFeedback]) -> String {
    let mut out = String::new();
    for f in items {
        let doc = f.doc_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let line = serde_json::json!({
            "id": format!("feedback-{}", f.id),
            "question": f.question,
            "evidence": [],
            "rejected_evidence": [{"doc": doc, "page": f.page, "claim": f.claim, "chunk_id": f.chunk_id}],
            "source": "citation feedback",
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// A report that a citation of page 3 does not support "It stores 4 MWh.", for tests.
#[cfg(test)]
pub(crate) fn pilot_feedback() -> NewFeedback<'static> {
    NewFeedback {
        conversation_id: Some(3),
        turn: Some(0),
        question: "How big is the pilot?",
        claim: "It stores 4 MWh.",
        label: "Doc1_p3",
        doc_path: Path::new("/docs/field-guide.pdf"),
        page: 3,
        chunk_id: 42,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_is_stored_and_exported_as_eval_questions() {
        let dir = tempfile::tempdir().unwrap();
        let store = FeedbackStore::open(dir.path()).unwrap();
        let id = store.add(&pilot_feedback()).unwrap();
        let items = FeedbackStore::open(dir.path()).unwrap().list().unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].id, id);
        assert_eq!(items[0].verdict, DOES_NOT_SUPPORT);
        let jsonl = as_eval_questions(&items);
        let q: serde_json::Value = serde_json::from_str(jsonl.trim()).unwrap();
        assert_eq!(q["question"], "How big is the pilot?");
        assert_eq!(q["rejected_evidence"][0]["doc"], "field-guide");
        assert_eq!(q["rejected_evidence"][0]["page"], 3);
    }
}
