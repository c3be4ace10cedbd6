# Mistake: The update's sign flipped
# In: train
# Why: The gradient points uphill, where the loss grows: gradient descent steps against it.
# Says: The update's sign flipped: after one step of `train(model, xs, ys, 1, 0.1)` the first weight
#   went from {start} to {moved}, that is by 0.1 × its gradient ({grad}): up the slope. The gradient
#   points where the loss grows; step against it: `p.data -= learning_rate * p.grad`. Over 5 steps
#   your losses go {losses}.


def train(model, xs, ys, steps, learning_rate):
    losses = []
    for _ in range(steps):
        errors = [model(x) + -y for x, y in zip(xs, ys)]
        loss = sum(e * e for e in errors)
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data += learning_rate * p.grad  # uphill: the loss grows
        losses.append(loss.data)
    return losses
