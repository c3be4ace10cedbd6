# Mistake: The update's sign flipped on the biases
# In: train
# Why: Every parameter, each bias included, steps against its gradient.


def train(model, xs, ys, steps, learning_rate):
    losses = []
    for _ in range(steps):
        errors = [model(x) + -y for x, y in zip(xs, ys)]
        loss = sum(e * e for e in errors)
        model.zero_grad()
        loss.backward()
        for layer in model.layers:
            for neuron in layer.neurons:
                for w in neuron.w:
                    w.data -= learning_rate * w.grad
                neuron.b.data += learning_rate * neuron.b.grad  # the bias goes uphill
        losses.append(loss.data)
    return losses
