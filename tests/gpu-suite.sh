#!/usr/bin/env bash
# Configures, builds and runs the whole GPU suite, writing every log into the
# folder given as the first argument and printing a short summary last. For a
# machine with an NVIDIA GPU; on one without, the GPU checks report skipped.
#
# usage() below lists the arguments and the stages.
set -u -o pipefail

usage() {
  cat <<'EOF'
usage: tests/gpu-suite.sh LOGDIR [options]

Configures (CMake preset gpu), builds and runs the whole GPU suite, writing
every log into LOGDIR and printing a short summary last. The build folder is
build-gpu (WB_GPU_BUILD_DIR names another); it targets the GPU nvidia-smi
sees unless --arch or CUDAARCHS sets the architectures. Stages can be split
over several runs with the same LOGDIR and build folder.

options:
  --stages LIST     stages to run, comma- or space-separated (default: build
                    solutions starter profile sanitize mutant perf bench
                    sweep grading contention, in that order; also forgeries, book,
                    coldperf, democlass)
  --arch LIST       CUDA architectures of the build, e.g. 90 or "80;90"
  --perf-runs N     perf: repeated runs of each section's Perf tests (20)
  --cold-runs N     coldperf: runs after the GPU idled (3)
  --idle SECONDS    coldperf: idle time before each run (60)
  --cold-tests RE   coldperf: only the perf tests whose names match RE
  --forgeries LIST  forgeries: only these forged submissions
  --forgery-jobs N  forgeries: submissions graded at once (1; 2 shows whether
                    one submission's code can fail its neighbours' checks)
  --forgery-test-jobs N  forgeries: tests a grading runs at once (default:
                    the grader's, from the cores)
  --forgeries-alone LIST  forgeries: only these submissions are graded alone
                    as well (file stems, starter, solutions; each costs a
                    whole uncached suite)
  --forgeries-gpu-only  forgeries: only those the GPU checks bear on (expectations
                    zero, below, same-as; the refused ones never run, and CI
                    grades them)
  --forgery-gpus N  forgeries: split them over the first N GPUs, one grading
                    of a group each (CUDA_VISIBLE_DEVICES), each with its own
                    pristine starter and solutions; group 0 grades
                    the starter (or --forgeries-alone) alone, and every other
                    group's are compared with them (logs forgeries-I.log,
                    results forgeries-I/)
  --forgeries-out DIR  forgeries: keep the submissions, both batches and the
                    result cache in DIR (DIR/I with --forgery-gpus), so that
                    a run stopped part way (the first forgery on the
                    solutions runs the whole suite: 386 s on an H100) resumes
                    where it stopped when run again with the same DIR
  --book DIR        book: the book's code repository (examples/, solutions/)
  --class-size N    democlass: made-up students (30)
  --time-limit S    democlass: stop grading after S seconds (resume later)
  --debs DIR        a machine that cannot install packages: unpack the .deb
                    files in DIR (bubblewrap, libseccomp-dev) into the build
                    folder and use them (bwrap for the grader's sandbox,
                    seccomp.h for the harness, which links the system's
                    libseccomp.so.2)
  -h, --help        print this text and exit

stages:
  build      configure (preset gpu) and build everything
  solutions  the reference solutions and every host test (all must pass)
  starter    the starter as shipped: worked examples pass, exercises fail
             (tests/checks/check_starter.py judges it)
  profile    Nsight Compute bank-conflict and coalescing checks (both builds)
  sanitize   compute-sanitizer memcheck/racecheck/synccheck/initcheck
  mutant     every mutant must be rejected; prints the kill rate
  perf       the performance tests, verbose, then --perf-runs more runs of
             each section's performance tests, counting failed runs
  bench      wb_bench (CSV + JSON) and the Nsight Compute metrics report
  sweep      the transpose block-shape sweep at 8192 x 8192 (CSV)
  grading    the grader's end-to-end and forgery tests (no GPU checks)
  contention the config, constant and layout tests and the sanitizer checks
             while another process holds all the GPU's memory: every
             failure must be recognised from the harness's own notes
             (tests/checks/contention_check.py), and all pass once it is free
  forgeries  the forgery submissions graded with the GPU checks; slow
  book       the book's reduceInteger and its exercise 9's stencil program
             timed under Nsight Compute beside the workbook's kernels
             (bench/book_compare.py)
  coldperf   the perf label as CTest runs it, --cold-runs times, each after
             the GPU has been idle for --idle seconds
  democlass  grades grader/demo_class.py's class (--class-size students, a
             planted copy, one that does not compile, one empty) with
             --jobs 3 into BUILD/demo-class-results and copies it to LOGDIR;
             run it again to resume; then the class and similarity reports
             where their Python packages are installed (else
             `./workbook grade --report` on the results, elsewhere)
EOF
}
[ $# -ge 1 ] || { usage; exit 2; }
case $1 in
  -h|--help) usage; exit 0 ;;
  -*) echo "gpu-suite: the first argument is the log folder, not '$1'" >&2; usage; exit 2 ;;
esac
LOG=$1; shift
PERF_RUNS=20
COLD_RUNS=3
IDLE=60
COLD_TESTS=
FORGERIES=""
FORGERY_JOBS=1
FORGERY_TEST_JOBS=""
FORGERIES_ALONE=""
FORGERIES_OUT=""
FORGERIES_GPU=""
FORGERY_GPUS=1
BOOK=""
ARCH=""
CLASS_SIZE=30
TIME_LIMIT=""
DEBS=""
STAGES="build solutions starter profile sanitize mutant perf bench sweep grading contention"
while [ $# -gt 0 ]; do
  case $1 in
    --stages) STAGES=${2:?--stages needs a list}; STAGES=${STAGES//,/ }; shift 2 ;;
    --perf-runs) PERF_RUNS=${2:?--perf-runs needs a number}; shift 2 ;;
    --cold-runs) COLD_RUNS=${2:?--cold-runs needs a number}; shift 2 ;;
    --idle) IDLE=${2:?--idle needs seconds}; shift 2 ;;
    --cold-tests) COLD_TESTS=${2:?--cold-tests needs a regular expression}; shift 2 ;;
    --forgeries) FORGERIES=${2:?--forgeries needs a list}; shift 2 ;;
    --forgery-jobs) FORGERY_JOBS=${2:?--forgery-jobs needs a number}; shift 2 ;;
    --forgery-test-jobs) FORGERY_TEST_JOBS=${2:?--forgery-test-jobs needs a number}; shift 2 ;;
    --forgeries-alone) FORGERIES_ALONE=${2:?--forgeries-alone needs a list}; shift 2 ;;
    --forgeries-out) FORGERIES_OUT=${2:?--forgeries-out needs a folder}; shift 2 ;;
    --forgeries-gpu-only) FORGERIES_GPU=1; shift ;;
    --forgery-gpus) FORGERY_GPUS=${2:?--forgery-gpus needs a number}; shift 2 ;;
    --book) BOOK=${2:?--book needs a folder}; shift 2 ;;
    --arch) ARCH=${2:?--arch needs a list}; shift 2 ;;
    --class-size) CLASS_SIZE=${2:?--class-size needs a number}; shift 2 ;;
    --time-limit) TIME_LIMIT=${2:?--time-limit needs seconds}; shift 2 ;;
    --debs) DEBS=${2:?--debs needs a folder}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "gpu-suite: unknown argument '$1'" >&2; usage; exit 2 ;;
  esac
done
mkdir -p "$LOG"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# The Python tools run below by path import the repository's packages
# (wbcore, grader, student) from its root.
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
BUILD=${WB_GPU_BUILD_DIR:-$ROOT/build-gpu}
SUMMARY="$LOG/summary.txt"
note() { echo "$*" >>"$LOG/stages.txt"; echo "$*"; }
wants() { case " $STAGES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# Packages unpacked from --debs: bwrap on PATH (the grader's sandbox finds it
# there) and libseccomp's header for every build, the grader's slots too.
deb_options=()
if [ -n "$DEBS" ]; then
  unpacked=$BUILD/debs
  mkdir -p "$unpacked"
  for deb in "$DEBS"/*.deb; do
    [ -f "$deb" ] && dpkg -x "$deb" "$unpacked"
  done
  [ -x "$unpacked/usr/bin/bwrap" ] && export PATH="$unpacked/usr/bin:$PATH"
  if [ -f "$unpacked/usr/include/seccomp.h" ]; then
    library=$(ls /usr/lib/x86_64-linux-gnu/libseccomp.so.2 "$unpacked"/usr/lib/x86_64-linux-gnu/libseccomp.so.2 2>/dev/null | head -1)
    deb_options=("-DSECCOMP_INCLUDE_DIR=$unpacked/usr/include" "-DSECCOMP_LIBRARY=$library")
  fi
fi
# The grader's build targets what the build stage built for, with the same
# unpacked packages.
grading_arch() {
  echo "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=$(cat "$BUILD/cuda-architectures.txt" 2>/dev/null || echo native)"
  for option in "${deb_options[@]}"; do echo "--cmake-arg=$option"; done
}
grading_options=()
ctest_stage() {  # name, then ctest arguments
  local name=$1; shift
  local t=$(date +%s)
  (cd "$BUILD" && ctest --output-on-failure --output-junit "$LOG/$name.xml" "$@") \
    >"$LOG/$name.log" 2>&1
  note "$name: ctest exit $? in $(( $(date +%s) - t )) s"
}

if wants build; then
  {
    echo "device: $(nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version | tail -1)"
    echo "cmake: $(cmake --version | head -1)"
  } >"$LOG/device.txt"
  t0=$(date +%s)
  # The gpu preset (CMakePresets.json); -B keeps WB_GPU_BUILD_DIR working.
  arch_option=()
  [ -n "$ARCH" ] && arch_option=("-DCMAKE_CUDA_ARCHITECTURES=$ARCH")
  if ! (cd "$ROOT" && cmake --preset gpu -B "$BUILD" "${arch_option[@]}" "${deb_options[@]}") >"$LOG/configure.log" 2>&1; then
    note "configure FAILED"; tail -30 "$LOG/configure.log"; exit 1
  fi
  sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$BUILD/CMakeCache.txt" \
    >"$BUILD/cuda-architectures.txt"
  if ! cmake --build "$BUILD" -j "$(nproc)" >"$LOG/build.log" 2>&1; then
    note "build FAILED"; grep -E "error|FAILED" "$LOG/build.log" | head -30; exit 1
  fi
  note "build: configure + build in $(( $(date +%s) - t0 )) s for $(cat "$BUILD/cuda-architectures.txt")"
  # nvcc falls back to sm_75 when it is told `native` and cannot see the
  # GPU: every module would then run as JIT-compiled PTX.
  if grep -q "Cannot find valid GPU" "$LOG/build.log"; then
    note "build FAILED: nvcc could not see the GPU for -arch=native (see build.log)"; exit 1
  fi
fi

mapfile -t grading_options < <(grading_arch)

# The new-section check builds a copy of the tree on the CPU (CI runs it);
# it needs no GPU time.
wants solutions && ctest_stage solutions -j 8 -L 'solutions|host|meta|harness' \
  -LE 'starter|mutant|grading|perf|profile|sanitize' -E '^workbook\.new_section_is_found_everywhere$'
if wants starter; then
  ctest_stage starter -j 8 -L starter -LE 'perf|profile|sanitize'
  python3 "$ROOT/tests/checks/check_starter.py" --build "$BUILD" >"$LOG/starter-check.log" 2>&1
  note "starter-check: exit $?"
fi
wants profile && ctest_stage profile -L profile
wants sanitize && ctest_stage sanitize -j 4 -L sanitize
wants mutant && ctest_stage mutant -V -L mutant
if wants perf; then
  ctest_stage perf -V -L perf -L solutions
  # Repeats inside each section's process: GoogleTest runs the section's
  # performance tests (those CTest labels perf, as wbcore/ctest_listing.py
  # lists them) PERF_RUNS times; a run fails when any of its tests fails.
  : >"$LOG/perf-repeat.log"
  for section in $(cd "$ROOT" && python3 -m wbcore.course --sections); do
    exe="$BUILD/tests/$section/wb_${section}_tests"
    [ -x "$exe" ] || continue
    perf_tests=$(python3 "$ROOT/wbcore/ctest_listing.py" "$BUILD" --gtest-filter \
                   -L '^perf$' -L '^solutions$' -L "^$section\$")
    [ -n "$perf_tests" ] || continue
    WB_MODULES="$BUILD/modules/solutions" \
      "$exe" --gtest_filter="$perf_tests" --gtest_repeat="$PERF_RUNS" --gtest_brief=1 \
      >"$LOG/perf-repeat-$section.log" 2>&1
    # Each iteration ends with "[==========] N tests from ... ran."; a run
    # failed when one of its tests printed "[  FAILED  ] Name (T ms)".
    failed=$(awk '/^\[  FAILED  \] .* \([0-9]+ ms\)$/ { bad = 1 }
                  /^\[==========\] .* ran\./ { if (bad) n++; bad = 0 }
                  END { print n + 0 }' "$LOG/perf-repeat-$section.log")
    echo "perf-repeat $section: $failed of $PERF_RUNS runs had a failing performance test" \
      | tee -a "$LOG/perf-repeat.log" >>"$LOG/stages.txt"
  done
fi
if wants bench; then
  t=$(date +%s)
  "$BUILD/bin/wb_bench" --csv "$LOG/bench.csv" --json "$LOG/bench.json" \
    >"$LOG/bench.log" 2>&1
  note "bench: exit $? in $(( $(date +%s) - t )) s"
  t=$(date +%s)
  WB_MODULES="$BUILD/modules/solutions" \
    python3 "$ROOT/bench/profile_report.py" --runner "$BUILD/bin/wb_run" \
    --out "$LOG/profile.csv" >"$LOG/profile-report.log" 2>&1
  note "profile-report: exit $? in $(( $(date +%s) - t )) s"
fi
if wants sweep; then
  t=$(date +%s)
  "$BUILD/bin/wb_transpose_sweep" --csv "$LOG/sweep.csv" >"$LOG/sweep.log" 2>&1
  note "sweep: exit $? in $(( $(date +%s) - t )) s"
fi
wants grading && ctest_stage grading -L grading
if wants contention; then
  t=$(date +%s)
  (cd "$ROOT" && PYTHONPATH="$ROOT" python3 tests/checks/contention_check.py --build "$BUILD" \
     --out "$LOG/contention") >"$LOG/contention.log" 2>&1
  note "contention: exit $? in $(( $(date +%s) - t )) s; $(grep -E '^(under|with the GPU free)' "$LOG/contention.log" | tr '\n' ' ')"
fi
if wants forgeries; then
  t=$(date +%s)
  only=()
  [ -n "$FORGERIES" ] && only=(--only "$FORGERIES")
  [ -n "$FORGERY_TEST_JOBS" ] && only+=("--grade-arg=--test-jobs=$FORGERY_TEST_JOBS")
  [ -n "$FORGERIES_GPU" ] && only+=(--needs-gpu)
  if [ "$FORGERY_GPUS" -le 1 ]; then
    [ -n "$FORGERIES_ALONE" ] && only+=(--alone "$FORGERIES_ALONE")
    [ -n "$FORGERIES_OUT" ] && only+=(--out "$FORGERIES_OUT")
    python3 "$ROOT/grader/tests/grade_forgeries.py" --gpu --work "$BUILD/forgeries-work" \
      --keep "$LOG/forgeries" "${only[@]}" "--grade-arg=--jobs=$FORGERY_JOBS" \
      "${grading_options[@]}" >"$LOG/forgeries.log" 2>&1
    note "forgeries: exit $? in $(( $(date +%s) - t )) s"
  else
    # One grading per GPU, each pinned to its GPU: a group's timed checks
    # hold its GPU alone, as one grading holds the one GPU.
    pids=()
    for ((g = 0; g < FORGERY_GPUS; g++)); do
      group=("${only[@]}" --group "$g/$FORGERY_GPUS")
      # Group 0 grades the pristine starter alone (or --forgeries-alone);
      # the others' batches are compared with those grades afterwards. The
      # pristine solutions must earn full marks in every batch, as they do
      # alone (grade_forgeries.py).
      if [ "$g" -eq 0 ]; then
        group+=(--alone "${FORGERIES_ALONE:-starter}")
      else
        group+=(--alone none)
      fi
      [ -n "$FORGERIES_OUT" ] && group+=(--out "$FORGERIES_OUT/$g")
      CUDA_VISIBLE_DEVICES=$g python3 "$ROOT/grader/tests/grade_forgeries.py" --gpu \
        --work "$BUILD/forgeries-work-$g" --keep "$LOG/forgeries-$g" "${group[@]}" \
        "--grade-arg=--jobs=$FORGERY_JOBS" "${grading_options[@]}" \
        >"$LOG/forgeries-$g.log" 2>&1 &
      pids+=($!)
    done
    for ((g = 0; g < FORGERY_GPUS; g++)); do
      wait "${pids[$g]}"
      note "forgeries group $g of $FORGERY_GPUS (GPU $g): exit $? in $(( $(date +%s) - t )) s"
    done
    # A forgery's harm to its neighbours (the GPU-memory one) shows only as
    # a pristine submission graded beside it scoring other than alone.
    for ((g = 1; g < FORGERY_GPUS; g++)); do
      python3 "$ROOT/grader/tests/grade_forgeries.py" --work "$BUILD/forgeries-work-0" \
        --compare "$LOG/forgeries-$g/batch-with-cache" "$LOG/forgeries-0/each-alone" \
        >"$LOG/forgeries-compare-$g.log" 2>&1
      note "forgeries group $g: its pristine submissions against group 0's graded alone: exit $?"
    done
  fi
fi
if wants book; then
  t=$(date +%s)
  for program in reduction stencil; do
    python3 "$ROOT/bench/book_compare.py" --book "${BOOK:?the book stage needs --book DIR}" \
      --program "$program" --bench "$BUILD/bin/wb_bench" --out "$LOG/book" \
      >"$LOG/book-$program.log" 2>&1
    note "book $program: exit $? in $(( $(date +%s) - t )) s"
  done
  "$BUILD/bin/wb_bench" --section reduction --size 16777216 \
    --csv "$LOG/bench-reduction.csv" >"$LOG/bench-reduction.log" 2>&1
  note "bench-reduction: exit $?"
fi
if wants coldperf; then
  : >"$LOG/coldperf.txt"
  only=()
  [ -n "$COLD_TESTS" ] && only=(-R "$COLD_TESTS")
  for i in $(seq 1 "$COLD_RUNS"); do
    sleep "$IDLE"
    # The GPU's state as the run starts: an idle GPU sits in a low P-state at
    # a low SM clock, which is what the first timed test meets.
    idle_state=$(nvidia-smi --query-gpu=pstate,clocks.sm --format=csv,noheader 2>/dev/null)
    (cd "$BUILD" && ctest -L perf -L solutions "${only[@]}" --output-junit "$LOG/coldperf-$i.xml") \
      >"$LOG/coldperf-$i.log" 2>&1
    failed=$(grep -cE "^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Failed" "$LOG/coldperf-$i.log")
    echo "cold run $i (after ${IDLE} s idle; GPU at start: ${idle_state:-unknown}): $failed failed;" \
      "$(grep -E 'tests passed' "$LOG/coldperf-$i.log")" | tee -a "$LOG/coldperf.txt" >>"$LOG/stages.txt"
  done
fi
if wants democlass; then
  t=$(date +%s)
  class=$BUILD/demo-class; results=$BUILD/demo-class-results
  if [ ! -d "$class" ]; then
    rm -rf "$class.new" "$class.extra"   # what a stopped earlier run left
    python3 "$ROOT/grader/demo_class.py" "$class.new" --class-size "$CLASS_SIZE" --plant-copy \
      >"$LOG/democlass-make.log" 2>&1 &&
      python3 "$ROOT/grader/demo_class.py" "$class.extra" --mutants none >>"$LOG/democlass-make.log" 2>&1 &&
      cp -r "$class.extra/does-not-compile" "$class.extra/empty" "$class.new/" &&
      rm -rf "$class.extra" && mv "$class.new" "$class"
  fi
  if [ ! -d "$class" ]; then
    note "democlass: the class could not be made ($LOG/democlass-make.log)"
  else
    limit=()
    [ -n "$TIME_LIMIT" ] && limit=(timeout --signal=INT --kill-after=30 "$TIME_LIMIT")
    "${limit[@]}" "$ROOT/workbook" grade --batch "$class" --out "$results" --jobs 3 --test-jobs 8 \
      "${grading_options[@]}" --work "$BUILD/demo-class-work" >>"$LOG/democlass.log" 2>&1
    status=$?
    rm -rf "$LOG/democlass" && cp -r "$results" "$LOG/democlass"
    note "democlass: exit $status in $(( $(date +%s) - t )) s;" \
      "$(ls "$results"/*/results.json 2>/dev/null | wc -l) of $(ls "$class" | wc -l) graded"
  fi
fi

{
  echo "== summary ($(date -u +%FT%TZ)) =="
  cat "$LOG/device.txt" 2>/dev/null
  cat "$LOG/stages.txt" 2>/dev/null
  for name in solutions starter profile sanitize mutant perf grading; do
    [ -f "$LOG/$name.xml" ] || continue
    extra=()
    [ "$name" = starter ] && extra=(--by-exercise "$BUILD")
    python3 "$ROOT/tests/checks/ctest_summary.py" "$LOG/$name.xml" --title "$name" "${extra[@]}"
  done
  [ -f "$LOG/starter-check.log" ] && tail -3 "$LOG/starter-check.log"
  if [ -f "$LOG/mutant.log" ]; then
    grep -hoE "(KILLED|SURVIVED) mutant [^<]*" "$LOG/mutant.log" | sort
    killed=$(grep -cE "KILLED mutant" "$LOG/mutant.log")
    total=$(grep -cE "(KILLED|SURVIVED) mutant" "$LOG/mutant.log")
    echo "mutant kill rate: $killed of $total"
  fi
  [ -f "$LOG/perf.log" ] && grep -hoE "[A-Za-z_]+ [0-9.]+ ms / [A-Za-z_]+ [0-9.]+ ms = .*" "$LOG/perf.log"
  [ -f "$LOG/perf.log" ] && grep -hE "^[0-9]+: (transpose|best|copy|reduce)[^|]*GB/s" "$LOG/perf.log" | head -20
  cat "$LOG/perf-repeat.log" 2>/dev/null
  for f in "$LOG"/forgeries.log "$LOG"/forgeries-[0-9]*.log; do
    [ -f "$f" ] && grep -E "^(FAIL|forgeries|1-|9-)" "$f" | tail -40
  done
  cat "$LOG"/book-*.log 2>/dev/null
  [ -f "$LOG/democlass.log" ] && grep -E "^\[[0-9]+/[0-9]+\]|^graded|class report|similarity" \
    "$LOG/democlass.log" | tail -40
  [ -f "$LOG/bench-reduction.log" ] && grep -v "^\[" "$LOG/bench-reduction.log" | tail -n 30
  [ -f "$LOG/bench.log" ] && grep -v "^\[" "$LOG/bench.log" | tail -n 120
  [ -f "$LOG/sweep.log" ] && sed -n '/best block shape/,/^$/p' "$LOG/sweep.log"
} >"$SUMMARY"
cat "$SUMMARY"
