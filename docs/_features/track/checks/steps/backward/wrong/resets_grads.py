# Mistake: backward() resets the gradients
# In: Value.backward
# Why: backward() adds to every grad, across calls too: resetting the gradients is zero_grad()'s
#   job, before each backward(). A backward() that resets them itself throws away what another
#   backward() through the same Values added.
# Says: backward() resets the gradients: calling `L.backward()` a second time on the worked
#   example left {name}.grad at {got}, what one call gives; micrograd's backward() adds the second
#   call's gradients to the first's, so {name}.grad should be {want}. Your backward() sets every
#   gradient (to 0, or to its own result) before its rules add to them: leave that to zero_grad(),
#   which training calls before each backward(), and only set the seed, self.grad = 1.0.


class Value(Value):
    def backward(self):
        order, visited = [], set()
        stack = [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif node not in visited:
                visited.add(node)
                stack.append((node, True))
                stack.extend((child, False) for child in node._prev)
        for node in order:
            node.grad = 0.0  # what an earlier backward() added is lost
        self.grad = 1.0
        for node in reversed(order):
            node._backward()
