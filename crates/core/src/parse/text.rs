//! Plain text and Markdown: one page per file.

use std::path::Path;

use super::encoding::decode_text;
use super::{choose_title, file_stem, normalise_text, Document, Format, Page, ParseFailure};

/// Parses text or Markdown bytes (UTF-8, UTF-16 with a BOM, or Windows-1252). Binary content (NUL bytes) and empty files are
/// refused with a reason.
pub fn parse_text(path: &Path, bytes: &[u8], format: Format) -> Result<Document, ParseFailure> {
    if bytes.is_empty() {
        return Err("empty file".into());
    }
    let (decoded, _) = decode_text(bytes)?;
    let text = normalise_text(&decoded);
    let text = match format {
        Format::Markdown => super::markdown_clean::readable_markdown(&text),
        _ => text,
    };
    if text.trim().is_empty() {
        return Err("no text (only whitespace)".into());
    }
    let pages = vec![Page { text }];
    let title = match format {
        Format::Markdown => markdown_title(&pages[0].text).unwrap_or_else(|| file_stem(path)),
        _ => underlined_title(&pages[0].text).unwrap_or_else(|| choose_title(None, &[], path)),
    };
    Ok(Document { format, title, pages })
}

/// A Markdown document's title: `title:` in YAML front matter, else its first heading of any
/// level (ATX `## Title` or a setext line underlined with `===` / `---`), outside code fences.
/// Books split into one file per section start many files at `##`.
fn markdown_title(text: &str) -> Option<String> {
    let mut lines = text.lines().peekable();
    if lines.peek().is_some_and(|l| l.trim() == "---") {
        lines.next();
        for line in lines.by_ref() {
            if line.trim() == "---" || line.trim() == "..." {
                break;
            }
            if let Some(t) = line.strip_prefix("title:") {
                let t = t.trim().trim_matches(|c| c == '"' || c == '\'').trim();
                if !t.is_empty() {
                    return Some(t.to_string());
                }
            }
        }
    }
    let mut in_code = false;
    let mut previous: Option<&str> = None;
    for line in lines {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_code = !in_code;
            previous = None;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(title) = atx_heading(t) {
            return Some(title);
        }
        let underline = !t.is_empty() && (t.chars().all(|c| c == '=') || (t.len() >= 3 && t.chars().all(|c| c == '-')));
        if let (true, Some(p)) = (underline, previous.filter(|p| !p.trim().is_empty())) {
            return Some(p.trim().to_string());
        }
        previous = Some(line);
    }
    None
}

/// A plain text file's title, where it gives one the way text files do: its first line
/// underlined with `===` or `---` ("MEETING NOTES\n============="). Any other first line may
/// be prose, so the file name stays the title.
fn underlined_title(text: &str) -> Option<String> {
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next()?.trim();
    let underline = lines.next()?.trim();
    let underlined = underline.chars().count() >= 3 && (underline.chars().all(|c| c == '=') || underline.chars().all(|c| c == '-'));
    (underlined && first.chars().count() <= 120 && first.chars().filter(|c| c.is_alphabetic()).count() >= 3).then(|| first.to_string())
}

/// The text of an ATX heading line ("### Title ###"), without its marks.
fn atx_heading(line: &str) -> Option<String> {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if hashes == 0 || hashes > 6 {
        return None;
    }
    let rest = &line[hashes..];
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim();
    // Inline code and emphasis marks are not part of the title people read.
    let title: String = title.chars().filter(|&c| c != '`' && c != '*').collect();
    (!title.is_empty()).then_some(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_markdown_title_is_its_first_heading_of_any_level() {
        assert_eq!(markdown_title("## Defining an Enum\n\nWhere structs give you…").as_deref(), Some("Defining an Enum"));
        assert_eq!(markdown_title("# Book\n## Part").as_deref(), Some("Book"));
        assert_eq!(markdown_title("```sh\n# install it\n```\n### `Option` values ###\n").as_deref(), Some("Option values"));
        assert_eq!(markdown_title("Getting Started\n===============\n\ntext").as_deref(), Some("Getting Started"));
        assert_eq!(markdown_title("---\ntitle: \"Release notes\"\n---\n# Other").as_deref(), Some("Release notes"));
        assert_eq!(markdown_title("#hashtag, not a heading\n\nplain text"), None);
        assert_eq!(markdown_title("plain text\n\n- a list\n"), None);
    }

    #[test]
    fn a_text_file_title_is_its_underlined_first_line() {
        assert_eq!(underlined_title("\nTEAM - MEETING NOTES\n====================\n\nMeeting: planning").as_deref(), Some("TEAM - MEETING NOTES"));
        assert_eq!(underlined_title("Dear all,\nthe meeting moved.\n-----\n"), None, "a first line of prose");
        assert_eq!(underlined_title("Report\n\n====\n"), None);
    }
}
