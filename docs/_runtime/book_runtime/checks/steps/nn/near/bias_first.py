# Check: failed Neuron.parameters
class Neuron(Neuron):
    def parameters(self):
        return [self.b, *self.w]
