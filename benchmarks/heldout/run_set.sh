#!/bin/sh
# run_set.sh SET TAG DEVLINT : devlint once (no cache, project mode) on every repo of
# $CORPUS/SET, from the repo's root; JSON to $RUNS/TAG_<repo>.json; prints repo and count.
set -eu
CORPUS=${CORPUS:-/work/corpus8}
RUNS=${RUNS:-/work/notes/runs}
half=$1; tag=$2; bin=$3; mkdir -p "$RUNS"
for d in "$CORPUS/$half"/*/; do
  n=$(basename "$d")
  (cd "$d" && "$bin" check . --no-cache --format json --exit-zero -o "$RUNS/${tag}_$n.json" 2>"$RUNS/${tag}_$n.err")
  echo "$n $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['findings']))" "$RUNS/${tag}_$n.json")"
done
