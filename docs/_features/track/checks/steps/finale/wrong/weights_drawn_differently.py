# Mistake: Weights drawn differently from the page's
# In: Neuron.__init__, Layer.__init__, MLP.__init__
# Why: The page's table follows from its starting weights, micrograd's draw after random.seed(1337):
#   another draw trains another network.
# Says: Weights drawn differently: with random.seed({seed}), your MLP(3, [4, 4, 1]) starts with
#   parameter {number} ({name}) at {mine}, where the page's starts at {page}. The page's numbers
#   come from its starting weights: micrograd draws each neuron's weights in turn with
#   random.uniform(-1, 1), neuron by neuron, layer by layer, and each bias is Value(0.0), drawn from
#   nothing.

# The step 4 classes with each bias drawn too: every later weight shifts.


class Neuron(Neuron):
    def __init__(self, nin):
        super().__init__(nin)
        self.b = Value(random.uniform(-1, 1))
