//! A small scanner over XML tags, enough for the OOXML and EPUB parts Pagewise reads. It never
//! resolves external entities or DTDs (there is no XXE to guard against: nothing is fetched).

use super::html::decode_entities;

/// One piece of an XML document.
#[derive(Debug, PartialEq)]
pub enum Piece<'a> {
    /// An opening or self-closing tag: its qualified name and the raw attribute text.
    Open { name: &'a str, attrs: &'a str, empty: bool },
    Close { name: &'a str },
    Text(String),
}

pub fn pieces(xml: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = xml;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            out.push(Piece::Text(decode_entities(rest)));
            break;
        };
        if lt > 0 {
            out.push(Piece::Text(decode_entities(&rest[..lt])));
        }
        rest = &rest[lt..];
        if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let end = body.find("]]>").unwrap_or(body.len());
            out.push(Piece::Text(body[..end].to_string()));
            rest = body.get(end + 3..).unwrap_or("");
            continue;
        }
        if rest.starts_with("<!--") {
            rest = rest.find("-->").map(|e| &rest[e + 3..]).unwrap_or("");
            continue;
        }
        let Some(gt) = rest.find('>') else { break };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            out.push(Piece::Close { name: name.trim() });
            continue;
        }
        let empty = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attrs) = tag.split_once(|c: char| c.is_whitespace()).unwrap_or((tag, ""));
        out.push(Piece::Open { name, attrs, empty });
    }
    out
}

/// The value of attribute `name` (qualified, e.g. `w:val`) in raw attribute text.
pub fn attr(attrs: &str, name: &str) -> Option<String> {
    let mut rest = attrs;
    while let Some(at) = rest.find(name) {
        let before_ok = at == 0 || rest[..at].ends_with(char::is_whitespace);
        let after = rest[at + name.len()..].trim_start();
        if before_ok {
            if let Some(value) = after.strip_prefix('=') {
                let value = value.trim_start();
                let quote = value.chars().next()?;
                if quote == '"' || quote == '\'' {
                    let end = value[1..].find(quote)?;
                    return Some(decode_entities(&value[1..1 + end]));
                }
            }
        }
        rest = &rest[at + name.len()..];
    }
    None
}

/// The local part of a qualified name (`w:p` → `p`).
pub fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_tags_text_and_attributes() {
        let xml = r#"<?xml version="1.0"?><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:t xml:space="preserve">A &amp; B</w:t></w:p><![CDATA[<raw>]]>"#;
        let p = pieces(xml);
        assert_eq!(p[0], Piece::Open { name: "w:p", attrs: "", empty: false });
        assert_eq!(p[2], Piece::Open { name: "w:pStyle", attrs: "w:val=\"Heading1\"", empty: true });
        assert!(p.contains(&Piece::Text("A & B".into())));
        assert!(p.contains(&Piece::Text("<raw>".into())));
        assert_eq!(attr("w:val=\"Heading1\"", "w:val").as_deref(), Some("Heading1"));
        assert_eq!(attr("id='x' xval='no' val='yes'", "val").as_deref(), Some("yes"));
        assert_eq!(local("w:pStyle"), "pStyle");
    }
}
