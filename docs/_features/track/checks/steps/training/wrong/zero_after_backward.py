# Mistake: zero_grad after backward()
# In: train
# Why: Resetting the gradients between backward() and the update throws them away: the update then
#   moves nothing.
# Says: zero_grad after backward(): after `train(model, xs, ys, 2, 0.1)` no parameter has moved, and
#   every p.grad is 0.0. Your train resets the gradients after `loss.backward()` and before the
#   update, so the update reads gradients of 0.0 and moves nothing: the losses stay at {losses}.
#   Reset them before backward(): `model.zero_grad()`, then `loss.backward()`, then move every
#   parameter.


def train(model, xs, ys, steps, learning_rate):
    losses = []
    for _ in range(steps):
        errors = [model(x) + -y for x, y in zip(xs, ys)]
        loss = sum(e * e for e in errors)
        loss.backward()
        model.zero_grad()  # after backward(): the update below reads gradients of 0
        for p in model.parameters():
            p.data -= learning_rate * p.grad
        losses.append(loss.data)
    return losses
