# Mistake: parameters() without the biases
# In: Neuron.parameters
# Why: Training moves only the Values that parameters() lists: each neuron's bias is one.


class Neuron(Neuron):
    def parameters(self):
        return self.w  # the bias is left out: training never moves it
