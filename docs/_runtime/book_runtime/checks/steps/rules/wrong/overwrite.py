# Mistake: `=` instead of `+=`
# In: Value.__add__, Value.__mul__, Value.tanh, Value.exp, Value.__pow__
# Why: A Value used more than once gets a share of its gradient along each edge; with `=` each
#   share replaces the one before instead of adding to it.


class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():  # = where += belongs: a second share replaces the first
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out
