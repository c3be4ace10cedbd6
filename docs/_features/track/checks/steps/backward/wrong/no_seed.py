# Mistake: No seed of 1
# In: Value.backward
# Why: Every rule multiplies by its output's gradient: the output's own gradient,
#   d(output)/d(output) = 1, must be set before the rules run, or everything stays 0.
# Says: No seed: `L.backward()` on the worked example left L.grad at 0.0, so every other gradient is
#   0.0. Each rule multiplies by the gradient its output has received, and nothing started the
#   chain. Set self.grad = 1.0 (dL/dL = 1) before running the rules.
# Says if late: No seed: `L.backward()` on the worked example set L.grad to 1 only after the rules
#   had run, so every other gradient is 0.0. Each rule multiplies by the gradient its output has
#   received, and nothing started the chain. Set self.grad = 1.0 (dL/dL = 1) before running the
#   rules.


class Value(Value):
    def backward(self):
        # Kahn's order: a node runs its rule once every node made from it has run its own.
        users, stack, seen = {}, [self], {self}
        while stack:
            for child in stack.pop()._prev:
                users[child] = users.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        ready = [self]
        while ready:  # self.grad is never set to 1.0: every rule passes on 0
            node = ready.pop()
            node._backward()
            for child in node._prev:
                users[child] -= 1
                if users[child] == 0:
                    ready.append(child)
