# Check: failed Value.__add__
class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += self.grad  # right only while self.grad was 0

        out._backward = _backward
        return out
