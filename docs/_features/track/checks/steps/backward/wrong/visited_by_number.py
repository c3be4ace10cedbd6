# Mistake: Two Values of the same number taken for one
# In: Value.backward
# Why: The visited set must hold the Values themselves: two different Values may hold the same
#   number, and each is a node of its own.
# Says: Two Values of the same number taken for one: in `{graph}`, p and q are two Values that both
#   hold 3.0, and your backward() ran {other}'s rule but never {missing}'s, so {leaf}.grad stayed
#   {got} (it should be {want}). Your visited set is keyed by something two different Values can
#   share, such as their number: keep the Values themselves in it (`visited.add(node)`, `node not in
#   visited`).


class Value(Value):
    def backward(self):
        order, visited = [], set()
        stack = [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif node.data not in visited:  # the number, not the Value: twins count as one
                visited.add(node.data)
                stack.append((node, True))
                stack.extend((child, False) for child in node._prev)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()
