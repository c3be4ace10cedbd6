xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]  # the targets


def train(model, xs, ys, steps, learning_rate):
    """Gradient descent on the sum of squared errors; return each step's loss, as floats."""
    # Each step: the forward pass on every x, the loss, the gradients reset
    # (model.zero_grad()), loss.backward(), and every parameter moved a little.
    # Your Value has + and *: (y - t)**2 is (y + -t) * (y + -t).
    raise NotImplementedError("train: forward, loss, reset, backward, update")
