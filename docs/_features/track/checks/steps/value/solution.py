class Value:
    """A number that remembers how it was made."""

    def __init__(self, data, _children=(), _op=""):
        self.data = data
        # A tuple keeps the inputs in operand order, so every run walks the
        # graph in the same order (the original's set follows memory addresses).
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), "*")

    def __radd__(self, other):  # other + self, when other is a plain number
        return self + other

    def __rmul__(self, other):  # other * self
        return self * other

    def __repr__(self):
        return f"Value(data={self.data})"
