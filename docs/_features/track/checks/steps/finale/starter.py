def neuron(x1, w1, x2, w2, b):
    """The neuron of "The neuron" on your Value: o = tanh(x1*w1 + x2*w2 + b).

    Make a Value of each number, run o.backward(), and return o, x1, w1, x2, w2
    (your Values, with their gradients).
    """
    raise NotImplementedError("neuron: the worked neuron on your Value")
