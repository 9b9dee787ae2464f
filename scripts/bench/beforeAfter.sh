#!/usr/bin/env bash
# Before/after, side by side (issue 27): runs a bench in two copies of the project, alternating
# BEFORE, AFTER, BEFORE, AFTER… so the machine's load falls on both alike, and keeps each output.
#
#   scripts/bench/beforeAfter.sh BEFORE_DIR AFTER_DIR ROUNDS -- BENCH_ARGS…
#   scripts/bench/beforeAfter.sh /tmp/before . 2 -- scripts/bench/conformanceCli.ts --runs 3
#   scripts/bench/beforeAfter.sh /tmp/before . 2 -- scripts/bench/quoting.ts --duration 3 --rounds 1
#
# BEFORE_DIR is a `git worktree` of the commit before, after `npm ci` there. The outputs go to
# $OUT (default /tmp/bench-before-after) as before-N.txt and after-N.txt.
set -euo pipefail
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd); rounds=$3; shift 4
out=${OUT:-/tmp/bench-before-after}; mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    dir=$before; [ "$side" = after ] && dir=$after
    echo "== $side, round $round: (cd $dir && npx tsx $*)" >&2
    (cd "$dir" && npx tsx "$@") > "$out/$side-$round.txt" 2> "$out/$side-$round.err" || echo "failed: see $out/$side-$round.err" >&2
  done
done
echo "outputs in $out" >&2
