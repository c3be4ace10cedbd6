# Mistake: zero_grad forgotten
# In: train
# Why: backward() adds to every grad: without a reset, each step's update is the sum of all the
#   gradients so far.


def train(model, xs, ys, steps, learning_rate):
    losses = []
    for _ in range(steps):
        errors = [model(x) + -y for x, y in zip(xs, ys)]
        loss = sum(e * e for e in errors)
        loss.backward()  # no model.zero_grad() first: the gradients of every step add up
        for p in model.parameters():
            p.data -= learning_rate * p.grad
        losses.append(loss.data)
    return losses
