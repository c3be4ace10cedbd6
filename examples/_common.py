"""What the example scripts share: the command line, a progress bar, saving pictures and logs.

Not part of micrograd: a helper for the scripts in this folder (each script
puts this folder on ``sys.path`` when run as ``python examples/NAME.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO


def parser(name: str, description: str, steps: int, seed: int) -> argparse.ArgumentParser:
    """The options every example takes: --steps, --seed, --out, --quiet."""
    p = argparse.ArgumentParser(prog=f"python examples/{name}.py", description=description)
    p.add_argument(
        "--steps", type=_non_negative, default=steps, help=f"training steps (default {steps})"
    )
    p.add_argument("--seed", type=int, default=seed, help=f"random seed (default {seed})")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("out") / name,
        help=f"folder for pictures and the log (default out/{name})",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def output_folder(p: argparse.ArgumentParser, out: Path) -> Path:
    """``--out``, made if it is missing; one that cannot be written to ends the script.

    As for any bad option, the script prints its usage and one line that
    says what is wrong (which folder, and why), and exits with status 2,
    before it computes anything.
    """
    if out.exists() and not out.is_dir():
        p.error(f"--out {out}: it is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        p.error(f"--out {out}: cannot make the folder: {error.strerror or error}")
    if not os.access(out, os.W_OK | os.X_OK):
        p.error(f"--out {out}: cannot write in the folder: permission denied")
    return out


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


class Progress:
    """A one-line text progress bar on stderr, shown only on a terminal.

    Parameters
    ----------
    total : int
        Number of steps.
    desc : str
        Shown before the bar.
    enabled : bool, optional
        Default: only when ``stream`` is a terminal.
    stream : file, default sys.stderr
    """

    def __init__(
        self,
        total: int,
        desc: str = "",
        enabled: bool | None = None,
        stream: TextIO | None = None,
        width: int = 30,
    ) -> None:
        self.total = total
        self.desc = desc
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = width
        self.done = 0
        self.note = ""
        self._last = 0.0

    def update(self, n: int = 1, note: str = "") -> None:
        """Advance by ``n`` steps; ``note`` is shown after the bar (e.g. the loss)."""
        self.done += n
        self.note = note
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            self.stream.write("\r" + self.line())
            self.stream.flush()

    def print(self, text: str) -> None:
        """Print ``text`` to stdout without tangling it with the bar."""
        if self.enabled and self.done:
            self.stream.write("\r" + " " * len(self.line()) + "\r")
            self.stream.flush()
        print(text, flush=True)
        if self.enabled and self.done:
            self.stream.write(self.line())
            self.stream.flush()

    def line(self) -> str:
        """The bar as text, e.g. ``train [#######-------]  50/100 loss 0.1``."""
        filled = self.width if self.total == 0 else self.width * self.done // self.total
        bar = "#" * filled + "-" * (self.width - filled)
        digits = len(str(self.total))
        text = f"{self.desc} [{bar}] {self.done:>{digits}}/{self.total}"
        return f"{text} {self.note}".rstrip()

    def close(self) -> None:
        """End the line of the bar."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
            self.enabled = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def save_graph(graph: Any, path: Path) -> Path:
    """Save a Graphviz graph as SVG; without any dot program, save its DOT source."""
    from micrograd.viz.svg import render_svg

    try:
        render_svg(graph, path)
    except RuntimeError as error:
        dot_path = path.with_suffix(".gv")
        dot_path.write_text(graph.source, encoding="utf-8")
        print(f"note: {error}; wrote the DOT source to {dot_path}", file=sys.stderr)
        return dot_path
    return path


def report_log(log: Any, title: str, picture: Path, name: str) -> None:
    """Plot a TrainingLog that has rows to ``picture``; print where the plot and the log went."""
    from micrograd.viz.plot import plot_training

    if log.rows:
        print(f"{name}: {plot_training(log, title=title).save(picture)}")
    print(f"log: {log.path}")


def fmt_list(values: Iterable[float], digits: int = 4) -> str:
    """``[0.1234, -0.5000]``: numbers with a fixed number of decimals."""
    return "[" + ", ".join(f"{v:.{digits}f}" for v in values) + "]"
