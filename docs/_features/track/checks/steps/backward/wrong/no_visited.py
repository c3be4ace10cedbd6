# Mistake: A shared Value visited twice
# In: Value.backward
# Why: Without a set of visited Values, the sort lists a Value once for each path to it, and its
#   rule passes its gradient on as many times.
# Says: A shared Value's rule ran {count} times: s is used by both t and u, and your backward() ran
#   s's rule once along each path to it. Each run passes s's whole gradient on again, so x.grad is
#   {got} instead of {want}. Keep a set of the Values already visited, and visit each only once.


class Value(Value):
    def backward(self):
        # Nothing remembers the nodes already placed: a node reached twice comes twice.
        order, stack = [], [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            else:
                stack.append((node, True))
                stack.extend((child, False) for child in node._prev)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()
