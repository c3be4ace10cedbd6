# Mistake: parameters() without the biases
# In: Neuron.parameters
# Why: Training moves only the Values that parameters() lists: each neuron's bias is one.
# Says: parameters() without the biases: {net}.parameters() gave {weights} Values, its weights
#   alone; the network has {total} parameters, {weights} weights and {biases} biases (one per
#   neuron). Training moves only what parameters() lists, so no bias would ever move. A neuron's
#   parameters are its weights and then its bias: `[*self.w, self.b]`.


class Neuron(Neuron):
    def parameters(self):
        return self.w  # the bias is left out: training never moves it
