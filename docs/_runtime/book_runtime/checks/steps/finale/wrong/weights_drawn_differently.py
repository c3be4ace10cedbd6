# Mistake: Weights drawn differently from the page's
# In: Neuron.__init__, Layer.__init__, MLP.__init__
# Why: The page's table follows from its starting weights, micrograd's draw after
#   random.seed(1337): another draw trains another network.

# The step 4 classes with each bias drawn too: every later weight shifts.


class Neuron(Neuron):
    def __init__(self, nin):
        super().__init__(nin)
        self.b = Value(random.uniform(-1, 1))
