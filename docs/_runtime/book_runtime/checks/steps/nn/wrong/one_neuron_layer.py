# Mistake: A one-neuron layer's output
# In: MLP.__call__, Layer.__call__
# Why: A layer of one neuron returns its Value alone, which the network must return as it is, but
#   hand to a next layer as a list.


class MLP(MLP):
    # The original micrograd's MLP.__call__: a one-neuron hidden layer hands on a bare Value.
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
