#!/usr/bin/env bash
# CPU of the simulator a conformance run judges (issue 29, the simulator's side): in each tree,
# starts the hidden `intent-devnet local-target` by hand, runs all packs against it
# (`conformance --target`), and reads the child's user+system CPU from /proc when it printed its
# JSON line (ready) and after the packs, and the runner's own (the `conformance` process, by the
# shell's `times`). Trees alternate (BEFORE, AFTER, BEFORE, …) so the
# machine's load falls on both; CPU time moves far less with the load than wall time. Linux only.
#
#   scripts/bench/localTargetCpu.sh BEFORE_DIR AFTER_DIR [ROUNDS=3]
#
# Each tree needs its bundle built and its boot state baked (`npm ci`, or `npx tsx
# scripts/build.ts` after a change: a bundle the bin rebuilds for `conformance` is not baked, and
# its local target then places and funds at every start). Reports go to $OUT (default
# /tmp/bench-local-target-cpu).
set -euo pipefail
rounds=${3:-3}; out=${OUT:-/tmp/bench-local-target-cpu}; mkdir -p "$out"
run() {
  local tree dir lt line target key keys t0 t1 ready cpu_ready cpu_end passed
  tree=$(cd "$1" && pwd); dir=$out/$2; mkdir -p "$dir"; rm -f "$dir/stdin"; mkfifo "$dir/stdin"
  cd "$tree"
  node bin/intent-devnet.js local-target < "$dir/stdin" > "$dir/local-target.out" 2> "$dir/local-target.err" &
  lt=$!
  exec 9> "$dir/stdin" # its stdin stays open until the packs are done (it stops when it ends)
  t0=$(date +%s%N)
  for _ in $(seq 1 3000); do grep -q '^{' "$dir/local-target.out" 2>/dev/null && break; sleep 0.01; done
  ready=$(( ($(date +%s%N) - t0) / 1000000 ))
  cpu_ready=$(awk '{print ($14+$15)/100}' "/proc/$lt/stat")
  line=$(head -1 "$dir/local-target.out")
  read -r target key keys < <(node -e 'const j = JSON.parse(process.argv[1]); console.log(j.target, j.apiKey, j.apiKeys.join(","))' "$line")
  t0=$(date +%s%N)
  # The runner's own CPU (user+sys, by `times` in a subshell that ran only it).
  cpu_cli=$( (node bin/intent-devnet.js conformance --target "$target" --api-key "$key" --api-keys "$keys" \
    --reporter json --out "$dir" > "$dir/conformance.log" 2>&1 || true; times) | tail -1 |
    awk '{ split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
  t1=$(( ($(date +%s%N) - t0) / 1000000 ))
  cpu_end=$(awk '{print ($14+$15)/100}' "/proc/$lt/stat")
  passed=$(node -e 'const r = require(process.argv[1]).summary.scenarios; console.log(`${r.passed}/${r.total}`)' "$dir/report.json")
  exec 9>&-
  wait "$lt" || true
  printf '%-7s ready %5d ms, CPU %.2f s | all packs %5d ms | CPU during the packs %.2f s | runner CPU %.2f s | passed %s | load %s\n' \
    "$2" "$ready" "$cpu_ready" "$t1" "$(echo "$cpu_end - $cpu_ready" | bc)" "$cpu_cli" "$passed" "$(cut -d' ' -f1 /proc/loadavg)"
}
for round in $(seq 1 "$rounds"); do
  (run "$1" "before-$round")
  (run "$2" "after-$round")
done
