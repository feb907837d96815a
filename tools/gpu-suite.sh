#!/usr/bin/env bash
# Configures, builds and runs the whole GPU suite in one go, writing every log
# into the folder given as the first argument and printing a short summary
# last. Meant for a machine with an NVIDIA GPU; on one without, the GPU tests
# report themselves as skipped.
#
#   tools/gpu-suite.sh LOGDIR [--perf-runs N] [--quick]
#
# Steps: configure + build (native architecture); the solutions and host
# tests; the starter as shipped (its exercises must fail); the performance
# tests N more times (default 20) to count flakes; profile, sanitize and
# mutant checks when those labels exist; the benchmark when it is built.
set -u -o pipefail

usage() { sed -n '2,12p' "$0"; }
[ $# -ge 1 ] || { usage; exit 2; }
LOG=$1; shift
PERF_RUNS=20
while [ $# -gt 0 ]; do
  case $1 in
    --perf-runs) PERF_RUNS=${2:?--perf-runs needs a number}; shift 2 ;;
    --quick) PERF_RUNS=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "gpu-suite: unknown argument '$1'" >&2; usage; exit 2 ;;
  esac
done
mkdir -p "$LOG"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${WB_GPU_BUILD_DIR:-$ROOT/build-gpu}
SUMMARY="$LOG/summary.txt"
: > "$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
start=$(date +%s)

say "== GPU suite $(date -u +%FT%TZ) =="
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader \
  2>&1 | sed 's/^/device: /' | tee -a "$SUMMARY"
nvcc --version | tail -1 | sed 's/^/nvcc: /' | tee -a "$SUMMARY"

t0=$(date +%s)
if ! cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$LOG/configure.log" 2>&1; then
  say "configure FAILED (see configure.log)"; tail -30 "$LOG/configure.log"; exit 1
fi
if ! cmake --build "$BUILD" -j "$(nproc)" >"$LOG/build.log" 2>&1; then
  say "build FAILED (see build.log)"; grep -E "error|FAILED" "$LOG/build.log" | head -30; exit 1
fi
say "configure + build: $(( $(date +%s) - t0 )) s"

run_ctest() {  # name, then ctest arguments
  local name=$1; shift
  local t=$(date +%s)
  (cd "$BUILD" && ctest --output-on-failure --output-junit "$LOG/$name.xml" "$@") \
    >"$LOG/$name.log" 2>&1
  local rc=$?
  echo "$name: ctest exit $rc in $(( $(date +%s) - t )) s" >>"$SUMMARY"
  return $rc
}

has_label() { (cd "$BUILD" && ctest -N -L "$1" | grep -q "Total Tests: [1-9]"); }

# 1. Reference: solutions and every host test; all must pass.
run_ctest solutions -j 4 -L 'solutions|host' -LE 'starter|mutant|grading|perf'
# 1b. The solutions' performance tests, verbose so the log carries the ratios.
run_ctest perf -V -L perf -L solutions
# 2. The starter as shipped: the worked examples pass, the exercises fail.
run_ctest starter -j 4 -L starter -LE perf
# 3. Profile (ncu), sanitize (compute-sanitizer), mutants, grading.
for label in profile sanitize mutant grading; do
  if has_label "$label"; then run_ctest "$label" -L "$label"; fi
done
# 4. Flakes: the performance tests of the solutions, PERF_RUNS more times.
flaky=0
for i in $(seq 1 "$PERF_RUNS"); do
  if ! (cd "$BUILD" && ctest -L perf -L solutions --output-on-failure) >>"$LOG/perf-repeat.log" 2>&1; then
    flaky=$((flaky + 1))
  fi
done
# 5. The benchmark, when built.
if [ -x "$BUILD/tools/bench/wb_bench" ]; then
  "$BUILD/tools/bench/wb_bench" --csv "$LOG/bench.csv" --json "$LOG/bench.json" \
    >"$LOG/bench.log" 2>&1
  echo "bench: exit $?" >>"$SUMMARY"
fi

echo
say "== summary =="
python3 "$ROOT/tools/ctest_summary.py" "$LOG/solutions.xml" --title "solutions + host" | tee -a "$SUMMARY"
python3 "$ROOT/tools/ctest_summary.py" "$LOG/perf.xml" --title "solutions perf" | tee -a "$SUMMARY"
python3 "$ROOT/tools/ctest_summary.py" "$LOG/starter.xml" --title "starter as shipped" --by-exercise | tee -a "$SUMMARY"
for label in profile sanitize mutant grading; do
  [ -f "$LOG/$label.xml" ] && python3 "$ROOT/tools/ctest_summary.py" "$LOG/$label.xml" --title "$label" | tee -a "$SUMMARY"
done
grep -hoE "[A-Za-z_]+ [0-9.]+ ms / [A-Za-z_]+ [0-9.]+ ms = .*" "$LOG/perf.log" | sed 's/^/perf: /' | tee -a "$SUMMARY"
[ "$PERF_RUNS" -gt 0 ] && say "perf flakes: $flaky of $PERF_RUNS repeated runs failed"
[ -f "$LOG/bench.log" ] && tail -n 40 "$LOG/bench.log" | tee -a "$SUMMARY"
say "whole suite: $(( $(date +%s) - start )) s"
