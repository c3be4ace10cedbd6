class Value(Value):
    def backward(self):
        """Fill in grad for every Value this one was made from, near or far."""
        # Depth first, with a list as the stack: a node goes into the order once
        # all its inputs have ("done"), and a deep graph needs no deep recursion.
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
        self.grad = 1.0
        for node in reversed(order):  # the output first, each node after its users
            node._backward()
