# Mistake: The recursion limit raised
# In: Value.backward
# Why: A sort that needs a higher recursion limit still nests as deep as the graph; the browser's
#   stack cannot take 5,000 nested calls.

import sys


class Value(Value):
    def backward(self):
        order, visited = [], set()

        def build(node):
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    build(child)
                order.append(node)

        sys.setrecursionlimit(100_000)  # deep enough for the chain, on this computer
        build(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()
