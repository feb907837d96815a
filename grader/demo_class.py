#!/usr/bin/env python3
"""Builds a folder of made-up submissions to try the grader on:

  starter            the pristine starter, as a student receives it
  solutions          the reference solutions, handed in as starter files
  mutant-<name>      the solutions with one exercise replaced by a mutant
                     from tests/mutants/ (one submission per mutant chosen)
  empty              a submission with no exercise file
  does-not-compile   the starter with a syntax error in one exercise
  hangs              the solutions with a kernel that never returns

  demo_class.py OUTDIR [--mutants all|none|NAME,NAME...]

Or a class of N made-up students, for the class and similarity reports:

  demo_class.py OUTDIR --class-size N [--plant-copy] [--seed S]

  student-<i>        the reference solutions of the first sections and the
                     starter after, a mutant in a finished section (at most
                     one per exercise in the class) and maybe a kernel of
                     the student's own (OWN_KERNELS, each at most once):
                     no two students hand in the same work
  copier             (--plant-copy) a student whose own reduceSmem is the
                     first student-<i>'s with its names changed and two
                     independent statements swapped: the one pair the
                     similarity report should name

then: ./workbook grade batch OUTDIR --out RESULTS
"""
import argparse
import pathlib
import random
import re
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
from wbcore import course as wbex  # noqa: E402

HANG = "layout/setRowReadColPad__never_terminates"


def copy_tree(src_root, dest):
    for section_dir in sorted((ROOT / src_root).iterdir()):
        if not section_dir.is_dir():
            continue
        target = dest / "starter" / section_dir.name
        target.mkdir(parents=True, exist_ok=True)
        for f in sorted(section_dir.glob("*.cu")):
            shutil.copyfile(f, target / f.name)


def with_mutant(dest, mutant):
    section, stem = mutant.split("/")
    exercise = stem.split("__")[0]
    copy_tree("solutions", dest)
    shutil.copyfile(ROOT / "tests" / "mutants" / section / f"{stem}.cu",
                    dest / "starter" / section / f"{exercise}.cu")


# Kernels "written by students": reduceSmem done in ways the reference does
# not (each correct, each a different shape of code), so a student who hands
# one in has code of their own for the similarity report to compare. Each
# names two independent statements (`swap`) and the names a copier changes.
OWN_HEADER = """#include "reduction/reduction.cuh"

namespace wb::reduction {

"""
OWN_FOOTER = """
}  // namespace wb::reduction
"""
OWN_KERNELS = [
    {"name": "halving-loop", "kernel": """\
__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int partial[kReduceBlock];
  const unsigned int lane = threadIdx.x;
  const unsigned int first = blockIdx.x * blockDim.x;
  int value = 0;
  if (first + lane < n) value = g_idata[first + lane];
  partial[lane] = value;
  __syncthreads();
  for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
    if (lane < half) {
      partial[lane] = partial[lane] + partial[lane + half];
    }
    __syncthreads();
  }
  if (lane == 0) {
    g_odata[blockIdx.x] = partial[0];
  }
}
""", "swap": ("  const unsigned int lane = threadIdx.x;",
              "  const unsigned int first = blockIdx.x * blockDim.x;"),
     "renames": {"partial": "buf", "lane": "t", "first": "offset", "value": "x", "half": "s"}},
    {"name": "neighbours", "kernel": """\
__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int cells[kReduceBlock];
  unsigned int me = threadIdx.x;
  unsigned int at = me + kReduceBlock * blockIdx.x;
  cells[me] = (at >= n) ? 0 : g_idata[at];
  __syncthreads();
  unsigned int gap = 1;
  while (gap < kReduceBlock) {
    unsigned int left = 2 * gap * me;
    if (left < kReduceBlock) cells[left] += cells[left + gap];
    gap *= 2;
    __syncthreads();
  }
  if (me == 0) g_odata[blockIdx.x] = cells[0];
}
""", "swap": None, "renames": {}},
    {"name": "one-thread-sums", "kernel": """\
__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int staged[kReduceBlock];
  unsigned long long global = (unsigned long long)blockIdx.x * kReduceBlock + threadIdx.x;
  if (global < n) {
    staged[threadIdx.x] = g_idata[global];
  } else {
    staged[threadIdx.x] = 0;
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  int total = 0;
  for (int k = 0; k < kReduceBlock; ++k) total += staged[k];
  g_odata[blockIdx.x] = total;
}
""", "swap": None, "renames": {}},
    {"name": "shuffle-tail", "kernel": """\
__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int sums[kReduceBlock];
  int i = threadIdx.x;
  unsigned int where = blockIdx.x * kReduceBlock + i;
  sums[i] = where < n ? g_idata[where] : 0;
  __syncthreads();
  if (i < 64) sums[i] += sums[i + 64];
  __syncthreads();
  if (i >= 32) return;
  int v = sums[i] + sums[i + 32];
  for (int d = 16; d >= 1; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if (i == 0) g_odata[blockIdx.x] = v;
}
""", "swap": None, "renames": {}},
]
PLANTED = OWN_KERNELS[0]


def own_kernel(own):
    return OWN_HEADER + own["kernel"] + OWN_FOOTER


def planted_copy(own):
    """An own kernel as a copier hands it in: every name of `renames`
    changed and the two independent statements of `swap` in the other
    order (what copy detection must see through)."""
    text = own["kernel"]
    first, second = own["swap"]
    text = text.replace(first + "\n" + second, second + "\n" + first, 1)
    for old, new in own["renames"].items():
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return OWN_HEADER + text + OWN_FOOTER


def write_exercise(dest, key, text):
    target = dest / "starter" / f"{key}.cu"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)


def available_mutants():
    """Every mutant in tests/mutants/, as section/stem."""
    return sorted(f"{p.parent.name}/{p.stem}"
                  for p in (ROOT / "tests" / "mutants").glob("*/*.cu"))


def copy_progress(dest, finished):
    """A student who has finished the sections in `finished`: the reference
    solutions there, the starter elsewhere."""
    copy_tree("starter", dest)
    for section in finished:
        for f in sorted((ROOT / "solutions" / section).glob("*.cu")):
            shutil.copyfile(f, dest / "starter" / section / f.name)


def make_class(out, size, plant, mutants, seed):
    """`size` students (and a copier with --plant-copy), each distinct: the
    first few sections finished (the reference solutions there, the starter
    after), a mutant in a finished section of an exercise no one else has a
    mutant of, and maybe an own kernel no one else has. The mutant that hangs
    and those of reduceSmem (which would replace an own kernel) are left
    out. Returns the names."""
    rng = random.Random(seed)
    sections = wbex.section_names()
    pool = [m for m in mutants if m != HANG and not m.startswith("reduction/reduceSmem__")]
    rng.shuffle(pool)
    # One mutant per exercise: the mutants of one exercise were written
    # alike (one author, one style), so two students with two of them
    # would share code of their own, as copiers do.
    pool = list({m.split("__")[0]: m for m in reversed(pool)}.values())
    own = [k for k in OWN_KERNELS if k is not PLANTED]
    rng.shuffle(own)
    names, seen = [], set()
    for i in range(size):
        dest = out / f"student-{i + 1:02d}"
        # The planted original goes to the first student; the other own
        # kernels to every second student while they last, so no two
        # students hand in the same one.
        mine = PLANTED if plant and i == 0 else (own.pop() if own and i % 2 else None)
        # How far the student got: a number of sections in the book's order,
        # another one where this one would repeat an earlier student's work.
        for done in [rng.randint(0, len(sections))] + list(range(len(sections), -1, -1)):
            finished = sections[:done]
            mutant = next((m for m in pool if m.split("/")[0] in finished), None)
            signature = (done, mutant, mine and mine["name"])
            if signature not in seen:
                break
        seen.add(signature)
        copy_progress(dest, finished)
        if mutant:
            pool.remove(mutant)
            section, stem = mutant.split("/")
            shutil.copyfile(ROOT / "tests" / "mutants" / section / f"{stem}.cu",
                            dest / "starter" / section / f"{stem.split('__')[0]}.cu")
        if mine is not None:
            write_exercise(dest, "reduction/reduceSmem", own_kernel(mine))
        names.append(dest.name)
    if plant:
        dest = out / "copier"
        copy_tree("starter", dest)
        write_exercise(dest, "reduction/reduceSmem", planted_copy(PLANTED))
        names.append(dest.name)
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=pathlib.Path)
    ap.add_argument("--mutants", default="all",
                    help="all, none, or section/name,... (e.g. layout/setRowReadCol__no_barrier)")
    ap.add_argument("--class-size", type=int, metavar="N",
                    help="N made-up students with distinct work instead of the demo above")
    ap.add_argument("--plant-copy", action="store_true",
                    help="with --class-size: add a student who copied the first one's reduceSmem")
    ap.add_argument("--seed", type=int, default=5, help="with --class-size: the choices' seed")
    args = ap.parse_args()
    if args.plant_copy and args.class_size is None:
        ap.error("--plant-copy goes with --class-size N")
    if args.class_size is not None and args.class_size < 1:
        ap.error("--class-size must be at least 1")
    available = available_mutants()
    if args.mutants == "all":
        chosen = [m for m in available if m != HANG]
    elif args.mutants == "none":
        chosen = []
    else:
        chosen = [m.strip() for m in args.mutants.split(",") if m.strip()]
        unknown = [m for m in chosen if m not in available]
        if unknown:
            print(f"demo_class: unknown mutant(s) {', '.join(unknown)}; available: "
                  + ", ".join(available), file=sys.stderr)
            return 2
    if args.outdir.exists() and any(args.outdir.iterdir()):
        print(f"demo_class: {args.outdir} exists and is not empty", file=sys.stderr)
        return 2
    out = args.outdir
    if args.class_size is not None:
        names = make_class(out, args.class_size, args.plant_copy, chosen, args.seed)
        print(f"{out}: {len(names)} submissions")
        return 0
    copy_tree("starter", out / "starter")
    copy_tree("solutions", out / "solutions")
    for m in chosen:
        with_mutant(out / ("mutant-" + m.replace("/", "-")), m)
    (out / "empty").mkdir(parents=True)
    (out / "empty" / "README.txt").write_text("nothing handed in\n")
    broken = out / "does-not-compile"
    copy_tree("starter", broken)
    victim = broken / "starter" / "layout" / "setRowReadCol.cu"
    victim.write_text(victim.read_text().replace("(void)out;", "(void)out  // missing semicolon",
                                                 1))
    with_mutant(out / "hangs", HANG)
    print(f"{out}: {len(list(out.iterdir()))} submissions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
