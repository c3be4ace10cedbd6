class Neuron(Neuron):
    def __call__(self, x):
        act = self.b
        for wi, xi in zip(self.w, x):
            act = act + wi * xi
        return act  # w · x + b, without the tanh
