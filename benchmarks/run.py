"""Run every benchmark case against the original micrograd and this package.

``nox -s bench`` calls this with the Python executables of two virtualenvs:
one with ``micrograd==0.1.0`` (and PyTorch) installed, one with this package.
Runs alternate between the two (original, ours, original, ours...) so that a
slow spell of the machine hits both; each number is the median of the runs.

Every run writes its report to ``results/latest.json`` (not committed).

A change on the engine's hot path is measured against the code before it in
the same run: ``--before REV --before-python PYTHON`` (``nox -s bench --
--before REV`` makes that Python, with the package as it was at REV) runs the
hot-path cases of both, alternating, as the two libraries are, so that the
machine's slow spells hit both.
With ``--record`` it also becomes the project's record: ``RESULTS.json`` and
``RESULTS.md`` next to this file (see ``report.py``), which the README quotes
and the docs page "Why it's fast" shows.

Usage::

    python run.py --original PYTHON --ours PYTHON [--runs 3] [--slow-runs 1]
                  [--demo-steps 100] [--chain-depth 20000]
                  [--samples 25,100,400] [--deep-depth 1000000]
                  [--output results/latest.json] [--record]
                  [--before REV --before-python PYTHON]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import report as record  # benchmarks/report.py: the tables, and the record's files
import sides as environments  # benchmarks/sides.py: the other sides, each in its own

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.py"

# The performance targets, as ratios within one run.
TARGET_DEMO_SPEEDUP = 10.0  # the demo as written
TARGET_DEMO_PAUSED_SPEEDUP = 25.0  # the same loop inside paused_gc()
TARGET_CHAIN_SPEEDUP = 5.0
TARGET_GROWTH = 1.2  # cost per sample, largest / smallest size, loop in paused_gc()
TARGET_BYTES = 128.0


def run_case(python: str, *args: str) -> dict[str, Any]:
    """Run ``cases.py`` in a fresh process and return its JSON result."""
    done = subprocess.run([python, str(CASES), *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{python} cases.py {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def alternate(
    pythons: dict[str, str], runs: int, args: list[str], extra: dict[str, list[str]] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """``runs`` rounds of the same case, each round running every side once.

    ``extra`` gives a side arguments of its own (PyTorch's ``--torch``).
    """
    results: dict[str, list[dict[str, Any]]] = {side: [] for side in pythons}
    for round_ in range(runs):
        for side, python in pythons.items():
            start = time.perf_counter()
            results[side].append(run_case(python, *args, *(extra or {}).get(side, [])))
            took = time.perf_counter() - start
            print(f"  [{round_ + 1}/{runs}] {side:8} {' '.join(args)}: {took:.1f} s", flush=True)
    return results


def median(results: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(r[key]) for r in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="micrograd benchmarks: original vs ours")
    parser.add_argument(
        "--original", help="python with micrograd==0.1.0 (default: made in --envs, sides.py)"
    )
    parser.add_argument("--ours", required=True, help="python with this package")
    parser.add_argument("--torch", default=None, help="python with torch (default: --original)")
    parser.add_argument("--runs", type=int, default=3, help="runs of the quick cases")
    parser.add_argument(
        "--slow-runs", type=int, default=1, help="runs of the demo and the moons steps"
    )
    parser.add_argument("--demo-steps", type=int, default=100)
    parser.add_argument("--chain-depth", type=int, default=20_000)
    parser.add_argument("--samples", default="25,100,400")
    parser.add_argument("--deep-depth", type=int, default=1_000_000)
    parser.add_argument("--output", type=Path, default=HERE / "results" / "latest.json")
    parser.add_argument(
        "--record",
        action="store_true",
        help="keep this run as the record: write RESULTS.json and RESULTS.md",
    )
    parser.add_argument("--command", default="python -m nox -s bench", help="for the report")
    parser.add_argument("--before", help="the code --before-python has: a git revision")
    parser.add_argument(
        "--before-python", help="python with this package as it was at --before (default: made)"
    )
    parser.add_argument(
        "--envs", type=Path, default=HERE.parent / ".nox", help="where the sides' envs are made"
    )
    args = parser.parse_args(argv)
    if args.before_python is not None and args.before is None:
        parser.error("--before-python needs --before")
    if args.original is None:
        args.original = environments.original(args.envs / "bench-original")
    if args.before is not None and args.before_python is None:
        args.before_python = environments.package_at(args.before, args.envs / "bench-before")
    # The command as typed: nox's, with this run's options (not the Pythons' paths).
    options = _options(sys.argv[1:] if argv is None else argv)
    command = f"{args.command} -- {' '.join(options)}" if options else args.command

    both = {"original": args.original, "ours": args.ours}
    torch_python = args.torch or args.original
    samples = [int(s) for s in args.samples.split(",")]
    report: dict[str, Any] = {"cases": {}}
    cases = report["cases"]
    began = time.perf_counter()

    print("(1) the original's moons demo, as written", flush=True)
    demo = alternate(both, args.slow_runs, ["moons_demo", "--steps", str(args.demo_steps)])
    # ours again, the whole loop inside paused_gc() (an opt-in; the original has none)
    demo_args = ["moons_demo", "--steps", str(args.demo_steps), "--paused-loop"]
    demo["ours_paused_loop"] = alternate({"ours": args.ours}, args.runs, demo_args)["ours"]
    cases["moons_demo"] = {
        side: {
            "seconds_per_step": median(r, "seconds_per_step"),
            "final_loss": r[-1]["final_loss"],
            "final_accuracy": r[-1]["final_accuracy"],
            "runs": len(r),
        }
        for side, r in demo.items()
    }

    print("(2) forward + backward per node, chain of a * c + x", flush=True)
    chain_args = ["chain", "--depth", str(args.chain_depth)]
    chain = alternate(dict(both, torch=torch_python), args.runs, chain_args, {"torch": ["--torch"]})
    cases["chain"] = {
        side: {
            "seconds_per_node": median(r, "seconds_per_node"),
            "library": r[-1]["library"],
            "nodes": r[-1]["nodes"],
            "runs": len(r),
        }
        for side, r in chain.items()
    }

    print("(3) one moons training step, cost per sample", flush=True)
    per_size: dict[str, dict[str, Any]] = {}
    for n in samples:
        res = alternate(both, args.slow_runs, ["moons_step", "--samples", str(n)])
        per_size[str(n)] = {side: median(r, "seconds_per_sample") for side, r in res.items()}
        # ours again, the whole loop inside paused_gc(); it is quick, so it runs as
        # often as the quick cases (the growth target is about this one)
        paused = ["moons_step", "--samples", str(n), "--paused-loop"]
        res = alternate({"ours": args.ours}, args.runs, paused)
        per_size[str(n)]["ours_paused_loop"] = median(res["ours"], "seconds_per_sample")
    cases["moons_step"] = per_size

    print("(4) bytes per graph node", flush=True)
    mem = alternate(both, 1, ["bytes_per_node", "--depth", str(args.chain_depth)])
    cases["bytes_per_node"] = {side: r[0]["bytes_per_node"] for side, r in mem.items()}

    print("(5) backward through a very deep chain", flush=True)
    deep = alternate(both, 1, ["deep_chain", "--depth", str(args.deep_depth)])
    cases["deep_chain"] = {side: r[0] for side, r in deep.items()}

    if args.before_python is not None:
        print(f"(6) the hot path before the change ({args.before}) and after it", flush=True)
        before = {"before": args.before_python, "ours": args.ours}
        cases["before_after"] = before_and_after(before, args)

    report["settings"] = {
        "runs": args.runs,
        "slow_runs": args.slow_runs,
        "demo_steps": args.demo_steps,
        "chain_depth": args.chain_depth,
        "samples": samples,
        "deep_depth": args.deep_depth,
        "before": args.before,
        "command": command,
    }
    report["machine"] = {
        "python": demo["ours"][-1]["python"],
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
    }
    report["wall_seconds"] = time.perf_counter() - began
    report["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    report["verdicts"] = verdicts(cases, samples, args.demo_steps)

    print()
    print(record.text_table(report))
    text = json.dumps(report, indent=2) + "\n"
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"\nwrote {args.output}")
    if args.record:
        record.RECORD.write_text(text, encoding="utf-8")
        markdown = record.markdown(report, record.load_browser(), record.load_checks())
        record.RECORD_MARKDOWN.write_text(markdown, encoding="utf-8")
        print(f"wrote {record.RECORD} and {record.RECORD_MARKDOWN}")
    return 0


def _options(argv: list[str]) -> list[str]:
    """``argv`` without the options that name a Python or the command itself."""
    kept, skip = [], False
    for arg in argv:
        name = arg.split("=", 1)[0]
        if skip:
            skip = False
        elif name in ("--original", "--ours", "--torch", "--before-python", "--command", "--envs"):
            skip = "=" not in arg
        else:
            kept.append(arg)
    return kept


#: The hot-path cases a before-and-after comparison runs: name -> (case arguments, median of).
HOT_PATH = {
    "chain": (["chain"], "seconds_per_node"),
    "moons_step_paused_loop": (
        ["moons_step", "--samples", "100", "--paused-loop"],
        "seconds_per_sample",
    ),
    "moons_demo_paused_loop": (["moons_demo", "--paused-loop"], "seconds_per_step"),
}


def before_and_after(
    pythons: dict[str, str], args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    """Each hot-path case's median, before the change and after it, from alternating runs."""
    sizes = {
        "chain": ["--depth", str(args.chain_depth)],
        "moons_demo": ["--steps", str(args.demo_steps)],
    }
    medians = {}
    for name, (case, key) in HOT_PATH.items():
        runs = alternate(pythons, args.runs, [*case, *sizes.get(case[0], [])])
        medians[name] = {side: median(r, key) for side, r in runs.items()}
    return medians


def cpu_model() -> str:
    """The processor's model name (Linux: /proc/cpuinfo), or "" where it cannot be read."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                key, _, value = line.partition(":")
                if key.strip() == "model name":
                    return value.strip()
    except OSError:
        pass
    return ""


def verdicts(cases: dict[str, Any], samples: list[int], demo_steps: int) -> dict[str, Any]:
    """Each target of the issue, with the measured number and whether it is met."""
    demo = cases["moons_demo"]
    chain = cases["chain"]
    growth = record.growth({"cases": cases, "settings": {"samples": samples}})
    demo_ratio = demo["original"]["seconds_per_step"] / demo["ours"]["seconds_per_step"]
    paused_ratio = (
        demo["original"]["seconds_per_step"] / demo["ours_paused_loop"]["seconds_per_step"]
    )
    loss_diff = max(
        abs(demo["original"]["final_loss"] - demo[side]["final_loss"])
        for side in ("ours", "ours_paused_loop")
    )
    vs_original = chain["original"]["seconds_per_node"] / chain["ours"]["seconds_per_node"]
    vs_torch = chain["torch"]["seconds_per_node"] / chain["ours"]["seconds_per_node"]

    def at_least(value: float, target: float) -> dict[str, Any]:
        return {"value": value, "target": target, "met": value >= target}

    def at_most(value: float, target: float) -> dict[str, Any]:
        return {"value": value, "target": target, "met": value <= target}

    loss = {"value": loss_diff, "target": 1e-9, "met": loss_diff <= 1e-9 and demo_steps > 0}
    deep_ok = cases["deep_chain"]["ours"]["ok"]
    return {
        "demo_speedup": at_least(demo_ratio, TARGET_DEMO_SPEEDUP),
        "demo_paused_loop_speedup": at_least(paused_ratio, TARGET_DEMO_PAUSED_SPEEDUP),
        "demo_final_loss_difference": loss,
        "chain_speedup_vs_original": at_least(vs_original, TARGET_CHAIN_SPEEDUP),
        "chain_speedup_vs_torch": at_least(vs_torch, TARGET_CHAIN_SPEEDUP),
        "cost_per_sample_growth_ours_paused_loop": at_most(
            growth["ours_paused_loop"], TARGET_GROWTH
        ),
        "cost_per_sample_growth_ours": {"value": growth["ours"]},
        "cost_per_sample_growth_original": {"value": growth["original"]},
        "bytes_per_node_ours": at_most(cases["bytes_per_node"]["ours"], TARGET_BYTES),
        "deep_chain_ours_ok": {"value": deep_ok, "met": bool(deep_ok)},
    }


if __name__ == "__main__":
    sys.exit(main())
