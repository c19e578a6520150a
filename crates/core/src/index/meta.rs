//! The keys of SQLite's `meta` table, typed, so that a misspelt key cannot read as "absent".

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaKey {
    /// The schema the stores were written with; another one rebuilds everything.
    SchemaVersion,
    /// The embedding model's identity; another model clears the vectors.
    EmbedModel,
    EmbedDimensions,
    /// Checksum of the usearch file, written after it is fsynced.
    VectorChecksum,
    /// When a root's last complete scan finished (Unix seconds).
    LastScan(PathBuf),
    /// How the PDFs under a root were read into text ([`PDF_TEXT_VERSION`] when current).
    PdfText(PathBuf),
    /// How the other files under a root were read and cut into passages
    /// ([`TEXT_READING_VERSION`] when current).
    TextReading(PathBuf),
}

/// Changes when PDF text extraction changes what it writes (now: table cells apart by tabs),
/// so the PDFs of a library indexed before are read again once, though their bytes did not
/// change.
pub const PDF_TEXT_VERSION: &str = "cell-gaps-1";

/// Changes when reading or chunking the other formats changes what they write (now:
/// Markdown without comments, link targets and backslash escapes, a term line kept with the
/// text it names, and HTML's preformatted text fenced as code), so those files are read again
/// once.
pub const TEXT_READING_VERSION: &str = "markdown-unescaped-3";

impl MetaKey {
    pub fn last_scan(root: &Path) -> MetaKey {
        MetaKey::LastScan(root.to_path_buf())
    }

    /// The key as stored; these strings are part of the on-disk format.
    pub fn as_key(&self) -> String {
        match self {
            MetaKey::SchemaVersion => "schema_version".into(),
            MetaKey::EmbedModel => "embed_model".into(),
            MetaKey::EmbedDimensions => "embed_dimensions".into(),
            MetaKey::VectorChecksum => "vector_checksum".into(),
            MetaKey::LastScan(root) => format!("last_scan:{}", root.display()),
            MetaKey::PdfText(root) => format!("pdf_text:{}", root.display()),
            MetaKey::TextReading(root) => format!("text_reading:{}", root.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_keys_keep_their_on_disk_spelling() {
        assert_eq!(MetaKey::SchemaVersion.as_key(), "schema_version");
        assert_eq!(MetaKey::EmbedModel.as_key(), "embed_model");
        assert_eq!(MetaKey::EmbedDimensions.as_key(), "embed_dimensions");
        assert_eq!(MetaKey::VectorChecksum.as_key(), "vector_checksum");
        assert_eq!(MetaKey::last_scan(Path::new("/docs")).as_key(), "last_scan:/docs");
        assert_eq!(MetaKey::TextReading(PathBuf::from("/docs")).as_key(), "text_reading:/docs");
    }
}
