# Mistake: No nonlinearity
# In: Neuron.__call__
# Why: A neuron without its tanh is linear, and a network of linear neurons is one linear
#   function, whatever its depth.


class Neuron(Neuron):
    def __call__(self, x):
        act = self.b
        for wi, xi in zip(self.w, x):
            act = act + wi * xi
        return act  # w · x + b, without the tanh
