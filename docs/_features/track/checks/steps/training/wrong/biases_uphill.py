# Mistake: The update's sign flipped on the biases
# In: train
# Why: Every parameter, each bias included, steps against its gradient.
# Says: The update's sign flipped on the biases: after one step of `train(model, xs, ys, 1, 0.1)`
#   every weight moved down its gradient, as it should, but every bias moved up it: {bias} went from
#   {start} to {moved}, by +0.1 × its gradient ({grad}). A bias is a parameter like any other: step
#   every one against its gradient, `p.data -= learning_rate * p.grad`.


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
