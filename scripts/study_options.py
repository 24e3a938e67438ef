"""Command-line options and checks the study scripts share (host_breakeven.py, host_verdict.py,
energy_findings.py): which mtsim, where the results JSON go, how many jobs, and a run whose
data must verify."""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def add_run_options(parser):
    """--mtsim, --out and --jobs."""
    parser.add_argument("--mtsim", default=os.path.join(ROOT, "build/bin/mtsim"))
    parser.add_argument("--out", help="keep the results JSON here (default: a scratch folder); "
                        "a run whose JSON is there is not repeated")
    parser.add_argument("--jobs", type=int, default=2)


def results_folder(args, script):
    """The results folder of `args` (made), or None after saying why mtsim cannot run."""
    if not os.access(args.mtsim, os.X_OK):
        print(f"{script}: {args.mtsim} is not an executable mtsim (--mtsim)", file=sys.stderr)
        return None
    out = args.out or tempfile.mkdtemp(prefix=script.replace(".py", "_"))
    os.makedirs(out, exist_ok=True)
    return out


def verified_runs(mtsim, scenario, path, jobs, sets):
    """(bytes, algorithm label) -> run of `mtsim run scenario --set ...` whose results JSON is
    `path` (simulated unless the file is there); RuntimeError if mtsim fails or a run has an
    error or unverified data."""
    if not os.path.exists(path):
        command = [mtsim, "run", scenario, "-j", str(jobs), "--json", path]
        for s in sets:
            command += ["--set", s]
        print(f"== {' '.join(command)}", file=sys.stderr, flush=True)
        if subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL).returncode != 0:
            raise RuntimeError(f"mtsim failed: {' '.join(command)}")
    runs = {}
    for run in json.load(open(path, encoding="utf-8"))["runs"]:
        if run["error"] or not run["data_verified"]:
            raise RuntimeError(f"{path}: {run['algorithm']} at {run['bytes']} B failed: "
                               f"{run['error'] or 'data not verified'}")
        runs[(run["bytes"], run["algorithm"])] = run
    return runs
