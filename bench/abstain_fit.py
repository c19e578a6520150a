#!/usr/bin/env python3
"""Calibrates the abstain rule from retrieval signals, cross-validated across libraries.

Input: answer dumps from `pagewise eval-answers ... --never-abstain --extractive --out F.jsonl`,
one per library (answerable questions and out-of-scope ones). Each answer carries the
retrieval signals of its question (see crates/core/src/answer/abstain.rs).

The rule is a logistic score over library-relative signals; it is fitted with one library held
out at a time, and the held-out library's abstain rates are reported: answerable questions
that abstain (target <= 10%) and out-of-scope questions that abstain (target >= 90%). Nothing
is keyed to a library: the same features and the same fitting for all.

usage: bench/abstain_fit.py NAME=dump.jsonl [NAME=dump.jsonl ...] [--print-rust]
No dependencies beyond Python 3.
"""
import json
import math
import sys

FEATURES = [
    "idf_coverage",
    "coverage",
    "sentence_coverage",
    "top_cosine",
    "vector_margin",
    "lexical_margin",
    "agreement",
    "missing_names",
    "unknown_terms",
]


def features(signals):
    """The feature vector of one question, library-relative where the signal allows."""
    s = signals or {}
    return [
        s.get("idf_coverage", 0.0),
        s.get("coverage", 0.0),
        s.get("sentence_coverage", 0.0),
        s.get("top_cosine", 0.0),
        min(s.get("vector_margin") or 0.0, 6.0) / 6.0,
        min(s.get("lexical_margin") or 0.0, 6.0) / 6.0,
        s.get("agreement", 0.0),
        1.0 if s.get("missing_names") else 0.0,
        min(len(s.get("unknown_terms") or []), 3) / 3.0,
    ]


def load(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        answerable = r["set"] == "answerable"
        rows.append((features(r["answer"].get("signals")), 1 if answerable else 0, r.get("id")))
    return rows


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(rows, l2=0.05, steps=3000, lr=0.5):
    """Logistic regression by gradient descent; classes weighted equally, libraries too."""
    dims = len(rows[0][0])
    w = [0.0] * (dims + 1)
    pos = sum(1 for _, y, _, lib in rows if y == 1)
    neg = len(rows) - pos
    for _ in range(steps):
        grad = [0.0] * (dims + 1)
        for x, y, _, weight in rows:
            z = w[0] + sum(wi * xi for wi, xi in zip(w[1:], x))
            p = sigmoid(z)
            cw = weight * (0.5 / pos if y == 1 else 0.5 / neg)
            g = (p - y) * cw
            grad[0] += g
            for i, xi in enumerate(x):
                grad[i + 1] += g * xi
        for i in range(1, dims + 1):
            grad[i] += l2 * w[i]
        w = [wi - lr * gi for wi, gi in zip(w, grad)]
    return w


def score(w, x):
    return sigmoid(w[0] + sum(wi * xi for wi, xi in zip(w[1:], x)))


def choose_threshold(w, rows, max_answerable_abstain=0.10):
    """The highest threshold at which at most 10% of answerable training questions abstain."""
    scores = sorted(score(w, x) for x, y, _, _ in rows if y == 1)
    k = int(math.floor(max_answerable_abstain * len(scores)))
    return scores[k] - 1e-6 if scores else 0.5


def rates(w, t, rows):
    ans = [score(w, x) for x, y, _ in rows if y == 1]
    oos = [score(w, x) for x, y, _ in rows if y == 0]
    a = sum(1 for s in ans if s < t) / max(1, len(ans))
    o = sum(1 for s in oos if s < t) / max(1, len(oos))
    return a, o, len(ans), len(oos)


def main():
    libs = {}
    for arg in sys.argv[1:]:
        if "=" in arg:
            name, path = arg.split("=", 1)
            libs[name] = load(path)
    if len(libs) < 2:
        sys.exit(__doc__)
    print(f"{'held out':<14}{'answerable abstain':>20}{'out-of-scope abstain':>22}")
    for held in libs:
        train = []
        for name, rows in libs.items():
            if name == held:
                continue
            # Each training library weighs the same, whatever its size.
            for x, y, qid in rows:
                train.append((x, y, qid, len(rows) and 1.0 / len(rows) * 100))
        w = fit(train)
        t = choose_threshold(w, train)
        a, o, na, no = rates(w, t, libs[held])
        print(f"{held:<14}{a:>14.3f} ({na:>3}){o:>16.3f} ({no:>3})")
    everything = []
    for rows in libs.values():
        for x, y, qid in rows:
            everything.append((x, y, qid, 100.0 / len(rows)))
    w = fit(everything)
    t = choose_threshold(w, everything)
    print("\nfitted on all libraries:")
    print("  bias", round(w[0], 4))
    for name, wi in zip(FEATURES, w[1:]):
        print(f"  {name:<18}{wi:+.4f}")
    print("  threshold", round(t, 4))
    for name, rows in libs.items():
        a, o, na, no = rates(w, t, rows)
        print(f"  in-sample {name:<12} answerable abstain {a:.3f}  out-of-scope abstain {o:.3f}")


if __name__ == "__main__":
    main()
