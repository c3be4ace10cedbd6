"""micrograd: a scalar autograd engine and a tiny neural-network library."""

__all__ = ["MLP", "Layer", "Module", "Neuron", "Value", "__version__", "paused_gc"]

from micrograd.collector import paused_gc
from micrograd.engine import Value
from micrograd.nn import MLP, Layer, Module, Neuron


def __getattr__(name: str) -> str:
    """``micrograd.__version__``: the installed distribution's version, read when first asked for.

    Written once, in pyproject.toml; installing the package puts it in its
    metadata.  ``importlib.metadata`` (with the email parser it reads the
    metadata with) costs more to import than the whole engine, so ``import
    micrograd`` leaves it for the first reader of the version.
    """
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import metadata

    try:
        version = metadata.version("micrograd-book")
    except metadata.PackageNotFoundError:  # imported from a source tree that was never installed
        version = "0+unknown"
    globals()["__version__"] = version
    return version
