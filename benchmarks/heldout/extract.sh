#!/bin/sh
# extract.sh SET owner/name ... : a fetched mirror's HEAD .py/.ipynb files into $CORPUS/SET/name,
# its cog.yaml files and its .gitmodules (a user's clone has them; devlint reads what they
# declare).
# Blobs only, so git symlinks (mode 120000) and absent large files are skipped; an empty .git
# folder marks the project root, as a user's clone has one. Prints "SET repo commit N files".
# MIRRORS: where `fetch` put the mirrors (owner+name/repo); CORPUS: where the trees go.
set -eu
MIRRORS=${MIRRORS:-/work/.mirror}
CORPUS=${CORPUS:-/work/corpus8}
half=$1; shift
for r in "$@"; do
  m=$MIRRORS/$(echo "$r" | tr / +)/repo
  if [ -d "$m/.git" ]; then g=$m/.git; else g=$m; fi
  n=${r#*/}; d=$CORPUS/$half/$n
  rm -rf "$d"; mkdir -p "$d"
  # (the path is what follows the tab, spaces included: `1 - Neural Bag of Words.ipynb`)
  git --git-dir="$g" ls-tree -r HEAD | awk -F '\t' '{split($1, m, " ")} m[1] ~ /^100/ && ($2 ~ /\.py$/ || $2 ~ /\.ipynb$/ || $2 ~ /(^|\/)cog\.yaml$/ || $2 == ".gitmodules") {print m[3] "\t" $2}' |
  while IFS="$(printf '\t')" read -r sha path; do
    mkdir -p "$d/$(dirname "$path")"
    git --git-dir="$g" cat-file blob "$sha" > "$d/$path" 2>/dev/null || rm -f "$d/$path"
  done
  mkdir -p "$d/.git"
  echo "$half $r $(git --git-dir="$g" rev-parse HEAD) $(find "$d" -name '*.py' -o -name '*.ipynb' | wc -l) files"
done
