# Mistake: zero_grad forgotten
# In: train
# Why: backward() adds to every grad: without a reset, each step's update is the sum of all the
#   gradients so far.
# Says: zero_grad forgotten: after `train(model, xs, ys, 2, 0.1)` the first weight's grad is {grad}:
#   the first step's gradient, {first}, and the second's, {second}, added up. backward() adds to
#   grad (see "Why +="), and your train never calls model.zero_grad(); so the second step moved
#   every parameter by the sum of both steps' gradients. Reset them before each backward():
#   `model.zero_grad()`.
# Says if called: zero_grad forgotten: after `train(model, xs, ys, 2, 0.1)` the first weight's grad
#   is {grad}: the first step's gradient, {first}, and the second's, {second}, added up. backward()
#   adds to grad (see "Why +="), and model.zero_grad(), which your train calls, left them as they
#   were; so the second step moved every parameter by the sum of both steps' gradients. Reset them
#   before each backward(): `model.zero_grad()`.


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
