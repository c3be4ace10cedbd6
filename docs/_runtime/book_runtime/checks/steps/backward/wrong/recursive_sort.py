# Mistake: A recursive sort on a deep chain
# In: Value.backward
# Why: A sort that calls itself for each input nests as deep as the graph; Python stops at its
#   recursion limit. An explicit stack has no such limit.


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
