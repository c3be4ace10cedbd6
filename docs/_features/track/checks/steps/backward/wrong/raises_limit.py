# Mistake: The recursion limit raised
# In: Value.backward
# Why: A sort that needs a higher recursion limit still nests as deep as the graph; the browser's
#   stack cannot take 5,000 nested calls.
# Says: The recursion limit raised: on a chain of 5,000 links your backward() asked to raise
#   Python's recursion limit to {limit}, so that a sort that calls itself once per Value could go
#   that deep. That is what this step teaches not to do: in the browser Python's stack is far
#   smaller than on your computer, and 5,000 nested calls crash it whatever the limit says. Keep the
#   Values still to visit in a list used as a stack, and loop while it is not empty.

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
