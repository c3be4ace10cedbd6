# Mistake: The last layer without tanh
# In: MLP.__call__, Layer.__call__, Neuron.__call__
# Why: This track's network has tanh in every neuron, the output's included, as on the page
#   "Training an MLP on four points" (the original's last layer is linear).
# Says: The last layer without tanh: `{model}({x})` gave {got}; expected {right}, with tanh. The
#   original micrograd makes its last layer linear, but this track's network is the one of the page
#   "Training an MLP on four points": tanh in every neuron, the output's included, so that its
#   output lies between -1 and 1, like the targets.

# The original micrograd's way: a linear last layer (nonlin=False), tanh elsewhere.


class Neuron(Neuron):
    def __init__(self, nin, nonlin=True):
        super().__init__(nin)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)  # b + w1*x1 + ...
        return act.tanh() if self.nonlin else act


class Layer(Layer):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]


class MLP(MLP):
    def __init__(self, nin, nouts):
        sizes, last = [nin, *nouts], len(nouts) - 1
        self.layers = [Layer(sizes[i], sizes[i + 1], nonlin=i != last) for i in range(last + 1)]
