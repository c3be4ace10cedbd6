import math


class Value(Value):
    """Your Value, with a gradient and, for each operation, its backward rule."""

    def __init__(self, data, _children=(), _op=""):
        super().__init__(data, _children, _op)
        self.grad = 0.0  # d(output)/d(this Value): the backward pass fills it in
        self._backward = lambda: None  # a leaf has nothing to pass back

    def __add__(self, other):
        # The forward pass, as in step 1, and out._backward: a function that adds
        # out.grad, times d(out)/d(input), to the grad of each input.
        raise NotImplementedError("__add__ with its backward rule")

    def __mul__(self, other):
        raise NotImplementedError("__mul__ with its backward rule")

    def tanh(self):
        raise NotImplementedError("tanh with its backward rule")

    # One more on your own: exp(self), or __pow__(self, n) for a plain number n.
    # Write one of the two; the other may stay as it is.

    def exp(self):
        raise NotImplementedError("exp with its backward rule (or write __pow__)")

    def __pow__(self, n):
        raise NotImplementedError("__pow__ with its backward rule (or write exp)")
