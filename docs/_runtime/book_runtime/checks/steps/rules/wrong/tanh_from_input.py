# Mistake: tanh's derivative taken from its input
# In: Value.tanh
# Why: d tanh(a)/da = 1 - tanh(a)**2: the output squared (out.data), not the input.


class Value(Value):
    def tanh(self):
        out = Value(math.tanh(self.data), (self,), "tanh")

        def _backward():  # 1 - a**2, the input squared, not the output
            self.grad += (1 - self.data**2) * out.grad

        out._backward = _backward
        return out
