#!/usr/bin/env bash
# Times the student's loop and a graded submission on a fresh clone (not a
# CTest test: it builds from scratch, minutes), each command with where its
# test time went (bench/verdict_times.py):
#   bench/time_student_loop.sh [--grade] [REPO [CLONE_DIR]]
# 1. `./workbook` on a fresh clone (configure, build wb_student, run the
#    tests; exercises still as shipped are not run);
# 2. `./workbook check reduceSmem` after touching its file, with the build
#    steps it ran (from build/build.log: should be that module), and when
#    its correctness verdicts were shown (its first "[gpu]" line);
# 3. the same again, warm (nothing changed);
# 4. `./workbook check reduceSmem --perf`, warm;
# 5. `./workbook` once reduceSmem holds the reference answer;
# 6. with --grade: `./workbook grade` of the reference solutions as one
#    submission, alone, with --no-cache.
set -u
grade=0
if [ "${1:-}" = "--grade" ]; then grade=1; shift; fi
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
clone=${2:-/tmp/wb-loop-timing}
rm -rf "$clone"
git clone -q "$repo" "$clone" || exit 1
cd "$clone" || exit 1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "commit $(git rev-parse --short HEAD), $(date -u +%F), ${gpu:-no GPU}, $(nproc) cores"

# Each line of a command's output with the seconds since it started.
stamp() {
  python3 -c 'import sys, time
start = time.monotonic()
for line in sys.stdin:
    print(f"[{time.monotonic() - start:7.2f} s] {line}", end="", flush=True)'
}

timed() {  # label, log, JUnit reports (comma-separated), then the command
  local label=$1 log=$2 junits=$3; shift 3
  local start=$(date +%s%N)
  set -o pipefail
  "$@" 2>&1 | stamp > "$log"
  local rc=$?
  set +o pipefail
  echo "$label: $(( ($(date +%s%N) - start) / 1000000 )) ms (exit $rc; output: $log)"
  local first=$(grep -m1 -E '\[(gpu|host)\]:' "$log" | sed -E 's/^\[ *([0-9.]+) s\].*/\1/')
  [ -n "$first" ] && echo "  correctness verdicts shown after $first s"
  local files=()
  for f in ${junits//,/ }; do [ -f "$f" ] && files+=("$f"); done
  [ ${#files[@]} -gt 0 ] && python3 -m bench.verdict_times build "${files[@]}" | sed 's/^/  /'
}

timed "./workbook on a fresh clone" "$clone.first.log" build/progress.xml ./workbook
echo "  build steps: $(grep -c '^\[[0-9]*/[0-9]*\]' build/build.log)"
touch starter/reduction/reduceSmem.cu
checked=build/check-correctness.xml,build/check.xml
timed "./workbook check reduceSmem after a touch" "$clone.check.log" "$checked" \
  ./workbook check reduceSmem
echo "  build steps run:"
grep '^\[[0-9]*/[0-9]*\]' build/build.log | sed 's/^/    /'
timed "./workbook check reduceSmem, warm" "$clone.check2.log" "$checked" \
  ./workbook check reduceSmem
timed "./workbook check reduceSmem --perf, warm" "$clone.perf.log" "$checked" \
  ./workbook check reduceSmem --perf
cp solutions/reduction/reduceSmem.cu starter/reduction/reduceSmem.cu
timed "./workbook with reduceSmem solved" "$clone.solved.log" build/progress.xml ./workbook
if [ "$grade" = 1 ]; then
  submission=$clone.submission
  rm -rf "$submission" "$clone.graded"
  cp -r solutions "$submission"
  timed "./workbook grade (the reference solutions, alone, --no-cache)" "$clone.grade.log" \
    /nonexistent ./workbook grade "$submission" --out "$clone.graded" --no-cache
  tail -3 "$clone.grade.log" | sed 's/^/  /'
fi
