# Mistake: The chain rule without out.grad
# In: Value.__add__, Value.__mul__, Value.tanh, Value.exp, Value.__pow__
# Why: A rule multiplies its local derivative by the gradient that reached its output (out.grad):
#   that product is the chain rule.
# Says: The chain rule without out.grad: `c = {text}` holding {held}, then c.grad = {out_grad} and
#   `c._backward()`, gave {gave}, which is what each held plus the local derivative alone; expected
#   {expected}. Your `{part}`'s rule must multiply the local derivative by the gradient that reached
#   the output, out.grad = {out_grad}. With out.grad left out, every gradient would be as if each
#   node were the output.


class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():  # the local derivative alone, 1
            self.grad += 1.0
            other.grad += 1.0

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():  # the local derivatives alone, without out.grad
            self.grad += other.data
            other.grad += self.data

        out._backward = _backward
        return out
