//! HTML → text with Markdown-style headings, so the chunker sees the document's structure.
//! A small tolerant scanner rather than a DOM: scripts, styles and comments are dropped,
//! block elements become line breaks, entities are decoded, and nothing is ever executed or
//! fetched. Also used for the XHTML chapters of EPUB files.

use std::path::Path;

use super::encoding::decode_text;
use super::{choose_title, normalise_text, Document, Format, Page, ParseFailure};

/// Elements whose content is never text.
const SKIPPED: [&str; 7] = ["script", "style", "noscript", "template", "svg", "iframe", "object"];
const BLOCKS: [&str; 24] = [
    "p", "div", "br", "li", "tr", "section", "article", "header", "footer", "table", "ul", "ol", "pre", "blockquote", "hr",
    "main", "aside", "nav", "dt", "dd", "figure", "figcaption", "caption", "body",
];

/// Elements that never have a closing tag.
const VOID: [&str; 8] = ["br", "hr", "img", "input", "meta", "link", "col", "wbr"];

/// Site chrome rather than content: navigation bars, breadcrumbs, sidebars, in-page tables of
/// contents and footers, by element (`nav`, `aside`, `footer`) or by a class or id that says
/// so (`navheader`, `sphinxsidebar`, `toc`, `breadcrumb`). Every page of a manual repeats
/// them, and a passage made of "Prev | Up | Next | Home" answers nothing.
fn is_boilerplate(name: &str, tag: &str) -> bool {
    if matches!(name, "nav" | "aside" | "footer") {
        return true;
    }
    static ATTR: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static WORD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let attr = ATTR.get_or_init(|| {
        regex::Regex::new(r#"(?i)\b(?:class|id|role)\s*=\s*["']?([^"'>]*)"#).unwrap_or_else(|_| unreachable!())
    });
    let word = WORD.get_or_init(|| {
        regex::Regex::new(r"(?i)(?:^|[\s_-])(?:nav\w*|breadcrumbs?|\w*sidebar\w*|toc|menu\w*|footer\w*|related|skip\w*|navigation)(?:$|[\s_-])")
            .unwrap_or_else(|_| unreachable!())
    });
    matches!(name, "div" | "table" | "ul" | "ol" | "section" | "span" | "p" | "dl")
        && attr.captures_iter(tag).any(|c| c.get(1).is_some_and(|v| word.is_match(v.as_str())))
}

pub fn parse_html(path: &Path, bytes: &[u8]) -> Result<Document, ParseFailure> {
    let (raw, _) = decode_text(bytes)?;
    let (title, text) = html_to_text(&raw);
    let text = normalise_text(&text);
    if text.trim().is_empty() {
        return Err("no text in this HTML file".into());
    }
    let pages = vec![Page { text }];
    let title = choose_title(title.as_deref(), &pages, path);
    Ok(Document { format: Format::Html, title, pages })
}

/// The `<title>` (if any) and the visible text.
pub fn html_to_text(html: &str) -> (Option<String>, String) {
    let mut out = String::with_capacity(html.len() / 2);
    let mut title: Option<String> = None;
    let mut rest = html;
    // The element being skipped and how deep inside nested elements of its name the scanner is.
    let mut skipping: Option<(String, usize)> = None;
    let mut in_title = false;
    let mut pre_depth = 0usize;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            if skipping.is_none() {
                push_text(&mut out, &mut title, in_title, rest);
            }
            break;
        };
        if skipping.is_none() {
            push_text(&mut out, &mut title, in_title, &rest[..lt]);
        }
        rest = &rest[lt..];
        if rest.starts_with("<!--") {
            rest = rest.find("-->").map(|e| &rest[e + 3..]).unwrap_or("");
            continue;
        }
        let Some(gt) = rest.find('>') else { break };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some((skipped, depth)) = &mut skipping {
            if &name == skipped {
                if closing {
                    *depth -= 1;
                    if *depth == 0 {
                        skipping = None;
                    }
                } else if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
                    *depth += 1;
                }
            }
            continue;
        }
        if !closing && (SKIPPED.contains(&name.as_str()) || is_boilerplate(&name, tag)) && !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            skipping = Some((name, 1));
            continue;
        }
        match name.as_str() {
            "title" => in_title = !closing,
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                out.push('\n');
                if !closing {
                    let level = name[1..].parse::<usize>().unwrap_or(1);
                    out.push_str(&"#".repeat(level));
                    out.push(' ');
                } else {
                    out.push('\n');
                }
            }
            "li" => {
                if !closing {
                    out.push_str("\n- ");
                }
            }
            // Preformatted text is fenced as code: a shell example's "# apt-get install …"
            // or a config file's "# comment" line is no heading, and a quote never ends in it.
            "pre" => {
                if !closing {
                    pre_depth += 1;
                    if pre_depth == 1 {
                        out.push_str("\n```\n");
                    }
                } else if pre_depth > 0 {
                    pre_depth -= 1;
                    if pre_depth == 0 {
                        out.push_str("\n```\n");
                    }
                }
            }
            "td" | "th" if closing => out.push_str(" | "),
            n if BLOCKS.contains(&n) => out.push('\n'),
            _ => {}
        }
    }
    if pre_depth > 0 {
        out.push_str("\n```\n");
    }
    let title = title.map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|t| !t.is_empty());
    // Collapse runs of spaces inside lines; keep paragraph breaks.
    let lines: Vec<String> = out.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    let mut text = String::new();
    let mut blank = false;
    let mut in_code = false;
    for line in lines {
        if line.is_empty() {
            blank = true;
            continue;
        }
        if !text.is_empty() {
            text.push_str(if blank || (line.starts_with('#') && !in_code) { "\n\n" } else { "\n" });
        }
        if line.starts_with("```") {
            in_code = !in_code;
        }
        blank = false;
        text.push_str(&line);
    }
    (title, text)
}

fn push_text(out: &mut String, title: &mut Option<String>, in_title: bool, raw: &str) {
    let decoded = decode_entities(raw);
    if in_title {
        title.get_or_insert_with(String::new).push_str(&decoded);
    } else {
        out.push_str(&decoded);
    }
}

pub fn decode_entities(raw: &str) -> String {
    if !raw.contains('&') {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..].find(|c: char| c == ';' || c == '&' || c.is_whitespace()).map(|i| i + 1);
        let decoded = match end {
            Some(end) if rest.as_bytes().get(end) == Some(&b';') => {
                let name = &rest[1..end];
                let c = match name {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    "nbsp" => Some(' '),
                    "ndash" => Some('–'),
                    "mdash" => Some('—'),
                    "hellip" => Some('…'),
                    "rsquo" => Some('’'),
                    "lsquo" => Some('‘'),
                    "rdquo" => Some('”'),
                    "ldquo" => Some('“'),
                    "euro" => Some('€'),
                    "pound" => Some('£'),
                    "copy" => Some('©'),
                    _ => name
                        .strip_prefix("#x")
                        .or_else(|| name.strip_prefix("#X"))
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                        .and_then(char::from_u32),
                };
                c.map(|c| (c, end + 1))
            }
            _ => None,
        };
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_text_with_headings_and_no_script() {
        let html = r#"<html><head><title>Field  notes</title><style>p{color:red}</style>
            <script>window.__pwned = 1; document.write("<p>fake</p>")</script></head>
            <body><h1>Site visits</h1><p>The crew checked <b>48&nbsp;sites</b> &amp; logged 5&#8239;MW.</p>
            <!-- <p>hidden</p> --><ul><li>North</li><li>South</li></ul>
            <table><tr><th>Region</th><th>kW</th></tr><tr><td>North</td><td>1,420</td></tr></table></body></html>"#;
        let (title, text) = html_to_text(html);
        assert_eq!(title.as_deref(), Some("Field notes"));
        let manual = r#"<body><div class="navheader"><table><tr><td><a href="a.html">Prev</a></td><td>Up</td></tr></table></div>
            <div class="sect1"><h2>13.2. Transaction Isolation</h2><div class="toc"><dl><dt>13.2.1. Read Committed</dt></dl></div>
            <p>Read Committed is the default isolation level.</p></div><nav>Home</nav><div class="navfooter"><div>Next</div></div></body>"#;
        let (_, manual_text) = html_to_text(manual);
        assert_eq!(manual_text.trim(), "## 13.2. Transaction Isolation\n\nRead Committed is the default isolation level.", "{manual_text:?}");
        assert!(text.starts_with("# Site visits\n\nThe crew checked 48 sites & logged 5 MW."), "{text}");
        assert!(text.contains("- North\n- South"), "{text}");
        assert!(text.contains("Region | kW |"), "{text}");
        assert!(!text.contains("pwned") && !text.contains("fake") && !text.contains("hidden") && !text.contains("color"), "{text}");
    }

    #[test]
    fn preformatted_text_is_fenced_so_its_comment_lines_are_no_headings() {
        let html = "<h2>10.2. Backup</h2><p>Run this:</p><pre class=\"screen\"># find /path/to \\\n  -newer stamp</pre><p>Then check.</p>";
        let (_, text) = html_to_text(html);
        assert_eq!(text, "## 10.2. Backup\n\nRun this:\n\n```\n# find /path/to \\\n-newer stamp\n```\n\nThen check.", "{text:?}");
        let doc = crate::parse::Document { format: crate::parse::Format::Html, title: "Backup".into(), pages: vec![crate::parse::Page { text }] };
        struct Words;
        impl crate::chunk::TokenCounter for Words {
            fn count(&self, text: &str) -> usize {
                text.split_whitespace().count()
            }
        }
        let chunks = crate::chunk::chunk_document(&doc, "Backup", &Words, crate::chunk::ChunkParams { max_tokens: 256 });
        assert!(!chunks.is_empty());
        assert!(chunks.iter().all(|c| c.heading_path == vec!["10.2. Backup".to_string()]), "{:?}", chunks.iter().map(|c| &c.heading_path).collect::<Vec<_>>());
    }

    #[test]
    fn entities_decode_and_stray_ampersands_survive() {
        assert_eq!(decode_entities("a &lt;b&gt; &#x41;&#66; &unknown; R&D"), "a <b> AB &unknown; R&D");
    }
}
