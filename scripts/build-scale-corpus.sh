#!/usr/bin/env bash
# Assembles a ~10,000-source-file corpus of real code for the scale benchmarks (issue 9) from local git mirrors:
# the dev repositories of ../shared/eval plus other open-source repositories, checked out at their newest commit,
# then copied again under numbered folders until the target count is reached. Never committed (corpora/ is ignored).
# usage: MIRROR_DIR=/work/.mirror scripts/build-scale-corpus.sh [TARGET_FILES] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
MIRROR_DIR=${MIRROR_DIR:?set MIRROR_DIR to the folder holding <owner>+<name>/repo git mirrors}
TARGET=${1:-10000}
OUT=${2:-corpora/scale-10k}
rm -rf "$OUT"; mkdir -p "$OUT/base"
# HEAD's tree; a fetched snapshot may leave out its largest blobs, and then `git archive` fails on the first one
# missing: every file that is present is written instead, and the repository is not lost from the corpus.
extract() {
  git --git-dir="$1" archive --format=tar HEAD 2>/dev/null | tar -x -C "$2" 2>/dev/null && return 0
  echo "$(basename "$2"): blobs missing from the mirror; extracting the files present" >&2
  git --git-dir="$1" ls-tree -r HEAD | while read -r mode type obj path; do
    [ "$type" = blob ] && [ "$mode" != 120000 ] && git --git-dir="$1" cat-file -e "$obj" 2>/dev/null || continue
    mkdir -p "$2/$(dirname "$path")" && git --git-dir="$1" cat-file blob "$obj" > "$2/$path"
  done
}
for m in "$MIRROR_DIR"/*+*/; do
  name=$(basename "$m"); git_dir="$m/repo"; [ -d "$git_dir" ] || git_dir="$m"
  mkdir -p "$OUT/base/$name"
  extract "$git_dir" "$OUT/base/$name" || echo "skipped $name"
done
# The languages the corpus was first sized by: C#, PHP and Ruby came later and are left out of the count, so that a
# target gives the same copies as before and figures stay comparable across sessions.
count() { find "$1" -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.jsx' -o -name '*.py' -o -name '*.go' -o -name '*.rs' -o -name '*.java' -o -name '*.kt' -o -name '*.swift' -o -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.m' \) -not -path '*/node_modules/*' | wc -l; }
base=$(count "$OUT/base"); total=$base; copy=1
[ "$base" -gt 0 ] || { echo "no source files under $OUT/base: check MIRROR_DIR" >&2; exit 1; }
while [ "$total" -lt "$TARGET" ]; do cp -r "$OUT/base" "$OUT/copy$copy"; total=$((total + base)); copy=$((copy + 1)); done
echo "corpus $OUT: $(count "$OUT") source files ($base per copy), $(du -sh "$OUT" | cut -f1)"
