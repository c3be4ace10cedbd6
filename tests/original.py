"""The original micrograd 0.1.0, loaded from its verbatim files as the tests' oracle.

``original_micrograd/`` holds ``engine.py`` and ``nn.py`` exactly as PyPI's
micrograd 0.1.0 ships them (``pip download micrograd==0.1.0 --no-deps``),
with its licence; lint leaves the folder alone.  It cannot be installed next
to this package, whose import name it shares.  :func:`load_original` loads
the two files with importlib under names of their own, and runs the
original ``nn`` against the original ``engine``, so the oracle is the
original end to end.  The original source is Copyright (c) 2020 Andrej
Karpathy, MIT License.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "original_micrograd"


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_original() -> types.SimpleNamespace:
    """The original micrograd's ``Value``, ``Module``, ``Neuron``, ``Layer`` and ``MLP``."""
    engine = _load("original_micrograd.engine", FOLDER / "engine.py")
    # nn.py says `from micrograd.engine import Value`: while it runs, that name
    # is the original engine; then it is this package's again.
    ours = sys.modules.get("micrograd.engine")
    sys.modules["micrograd.engine"] = engine
    try:
        nn = _load("original_micrograd.nn", FOLDER / "nn.py")
    finally:
        if ours is None:
            del sys.modules["micrograd.engine"]
        else:
            sys.modules["micrograd.engine"] = ours
    return types.SimpleNamespace(
        Value=engine.Value, Module=nn.Module, Neuron=nn.Neuron, Layer=nn.Layer, MLP=nn.MLP
    )
