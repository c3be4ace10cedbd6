# Check: failed Value.backward recursive-sort
import sys

sys.setrecursionlimit(100_000)  # deep enough for the chain, on this computer


class Value(Value):
    def backward(self):
        order, visited = [], set()

        def build(node):
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    build(child)
                order.append(node)

        build(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()
