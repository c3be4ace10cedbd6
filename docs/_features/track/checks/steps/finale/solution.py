def neuron(x1, w1, x2, w2, b):
    """The neuron of "The neuron" on your Value: o = tanh(x1*w1 + x2*w2 + b).

    Make a Value of each number, run o.backward(), and return o, x1, w1, x2, w2
    (your Values, with their gradients).
    """
    x1, w1, x2, w2, b = Value(x1), Value(w1), Value(x2), Value(w2), Value(b)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    o.backward()
    return o, x1, w1, x2, w2
