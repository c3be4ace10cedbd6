o, x1, w1, x2, w2 = neuron(2.0, -3.0, 0.0, 1.0, 6.8813735870195432)
print(f"o = {o.data:.4f}")
print(f"do/dx1 = {x1.grad:.4f}, do/dw1 = {w1.grad:.4f}")
print(f"do/dx2 = {x2.grad:.4f}, do/dw2 = {w2.grad:.4f}")
