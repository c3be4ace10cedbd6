import math


class Value(Value):
    """Your Value, with a gradient and, for each operation, its backward rule."""

    def __init__(self, data, _children=(), _op=""):
        super().__init__(data, _children, _op)
        self.grad = 0.0  # d(output)/d(this Value): the backward pass fills it in
        self._backward = lambda: None  # a leaf has nothing to pass back

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():  # d(a + b)/da = d(a + b)/db = 1
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():  # d(a * b)/da = b and d(a * b)/db = a
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        out = Value(math.tanh(self.data), (self,), "tanh")

        def _backward():  # d tanh(a)/da = 1 - tanh(a)**2, and tanh(a) is out.data
            self.grad += (1 - out.data**2) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():  # d exp(a)/da = exp(a), which is out.data
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, n):
        out = Value(self.data**n, (self,), f"**{n}")

        def _backward():  # d(a ** n)/da = n * a ** (n - 1)
            self.grad += n * self.data ** (n - 1) * out.grad

        out._backward = _backward
        return out
