#!/usr/bin/python3
"""Run a grid of paramsync driver runs: in parallel, resumable, one CSV per experiment.

A grid spec (JSON, or TOML with Python >= 3.11) names the experiment, the options every run
shares, and one or more grids of option values whose cartesian products are run:

    {
      "experiment": "demo-grid",
      "fixed": {"backend": "fluid", "model": "vgg19"},
      "grids": [
        {"topology": ["bcube:n=3,k=1", "torus:dims=4x4"],
         "algorithm": ["hips", "ring", "mesh"],
         "rate": ["10Gbps", "40Gbps"]},
        {"topology": "fattree:k=4", "algorithm": ["ring", "mesh"], "rate": "40Gbps"}
      ]
    }

Keys are driver options without the leading "--" (see `build/paramsync --help`); a scalar is
a one-value list; a grid's own "fixed" entry overrides the top-level one. Points that two
grids share run once. `--format=json` is always added. "{outdir}" in a value stands for the
run's own directory, results/<experiment>/out/<hash>/ (e.g. "out": "{outdir}" keeps every
run's summary.json, transfers.csv and pfc.csv apart).

    examples/sweep/sweep.py SPEC [--paramsync build/paramsync] [--results results]
                            [--jobs N] [--retry-failed] [--timeout S]
    examples/sweep/sweep.py SPEC --list                 # the grid points, nothing run
    examples/sweep/sweep.py SPEC --collect              # rebuild the CSV from finished runs
    examples/sweep/sweep.py SPEC --emit=slurm|parallel  # job files for a cluster

Each run is stored as results/<experiment>/runs/<hash>.json (the hash of its options),
written atomically, with the command, exit code, last stderr line and the JSON rows the
driver printed. A rerun skips every stored run, so an interrupted sweep resumes where it
stopped; a failed run (exit code other than 0 and 3) is stored too, listed at the end and
in the CSV, and rerun only with --retry-failed. Exit code 3 (the run finished but an
invariant failed, e.g. drops with PFC on) keeps its rows: they are results.

The CSV results/<experiment>/<experiment>.csv has one row per JSON object the driver printed
(one per run; --algorithm=all prints one per algorithm), failed runs as one row without
results: columns run (the hash), exit_code, error, then the options, then the driver's JSON
columns; a JSON column named like an option is prefixed "out_" (out_algorithm is the full
algorithm spec the driver resolved, e.g. "hips:rotate=1,bidir=1,stage=auto").

Exit status: 0 when every point has a stored result (failed points included; they are
reported) and at least one of them is not a failure, 1 when some point has no result
(interrupted), 2 on a bad spec or option, 4 when every point ran and every one failed
(a grid with no result at all: a wrong binary, an option every run refuses).

Standard library only; used as a module by examples/experiments/*.py (load_spec, Sweep).
"""
import argparse
import concurrent.futures
import csv
import hashlib
import itertools
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

RUN_FORMAT = 1  # version of the stored run record
SLURM_MAX_TASKS = 1000  # array indices 0..999 stay below Slurm's default MaxArraySize
_UMASK = os.umask(0)
os.umask(_UMASK)  # read once: files written through temporary names get the usual mode


class SpecError(ValueError):
    """A grid spec that cannot be run; the message names the spec and what is allowed."""


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _option_text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def load_spec(path):
    """Reads a JSON (or, with Python >= 3.11, TOML) grid spec into a dict."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SpecError(f"{path}: cannot read the grid spec ({e.strerror})") from e
    if path.endswith(".toml"):
        try:
            import tomllib
        except ImportError as e:
            raise SpecError(f"{path}: TOML specs need Python >= 3.11; use JSON") from e
        try:
            return tomllib.loads(data.decode())
        except tomllib.TOMLDecodeError as e:
            raise SpecError(f"{path}: not valid TOML ({e})") from e
    try:
        return json.loads(data)
    except json.JSONDecodeError as e:
        raise SpecError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from e


def expand(spec, name="spec"):
    """The grid points of a spec: (experiment, [options dict, ...]) in spec order, unique."""
    if not isinstance(spec, dict):
        raise SpecError(f"{name}: a grid spec is an object with 'experiment' and 'grids'")
    unknown = set(spec) - {"experiment", "fixed", "grids", "grid", "description"}
    if unknown:
        raise SpecError(f"{name}: unknown key(s) {sorted(unknown)}; allowed: experiment, "
                        "description, fixed, grids (or grid)")
    experiment = spec.get("experiment")
    if not isinstance(experiment, str) or not experiment or "/" in experiment \
            or experiment.startswith("."):
        raise SpecError(f"{name}: 'experiment' must be a non-empty name without '/' "
                        "(it names results/<experiment>/)")
    grids = spec.get("grids", [spec["grid"]] if "grid" in spec else None)
    if not isinstance(grids, list) or not grids:
        raise SpecError(f"{name}: 'grids' must be a non-empty list of objects "
                        "(option -> value or list of values)")
    fixed = spec.get("fixed", {})
    points, seen = [], set()
    for i, grid in enumerate(grids):
        if not isinstance(grid, dict):
            raise SpecError(f"{name}: grids[{i}] must be an object (option -> values)")
        grid = dict(grid)
        options = dict(fixed)
        options.update(grid.pop("fixed", {}))
        keys = list(grid)
        values = []
        for key in keys:
            vals = _as_list(grid[key])
            if not vals:
                raise SpecError(f"{name}: grids[{i}].{key} is an empty list; give at least "
                                "one value")
            values.append(vals)
        for combo in itertools.product(*values):
            point = dict(options)
            point.update(zip(keys, combo))
            for key in list(point):
                if key.startswith("-") or "=" in key or not key:
                    raise SpecError(f"{name}: option name '{key}' must be a driver option "
                                    "without the leading '--' (e.g. topology)")
                if key == "format":
                    raise SpecError(f"{name}: 'format' is set by the sweep (json)")
                point[key] = _option_text(point[key])
            h = run_hash(point)
            if h not in seen:
                seen.add(h)
                points.append(point)
    return experiment, points


def run_hash(options):
    """Stable id of a grid point: its options, order-independent (16 hex digits)."""
    canon = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(canon.encode()).hexdigest()[:16]


OUTDIR = "{outdir}"  # in an option value: the run's own directory (see out_dir)


def out_dir(runs_dir, options):
    """results/<experiment>/out/<hash>: where a run's `--out={outdir}` files go."""
    return os.path.join(os.path.dirname(os.path.abspath(runs_dir)), "out", run_hash(options))


def command(paramsync, options, runs_dir="runs"):
    """The driver command line of one grid point ({outdir} replaced by its out_dir)."""
    d = out_dir(runs_dir, options)
    return [paramsync] + [f"--{k}={v.replace(OUTDIR, d)}" for k, v in options.items()] + \
        ["--format=json", "--progress=0"]


def write_atomic(path, text):
    """Writes text to path so that a reader sees the old file or the whole new one."""
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run_point(paramsync, options, runs_dir, timeout=None):
    """Runs one grid point and stores its record; returns the record."""
    cmd = command(paramsync, options, runs_dir)
    if any(OUTDIR in v for v in options.values()):
        os.makedirs(os.path.dirname(out_dir(runs_dir, options)), exist_ok=True)
    start = time.monotonic()
    rows, error = [], ""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=timeout)
        code = proc.returncode
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        error = lines[-1].strip() if lines else ""
        for ln in proc.stdout.splitlines():
            ln = ln.strip()
            if ln.startswith("{"):
                try:
                    rows.append(json.loads(ln))
                except json.JSONDecodeError:
                    error = error or f"unparsable JSON line on stdout: {ln[:80]}"
        if code in (0, 3) and not rows:
            error = error or "the driver printed no JSON row"
            code = code if code else 1
    except subprocess.TimeoutExpired:
        code, error = "timeout", f"killed after the {timeout} s timeout"
    except OSError as e:
        code, error = "exec", f"cannot run {paramsync}: {e.strerror}"
    if isinstance(code, int) and code < 0:
        error = error or f"killed by signal {-code}"
    # Killed from outside (Ctrl-C reaches the driver too; a batch system's time limit sends
    # SIGTERM): the run did not fail, it was stopped. Store nothing, so a rerun redoes it.
    stopped = isinstance(code, int) and -code in (signal.SIGINT, signal.SIGTERM,
                                                  signal.SIGHUP)
    record = {
        "format": RUN_FORMAT,
        "run": run_hash(options),
        "options": options,
        "command": shlex.join(cmd),
        "exit_code": code,
        "error": error if code != 0 else "",
        "ok": code in (0, 3) and bool(rows),
        "wall_s": round(time.monotonic() - start, 3),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "rows": rows,
        "stored": not stopped,
    }
    if stopped:
        return record
    os.makedirs(runs_dir, exist_ok=True)
    write_atomic(os.path.join(runs_dir, record["run"] + ".json"),
                 json.dumps(record, indent=1) + "\n")
    return record


def read_record(path):
    """A stored run record, or None when the file is missing or unreadable."""
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, json.JSONDecodeError):
        return None
    return rec if isinstance(rec, dict) and rec.get("format") == RUN_FORMAT else None


def _fmt_time(s):
    s = int(round(s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 \
        else f"{s // 60}:{s % 60:02d}"


class Progress:
    """Runs done / total, elapsed and estimate on stderr (one rewritten line on a terminal)."""

    def __init__(self, name, total, skipped, stream=sys.stderr):
        self.name, self.total, self.done, self.failed = name, total, skipped, 0
        self.todo = total - skipped
        self.executed = 0
        self.start = time.monotonic()
        self.stream = stream
        self.tty = stream.isatty()
        self.last = 0.0
        self.lock = threading.Lock()
        if skipped:
            self.stream.write(f"[{name}] {skipped} of {total} runs already stored, skipped\n")
        if self.todo:
            self.show(force=True)

    def step(self, record):
        with self.lock:
            self.executed += 1
            if not record["stored"]:
                self.stream.write(("\n" if self.tty else "") +
                                  f"[{self.name}] stopped, not stored: {record['command']}\n")
                return
            self.done += 1
            if not record["ok"]:
                self.failed += 1
                self.stream.write(("\n" if self.tty else "") +
                                  f"[{self.name}] FAILED (exit {record['exit_code']}): "
                                  f"{record['command']}\n    {record['error']}\n")
            self.show(force=self.executed == self.todo)

    def show(self, force=False):
        now = time.monotonic()
        if not force and not self.tty and now - self.last < 5:
            return  # a log file gets a line every 5 s, not one per run
        self.last = now
        elapsed = now - self.start
        if self.executed:
            eta = f"{_fmt_time(elapsed / self.executed * (self.todo - self.executed))}"
        else:
            eta = "?"
        line = (f"[{self.name}] {self.done}/{self.total} runs done"
                f"{f', {self.failed} failed' if self.failed else ''}, elapsed "
                f"{_fmt_time(elapsed)}, remaining ~{eta}")
        self.stream.write(("\r" + line + "\x1b[K") if self.tty else line + "\n")
        if self.tty and force and self.executed == self.todo:
            self.stream.write("\n")
        self.stream.flush()


class Sweep:
    """One experiment's grid: run it, collect its CSV, emit it as cluster job files."""

    def __init__(self, spec, paramsync="build/paramsync", results="results", name="spec"):
        self.experiment, self.points = expand(spec, name)
        # how to build the CSV after the emitted jobs ran (an experiment script sets its own)
        self.collect_hint = shlex.join(["python3", os.path.abspath(__file__),
                                        os.path.abspath(name), "--collect", "--results",
                                        os.path.abspath(results)])
        self.paramsync = paramsync
        self.dir = os.path.join(results, self.experiment)
        self.runs_dir = os.path.join(self.dir, "runs")
        self.csv_path = os.path.join(self.dir, self.experiment + ".csv")

    def record_path(self, options):
        return os.path.join(self.runs_dir, run_hash(options) + ".json")

    def pending(self, retry_failed=False):
        """Grid points without a stored record (or with a failed one, when retrying)."""
        todo = []
        for p in self.points:
            rec = read_record(self.record_path(p))
            if rec is None or (retry_failed and not rec["ok"]):
                todo.append(p)
        return todo

    def run(self, jobs=None, retry_failed=False, timeout=None, stream=sys.stderr):
        """Runs every pending point, jobs at a time; returns the records run now."""
        if not (os.path.isfile(self.paramsync) and os.access(self.paramsync, os.X_OK)):
            raise SpecError(f"--paramsync: {self.paramsync} is not an executable file "
                            "(build it: cmake --build build)")
        jobs = jobs or os.cpu_count() or 1
        # Packet-level runs first (the driver's default backend): they take seconds to
        # minutes where fluid runs take milliseconds. Long jobs first shortens the makespan
        # (Graham's LPT rule) and keeps the estimate from promising too early an end.
        todo = sorted(self.pending(retry_failed),
                      key=lambda p: p.get("backend", "packet") == "fluid")
        progress = Progress(self.experiment, len(self.points), len(self.points) - len(todo),
                            stream)
        records = []
        if todo:
            pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
            try:
                futures = [pool.submit(run_point, self.paramsync, p, self.runs_dir, timeout)
                           for p in todo]
                for fut in concurrent.futures.as_completed(futures):
                    rec = fut.result()
                    records.append(rec)
                    progress.step(rec)
            finally:  # on Ctrl-C start nothing more; the running drivers got the signal too
                pool.shutdown(wait=True, cancel_futures=True)
        return records

    def records(self):
        """Stored records of the grid's points, in grid order (missing points left out)."""
        out = []
        for p in self.points:
            rec = read_record(self.record_path(p))
            if rec is not None:
                out.append(rec)
        return out

    def collect(self):
        """Writes the experiment's CSV from the stored runs; returns (rows, failed records)."""
        records = self.records()
        opt_cols = []
        for p in self.points:
            opt_cols += [k for k in p if k not in opt_cols]
        out_cols = []
        for rec in records:
            for row in rec["rows"]:
                out_cols += [k for k in row if k not in out_cols]
        named = {k: ("out_" + k if k in opt_cols or k in ("run", "exit_code", "error") else k)
                 for k in out_cols}
        header = ["run", "exit_code", "error"] + opt_cols + [named[k] for k in out_cols]
        rows, failed = [], []
        for rec in records:
            base = {"run": rec["run"], "exit_code": rec["exit_code"], "error": rec["error"]}
            base.update(rec["options"])
            if not rec["ok"]:
                failed.append(rec)
            for row in rec["rows"] or [{}]:
                line = dict(base)
                for k, v in row.items():
                    if isinstance(v, list) and not any(isinstance(x, (list, dict)) for x in v):
                        v = ";".join(map(str, v))
                    elif isinstance(v, (list, dict)):
                        v = json.dumps(v, separators=(",", ":"))  # nested: one JSON cell
                    line[named[k]] = v
                rows.append(line)
        os.makedirs(self.dir, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=self.dir, delete=False, newline="",
                                         prefix=".tmp-", suffix=".part") as f:
            w = csv.DictWriter(f, fieldnames=header, restval="")
            w.writeheader()
            w.writerows(rows)
            tmp = f.name
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, self.csv_path)
        return rows, failed

    def _one_command(self, options):
        """A shell command that runs one point exactly as run() does (for job files)."""
        me = os.path.abspath(__file__)
        return shlex.join(["python3", me, "--one", "--paramsync",
                           os.path.abspath(self.paramsync), "--runs-dir",
                           os.path.abspath(self.runs_dir), "--options",
                           json.dumps(options, separators=(",", ":"))])

    def emit(self, kind, path=None):
        """Writes a Slurm job-array script or a GNU parallel job file; returns its path."""
        os.makedirs(self.dir, exist_ok=True)
        collect = self.collect_hint
        if kind == "parallel":
            path = path or os.path.join(self.dir, self.experiment + ".parallel")
            lines = [self._one_command(p) for p in self.points]
            text = "\n".join(lines) + "\n"
            hint = (f"run: parallel --jobs N < {path}   (then: {collect})")
        elif kind == "slurm":
            path = path or os.path.join(self.dir, self.experiment + ".slurm")
            n = len(self.points)
            # Slurm's MaxArraySize (1001 by default) caps array indices: beyond 1000 points
            # each task runs several, one after another.
            per = -(-n // SLURM_MAX_TASKS)
            tasks = -(-n // per)
            logs = os.path.abspath(os.path.join(self.dir, "slurm"))
            out = ["#!/bin/bash",
                   f"# paramsync sweep '{self.experiment}': {n} grid points, {per} per array "
                   f"task ({tasks} tasks).",
                   "# Each point stores results/<experiment>/runs/<hash>.json like a local "
                   "sweep (a point already stored is skipped, so resubmitting redoes the rest);",
                   f"# afterwards: {collect}",
                   f"#SBATCH --job-name=paramsync-{self.experiment}",
                   f"#SBATCH --array=0-{tasks - 1}",
                   "#SBATCH --ntasks=1",
                   "#SBATCH --cpus-per-task=1",
                   f"#SBATCH --output={logs}/%A_%a.out",
                   "rc=0",
                   'case "$SLURM_ARRAY_TASK_ID" in']
            for t in range(tasks):
                out.append(f"    {t})")
                for p in self.points[t * per:(t + 1) * per]:
                    out.append(f"        {self._one_command(p)} || rc=1")
                out.append("        ;;")
            out += [f'    *) echo "no array task $SLURM_ARRAY_TASK_ID (0..{tasks - 1})" >&2; '
                    "exit 2 ;;", "esac", "exit $rc"]
            text = "\n".join(out) + "\n"
            os.makedirs(logs, exist_ok=True)
            hint = f"run: sbatch {path}"
        else:
            raise SpecError(f"--emit: '{kind}' is not known; allowed: slurm, parallel")
        write_atomic(path, text)
        if kind == "slurm":
            os.chmod(path, 0o755)
        return path, hint


def report(sweep, rows, failed, stream=sys.stderr):
    missing = len(sweep.points) - len(sweep.records())
    stream.write(f"[{sweep.experiment}] {len(rows)} rows -> {sweep.csv_path}\n")
    for rec in failed:
        stream.write(f"[{sweep.experiment}] failed run {rec['run']} (exit {rec['exit_code']}): "
                     f"{rec['error']}\n    {rec['command']}\n")
    if failed:
        stream.write(f"[{sweep.experiment}] {len(failed)} failed run(s) recorded; rerun them "
                     "with --retry-failed\n")
    if missing:
        stream.write(f"[{sweep.experiment}] {missing} point(s) have no result yet\n")
        return 1
    if sweep.points and len(failed) == len(sweep.points):
        stream.write(f"[{sweep.experiment}] every run failed: no result\n")
        return 4
    return 0


def run_experiment(experiment, make_spec, plot_script, doc, fluid_only=False):
    """The command line every script in examples/experiments/ shares: parses --paramsync,
    --results, --plots, --jobs, --collect, --emit (and --fluid-only when asked), runs the
    grid make_spec(args) with the sweep runner (make_spec may first write input files under
    args.results), collects the CSV and renders the figures with plots/<plot_script>.
    Returns the exit status."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--paramsync", default=os.path.join(root, "build", "paramsync"))
    ap.add_argument("--results", default=os.path.join(root, "results"))
    ap.add_argument("--plots", default=os.path.join(root, "plots"),
                    help="directory for the figures")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    if fluid_only:
        ap.add_argument("--fluid-only", action="store_true",
                        help="leave out the packet-level subset (seconds instead of minutes)")
    ap.add_argument("--collect", action="store_true",
                    help="only rebuild the CSV and the figures from stored runs")
    ap.add_argument("--emit", choices=["slurm", "parallel"],
                    help="write the grid as a Slurm job array / GNU parallel job file")
    args = ap.parse_args()
    args.fluid_only = getattr(args, "fluid_only", False)
    args.paramsync, args.results, args.plots = (os.path.abspath(p) for p in
                                                (args.paramsync, args.results, args.plots))
    os.chdir(root)  # a grid may name its input files relative to the checkout
    script = os.path.abspath(sys.argv[0])
    try:
        s = Sweep(make_spec(args), args.paramsync, args.results, script)
        s.collect_hint = f"{script} --collect --results {args.results}"
        if args.emit:
            path, hint = s.emit(args.emit)
            print(f"[{experiment}] {len(s.points)} grid points -> {path}\n    {hint}",
                  file=sys.stderr)
            return 0
        if not args.collect:
            s.run(args.jobs)
        rows, failed = s.collect()
        status = report(s, rows, failed)
    except SpecError as e:
        print(f"{experiment}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{experiment}: interrupted; finished runs are stored, rerun to resume",
              file=sys.stderr)
        return 1
    subprocess.run(["/usr/bin/python3", os.path.join(root, "plots", plot_script), s.csv_path,
                    args.plots], check=True)
    return status


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run a grid of paramsync runs in parallel (resumable), collect a CSV, "
                    "or emit the grid as Slurm / GNU parallel job files.")
    ap.add_argument("spec", nargs="?", help="grid spec file (.json, or .toml)")
    ap.add_argument("--paramsync", default="build/paramsync", help="driver binary")
    ap.add_argument("--results", default="results",
                    help="results root; runs go to RESULTS/<experiment>/")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(),
                    help="runs at a time (default: all cores)")
    ap.add_argument("--retry-failed", action="store_true", help="rerun stored failed runs")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per run")
    ap.add_argument("--list", action="store_true", help="print the grid's commands, run none")
    ap.add_argument("--collect", action="store_true", help="only rebuild the CSV")
    ap.add_argument("--emit", choices=["slurm", "parallel"],
                    help="write a Slurm job-array script or a GNU parallel job file")
    ap.add_argument("--emit-file", help="path of the emitted file "
                    "(default RESULTS/<experiment>/<experiment>.slurm|.parallel)")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--runs-dir", help=argparse.SUPPRESS)
    ap.add_argument("--options", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        if args.one:  # one grid point, from an emitted job file
            if not args.runs_dir or not args.options:
                raise SpecError("--one needs --runs-dir and --options")
            options = json.loads(args.options)
            rec = read_record(os.path.join(args.runs_dir, run_hash(options) + ".json"))
            if rec is None or not rec["ok"]:  # a resubmitted job array redoes only the rest
                rec = run_point(args.paramsync, options, args.runs_dir, args.timeout)
            if not rec["ok"]:
                sys.stderr.write(f"exit {rec['exit_code']}: {rec['error']}\n")
            return 0 if rec["ok"] else 1
        if not args.spec:
            raise SpecError("a grid spec file is required (see --help)")
        if args.jobs is not None and args.jobs < 1:
            raise SpecError(f"--jobs: {args.jobs} is not >= 1")
        sweep = Sweep(load_spec(args.spec), args.paramsync, args.results, args.spec)
        if args.list:
            for p in sweep.points:
                print(run_hash(p), shlex.join(command(sweep.paramsync, p, sweep.runs_dir)))
            return 0
        if args.emit:
            path, hint = sweep.emit(args.emit, args.emit_file)
            sys.stderr.write(f"[{sweep.experiment}] {len(sweep.points)} grid points -> {path}"
                             f"\n    {hint}\n")
            return 0
        if not args.collect:
            sweep.run(args.jobs, args.retry_failed, args.timeout)
        rows, failed = sweep.collect()
        return report(sweep, rows, failed)
    except SpecError as e:
        sys.stderr.write(f"sweep: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\nsweep: interrupted; finished runs are stored, rerun to resume\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
