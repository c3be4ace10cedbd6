"""The GPT benchmark: microgpt's own code against this package's ``Value`` and GPT.

Three sides train the same model on the same names for the same steps (see
``gpt_cases.py``), one process each, all three started together and taking
turns: one runs for a slice of half a second while the other two are paused
(``SIGSTOP``), so that every stretch of a shared machine's load, however long
the run, falls on all three alike.  A step is timed in its process's CPU
seconds, which a pause (or a wait for a busy core) does not count; each
number is the median of the runs' median step.

* microgpt's model as published, with our ``Value`` dropped in for its own,
  against microgpt's own ``Value``: the engine alone;
* this package's GPT (:mod:`micrograd.gpt`) against microgpt's own code.

Every side must give microgpt's losses.  microgpt (strands-microgpt 0.1.0,
MIT) is not a dependency of the project: it is installed with ``--no-deps``
in a scratch environment (``sides.microgpt``), unless ``--engine`` names its
``engine.py``.  The report goes to ``results/gpt_latest.json`` (not
committed); the project's record, RESULTS.*, is not touched.

Usage::

    python gpt_run.py --ours PYTHON [--engine PATH] [--steps 20] [--runs 3]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import sides as environments  # benchmarks/sides.py

HERE = Path(__file__).resolve().parent
CASES = HERE / "gpt_cases.py"
SIDES = ("microgpt", "microgpt_our_value", "book")

# The targets, as ratios of microgpt's own seconds per step to a side's, within one run.
TARGET_OUR_VALUE_SPEEDUP = 4.0
TARGET_BOOK_SPEEDUP = 10.0
#: The most any side's loss may differ from microgpt's, at any step.
TARGET_LOSS_DIFFERENCE = 1e-9
#: Wall-clock seconds a side runs before the next side's turn.
TURN = 0.5


def run_in_turns(python: str, engine: Path, steps: int) -> dict[str, dict[str, Any]]:
    """One training run of every side, each in a fresh process, taking turns: their results."""
    with tempfile.TemporaryDirectory() as folder:
        commands, processes = {}, {}
        try:
            for side in SIDES:
                commands[side] = [python, str(CASES), side, "--engine", str(engine)]
                commands[side] += ["--steps", str(steps)]
                # a session of its own: a paused child in the caller's process group would be
                # sent SIGHUP if that group were orphaned (a job started in the background)
                with open(Path(folder, side), "w") as out:  # the child keeps its own handle
                    processes[side] = subprocess.Popen(
                        commands[side],
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                os.kill(processes[side].pid, signal.SIGSTOP)
            waiting = list(SIDES)
            while waiting:
                for side in list(waiting):
                    os.kill(processes[side].pid, signal.SIGCONT)
                    try:
                        processes[side].wait(timeout=TURN)
                        waiting.remove(side)
                    except subprocess.TimeoutExpired:
                        os.kill(processes[side].pid, signal.SIGSTOP)
        finally:
            for process in processes.values():
                if process.poll() is None:  # interrupted: a paused child would wait for ever
                    process.kill()
                    process.wait()
        results = {}
        for side in SIDES:
            output = Path(folder, side).read_text(encoding="utf-8")
            if processes[side].returncode != 0:
                code = processes[side].returncode
                raise RuntimeError(f"{' '.join(commands[side])} failed ({code}):\n{output}")
            results[side] = json.loads(output.strip().splitlines()[-1])
        return results


def summary(results: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Each side's median step, the two speed-ups and the loss differences, with verdicts."""
    step = {
        side: statistics.median(r["seconds_per_step"] for r in runs)
        for side, runs in results.items()
    }
    reference = results["microgpt"][0]["losses"]
    difference = {
        side: max(abs(a - b) for run in runs for a, b in zip(run["losses"], reference, strict=True))
        for side, runs in results.items()
    }

    def at_least(value: float, target: float) -> dict[str, Any]:
        return {"value": value, "target": target, "met": value >= target}

    def at_most(value: float, target: float) -> dict[str, Any]:
        return {"value": value, "target": target, "met": value <= target}

    return {
        "seconds_per_step": step,
        "verdicts": {
            "our_value_speedup": at_least(
                step["microgpt"] / step["microgpt_our_value"], TARGET_OUR_VALUE_SPEEDUP
            ),
            "book_speedup": at_least(step["microgpt"] / step["book"], TARGET_BOOK_SPEEDUP),
            "loss_difference_our_value": at_most(
                difference["microgpt_our_value"], TARGET_LOSS_DIFFERENCE
            ),
            "loss_difference_book": at_most(difference["book"], TARGET_LOSS_DIFFERENCE),
        },
        "first_and_last_loss": [reference[0], reference[-1]],
        "losses": reference,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", required=True, help="python with this package")
    parser.add_argument("--engine", type=Path, help="microgpt's engine.py (default: installed)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--envs", type=Path, default=HERE.parent / ".nox")
    parser.add_argument("--output", type=Path, default=HERE / "results" / "gpt_latest.json")
    args = parser.parse_args(argv)
    engine = args.engine or environments.microgpt(args.envs / "bench-microgpt")

    began = time.perf_counter()
    results: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    for round_ in range(args.runs):
        start = time.perf_counter()
        for side, result in run_in_turns(args.ours, engine, args.steps).items():
            results[side].append(result)
        took = time.perf_counter() - start
        print(f"  [{round_ + 1}/{args.runs}] the three sides in turns: {took:.1f} s", flush=True)
    report = summary(results)
    report["settings"] = {
        "steps": args.steps,
        "runs": args.runs,
        "turn_seconds": TURN,
        "engine": str(engine),
    }
    report["machine"] = {
        "python": results["book"][-1]["python"],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }
    report["wall_seconds"] = time.perf_counter() - began
    report["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")

    for side, seconds in report["seconds_per_step"].items():
        print(f"{side:18} {seconds * 1e3:8.1f} ms of CPU a step")
    for name, verdict in report["verdicts"].items():
        mark = "met" if verdict["met"] else "NOT met"
        print(f"{name:26} {verdict['value']:.4g} (target {verdict['target']:g}): {mark}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
