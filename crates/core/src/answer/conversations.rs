//! Conversations in their own SQLite file beside the index, so asking (a reader of the index)
//! can record turns while another process owns the index as its writer.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::error::{Error, Result};

use crate::data_dir::CONVERSATIONS_FILE;

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    question TEXT NOT NULL,
    standalone_query TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_conversation ON turns(conversation_id);
"#;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConversationSummary {
    pub id: i64,
    pub title: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub turns: i64,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Turn {
    pub question: String,
    pub standalone_query: String,
    #[cfg_attr(feature = "ts", ts(as = "super::Answer"))]
    pub answer: serde_json::Value,
    pub created_at: i64,
}

pub struct Conversations {
    conn: Connection,
    path: PathBuf,
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

impl Conversations {
    pub fn open(data_dir: &Path) -> Result<Conversations> {
        crate::data_dir::claim(data_dir)?;
        let path = data_dir.join(CONVERSATIONS_FILE);
        let conn = Connection::open(&path).map_err(|source| Error::Conversations { path: path.clone(), source })?;
        let store = Conversations { conn, path };
        store
            .conn
            .execute_batch(&format!("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000; {SCHEMA}"))
            .map_err(|e| store.e(e))?;
        // The database and its journal were just created with the default umask.
        crate::data_dir::make_private(data_dir)?;
        Ok(store)
    }

    fn e(&self, source: rusqlite::Error) -> Error {
        Error::Conversations { path: self.path.clone(), source }
    }

    pub fn create(&self, first_question: &str) -> Result<i64> {
        let title: String = first_question.chars().take(80).collect();
        let t = now();
        self.conn
            .execute("INSERT INTO conversations (title, created_at, updated_at) VALUES (?1, ?2, ?2)", params![title.trim(), t])
            .map_err(|e| self.e(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn exists(&self, id: i64) -> Result<bool> {
        self.conn
            .query_row("SELECT 1 FROM conversations WHERE id=?1", [id], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
            .map_err(|e| self.e(e))
    }

    pub fn add_turn(&self, id: i64, question: &str, standalone_query: &str, answer: &serde_json::Value) -> Result<()> {
        if !self.exists(id)? {
            return Err(Error::NoSuchConversation(id));
        }
        let t = now();
        self.conn
            .execute(
                "INSERT INTO turns (conversation_id, question, standalone_query, answer_json, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, question, standalone_query, answer.to_string(), t],
            )
            .map_err(|e| self.e(e))?;
        self.conn.execute("UPDATE conversations SET updated_at=?2 WHERE id=?1", params![id, t]).map_err(|e| self.e(e))?;
        Ok(())
    }

    pub fn turns(&self, id: i64) -> Result<Vec<Turn>> {
        if !self.exists(id)? {
            return Err(Error::NoSuchConversation(id));
        }
        let mut stmt = self
            .conn
            .prepare("SELECT question, standalone_query, answer_json, created_at FROM turns WHERE conversation_id=?1 ORDER BY id")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([id], |r| {
                let answer: String = r.get(2)?;
                Ok(Turn {
                    question: r.get(0)?,
                    standalone_query: r.get(1)?,
                    answer: serde_json::from_str(&answer).unwrap_or(serde_json::Value::Null),
                    created_at: r.get(3)?,
                })
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    pub fn list(&self) -> Result<Vec<ConversationSummary>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT c.id, c.title, c.created_at, c.updated_at, (SELECT count(*) FROM turns t WHERE t.conversation_id=c.id)
                 FROM conversations c ORDER BY c.updated_at DESC, c.id DESC",
            )
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(ConversationSummary { id: r.get(0)?, title: r.get(1)?, created_at: r.get(2)?, updated_at: r.get(3)?, turns: r.get(4)? })
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    pub fn rename(&self, id: i64, title: &str) -> Result<()> {
        let n = self.conn.execute("UPDATE conversations SET title=?2 WHERE id=?1", params![id, title]).map_err(|e| self.e(e))?;
        if n == 0 { Err(Error::NoSuchConversation(id)) } else { Ok(()) }
    }

    pub fn delete(&self, id: i64) -> Result<()> {
        let n = self.conn.execute("DELETE FROM conversations WHERE id=?1", [id]).map_err(|e| self.e(e))?;
        if n == 0 { Err(Error::NoSuchConversation(id)) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_round_trip_and_delete_cascades() {
        let dir = tempfile::tempdir().unwrap();
        let c = Conversations::open(dir.path()).unwrap();
        let id = c.create("What was revenue in 2021?").unwrap();
        c.add_turn(id, "What was revenue in 2021?", "What was revenue in 2021?", &serde_json::json!({"answer": "x"})).unwrap();
        c.add_turn(id, "and in 2022?", "What was revenue in 2022?", &serde_json::json!({"answer": "y"})).unwrap();
        let turns = Conversations::open(dir.path()).unwrap().turns(id).unwrap();
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[1].standalone_query, "What was revenue in 2022?");
        c.rename(id, "Revenue").unwrap();
        assert_eq!(c.list().unwrap()[0].title, "Revenue");
        c.delete(id).unwrap();
        assert!(matches!(c.turns(id), Err(Error::NoSuchConversation(_))));
        assert!(matches!(c.add_turn(99, "q", "q", &serde_json::Value::Null), Err(Error::NoSuchConversation(99))));
    }
}
