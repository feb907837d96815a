"""Configuring, building and testing the workbook through CMake presets.

CMakePresets.json is the one way into the build: ./workbook (preset
default), CI (ci, through ./workbook test --preset ci), the GPU suite (gpu)
and the grader (grader, with its per-submission folder and options on top)
all configure through a preset, so an option is spelled in one place."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

from .course import ROOT


class ToolMissing(RuntimeError):
    pass


def require_tools():
    """Raise ToolMissing naming what to install when a build tool is absent."""
    missing = []
    for tool, package in (("cmake", "cmake"), ("ninja", "ninja-build"), ("g++", "g++")):
        if shutil.which(tool) is None:
            missing.append(f"{tool} (apt-get install {package})")
    if shutil.which("nvcc") is None and not pathlib.Path("/usr/local/cuda/bin/nvcc").exists():
        missing.append("nvcc, the CUDA 13 compiler (install the CUDA Toolkit from NVIDIA and "
                       "put /usr/local/cuda/bin on PATH)")
    if missing:
        raise ToolMissing("the workbook cannot build without: " + "; ".join(missing))


def env_with_cuda():
    env = dict(os.environ)
    cuda_bin = "/usr/local/cuda/bin"
    if shutil.which("nvcc") is None and pathlib.Path(cuda_bin, "nvcc").exists():
        env["PATH"] = cuda_bin + os.pathsep + env.get("PATH", "")
    return env


def run(cmd, quiet=False, log=None):
    """Run a command from the repository root; returns its exit code."""
    if not quiet:
        print("+ " + " ".join(str(c) for c in cmd), flush=True)
    if log is None:
        return subprocess.call(cmd, cwd=ROOT, env=env_with_cuda())
    with open(log, "w") as out:
        return subprocess.call(cmd, cwd=ROOT, env=env_with_cuda(), stdout=out,
                               stderr=subprocess.STDOUT)


PRESETS_FILE = ROOT / "CMakePresets.json"


def configure_preset(name, presets_file=PRESETS_FILE):
    """The configure preset `name` with what it inherits merged in (the
    preset's own settings win; cacheVariables merge key by key), as CMake
    resolves it. Raises KeyError for a preset that does not exist."""
    listed = {p["name"]: p for p in json.loads(pathlib.Path(presets_file).read_text())
              ["configurePresets"]}

    def resolve(preset_name):
        own = listed[preset_name]
        parents = own.get("inherits", [])
        merged = {}
        for parent in reversed([parents] if isinstance(parents, str) else parents):
            resolved = resolve(parent)
            merged.update({k: v for k, v in resolved.items() if k != "cacheVariables"})
            merged.setdefault("cacheVariables", {}).update(resolved.get("cacheVariables", {}))
        merged.update({k: v for k, v in own.items() if k not in ("cacheVariables", "inherits")})
        merged.setdefault("cacheVariables", {}).update(own.get("cacheVariables", {}))
        return merged

    return resolve(name)


def preset_binary_dir(name, presets_file=PRESETS_FILE):
    """The build folder a configure preset names (its binaryDir, with
    ${sourceDir} expanded), so the folder is spelled only in the presets."""
    binary_dir = configure_preset(name, presets_file)["binaryDir"]
    source_dir = pathlib.Path(presets_file).resolve().parent
    return pathlib.Path(binary_dir.replace("${sourceDir}", str(source_dir)))


NINJA_STEP = re.compile(r"^\[(\d+)/(\d+)\]\s*(.*)$")


# What the build tells a student, by id; ./workbook passes `say` to have it
# in the student's language (student/i18n.py holds the same ids).
WORDS = {
    "build.step": "building: step {n} of {total}: {what}",
    "build.configure_failed_log": "configuring failed; see {log}",
    "build.configure_failed": "configuring failed (above)",
    "build.failed_first_errors": "the build failed; the first errors (the whole log: {log}):",
    "build.fix_first": "fix the first error first.",
    "build.failed_above": "the build failed: the compiler's messages are above; fix the first "
                          "error first.",
}


def english(word_id, **fields):
    return WORDS[word_id].format(**fields)


def build_with_progress(build_dir, target, log, say=english):
    """`cmake --build build_dir --target target`, its output to `log`; shows
    "building: step n of N: <what>" from Ninja's [n/N] lines, as one updating
    line on a terminal, else as plain lines at most every few seconds or 10%.
    Returns the exit code."""
    cmd = ["cmake", "--build", str(build_dir), "--target", target]
    tty = sys.stdout.isatty()
    last_time, last_tenth, shown = 0.0, -1, False
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env_with_cuda(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace")
        for line in proc.stdout:
            out.write(line)
            m = NINJA_STEP.match(line.strip())
            if not m:
                continue
            n, total, what = int(m.group(1)), int(m.group(2)), m.group(3)
            text = say("build.step", n=n, total=total, what=what)
            if tty:
                print("\r" + text[:100].ljust(100), end="", flush=True)
                shown = True
            else:
                now, tenth = time.monotonic(), n * 10 // max(total, 1)
                if now - last_time >= 3 or tenth > last_tenth or n == total:
                    print(text[:160], flush=True)
                    last_time, last_tenth = now, tenth
        rc = proc.wait()
    if tty and shown:
        print("\r" + " " * 100 + "\r", end="", flush=True)
    return rc


def first_errors(log, lines=12):
    """The first error lines of a build log (with a line after each)."""
    text = pathlib.Path(log).read_text(errors="replace").splitlines()
    keep = []
    for i, line in enumerate(text):
        if "error" in line.lower() or line.startswith("FAILED"):
            keep.extend(text[i:i + 2])
        if len(keep) >= lines:
            break
    return "\n".join((keep or text[-lines:])[:lines])


def configure_and_build(preset="default", quiet=False, target=None, say=english):
    """Configure (once) and build with a preset (only `target`, with
    progress, when given). Returns True on success. `say(id, **fields)`
    words the messages (WORDS)."""
    require_tools()
    build_dir = preset_binary_dir(preset)
    build_dir.mkdir(parents=True, exist_ok=True)
    if not (build_dir / "CMakeCache.txt").exists():
        rc = run(["cmake", "--preset", preset], quiet, log=build_dir / "configure.log" if quiet else None)
        if rc != 0:
            print(say("build.configure_failed_log", log=build_dir / "configure.log") if quiet
                  else say("build.configure_failed"), file=sys.stderr)
            return False
    if target is not None:
        log = build_dir / "build.log"
        if build_with_progress(build_dir, target, log, say) != 0:
            print(say("build.failed_first_errors", log=log) + "\n" + first_errors(log),
                  file=sys.stderr)
            print(say("build.fix_first"), file=sys.stderr)
            return False
        return True
    rc = run(["cmake", "--build", "--preset", preset], quiet,
             log=build_dir / "build.log" if quiet else None)
    if rc != 0:
        if quiet:
            print((build_dir / "build.log").read_text()[-6000:], file=sys.stderr)
        print(say("build.failed_above"), file=sys.stderr)
        return False
    return True


def gpu_present():
    """(True, description) when nvidia-smi lists a GPU, else (False, reason)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False, "nvidia-smi is not installed, so no NVIDIA driver is present"
    try:
        out = subprocess.run([smi, "--query-gpu=name,compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        return False, f"nvidia-smi failed: {err}"
    if out.returncode != 0 or not out.stdout.strip():
        return False, "nvidia-smi lists no GPU: " + (out.stderr.strip() or out.stdout.strip())
    return True, out.stdout.strip().splitlines()[0]
