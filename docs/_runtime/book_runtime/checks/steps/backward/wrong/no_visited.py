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
