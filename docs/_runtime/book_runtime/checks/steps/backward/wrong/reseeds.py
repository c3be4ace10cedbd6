# Mistake: Every Value seeded
# In: Value.backward
# Why: Only the output's gradient is set to 1; a backward() that calls backward() on each input
#   sets theirs to 1 as well, and loses what they had received.


class Value(Value):
    def backward(self):
        # Each Value seeds itself and asks its inputs to do the same.
        self.grad = 1.0
        self._backward()
        for child in self._prev:
            child.backward()
