# Mistake: A one-neuron layer's output
# In: MLP.__call__, Layer.__call__
# Why: A layer of one neuron returns its Value alone, which the network must return as it is, but
#   hand to a next layer as a list.
# Says: A one-neuron layer's output: `MLP(2, [1, 2])([0.5, -1.0])` raised TypeError ({error}). Its
#   first layer has one neuron, and a layer of one neuron returns that Value alone; the next layer
#   then reads it as its list of inputs. (The original micrograd has this bug.) In MLP.__call__,
#   hand each layer a list: `x = out if isinstance(out, list) else [out]`.
# Says if listed: A one-neuron layer's output: `MLP(2, [3, 1])([0.5, -1.0])` returned a list of one
#   Value. A network with one output returns that Value, so that `(model(x) + -y) * ...` and
#   `model(x).backward()` work: a layer of one neuron returns its Value alone.


class MLP(MLP):
    # The original micrograd's MLP.__call__: a one-neuron hidden layer hands on a bare Value.
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
