//! Word documents (DOCX): paragraphs in order, headings from their paragraph styles as
//! Markdown headings (so chunks carry a heading path), table cells separated by " | ".
//! One page per file; citations point at the heading and the byte range of the paragraph.


use super::archive::{Archive, ZipLimits};
use super::xml::{attr, local, pieces, Piece};
use super::{choose_title, Source, normalise_text, Document, Format, Page, ParseFailure};

pub fn parse_docx(source: Source<'_>, limits: ZipLimits) -> Result<Document, ParseFailure> {
    let path = source.path;
    let mut archive = Archive::open(source.file, limits, "DOCX")?;
    let body = archive.read_text("word/document.xml")?.ok_or("not a Word document (no word/document.xml)")?;
    let metadata_title = archive.read_text("docProps/core.xml").ok().flatten().and_then(|core| core_title(&core));
    let text = normalise_text(&document_text(&body));
    if text.trim().is_empty() {
        return Err("no text in this Word document".into());
    }
    let pages = vec![Page { text }];
    let title = choose_title(metadata_title.as_deref(), &pages, path);
    Ok(Document { format: Format::Docx, title, pages })
}

fn core_title(core: &str) -> Option<String> {
    let mut in_title = false;
    for piece in pieces(core) {
        match piece {
            Piece::Open { name, .. } if local(name) == "title" => in_title = true,
            Piece::Text(t) if in_title => return Some(t.trim().to_string()).filter(|t| !t.is_empty()),
            Piece::Close { .. } => in_title = false,
            _ => {}
        }
    }
    None
}

/// Heading level of a paragraph style id ("Heading2" → 2, "Title" → 1).
fn heading_level(style: &str) -> Option<usize> {
    let lower = style.to_ascii_lowercase();
    if lower == "title" {
        return Some(1);
    }
    lower.strip_prefix("heading").and_then(|n| n.trim().parse::<usize>().ok()).map(|n| n.clamp(1, 6))
}

pub(crate) fn document_text(xml: &str) -> String {
    let mut out = String::new();
    let mut paragraph = String::new();
    let mut level: Option<usize> = None;
    let mut in_text = false;
    let mut in_table = 0usize;
    for piece in pieces(xml) {
        match piece {
            Piece::Open { name, attrs, empty } => match local(name) {
                "p" if !empty => {
                    paragraph.clear();
                    level = None;
                }
                "pStyle" => level = attr(attrs, "w:val").as_deref().and_then(heading_level),
                "t" if !empty => in_text = true,
                "tab" => paragraph.push('\t'),
                "br" | "cr" => paragraph.push('\n'),
                "tbl" => in_table += 1,
                _ => {}
            },
            Piece::Close { name } => match local(name) {
                "t" => in_text = false,
                "p" => {
                    let text = paragraph.trim();
                    if !text.is_empty() {
                        match level {
                            Some(n) if in_table == 0 => out.push_str(&format!("\n{} {text}\n\n", "#".repeat(n))),
                            _ if in_table > 0 => {
                                out.push_str(text);
                                out.push(' ');
                            }
                            _ => {
                                out.push_str(text);
                                out.push_str("\n\n");
                            }
                        }
                    }
                    paragraph.clear();
                }
                "tc" => out.push_str("| "),
                "tr" => out.push('\n'),
                "tbl" => {
                    in_table = in_table.saturating_sub(1);
                    out.push('\n');
                }
                _ => {}
            },
            Piece::Text(t) if in_text => paragraph.push_str(&t),
            Piece::Text(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_headings_and_tables() {
        let xml = r#"<w:document><w:body>
          <w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Safety rules</w:t></w:r></w:p>
          <w:p><w:r><w:t xml:space="preserve">Wear gloves </w:t></w:r><w:r><w:t>&amp; goggles.</w:t></w:r></w:p>
          <w:tbl><w:tr><w:tc><w:p><w:r><w:t>Site</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>kW</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
        </w:body></w:document>"#;
        let text = normalise_text(&document_text(xml));
        assert_eq!(text, "# Safety rules\n\nWear gloves & goggles.\n\nSite | kW |");
    }
}
