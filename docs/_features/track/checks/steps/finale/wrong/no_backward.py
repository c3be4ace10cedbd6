# Mistake: No backward()
# In: neuron
# Why: The gradients are 0 until o.backward() fills them in.
# Says: No backward(): `neuron(...)` returned its Values with every gradient still 0.0. Run
#   o.backward() before returning: it fills in the gradient of every Value o was made from.


def neuron(x1, w1, x2, w2, b):
    x1, w1, x2, w2, b = Value(x1), Value(w1), Value(x2), Value(w2), Value(b)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    return o, x1, w1, x2, w2  # without o.backward(), every grad is still 0
