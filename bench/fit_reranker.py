#!/usr/bin/env python3
"""Fits the page reranker's weights (crates/core/src/retrieve/rerank.rs) and checks them.

Input: candidate dumps, one per library, written by
    pagewise-dev eval QUESTIONS --data-dir DIR --dump-candidates LIB.jsonl
Each line holds a question's candidate pages in fused order with their features
(position, coverage, quantity_fit, phrase_overlap) and whether the page is a gold page.

The model is linear; it is fitted listwise (softmax over a question's candidate pages,
maximising the probability of its gold pages) with L2 regularisation on standardised features.
Printed:
  * leave-one-library-out: fit on the other libraries, score the held-out one;
  * 5-fold over the pooled questions, averaged over four shuffles;
  * the weights fitted on everything (what rerank.rs uses), on the raw feature scale.
Recall@1/5/10 and MRR@10 count every question (one whose gold page is not among the
candidates is a miss either way), as `pagewise-dev eval` does.

Usage: fit_reranker.py [--l2 0.1] NAME=DUMP.jsonl [NAME=DUMP.jsonl ...]
Pure Python: runs wherever the benchmarks do.
"""
import json
import math
import random
import sys

FEATURES = ["position", "coverage", "quantity_fit", "phrase_overlap"]


def load(path):
    questions = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            q = json.loads(line)
            pages = [([p["features"][k] for k in FEATURES], bool(p["gold"])) for p in q["pages"]]
            questions.append(pages)
    return questions


def metrics(questions, weights):
    r1 = r5 = r10 = mrr = 0.0
    for pages in questions:
        order = sorted(range(len(pages)), key=lambda i: (-sum(w * x for w, x in zip(weights, pages[i][0])), i))
        for place, i in enumerate(order[:10]):
            if pages[i][1]:
                rank = place + 1
                r1 += rank <= 1
                r5 += rank <= 5
                r10 += 1
                mrr += 1 / rank
                break
    n = max(1, len(questions))
    return r1 / n, r5 / n, r10 / n, mrr / n


def fit(questions, l2, epochs=400, rate=0.5):
    rows = [x for pages in questions for x, _ in pages]
    if not rows:
        return [0.0] * len(FEATURES)
    mean = [sum(c) / len(rows) for c in zip(*rows)]
    sd = [max(1e-6, (sum((v - m) ** 2 for v in c) / len(rows)) ** 0.5) for c, m in zip(zip(*rows), mean)]
    groups = []
    for pages in questions:
        if not any(g for _, g in pages):
            continue
        xs = [[(v - m) / s for v, m, s in zip(x, mean, sd)] for x, _ in pages]
        ys = [1.0 if g else 0.0 for _, g in pages]
        groups.append((xs, ys, sum(ys)))
    w = [0.0] * len(FEATURES)
    for _ in range(epochs):
        grad = [0.0] * len(w)
        for xs, ys, gold in groups:
            scores = [sum(a * b for a, b in zip(w, x)) for x in xs]
            top = max(scores)
            exp = [math.exp(s - top) for s in scores]
            z = sum(exp)
            for x, e, y in zip(xs, exp, ys):
                c = e / z - y / gold
                for j in range(len(w)):
                    grad[j] += c * x[j]
        for j in range(len(w)):
            w[j] -= rate * (grad[j] / len(groups) + l2 * w[j])
    # Back to the raw feature scale (the offset does not change a ranking).
    return [wj / s for wj, s in zip(w, sd)]


def fmt(m):
    return "r1 %.3f r5 %.3f r10 %.3f mrr %.3f" % m


def main(argv):
    l2 = 0.1
    libraries = {}
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--l2":
            l2 = float(args.pop(0))
        elif "=" in a:
            name, path = a.split("=", 1)
            libraries[name] = load(path)
        else:
            sys.exit(__doc__)
    if not libraries:
        sys.exit(__doc__)
    fused_order = [1.0] + [0.0] * (len(FEATURES) - 1)
    print("leave-one-library-out (fused order -> reranked)")
    for held in libraries:
        train = [q for name, qs in libraries.items() if name != held for q in qs]
        w = fit(train, l2)
        print("  %-10s %s -> %s" % (held, fmt(metrics(libraries[held], fused_order)), fmt(metrics(libraries[held], w))))
    print("5-fold over pooled questions, 4 shuffles (fused order -> reranked)")
    tagged = [(name, q) for name, qs in libraries.items() for q in qs]
    sums = {name: [0.0] * 4 for name in libraries}
    for seed in range(1, 5):
        order = list(range(len(tagged)))
        random.Random(seed).shuffle(order)
        for k in range(5):
            test = set(order[k::5])
            w = fit([tagged[i][1] for i in order if i not in test], l2)
            for i in test:
                m = metrics([tagged[i][1]], w)
                sums[tagged[i][0]] = [a + b for a, b in zip(sums[tagged[i][0]], m)]
    for name, qs in libraries.items():
        n = len(qs) * 4
        print("  %-10s %s -> %s" % (name, fmt(metrics(qs, fused_order)), fmt(tuple(s / n for s in sums[name]))))
    w = fit([q for qs in libraries.values() for q in qs], l2)
    print("weights on all libraries: " + ", ".join("%s %.3f" % (k, v) for k, v in zip(FEATURES, w)))


if __name__ == "__main__":
    main(sys.argv[1:])
