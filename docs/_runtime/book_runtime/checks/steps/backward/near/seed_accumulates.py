# Check: failed Value.backward
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
        self.grad += 1.0  # the seed added: a second call starts from 2
        for node in reversed(order):
            node._backward()
