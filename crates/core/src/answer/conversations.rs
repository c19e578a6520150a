//! Conversations in their own SQLite file beside the index, so asking (a reader of the index)
//! can record turns while another process owns the index as its writer.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::outcome::Answer;

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
    created_at INTEGER NOT NULL,
    answer_format INTEGER NOT NULL DEFAULT 1
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
    /// The stored answer read back, with defaults for what older versions did not write;
    /// `None` where its record cannot be read.
    pub answer: Option<Answer>,
    pub created_at: i64,
}

/// The form of `answer_json` this version writes. 1: an `Answer` with its English `note`
/// only (stop 39 and before; rows written then carry no format and read as 1). 2: typed
/// `notices` beside the note. A reader keeps every format it knows readable; serde's defaults
/// fill what an older format did not write.
pub const ANSWER_FORMAT: u32 = 2;

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
        store.add_format_column().map_err(|e| store.e(e))?;
        // The database and its journal were just created with the default umask.
        crate::data_dir::make_private(data_dir)?;
        Ok(store)
    }

    /// Files written before turns carried their format get the column; their rows read as 1.
    fn add_format_column(&self) -> rusqlite::Result<()> {
        let has_it: bool = self
            .conn
            .query_row("SELECT count(*) FROM pragma_table_info('turns') WHERE name='answer_format'", [], |r| r.get::<_, i64>(0))
            .map(|n| n > 0)?;
        if !has_it {
            self.conn.execute_batch("ALTER TABLE turns ADD COLUMN answer_format INTEGER NOT NULL DEFAULT 1")?;
        }
        Ok(())
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

    /// Records `answer` as the conversation's next turn, in this version's format.
    pub fn add_turn(&self, id: i64, question: &str, standalone_query: &str, answer: &Answer) -> Result<()> {
        let json = serde_json::to_string(answer).map_err(|e| Error::AnswerRecord(e.to_string()))?;
        self.insert_turn(id, question, standalone_query, &json, ANSWER_FORMAT)
    }

    fn insert_turn(&self, id: i64, question: &str, standalone_query: &str, answer_json: &str, format: u32) -> Result<()> {
        if !self.exists(id)? {
            return Err(Error::NoSuchConversation(id));
        }
        let t = now();
        self.conn
            .execute(
                "INSERT INTO turns (conversation_id, question, standalone_query, answer_json, created_at, answer_format) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, question, standalone_query, answer_json, t, format],
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
                    answer: serde_json::from_str(&answer).ok(),
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
        c.add_turn(id, "What was revenue in 2021?", "What was revenue in 2021?", &answer_saying("x")).unwrap();
        c.add_turn(id, "and in 2022?", "What was revenue in 2022?", &answer_saying("y")).unwrap();
        let turns = Conversations::open(dir.path()).unwrap().turns(id).unwrap();
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[1].standalone_query, "What was revenue in 2022?");
        assert_eq!(turns[1].answer.as_ref().map(|a| a.answer.as_str()), Some("y"));
        c.rename(id, "Revenue").unwrap();
        assert_eq!(c.list().unwrap()[0].title, "Revenue");
        c.delete(id).unwrap();
        assert!(matches!(c.turns(id), Err(Error::NoSuchConversation(_))));
        assert!(matches!(c.add_turn(99, "q", "q", &answer_saying("z")), Err(Error::NoSuchConversation(99))));
    }

    #[test]
    fn turns_stored_by_the_previous_version_open_as_answers() {
        // Recorded from the stop-39 build: an extractive answer and an abstained one, as its
        // `pagewise ask` stored them (tests/fixtures/stored-turns/README.md).
        let stored = [
            include_str!("../../../../tests/fixtures/stored-turns/stop39-1.json"),
            include_str!("../../../../tests/fixtures/stored-turns/stop39-2.json"),
        ];
        let dir = tempfile::tempdir().unwrap();
        let c = Conversations::open(dir.path()).unwrap();
        let id = c.create("How many sites does the cooperative run?").unwrap();
        let values: Vec<serde_json::Value> = stored.iter().map(|s| serde_json::from_str(s).unwrap()).collect();
        for v in &values {
            c.insert_turn(id, v["question"].as_str().unwrap(), v["question"].as_str().unwrap(), &v.to_string(), 1).unwrap();
        }
        // A turn from before sentences were recorded, and one whose record is not an answer.
        c.insert_turn(id, "revenue?", "revenue?", &serde_json::json!({"question": "revenue?", "answer": "Revenue was $5m [Doc1_p2]."}).to_string(), 1).unwrap();
        c.insert_turn(id, "broken", "broken", "\"not an answer\"", 1).unwrap();

        let turns = Conversations::open(dir.path()).unwrap().turns(id).unwrap();
        assert_eq!(turns.len(), 4);
        let extractive = turns[0].answer.as_ref().expect("the stop-39 answer opens");
        assert_eq!((extractive.mode, extractive.abstained), (super::super::AnswerMode::Extractive, false));
        assert_eq!(extractive.sentences.len(), 2);
        assert!(extractive.sentences.iter().all(|s| !s.citations.is_empty()));
        assert!(extractive.notices.is_empty(), "older turns carry their English note only");
        assert!(extractive.note.as_deref().is_some_and(|n| n.starts_with("Extractive answer")));
        let abstained = turns[1].answer.as_ref().expect("the stop-39 abstention opens");
        assert!(abstained.abstained && abstained.sentences.is_empty() && !abstained.citations.is_empty());
        // Nothing an older version wrote is lost in reading it (scores compared to f32 precision).
        for (turn, original) in turns.iter().zip(&values) {
            let mut read = serde_json::to_value(turn.answer.as_ref().unwrap()).unwrap();
            // Fields added since that version are read as their defaults.
            read.as_object_mut().unwrap().remove("notices");
            if let Some(timings) = read.get_mut("timings").and_then(|t| t.as_object_mut()) {
                timings.remove("check_ms");
            }
            assert_eq!(to_f32(read), to_f32(original.clone()));
        }
        let oldest = turns[2].answer.as_ref().expect("a turn without sentences opens");
        assert_eq!((oldest.answer.as_str(), oldest.sentences.len(), oldest.timings.total_ms), ("Revenue was $5m [Doc1_p2].", 0, 0.0));
        assert!(turns[3].answer.is_none(), "a record that is no answer opens as none, not as an error");
        let record = crate::answer::export::AnswerRecord::of(turns[0].answer.as_ref()).unwrap();
        assert!(crate::answer::export::to_markdown(&record).contains("sites"));
        assert!(crate::answer::export::AnswerRecord::of(None).is_err());
    }


    fn answer_saying(text: &str) -> Answer {
        serde_json::from_value(serde_json::json!({"question": "q", "answer": text})).unwrap()
    }

    #[test]
    fn a_file_from_before_formats_were_recorded_opens_and_keeps_its_turns() {
        let dir = tempfile::tempdir().unwrap();
        let old = Connection::open(dir.path().join(CONVERSATIONS_FILE)).unwrap();
        old.execute_batch(
            "CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
             CREATE TABLE turns (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                 question TEXT NOT NULL, standalone_query TEXT NOT NULL, answer_json TEXT NOT NULL, created_at INTEGER NOT NULL);
             INSERT INTO conversations VALUES (1, 'old', 1, 1);
             INSERT INTO turns VALUES (1, 1, 'q', 'q', '{\"question\":\"q\",\"answer\":\"old answer\"}', 1);",
        )
        .unwrap();
        drop(old);
        let c = Conversations::open(dir.path()).unwrap();
        c.add_turn(1, "q2", "q2", &answer_saying("new answer")).unwrap();
        let formats: Vec<u32> = c.conn.prepare("SELECT answer_format FROM turns ORDER BY id").unwrap()
            .query_map([], |r| r.get(0)).unwrap().map(|r| r.unwrap()).collect();
        assert_eq!(formats, vec![1, ANSWER_FORMAT]);
        let said: Vec<String> = c.turns(1).unwrap().into_iter().map(|t| t.answer.unwrap().answer).collect();
        assert_eq!(said, ["old answer", "new answer"]);
        // Opening it again does not add the column twice.
        assert_eq!(Conversations::open(dir.path()).unwrap().turns(1).unwrap().len(), 2);
    }

    /// Every fractional number as the f32 it was written from.
    fn to_f32(v: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Value::Number(n) if n.is_f64() => serde_json::json!(format!("{:e}", n.as_f64().unwrap_or_default() as f32)),
            Value::Array(items) => Value::Array(items.into_iter().map(to_f32).collect()),
            Value::Object(fields) => Value::Object(fields.into_iter().map(|(k, v)| (k, to_f32(v))).collect()),
            other => other,
        }
    }
}
