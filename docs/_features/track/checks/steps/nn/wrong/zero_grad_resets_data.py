# Mistake: zero_grad resets the numbers
# In: Module.zero_grad
# Why: zero_grad() resets each parameter's gradient, so that backward() adds up one step's
#   gradients only; the numbers are the network, which training moves.
# Says: zero_grad resets the numbers: `model.zero_grad()` with model = {net}, every p.grad set
#   first, set the number of {parameter} from {was} to {data} and left its grad at {grad}.
#   zero_grad() resets the gradients, before each backward(), so that they do not add up across
#   steps: `p.grad = 0.0` for each p of parameters(); the numbers are what training moves.


def zero_grad(self):
    for p in self.parameters():
        p.data = 0.0  # the number reset, where its gradient should be


Module.zero_grad = zero_grad  # what Neuron, Layer and MLP inherit
