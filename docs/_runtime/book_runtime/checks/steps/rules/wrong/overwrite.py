class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():  # = where += belongs: a second share replaces the first
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out
