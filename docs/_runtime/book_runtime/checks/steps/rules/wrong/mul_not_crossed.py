# Mistake: `*`'s rule not crossed over
# In: Value.__mul__
# Why: In c = a * b, dc/da = b and dc/db = a: each input receives the other's number.


class Value(Value):
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():  # each input receives its own number
            self.grad += self.data * out.grad
            other.grad += other.data * out.grad

        out._backward = _backward
        return out
