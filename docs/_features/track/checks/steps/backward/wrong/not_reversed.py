# Mistake: Rules in the wrong order
# In: Value.backward
# Why: A topological order puts each Value after its inputs; the rules must run in the reverse
#   order, so that each Value has its whole gradient before it passes it on.
# Says: Rules in the wrong order: `L.backward()` on the worked example ran the rules of {order}, in
#   that order: {first}'s first, before the Values made from {first} had passed it any gradient. A
#   Value passes its gradient on only once it has all of it, after every Value made from it: walk
#   the topological order in reverse (`for node in reversed(order)`). So a.grad came out {got}
#   instead of {want}.


class Value(Value):
    def backward(self):
        order, seen = [], set()
        todo = [(self, iter(self._prev))]
        seen.add(self)
        while todo:
            node, children = todo[-1]
            child = next(children, None)
            if child is None:
                order.append(node)  # every input of node is in order already
                todo.pop()
            elif child not in seen:
                seen.add(child)
                todo.append((child, iter(child._prev)))
        self.grad = 1.0
        for node in order:  # the leaves first: each rule runs before its output has its grad
            node._backward()
