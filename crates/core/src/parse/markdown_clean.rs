//! Markdown as a reader sees it rendered: HTML comments, link reference definitions and link
//! targets are markup nobody reads. Left in, they fill passages with URLs and build metadata
//! (`<!-- YAML added: v0.1.90 -->`, `[`fs.watch()`]: #fswatchfilename-options-listener`),
//! which dilutes what a passage is about, and a quote of one shows the user noise.
//! Fenced code is kept as written.

use std::sync::OnceLock;

use regex::Regex;

/// `[text](target "title")` and `![alt](src)` → their text; `[text][ref]` and `[text][]` → text.
fn link_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\](?:\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)|\[[^\[\]]*\])"#)
            .unwrap_or_else(|_| unreachable!())
    })
}

/// A link reference definition: `[label]: target`, indented at most three spaces.
fn reference_definition_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^ {0,3}\[[^\]]+\]:\s*\S").unwrap_or_else(|_| unreachable!()))
}

fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The Markdown text without comments, reference definitions and link targets, and with at
/// most one blank line in a row where those stood.
pub fn readable_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    let mut in_comment = false;
    let mut blank_run = 0usize;
    for line in text.split_inclusive('\n') {
        if !in_comment && is_fence(line) {
            in_code = !in_code;
        }
        let kept = if in_code || is_fence(line) {
            line.to_string()
        } else {
            let visible = without_comments(line, &mut in_comment);
            if reference_definition_regex().is_match(&visible) {
                String::new()
            } else {
                unescaped(&link_regex().replace_all(&visible, "$1"))
            }
        };
        let blank = kept.trim().is_empty();
        // A line that held only markup leaves nothing; real blank lines keep paragraphs apart.
        if blank && !line.trim().is_empty() {
            continue;
        }
        blank_run = if blank { blank_run + 1 } else { 0 };
        if blank_run <= 1 {
            out.push_str(if blank { "\n" } else { &kept });
            if !blank && !kept.ends_with('\n') && line.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

/// `line` with Markdown's backslash escapes read as the characters they stand for ("\*\*"
/// shows "**"), outside inline code. A `|` stays escaped, since an unescaped one would make the
/// line a table row, and so does a `#` that opens the line, which would make it a heading.
fn unescaped(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '`' {
            in_code = !in_code;
        }
        if c == '\\' && !in_code {
            if let Some(&(_, next)) = chars.peek() {
                let opens_line = line[..at].trim().is_empty();
                if next.is_ascii_punctuation() && next != '|' && !(next == '#' && opens_line) {
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// `line` without the parts inside HTML comments; `in_comment` carries an open comment over
/// to the next line.
fn without_comments(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_comment {
            match rest.find("-->") {
                Some(end) => {
                    rest = &rest[end + 3..];
                    *in_comment = false;
                }
                None => return out,
            }
        } else {
            match rest.find("<!--") {
                Some(start) => {
                    out.push_str(&rest[..start]);
                    rest = &rest[start + 4..];
                    *in_comment = true;
                }
                None => {
                    out.push_str(rest);
                    return out;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_reference_definitions_are_gone() {
        let md = "## `server.listen()`\n\n<!-- YAML\nadded: v0.1.90\n-->\n\nWhen the server starts listening, the\n[`'listening'`][] event is emitted. <!-- note --> See [the guide](guide.md#start \"Guide\").\n\n[`'listening'`]: #event-listening\n[guide]: https://example.org/\n";
        assert_eq!(
            readable_markdown(md),
            "## `server.listen()`\n\nWhen the server starts listening, the\n`'listening'` event is emitted.  See the guide.\n\n"
        );
    }

    #[test]
    fn code_is_kept_as_written() {
        let md = "Text ![logo](logo.png) and [x][y].\n\n```js\nconst a = b[0](c); // [not](a link)\n<!-- kept -->\n```\n";
        assert_eq!(readable_markdown(md), "Text logo and x.\n\n```js\nconst a = b[0](c); // [not](a link)\n<!-- kept -->\n```\n");
    }

    #[test]
    fn backslash_escapes_read_as_their_characters() {
        let md = "\\*\\* Node.js 8.0.0 included Node-API as experimental, see `a\\*b` and C:\\path.\n\\# not a heading\n| a \\| b |\n";
        assert_eq!(readable_markdown(md), "** Node.js 8.0.0 included Node-API as experimental, see `a\\*b` and C:\\path.\n\\# not a heading\n| a \\| b |\n");
    }

    #[test]
    fn plain_text_is_unchanged() {
        let md = "# Title\n\nA paragraph with [brackets] and a(parenthesis).\n\nAnother one.\n";
        assert_eq!(readable_markdown(md), md);
    }
}
