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

then: ./workbook grade --batch OUTDIR --out RESULTS
"""
import argparse
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=pathlib.Path)
    ap.add_argument("--mutants", default="all",
                    help="all, none, or section/name,... (e.g. layout/setRowReadCol__no_barrier)")
    args = ap.parse_args()
    available = sorted(f"{p.parent.name}/{p.stem}" for p in (ROOT / "tests" / "mutants").glob("*/*.cu"))
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
    copy_tree("starter", out / "starter")
    copy_tree("solutions", out / "solutions")
    for m in chosen:
        with_mutant(out / ("mutant-" + m.replace("/", "-")), m)
    (out / "empty").mkdir(parents=True)
    (out / "empty" / "README.txt").write_text("nothing handed in\n")
    broken = out / "does-not-compile"
    copy_tree("starter", broken)
    victim = broken / "starter" / "layout" / "setRowReadCol.cu"
    victim.write_text(victim.read_text().replace("(void)out;", "(void)out  // missing semicolon", 1))
    with_mutant(out / "hangs", HANG)
    print(f"{out}: {len(list(out.iterdir()))} submissions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
