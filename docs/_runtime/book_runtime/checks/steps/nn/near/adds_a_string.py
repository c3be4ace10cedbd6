# Check: raised Neuron.__call__
class Neuron(Neuron):
    def __call__(self, x):
        act = self.b
        for wi, _xi in zip(self.w, x):
            act = act + wi * "_xi"  # a typo: the name in quotes
        return act.tanh()
