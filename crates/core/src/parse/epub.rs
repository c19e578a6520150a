//! EPUB books: the spine's XHTML documents in reading order, one page per chapter file, each
//! turned into text like HTML. Title from the package metadata.


use super::archive::{Archive, ZipLimits};
use super::html::html_to_text;
use super::xml::{attr, local, pieces, Piece};
use super::{choose_title, Source, normalise_text, Document, Format, Page, ParseFailure};

/// Chapters beyond this are not read (a book is rarely longer; a hostile file could be).
const MAX_CHAPTERS: usize = 2_000;

pub fn parse_epub(source: Source<'_>, limits: ZipLimits) -> Result<Document, ParseFailure> {
    let path = source.path;
    let mut archive = Archive::open(source.file, limits, "EPUB")?;
    let container = archive.read_text("META-INF/container.xml")?.ok_or("not an EPUB (no META-INF/container.xml)")?;
    let opf_path = pieces(&container)
        .into_iter()
        .find_map(|p| match p {
            Piece::Open { name, attrs, .. } if local(name) == "rootfile" => attr(attrs, "full-path"),
            _ => None,
        })
        .ok_or("EPUB container names no package file")?;
    let opf = archive.read_text(&opf_path)?.ok_or_else(|| format!("EPUB package file {opf_path} is missing"))?;
    let base = opf_path.rsplit_once('/').map(|(dir, _)| format!("{dir}/")).unwrap_or_default();
    let package = read_package(&opf);
    let mut pages = Vec::new();
    for href in package.spine.iter().take(MAX_CHAPTERS) {
        let member = resolve(&base, href);
        let Some(xhtml) = archive.read_text(&member)? else { continue };
        let (_, text) = html_to_text(&xhtml);
        let text = normalise_text(&text);
        if !text.trim().is_empty() {
            pages.push(Page { text });
        }
    }
    if pages.is_empty() {
        return Err("no text in this EPUB (image-only or DRM-protected?)".into());
    }
    let title = choose_title(package.title.as_deref(), &pages, path);
    Ok(Document { format: Format::Epub, title, pages })
}

struct Package {
    title: Option<String>,
    /// Chapter files in reading order (hrefs relative to the package file).
    spine: Vec<String>,
}

fn read_package(opf: &str) -> Package {
    let mut manifest: Vec<(String, String)> = Vec::new();
    let mut spine_ids: Vec<String> = Vec::new();
    let mut title = None;
    let mut in_title = false;
    for piece in pieces(opf) {
        match piece {
            Piece::Open { name, attrs, .. } => match local(name) {
                "item" => {
                    if let (Some(id), Some(href)) = (attr(attrs, "id"), attr(attrs, "href")) {
                        manifest.push((id, href));
                    }
                }
                "itemref" => spine_ids.extend(attr(attrs, "idref")),
                "title" => in_title = title.is_none(),
                _ => {}
            },
            Piece::Text(t) if in_title => {
                title = Some(t.trim().to_string()).filter(|t| !t.is_empty());
                in_title = false;
            }
            _ => {}
        }
    }
    let spine = spine_ids.iter().filter_map(|id| manifest.iter().find(|(m, _)| m == id).map(|(_, h)| h.clone())).collect();
    Package { title, spine }
}

/// `base` + `href` with `..` segments resolved and any fragment dropped.
fn resolve(base: &str, href: &str) -> String {
    let href = href.split('#').next().unwrap_or(href);
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in href.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_spine_and_paths() {
        let opf = r#"<package><metadata><dc:title>The Field Guide</dc:title></metadata>
          <manifest><item id="c2" href="text/ch2.xhtml"/><item id="c1" href="text/ch1.xhtml"/><item id="css" href="s.css"/></manifest>
          <spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>"#;
        let p = read_package(opf);
        assert_eq!(p.title.as_deref(), Some("The Field Guide"));
        assert_eq!(p.spine, vec!["text/ch1.xhtml", "text/ch2.xhtml"]);
        assert_eq!(resolve("OEBPS/", "text/../ch1.xhtml#start"), "OEBPS/ch1.xhtml");
        assert_eq!(resolve("", "ch1.xhtml"), "ch1.xhtml");
    }
}
