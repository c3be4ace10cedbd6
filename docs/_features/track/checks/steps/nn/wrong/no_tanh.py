# Mistake: No nonlinearity
# In: Neuron.__call__
# Why: A neuron without its tanh is linear, and a network of linear neurons is one linear function,
#   whatever its depth.
# Says: No nonlinearity: `{model}({x})` gave {got}, which is w · x + b itself; expected tanh(w · x +
#   b) = {right}. Without a nonlinearity, layers of neurons add up to one linear function of the
#   inputs, however many there are: the neuron returns `act.tanh()`.


class Neuron(Neuron):
    def __call__(self, x):
        act = self.b
        for wi, xi in zip(self.w, x):
            act = act + wi * xi
        return act  # w · x + b, without the tanh
