//! Reading an OpenAI-style streamed chat completion: server-sent events whose `data:` lines
//! carry one JSON chunk each, ended by `data: [DONE]`.

use serde_json::Value;

/// What one event line says.
#[derive(Debug, PartialEq)]
pub enum StreamItem {
    /// Text for the answer (possibly empty chunks are left out).
    Text(String),
    /// The server's count of tokens (sent with the last chunk when asked for).
    Usage { prompt_tokens: usize, completion_tokens: usize },
    /// Generation stopped at the token limit.
    HitLimit,
    /// The server reported an error inside the stream.
    Error(String),
    Done,
}

/// The items of one line; comments, `event:` lines and blank lines give none.
pub fn read_line(line: &str) -> Vec<StreamItem> {
    let Some(data) = line.strip_prefix("data:") else { return Vec::new() };
    let data = data.trim();
    if data == "[DONE]" {
        return vec![StreamItem::Done];
    }
    let Ok(chunk) = serde_json::from_str::<Value>(data) else {
        return vec![StreamItem::Error(format!("unreadable chunk: {}", shorten(data)))];
    };
    if let Some(error) = chunk.get("error") {
        return vec![StreamItem::Error(error_message(error))];
    }
    let mut items = Vec::new();
    if let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) {
        if let Some(text) = choice.pointer("/delta/content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            items.push(StreamItem::Text(text.to_string()));
        }
        if choice.get("finish_reason").and_then(Value::as_str) == Some("length") {
            items.push(StreamItem::HitLimit);
        }
    }
    if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
        let count = |k: &str| usage.get(k).and_then(Value::as_u64).unwrap_or(0) as usize;
        items.push(StreamItem::Usage { prompt_tokens: count("prompt_tokens"), completion_tokens: count("completion_tokens") });
    }
    items
}

/// The message of an OpenAI-style error object (`{"message": …}`), or the object itself.
pub fn error_message(error: &Value) -> String {
    match error {
        Value::String(s) => s.clone(),
        other => other.get("message").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| shorten(&other.to_string())),
    }
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_give_text_usage_limit_and_end() {
        let text = r#"data: {"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}"#;
        assert_eq!(read_line(text), vec![StreamItem::Text("Hel".into())]);
        let role_only = r#"data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}"#;
        assert!(read_line(role_only).is_empty());
        let last = r#"data:{"choices":[{"delta":{},"finish_reason":"length"}],"usage":{"prompt_tokens":12,"completion_tokens":5}}"#;
        assert_eq!(read_line(last), vec![StreamItem::HitLimit, StreamItem::Usage { prompt_tokens: 12, completion_tokens: 5 }]);
        assert_eq!(read_line("data: [DONE]"), vec![StreamItem::Done]);
        assert!(read_line(": keep-alive").is_empty());
        assert!(read_line("event: message").is_empty());
        assert!(read_line("").is_empty());
    }

    #[test]
    fn errors_in_the_stream_are_named() {
        let error = r#"data: {"error":{"code":500,"message":"context overflow","type":"server_error"}}"#;
        assert_eq!(read_line(error), vec![StreamItem::Error("context overflow".into())]);
        assert!(matches!(&read_line("data: {not json")[..], [StreamItem::Error(m)] if m.contains("unreadable")));
    }
}
