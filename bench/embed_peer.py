#!/usr/bin/env python3
"""Python peer for `pagewise-dev bench-embed`: the same all-MiniLM-L6-v2 weights through
sentence-transformers on PyTorch (CPU), on the same texts, measured the same way.

Input: JSON lines with a "text" field. Output: one JSON line like `pagewise-dev bench-embed`:
{"texts", "tokens", "seconds", "tokens_per_s", "dimensions", "first_vector_head", ...}.

Measured like ours: the model load is excluded; the timed part is tokenising, sorting by
length, batching, the forward passes, pooling and normalising. Tokens are counted with the
model's HF tokenizer, special tokens included, truncated at max_seq_length (256).

Batching (--batching pagewise, the default) copies Pagewise's: texts sorted by token length,
longest first, then batches of at most 32 texts and at most 8192 padded tokens, each padded
to its longest text. --batching st leaves it to SentenceTransformer.encode(batch_size=32),
which sorts by character length.
"""

import argparse
import json
import os
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", help="JSON lines with a \"text\" field")
    ap.add_argument("--model", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "all-MiniLM-L6-v2"))
    ap.add_argument("--threads", type=int, default=int(os.environ.get("BENCH_THREADS", "2")))
    ap.add_argument("--max-seq-length", type=int, default=256)
    ap.add_argument("--batch-texts", type=int, default=32)
    ap.add_argument("--batch-tokens", type=int, default=8192)
    ap.add_argument("--batching", choices=["pagewise", "st"], default="pagewise")
    ap.add_argument("--vectors-out", help="write every vector (float32, in input order) to this .npy file")
    args = ap.parse_args()

    # Thread pools read these when they start, so set them before importing torch.
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"

    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(args.threads)

    texts = []
    with open(args.input, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                texts.append(json.loads(line).get("text", ""))

    load_started = time.perf_counter()
    model = SentenceTransformer(os.path.abspath(args.model), device="cpu", local_files_only=True)
    model.max_seq_length = args.max_seq_length
    model.eval()
    load_secs = time.perf_counter() - load_started
    tok = model.tokenizer
    dim_fn = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    dim = dim_fn()

    # Token count like ours: special tokens included, truncated at max_seq_length.
    enc = tok(texts, truncation=True, max_length=args.max_seq_length, add_special_tokens=True)
    tokens = sum(len(ids) for ids in enc["input_ids"])

    started = time.perf_counter()
    with torch.inference_mode():
        if args.batching == "st":
            vectors = model.encode(texts, batch_size=args.batch_texts, normalize_embeddings=True,
                                   convert_to_numpy=True, show_progress_bar=False)
        else:
            lengths = [min(len(ids), args.max_seq_length)
                       for ids in tok(texts, add_special_tokens=False, truncation=False)["input_ids"]]
            order = sorted(range(len(texts)), key=lambda i: -lengths[i])  # stable, like sort_by_key
            vectors = np.zeros((len(texts), dim), dtype=np.float32)
            start = 0
            while start < len(order):
                longest = max(lengths[order[start]], 1) + 2
                fit = max(1, min(args.batch_texts, args.batch_tokens // longest))
                idx = order[start:start + fit]
                batch = [texts[i] for i in idx]
                vectors[idx] = model.encode(batch, batch_size=len(batch), normalize_embeddings=True,
                                            convert_to_numpy=True, show_progress_bar=False)
                start += fit
    secs = time.perf_counter() - started

    if args.vectors_out:
        np.save(args.vectors_out, np.asarray(vectors, dtype=np.float32))
    print(json.dumps({
        "texts": len(texts),
        "tokens": tokens,
        "seconds": secs,
        "tokens_per_s": tokens / secs,
        "dimensions": int(vectors.shape[1]) if len(texts) else 0,
        "first_vector_head": [float(x) for x in vectors[0][:4]] if len(texts) else None,
        "peer": f"sentence-transformers {__import__('sentence_transformers').__version__} on torch {torch.__version__} (CPU)",
        "threads": torch.get_num_threads(),
        "batching": args.batching,
        "load_seconds": load_secs,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
