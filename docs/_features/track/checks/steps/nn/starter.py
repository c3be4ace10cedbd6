import random


class Module:
    """What Neuron, Layer and MLP share: their parameters, and resetting their gradients."""

    def parameters(self):
        return []

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0


class Neuron(Module):
    def __init__(self, nin):
        # nin weights, each Value(random.uniform(-1, 1)), and a bias, Value(0.0)
        raise NotImplementedError("Neuron.__init__: the weights and the bias")

    def __call__(self, x):
        # tanh(w · x + b), for a list x of nin numbers (or Values)
        raise NotImplementedError("Neuron.__call__: tanh(w · x + b)")

    def parameters(self):
        raise NotImplementedError("Neuron.parameters: its weights, then its bias")


class Layer(Module):
    def __init__(self, nin, nout):
        # nout neurons, each reading the same nin inputs
        raise NotImplementedError("Layer.__init__: nout neurons of nin inputs")

    def __call__(self, x):
        # the neurons' outputs: a list, or the one Value of a layer of one neuron
        raise NotImplementedError("Layer.__call__: the neurons' outputs")

    def parameters(self):
        raise NotImplementedError("Layer.parameters: its neurons' parameters, in order")


class MLP(Module):
    def __init__(self, nin, nouts):
        # a Layer for each size in nouts: the first reads the nin inputs, each
        # next one the outputs of the layer before it
        raise NotImplementedError("MLP.__init__: the layers")

    def __call__(self, x):
        # the layers in turn (a hidden layer of one neuron too)
        raise NotImplementedError("MLP.__call__: the layers in turn")

    def parameters(self):
        raise NotImplementedError("MLP.parameters: its layers' parameters, in order")
