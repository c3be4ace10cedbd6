"""micrograd: a scalar autograd engine and a tiny neural-network library."""

from micrograd.collector import paused_gc
from micrograd.engine import Value
from micrograd.nn import MLP, Layer, Module, Neuron

__all__ = ["MLP", "Layer", "Module", "Neuron", "Value", "__version__", "paused_gc"]
__version__ = "0.2.0"
