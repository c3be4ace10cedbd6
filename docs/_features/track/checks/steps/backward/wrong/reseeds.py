# Mistake: Every Value seeded
# In: Value.backward
# Why: Only the output's gradient is set to 1; a backward() that calls backward() on each input
#   sets theirs to 1 as well, and loses what they had received.
# Says: Every Value seeded: `L.backward()` on the worked example left every Value's gradient at
#   {got} ({name}.grad = {got} where it should be {want}). Your backward() sets grad = 1.0 on each
#   Value it reaches, not only on the output: calling backward() on each input starts the chain
#   again from that input, and throws away what it had received. (A set of visited Values would
#   not fix it.) Seed once, on the output, then run every rule in reverse topological order.


class Value(Value):
    def backward(self):
        # Each Value seeds itself and asks its inputs to do the same.
        self.grad = 1.0
        self._backward()
        for child in self._prev:
            child.backward()
