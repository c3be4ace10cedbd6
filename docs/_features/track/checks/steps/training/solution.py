xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]  # the targets


def train(model, xs, ys, steps, learning_rate):
    """Gradient descent on the sum of squared errors; return each step's loss, as floats."""
    losses = []
    for _ in range(steps):
        ypred = [model(x) for x in xs]  # forward
        errors = [yout + -ygt for ygt, yout in zip(ys, ypred)]
        loss = sum(e * e for e in errors)
        model.zero_grad()  # gradients add up (+=): reset them first
        loss.backward()
        for p in model.parameters():  # a small step against the gradient
            p.data -= learning_rate * p.grad
        losses.append(loss.data)
    return losses
