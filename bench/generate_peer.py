#!/usr/bin/env python3
"""Generation-speed peer for Pagewise's llama.cpp answerer, on llama-cpp-python.

Usage: generate_peer.py --model PATH --prompt-file FILE --threads N --n-predict N [--runs R]
Prints one JSON line per run, then one with the medians ("median": true).
"""
import argparse
import json
import statistics
import sys
import time

import llama_cpp
from llama_cpp import Llama


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--prompt-file", required=True)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--n-predict", type=int, required=True)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    llm = Llama(
        model_path=args.model, n_ctx=4096, n_batch=512, n_ubatch=512,
        # The app sets both; llama-cpp-python would otherwise use every core for the prompt.
        n_threads=args.threads, n_threads_batch=args.threads,
        # The app keeps llama.cpp's default flash_attn=auto, which resolves to on for a
        # CPU-only context; this binding only offers on/off.
        flash_attn=True, verbose=False,
    )
    with open(args.prompt_file, encoding="utf-8") as f:
        text = f.read()
    # add_bos=True means "add the model's special tokens if its metadata asks for them",
    # as the app's tokenize(prompt, true, true) does.
    prompt = llm.tokenize(text.encode("utf-8"), add_bos=True, special=True)
    if len(prompt) + args.n_predict > 4096:
        sys.exit(f"prompt ({len(prompt)}) + n-predict exceeds n_ctx 4096")

    # A bare greedy sampler, as in the app: Llama.sample() would rebuild a chain per token,
    # and Llama.generate() stops at EOS, while the benchmark needs exactly n-predict tokens.
    sampler = llama_cpp.llama_sampler_init_greedy()
    rows = []
    try:
        for _ in range(args.runs):
            llm.reset()  # eval() then drops the whole KV cache, so every run pays for the prompt
            t0 = time.perf_counter()
            llm.eval(prompt)
            t1 = time.perf_counter()
            # Same loop shape as the app: sample, then decode the token, n times.
            for _ in range(args.n_predict):
                tok = llama_cpp.llama_sampler_sample(sampler, llm.ctx, -1)
                llm.eval([tok])
            t2 = time.perf_counter()
            row = {
                "prompt_tokens": len(prompt), "prompt_s": t1 - t0,
                "prompt_tok_s": len(prompt) / (t1 - t0),
                "gen_tokens": args.n_predict, "gen_s": t2 - t1,
                "gen_tok_s": args.n_predict / (t2 - t1),
            }
            rows.append(row)
            print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
    finally:
        llama_cpp.llama_sampler_free(sampler)
    med = {k: round(statistics.median(r[k] for r in rows), 4) for k in rows[0]}
    med.update(prompt_tokens=len(prompt), gen_tokens=args.n_predict, median=True)
    print(json.dumps(med), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
