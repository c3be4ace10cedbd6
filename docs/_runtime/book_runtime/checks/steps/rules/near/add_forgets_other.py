# Check: failed Value.__add__
class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad  # and nothing for other

        out._backward = _backward
        return out
