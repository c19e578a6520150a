//! Generation through an OpenAI-compatible server: llama.cpp's own llama-server (built by
//! models/llama-server.sh) started on loopback by each test with a real GGUF. The answer
//! pipeline around it (evidence, citation checks, abstaining) is the local one.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;
mod header_capture;
mod llama_server;

use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

use common::*;
use llama_server::Server;
use pagewise_core::answer::{GenerationEvent, GenerationRequest, Generator, Prompt};
use pagewise_core::answer::EndpointGenerator;
use pagewise_core::openai::EndpointSettings;

fn indexed_fixture() -> (tempfile::TempDir, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    let summary = index_json(data.path(), &[docs.path()]);
    assert_eq!(summary["indexed"], 1, "{summary}");
    (data, docs)
}

fn page_texts(pdf: &Path) -> Vec<String> {
    let out = run_ok(pagewise(Path::new("/nonexistent")).arg("parse").arg("--json").arg(pdf));
    json_lines(&out).into_iter().map(|p| p["text"].as_str().unwrap().to_string()).collect()
}

#[test]
fn ask_answers_through_a_real_server_with_checked_citations() {
    let (data, docs) = indexed_fixture();
    let pages = page_texts(&docs.path().join("known-answers.pdf"));
    let server = Server::start(&repo_root().join("models"), "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "qwen-on-server", &[]);
    // No --endpoint-model: the server's only model is taken.
    let out = run_ok(pagewise(data.path()).args(["ask", "When did the Larkspur bridge open?", "--json", "--endpoint", &server.url]));
    let answer = json(&out);
    assert_eq!(answer["abstained"], false, "{answer}");
    assert_eq!(answer["model"].as_str().unwrap(), format!("qwen-on-server at {}", server.url));
    assert!(!answer["raw_model_output"].as_str().unwrap().trim().is_empty(), "the server's model must have written: {answer}");
    assert!(answer["timings"]["generated_tokens"].as_u64().unwrap() > 0, "{answer}");
    assert!(answer["note"].is_null(), "no fallback to an extractive answer: {answer}");
    let cited = answer["citations"].as_array().unwrap();
    assert!(cited.iter().any(|c| c["page"] == 1), "no citation of page 1: {answer}");
    for c in cited {
        let page = &pages[c["page"].as_u64().unwrap() as usize - 1];
        let (start, end) = (c["byte_start"].as_u64().unwrap() as usize, c["byte_end"].as_u64().unwrap() as usize);
        assert_eq!(&page[start..end], c["quote"].as_str().unwrap(), "a citation's quote is the page text at its range");
    }
    let supported: String = answer["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["citations"].as_array().unwrap().is_empty())
        .map(|s| s["text"].as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(pagewise_core::grade::states(&supported, "1931"), "no supported sentence states 1931: {answer}");
}

#[test]
fn endpoint_failures_are_named_before_asking() {
    let (data, _docs) = indexed_fixture();
    let ask = |url: &str, key: Option<&str>, extra: &[&str]| {
        let mut cmd = pagewise(data.path());
        cmd.args(["ask", "When did the Larkspur bridge open?", "--json", "--endpoint", url]).args(extra);
        match key {
            Some(k) => cmd.env("PAGEWISE_API_KEY", k),
            None => cmd.env_remove("PAGEWISE_API_KEY"),
        };
        let out = cmd.output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // Nothing listens on this port.
    let free = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let (code, stderr, _) = ask(&format!("http://127.0.0.1:{free}/v1"), None, &[]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("cannot reach") && stderr.contains("is the server running"), "{stderr}");

    let server = Server::start(&repo_root().join("models"), "SmolLM2-135M-Instruct.Q4_1.gguf", "small", &["--api-key", "right-key"]);
    let (code, stderr, _) = ask(&server.url, None, &[]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("refused the API key") && stderr.contains("PAGEWISE_API_KEY"), "{stderr}");
    let (code, stderr, _) = ask(&server.url, Some("wrong-key"), &[]);
    assert!(code != Some(0) && stderr.contains("HTTP 401"), "{stderr}");
    let (code, stderr, _) = ask(&server.url, Some("right-key"), &["--endpoint-model", "no-such-model"]);
    assert!(code != Some(0) && stderr.contains("serves no model named no-such-model") && stderr.contains("small"), "{stderr}");
    // The right key and model: an answer (the small model's wording is not checked here).
    let (code, stderr, stdout) = ask(&server.url, Some("right-key"), &["--max-tokens", "24"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stdout).unwrap()["model"].as_str().unwrap(), format!("small at {}", server.url));
}

fn small_model_generator(server: &Server) -> EndpointGenerator {
    let settings = EndpointSettings { model: Some("small".into()), ..EndpointSettings::new(server.url.clone()) };
    EndpointGenerator::connect(&settings).unwrap()
}

fn long_request() -> GenerationRequest {
    let mut request = GenerationRequest::new(Prompt::plain("Write a long story about a lighthouse keeper and the sea."), 1000);
    request.repeat_penalty = 1.0;
    // A fixed length: the story cannot end early on its own, so only a cancel frees the slot.
    request.ignore_eos = true;
    request
}

#[test]
fn a_stream_cancelled_by_dropping_it_stops_and_the_server_serves_the_next() {
    let server = Server::start(&repo_root().join("models"), "SmolLM2-135M-Instruct.Q4_1.gguf", "small", &[]);
    let generator = small_model_generator(&server);
    let stream = generator.stream(long_request()).unwrap();
    let mut tokens = 0;
    while tokens < 3 {
        match stream.next_event_timeout(Duration::from_secs(60)) {
            Ok(Some(GenerationEvent::Token(_))) => tokens += 1,
            other => panic!("expected tokens, got {other:?}"),
        }
    }
    let cancelled_at = Instant::now();
    drop(stream);
    // With one slot, the next request waits for the first unless the cancel freed it: it
    // must start at once, not after the 1,000 tokens of the story.
    let mut short = GenerationRequest::new(Prompt::plain("Say hello."), 8);
    short.repeat_penalty = 1.0;
    let next = generator.stream(short).unwrap();
    let mut text = String::new();
    let stats = loop {
        match next.next_event_timeout(Duration::from_secs(60)) {
            Ok(Some(GenerationEvent::Token(t))) => text.push_str(&t),
            Ok(Some(GenerationEvent::Done(stats))) => break stats,
            other => panic!("expected the next answer, got {other:?}"),
        }
    };
    assert!(!text.is_empty() && stats.generated_tokens > 0 && stats.generated_tokens <= 8, "{text:?} {stats:?}");
    // The server's own time for the first token of the next request shows it did not sit
    // behind the cancelled story.
    assert!(stats.prompt_ms < 5_000.0, "the next request waited {} ms (cancelled at {:?})", stats.prompt_ms, cancelled_at.elapsed());
}

#[test]
fn a_server_killed_mid_stream_ends_the_answer_with_a_clear_error() {
    let mut server = Server::start(&repo_root().join("models"), "SmolLM2-135M-Instruct.Q4_1.gguf", "small", &[]);
    let generator = small_model_generator(&server);
    let stream = generator.stream(long_request()).unwrap();
    match stream.next_event_timeout(Duration::from_secs(60)) {
        Ok(Some(GenerationEvent::Token(_))) => {}
        other => panic!("expected a token, got {other:?}"),
    }
    server.kill();
    let deadline = Instant::now() + Duration::from_secs(30);
    let failure = loop {
        assert!(Instant::now() < deadline, "the stream did not end after the server died");
        match stream.next_event_timeout(Duration::from_secs(30)) {
            Ok(Some(GenerationEvent::Token(_))) => continue,
            Ok(Some(GenerationEvent::Failed(message))) => break message,
            other => panic!("expected a failure, got {other:?}"),
        }
    };
    assert!(failure.contains("broke off the answer"), "{failure}");
    // Asking again names the dead server instead of hanging.
    let settings = EndpointSettings { retries: 1, ..EndpointSettings::new(server.url.clone()) };
    let refused = EndpointGenerator::connect(&settings).err().unwrap().to_string();
    assert!(refused.contains("cannot reach"), "{refused}");
}


fn embed_model_of(data: &Path) -> String {
    let db = rusqlite::Connection::open(data.join("pagewise.sqlite")).unwrap();
    db.query_row("SELECT value FROM meta WHERE key = 'embed_model'", [], |r| r.get(0)).unwrap()
}

#[test]
fn vectors_come_from_a_real_embedding_server_and_a_change_of_model_re_embeds() {
    let data = tempfile::tempdir().unwrap();
    let sample = repo_root().join("assets/sample");
    // llama-server computing mean-pooled embeddings with a real GGUF (SmolLM2: 576 dimensions).
    let server = Server::start(&repo_root().join("models"), "SmolLM2-135M-Instruct.Q4_1.gguf", "smol-embed", &["--embeddings", "--pooling", "mean"]);
    let (url, port) = (server.url.clone(), server.port());
    let remote = |cmd: &mut std::process::Command| {
        cmd.args(["--embed-endpoint", &url]);
    };

    let mut index = pagewise(data.path());
    remote(index.args(["index", "--json"]).arg(&sample));
    let summary = json(&run_ok(&mut index));
    assert_eq!(summary["indexed"], 3, "{summary}");
    let chunks = summary["chunks"].as_u64().unwrap();
    assert!(chunks > 10 && summary["embedded"] == chunks, "every passage was embedded by the server: {summary}");
    assert_eq!(embed_model_of(data.path()), format!("endpoint:{}#smol-embed@576", server.url), "the identity names the server and model");
    let mut verify = pagewise(data.path());
    remote(verify.args(["verify", "--json"]));
    let consistent = json(&run_ok(&mut verify));
    assert_eq!(consistent["vectors_missing"], 0, "{consistent}");

    // Vector search asks the server for the query's vector.
    let mut search = pagewise(data.path());
    remote(search.args(["search", "money set aside for paid time off", "--mode", "vector", "--k", "5", "--json"]));
    let hits = json_lines(&run_ok(&mut search));
    assert_eq!(hits.len(), 5, "{hits:?}");
    assert!(hits.iter().all(|h| h["score"].as_f64().unwrap().is_finite() && h["doc_path"].as_str().unwrap().contains("sample")));

    // The server goes away (a laptop off its network): the library still opens and hybrid
    // search answers from its keyword half, saying why; a search by meaning alone fails clearly.
    drop(server);
    let mut offline = pagewise(data.path());
    offline.args(["--embed-endpoint", &url, "search", "money set aside for paid time off", "--k", "5", "--json"]);
    let out = offline.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let hits: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!hits.is_empty() && hits.iter().all(|h| h["doc_path"].as_str().unwrap().contains("sample")), "{hits:?}");
    assert!(err.contains("does not answer") && err.contains("keyword search only"), "{err}");
    let mut by_meaning = pagewise(data.path());
    by_meaning.args(["--embed-endpoint", &url, "search", "paid time off", "--mode", "vector", "--json"]);
    let out = by_meaning.output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot reach"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(embed_model_of(data.path()), format!("endpoint:{url}#smol-embed@576"), "the library's vectors were kept");

    // A folder added while the server is away is parsed and keyword-searchable; its vectors
    // wait, and the run says so instead of failing.
    let added = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    let mut away = pagewise(data.path());
    away.args(["--embed-endpoint", &url, "index", "--json"]).arg(added.path());
    let out = away.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let summary = json(&out);
    let added_chunks = summary["chunks"].as_u64().unwrap();
    assert_eq!((summary["indexed"].as_u64(), summary["embedded"].as_u64()), (Some(1), Some(0)), "{summary}");
    assert!(added_chunks > 0 && summary["pending_vectors"] == added_chunks, "{summary}");
    assert!(summary["notices"].to_string().contains("wait for their vectors"), "{summary}");
    let mut by_words = pagewise(data.path());
    by_words.args(["--embed-endpoint", &url, "search", "Larkspur bridge", "--k", "3", "--json"]);
    let hits = json_lines(&run_ok(&mut by_words));
    assert!(hits.first().is_some_and(|h| h["doc_path"].as_str().unwrap().ends_with("known-answers.pdf")), "{hits:?}");

    // The server comes back at the same address: the next run embeds what waited.
    let server = Server::start_on(port, &repo_root().join("models"), "SmolLM2-135M-Instruct.Q4_1.gguf", "smol-embed", &["--embeddings", "--pooling", "mean"]);
    let mut back = pagewise(data.path());
    remote(back.args(["index", "--json"]).arg(added.path()));
    let summary = json(&run_ok(&mut back));
    assert_eq!((summary["embedded"].as_u64(), summary["pending_vectors"].as_u64()), (Some(added_chunks), Some(0)), "{summary}");
    let mut verify = pagewise(data.path());
    remote(verify.args(["verify", "--json"]));
    assert_eq!(json(&run_ok(&mut verify))["vectors_missing"], 0);
    drop(server);

    // Back to the local model: the library is re-embedded, not searched with the wrong vectors.
    let again = index_json(data.path(), &[&sample, added.path()]);
    assert_eq!(again["embedded"].as_u64().unwrap(), chunks + added_chunks, "a model change re-embeds every passage: {again}");
    assert!(again["notices"].to_string().contains("model"), "the change is reported: {again}");
    assert!(embed_model_of(data.path()).starts_with("all-MiniLM-L6-v2@"));

    // A server the library has never used is an error before any indexing, and the index is
    // left as it was.
    let mut gone = pagewise(data.path());
    gone.args(["index", "--embed-endpoint", "http://127.0.0.1:9/v1"]).arg(&sample);
    let out = gone.output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot reach"), "{err}");
    assert!(embed_model_of(data.path()).starts_with("all-MiniLM-L6-v2@"));
}

#[test]
fn the_answer_servers_key_never_reaches_the_embedding_server() {
    let docs = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    let index = |embed_key: Option<&str>| {
        let data = tempfile::tempdir().unwrap();
        let server = header_capture::HeaderCapture::start();
        let mut cmd = pagewise(data.path());
        cmd.args(["index", "--json", "--embed-endpoint", &server.url]).arg(docs.path()).env("PAGEWISE_API_KEY", "sk-answer-server");
        match embed_key {
            Some(k) => cmd.env("PAGEWISE_EMBED_API_KEY", k),
            None => cmd.env_remove("PAGEWISE_EMBED_API_KEY"),
        };
        let _ = cmd.output().unwrap();
        assert!(!server.requests().is_empty(), "the embedding server was asked");
        // The network log shows each of those requests as the embedding server's.
        let logged = json(&run_ok(pagewise(data.path()).args(["network-log", "--json"])));
        let port = server.url.split(['/', ':']).nth(4).unwrap().parse::<u64>().unwrap();
        let rows = logged.as_array().unwrap();
        assert!(!rows.is_empty(), "{logged}");
        for row in rows {
            assert_eq!((&row["purpose"], &row["host"], row["port"].as_u64()), (&"embedding_server".into(), &"127.0.0.1".into(), Some(port)), "{logged}");
        }
        let counted: u64 = rows.iter().map(|r| r["count"].as_u64().unwrap()).sum();
        assert_eq!(counted, server.requests().len() as u64, "one entry per request: {logged}");
        server
    };
    let without = index(None);
    assert!(!without.saw_authorization(), "{:?}", without.requests());
    // Its own key does reach it (on this computer, plain http may carry one).
    let with_own = index(Some("sk-embed-server"));
    let sent: Vec<String> = with_own.requests().into_iter().flatten().filter(|h| h.to_ascii_lowercase().starts_with("authorization:")).collect();
    assert!(!sent.is_empty() && sent.iter().all(|h| h.ends_with("sk-embed-server")), "{sent:?}");
}
