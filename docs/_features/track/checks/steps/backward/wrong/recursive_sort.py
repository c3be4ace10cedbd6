# Mistake: A recursive sort on a deep chain
# In: Value.backward
# Why: A sort that calls itself for each input nests as deep as the graph; Python stops at its
#   recursion limit. An explicit stack has no such limit.
# Says: A recursive sort on a deep chain: a chain of 5,000 links raised RecursionError in {name},
#   which calls itself once for each Value it goes down to: 5,000 nested calls here, where Python
#   allows {limit}. Keep the Values still to visit in a list used as a stack, and loop while it is
#   not empty: see the engine's topological_order on the page "backward() and the topological sort".
# Says if page: A recursive sort on a deep chain: a chain of 5,000 links raised RecursionError in
#   {name}, which calls itself once for each Value it goes down to: 5,000 nested calls here, where
#   Python allows {limit}. Keep the Values still to visit in a list used as a stack, and loop while
#   it is not empty: see the engine's topological_order on the page "backward() and the topological
#   sort". Your page raised Python's recursion limit to {page}, and that does not count: the check
#   runs under the usual {usual}, because in the browser Python's stack is far smaller than on your
#   computer, and a sort 5,000 calls deep crashes Python there whatever the limit says.


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
