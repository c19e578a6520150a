#!/usr/bin/env python3
"""Peer for bench/scale.sh: the plain local-RAG stack on the same synthetic library —
SQLite FTS5 (BM25) for keywords and an exact cosine scan in NumPy for vectors, fused with
reciprocal rank fusion, the query embedded by sentence-transformers with the same MiniLM.

  build  DB OUT   reads our chunks (text and vector) from Pagewise's SQLite DB and writes
                  OUT/peer.sqlite (FTS5) and OUT/vectors.npy
  query  OUT Q    opens them, asks each question of Q (JSON lines, "question") RUNS times
  add    OUT N    adds N passages (texts and vectors re-used) and saves, timed

Each prints one JSON line with the same field names as `pagewise-dev bench-scale`.
"""

import json
import os
import sqlite3
import sys
import time

import numpy as np


def rss_mb():
    fields = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            fields[k] = v.split()
    return float(fields["VmRSS"][0]) / 1024, float(fields["VmHWM"][0]) / 1024


def disk_mb(path):
    total = 0
    for dirpath, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
    return total / 1e6


def build(db, out):
    os.makedirs(out, exist_ok=True)
    started = time.perf_counter()
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    n = src.execute("SELECT count(*) FROM chunks WHERE vector IS NOT NULL").fetchone()[0]
    dst_path = os.path.join(out, "peer.sqlite")
    if os.path.exists(dst_path):
        os.remove(dst_path)
    dst = sqlite3.connect(dst_path)
    dst.execute("CREATE VIRTUAL TABLE passages USING fts5(text, tokenize='porter unicode61')")
    vectors = None
    row = 0
    cur = src.execute("SELECT text, vector FROM chunks WHERE vector IS NOT NULL ORDER BY id")
    while True:
        rows = cur.fetchmany(20000)
        if not rows:
            break
        block = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), -1)
        if vectors is None:
            vectors = np.lib.format.open_memmap(os.path.join(out, "vectors.npy"), mode="w+", dtype=np.float32, shape=(n, block.shape[1]))
        vectors[row:row + len(rows)] = block
        dst.executemany("INSERT INTO passages(rowid, text) VALUES (?, ?)", [(row + i, r[0]) for i, r in enumerate(rows)])
        row += len(rows)
    dst.commit()
    vectors.flush()
    print(json.dumps({"chunks": row, "build_seconds": time.perf_counter() - started}))


def fts_query(question):
    words = ["".join(c for c in w if c.isalnum()) for w in question.split()]
    return " OR ".join(f'"{w}"' for w in words if w)


def query(out, questions_path, runs):
    questions = [json.loads(l)["question"] for l in open(questions_path) if l.strip()]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from sentence_transformers import SentenceTransformer
    threads = int(os.environ.get("BENCH_THREADS", "2"))
    torch.set_num_threads(threads)
    model = SentenceTransformer(os.environ["EMBED_MODEL"], device="cpu", local_files_only=True)
    started = time.perf_counter()
    db = sqlite3.connect(os.path.join(out, "peer.sqlite"))
    vectors = np.load(os.path.join(out, "vectors.npy"))
    open_ms = (time.perf_counter() - started) * 1000

    def search(q, k=10, candidates=100):
        qv = model.encode([q], normalize_embeddings=True, convert_to_numpy=True)[0].astype(np.float32)
        scores = vectors @ qv
        top = np.argpartition(-scores, candidates)[:candidates]
        top = top[np.argsort(-scores[top])]
        lexical = [r[0] for r in db.execute(
            "SELECT rowid FROM passages WHERE passages MATCH ? ORDER BY bm25(passages) LIMIT ?", (fts_query(q), candidates))]
        fused = {}
        for rank, i in enumerate(top):
            fused[int(i)] = fused.get(int(i), 0) + 1 / (60 + rank + 1)
        for rank, i in enumerate(lexical):
            fused[i] = fused.get(i, 0) + 1 / (60 + rank + 1)
        return sorted(fused, key=fused.get, reverse=True)[:k]

    first = time.perf_counter()
    search(questions[0])
    first_ms = (time.perf_counter() - first) * 1000
    times = []
    for _ in range(max(runs, 1)):
        for q in questions:
            t = time.perf_counter()
            assert search(q)
            times.append((time.perf_counter() - t) * 1000)
    times.sort()
    pct = lambda p: times[min(len(times), max(1, int(np.ceil(p / 100 * len(times))))) - 1]
    rss, peak = rss_mb()
    print(json.dumps({
        "chunks": int(vectors.shape[0]), "open_ms": open_ms, "first_query_ms": first_ms, "queries": len(times),
        "p50_ms": pct(50), "p95_ms": pct(95), "max_ms": times[-1], "rss_mb": rss, "peak_rss_mb": peak, "disk_mb": disk_mb(out),
    }))


def add(out, n):
    started_open = time.perf_counter()
    db = sqlite3.connect(os.path.join(out, "peer.sqlite"))
    vectors = np.load(os.path.join(out, "vectors.npy"))
    open_ms = (time.perf_counter() - started_open) * 1000
    texts = [r[0] for r in db.execute("SELECT text FROM passages LIMIT ?", (n,))]
    started = time.perf_counter()
    base = vectors.shape[0]
    db.executemany("INSERT INTO passages(rowid, text) VALUES (?, ?)", [(base + i, t) for i, t in enumerate(texts)])
    db.commit()
    grown = np.concatenate([vectors, vectors[:len(texts)]])
    np.save(os.path.join(out, "vectors.npy"), grown)
    print(json.dumps({"added_chunks": len(texts), "writer_open_ms": open_ms, "add_ms": (time.perf_counter() - started) * 1000}))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "build":
        build(sys.argv[2], sys.argv[3])
    elif cmd == "query":
        query(sys.argv[2], sys.argv[3], int(os.environ.get("RUNS", "3")))
    elif cmd == "add":
        add(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown command {cmd}")
