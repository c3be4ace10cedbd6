"""micrograd: a scalar autograd engine and a tiny neural-network library."""

from importlib import metadata as _metadata

from micrograd.collector import paused_gc
from micrograd.engine import Value
from micrograd.nn import MLP, Layer, Module, Neuron

__all__ = ["MLP", "Layer", "Module", "Neuron", "Value", "__version__", "paused_gc"]

try:
    # Written once, in pyproject.toml; installing the package puts it in its metadata.
    __version__ = _metadata.version("micrograd-book")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
