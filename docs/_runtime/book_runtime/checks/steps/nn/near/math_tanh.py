# Check: raised Neuron.__call__
import math


class Neuron(Neuron):
    def __call__(self, x):
        act = self.b
        for wi, xi in zip(self.w, x):
            act = act + wi * xi
        return math.tanh(act)  # math's tanh knows numbers, not Values
