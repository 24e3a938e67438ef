"""Command-line options and checks the study scripts share (host_breakeven.py, host_verdict.py,
energy_findings.py): which mtsim, where the results JSON go, how many jobs."""

import os
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
