#!/bin/bash
# The repo map after a change (issue 21): `map --json` timed (/usr/bin/time wall and user+sys CPU) with no change,
# after each of 3 edits, 3 added and 3 removed files (each committed by `index` first), and with no saved graph;
# each map after a change compared with one built from the index by REFERENCE_DIST (another build, e.g. main's).
# usage: scripts/bench/map-after-change.sh OUT_DIR WS DB EDIT_FILE ADD_DIR [REFERENCE_DIST]
#   WS: a workspace you own: e.g. `cp -al CORPUS WS` (hard links; EDIT_FILE is first replaced by a real copy, so the
#   corpus is never written through), DB: your own copy of the index (`cp --reflink=auto`), indexed once under WS.
set -e
O=$1; WS=$2; DB=$3; EDIT=$4; ADD=$5; REF=${6:-}
NEW=$(cd "$(dirname "$0")/../.." && pwd)/dist
mkdir -p "$O"
T() { nice -n 10 /usr/bin/time -f "$1 %e s %U+%S cpu" node "$2/cli.js" map --json --root "$WS" --db "$DB" > "$O/$1.json" 2>>"$O/err.log"; tail -1 "$O/err.log"; }
IDX() { nice -n 10 node "$NEW/cli.js" index --root "$WS" --db "$DB" > /dev/null; }
# Without timings and cache flags, the two maps must be the same.
same() { node -e 'const f=(p)=>{const j=JSON.parse(require("fs").readFileSync(p,"utf8"));for(const k of ["elapsedMs","graphMs","graphCached"])delete j.stats[k];return JSON.stringify(j)};const s=f(process.argv[1])===f(process.argv[2]);console.log(process.argv[1],s?"same as":"DIFFERS from",process.argv[2]);process.exitCode=s?0:1' "$O/$1.json" "$O/$2.json"; }
fresh() { mv "$DB.map" "$DB.map.keep"; T "$1" "$2"; rm -f "$DB.map"; mv "$DB.map.keep" "$DB.map"; }
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
T settle "$NEW" > /dev/null
for i in 1 2 3; do T unchanged$i "$NEW"; done
f=$WS/$EDIT
if [ "$(stat -c %h "$f")" != 1 ]; then cp -p "$f" "$f.tmp" && mv "$f.tmp" "$f"; fi
[ "$(stat -c %h "$f")" = 1 ]
for i in 1 2 3; do printf 'export function mapBenchEdit%s(n: number): number { return n + %s; }\n' $i $i >> "$f"; IDX; T edit$i "$NEW"; done
[ -n "$REF" ] && { fresh edit3-reference "$REF"; same edit3 edit3-reference; }
for i in 1 2 3; do
  printf 'export function mapBenchAdded%s(n: number): number { return n * %s; }\n' $i $i > "$WS/$ADD/map-bench-added$i.ts"; IDX; T add$i "$NEW"
  [ $i = 3 ] && [ -n "$REF" ] && { fresh add3-reference "$REF"; same add3 add3-reference; }
  rm "$WS/$ADD/map-bench-added$i.ts"; IDX; T remove$i "$NEW"
done
for i in 1 2 3; do fresh whole-read$i "$NEW"; done
same remove3 whole-read1
[ -n "$REF" ] && { for i in 1 2 3; do fresh reference$i "$REF"; done; same remove3 reference1; }
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
