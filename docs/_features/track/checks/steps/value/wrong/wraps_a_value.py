# Mistake: A Value wrapped again
# In: Value.__add__, Value.__mul__
# Why: Only a plain number needs wrapping: a Value made into a new Value leaves the original out
#   of the graph, and its gradient is never filled in.
# Says: A Value wrapped again: in `c = a {op} b`, your `{part}` made b, already a Value, into a new
#   Value: c._prev holds a and a copy of b. backward() would fill in the copy's gradient, never
#   b's. Wrap only a plain number: `other = other if isinstance(other, Value) else Value(other)`.


class Value(Value):
    # Every other is made a new Value, even one that is a Value already.
    def __add__(self, other):
        other = Value(other.data if isinstance(other, Value) else other)
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        other = Value(other.data if isinstance(other, Value) else other)
        return Value(self.data * other.data, (self, other), "*")
