#!/usr/bin/env bash
# Times the student's loop on a fresh clone (not a CTest test: it builds from
# scratch, minutes):
#   bench/time_student_loop.sh [REPO [CLONE_DIR]]
# 1. `./workbook` on a fresh clone (configure, build wb_student, run the tests);
# 2. `./workbook check reduceSmem` after touching starter/reduction/reduceSmem.cu,
#    with the build steps it ran (from build/build.log: should be that module).
set -u
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
clone=${2:-/tmp/wb-loop-timing}
rm -rf "$clone"
git clone -q "$repo" "$clone" || exit 1
cd "$clone" || exit 1
start=$(date +%s)
./workbook > "$clone.first.log" 2>&1
rc=$?
echo "./workbook on a fresh clone: $(( $(date +%s) - start )) s (exit $rc; output: $clone.first.log)"
echo "  build steps: $(grep -c '^\[[0-9]*/[0-9]*\]' build/build.log)"
touch starter/reduction/reduceSmem.cu
start=$(date +%s)
./workbook check reduceSmem > "$clone.check.log" 2>&1
rc=$?
echo "./workbook check reduceSmem after a touch: $(( $(date +%s) - start )) s (exit $rc; output: $clone.check.log)"
echo "  build steps run:"
grep '^\[[0-9]*/[0-9]*\]' build/build.log | sed 's/^/    /'
