//! The one error that crosses to the page: a kind the UI branches on, and a message it only
//! shows. The page never reads the message to decide anything.

use serde::Serialize;

/// What went wrong, as far as the page needs to know to react.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The answer was stopped before anything was written.
    Stopped,
    /// Nothing is indexed yet, so there is nothing to search or open.
    NotIndexed,
    /// The library could not start (or is still starting); `message` says why.
    LibraryUnavailable,
    /// A model the command needs is missing or cannot be loaded.
    ModelMissing,
    /// The document, conversation, answer or citation named does not exist.
    NotFound,
    /// The request itself cannot be carried out as asked (empty question, missing file).
    InvalidInput,
    /// The user said no in a system confirmation; nothing changed.
    Declined,
    /// Anything else; `message` says what.
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct AppError {
    pub kind: ErrorKind,
    pub message: String,
}

impl AppError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> AppError {
        AppError { kind, message: message.into() }
    }

    pub fn failed(message: impl std::fmt::Display) -> AppError {
        AppError::new(ErrorKind::Failed, message.to_string())
    }

    pub fn not_found(message: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::NotFound, message)
    }

    pub fn invalid(message: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::InvalidInput, message)
    }

    pub fn not_indexed(cause: impl std::fmt::Display) -> AppError {
        AppError::new(ErrorKind::NotIndexed, format!("nothing is indexed yet ({cause})"))
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<pagewise_core::Error> for AppError {
    fn from(e: pagewise_core::Error) -> AppError {
        use pagewise_core::Error;
        let kind = match &e {
            Error::Interrupted => ErrorKind::Stopped,
            Error::NoSuchConversation(_) => ErrorKind::NotFound,
            Error::ModelsMissing(_) => ErrorKind::ModelMissing,
            Error::LibraryStopped => ErrorKind::LibraryUnavailable,
            Error::NotADataDir { .. } => ErrorKind::InvalidInput,
            _ => ErrorKind::Failed,
        };
        AppError::new(kind, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_cross_as_kind_and_message() {
        let json = serde_json::to_value(AppError::from(pagewise_core::Error::Interrupted)).unwrap();
        assert_eq!(json, serde_json::json!({ "kind": "stopped", "message": "interrupted" }));
        let missing = AppError::from(pagewise_core::Error::NoSuchConversation(7));
        assert_eq!(missing.kind, ErrorKind::NotFound);
        assert!(missing.message.contains('7'));
    }
}
