#!/usr/bin/env bash
# Retrieval (and, with ANSWERS=1, answers) on documentation libraries unlike the filings:
#   nodejs    Node.js 18 API reference, 60 Markdown files (Debian's nodejs-doc)
#   postgres  PostgreSQL 15 manual, 1,173 HTML pages of one product (postgresql-doc-15)
#   debref    the Debian Reference in Chinese, 15 long HTML chapters (debian-reference-zh-cn)
# Half of each library's questions name its subject ("node", "postgres", "Debian"), which
# every file of it uses. Prints, per library and search mode: file in the top 5 hits, the
# answering passage in the top 5 hits and its MRR@10, with routing and without.
#
# The packages are downloaded with `apt-get download` and unpacked into $BENCH_OUT/docs,
# never installed (nodejs-doc would replace a Node.js that did not come from Debian).
# Their text is not committed; the questions are bench/data/docs/*.jsonl.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out="$BENCH_OUT/docs"
mkdir -p "$out/debs"

unpack() { # package → $out/debs/package/
  local pkg="$1"
  if [ ! -d "$out/debs/$pkg" ]; then
    (cd "$out/debs" && apt-get download "$pkg" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 || true; apt-get download "$pkg" >/dev/null; })
    dpkg-deb -x "$out/debs/${pkg}"_*.deb "$out/debs/$pkg"
  fi
}

if [ ! -d "$out/nodejs/library" ]; then
  unpack nodejs-doc
  mkdir -p "$out/nodejs/library"
  for f in "$out/debs/nodejs-doc/usr/share/doc/nodejs/api/"*.md.gz; do
    name="$(basename "$f" .gz)"
    [ "$name" = "all.md" ] || gzip -dc "$f" > "$out/nodejs/library/$name"
  done
fi
if [ ! -d "$out/postgres/library" ]; then
  unpack postgresql-doc-15
  mkdir -p "$out/postgres/library"
  cp "$out/debs/postgresql-doc-15/usr/share/doc/postgresql-doc-15/html/"*.html "$out/postgres/library/"
fi
if [ ! -d "$out/debref/library" ]; then
  unpack debian-reference-zh-cn
  mkdir -p "$out/debref/library"
  cp "$out/debs/debian-reference-zh-cn/usr/share/debian-reference/"*.zh-cn.html "$out/debref/library/"
fi

questions="$bench_root/bench/data/docs"
for lib in nodejs postgres debref; do
  [ -f "$out/$lib/data/pagewise.sqlite" ] || "$PAGEWISE_BIN" index "$out/$lib/library" --data-dir "$out/$lib/data" >/dev/null
done

report() { # title questions data-dir [extra eval flags]
  local title="$1" q="$2" data="$3"; shift 3
  "$PAGEWISE_DEV_BIN" eval "$q" --data-dir "$data" --k 10 --json "$@" 2>/dev/null | python3 -c '
import json, sys
title = sys.argv[1]
for m in json.load(sys.stdin)["modes"]:
    print("{:<34} {:<8} file@5 {:.3f}  passage@5 {:.3f}  passage MRR@10 {:.3f}  page r@5 {:.3f}  P95 {:.1f} ms  (n={})".format(
        title, m["mode"], m["file_at_5"], m["passage_at_5"], m["passage_mrr_at_10"], m["recall_at_5"], m["latency_ms_p95"], m["questions"]))
' "$title"
}

split() { # questions names_subject → file
  python3 -c '
import json, sys
want = sys.argv[2] == "true"
for line in open(sys.argv[1]):
    if line.strip() and json.loads(line).get("names_subject") == want:
        print(line.rstrip())
' "$1" "$2" > "$3"
}

for lib in nodejs postgres debref; do
  case "$lib" in
    nodejs) q="$questions/nodejs-questions.jsonl" ;;
    postgres) q="$questions/postgres-questions.jsonl" ;;
    debref) q="$questions/debref-zh-questions.jsonl" ;;
  esac
  split "$q" true "$out/$lib/names.jsonl"
  split "$q" false "$out/$lib/plain.jsonl"
  echo "== $lib"
  report "$lib: all questions" "$q" "$out/$lib/data"
  report "$lib: all, without routing" "$q" "$out/$lib/data" --no-route
  report "$lib: naming the subject" "$out/$lib/names.jsonl" "$out/$lib/data"
  report "$lib: not naming it" "$out/$lib/plain.jsonl" "$out/$lib/data"
  echo
done

if [ "${ANSWERS:-0}" = 1 ]; then
  # Answers with the default model: right answers and abstaining on near misses that share
  # the library's subject. Slow on a laptop CPU (about half a minute a question).
  for lib in nodejs postgres debref; do
    case "$lib" in
      nodejs) q="$questions/nodejs-questions.jsonl"; oos="$questions/nodejs-out-of-scope.jsonl" ;;
      postgres) q="$questions/postgres-questions.jsonl"; oos="$questions/postgres-out-of-scope.jsonl" ;;
      debref) q="$questions/debref-zh-questions.jsonl"; oos="$questions/debref-zh-out-of-scope.jsonl" ;;
    esac
    echo "== $lib answers"
    "$PAGEWISE_DEV_BIN" eval-answers "$q" --out-of-scope "$oos" --data-dir "$out/$lib/data" --out "$out/$lib/answers.jsonl" 2>/dev/null
  done
fi
