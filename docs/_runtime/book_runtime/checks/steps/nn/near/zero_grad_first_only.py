# Check: failed Module.zero_grad
def zero_grad(self):
    self.parameters()[0].grad = 0.0  # one parameter reset, the others keep their gradients


Module.zero_grad = zero_grad
