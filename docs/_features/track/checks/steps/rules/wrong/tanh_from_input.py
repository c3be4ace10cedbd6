# Mistake: tanh's derivative taken from its input
# In: Value.tanh
# Why: d tanh(a)/da = 1 - tanh(a)**2: the output squared (out.data), not the input.
# Says: tanh's derivative taken from its input: `t = a.tanh()` with a = {a} holding {held}, then
#   t.grad = {out_grad} and `t._backward()`, gave {gave}, which adds (1 - a.data**2) × t.grad. The
#   derivative of tanh is 1 - tanh(a)**2: square the output, t.data = {data:.6f}, not the input,
#   and {name}.grad should be {want}.


class Value(Value):
    def tanh(self):
        out = Value(math.tanh(self.data), (self,), "tanh")

        def _backward():  # 1 - a**2, the input squared, not the output
            self.grad += (1 - self.data**2) * out.grad

        out._backward = _backward
        return out
