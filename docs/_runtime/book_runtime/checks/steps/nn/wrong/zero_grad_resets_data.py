def zero_grad(self):
    for p in self.parameters():
        p.data = 0.0  # the number reset, where its gradient should be


Module.zero_grad = zero_grad  # what Neuron, Layer and MLP inherit
