# Mistake: A Value wrapped again
# In: Value.__add__, Value.__mul__
# Why: Only a plain number needs wrapping: a Value made into a new Value leaves the original out
#   of the graph, and its gradient is never filled in.


class Value(Value):
    # Every other is made a new Value, even one that is a Value already.
    def __add__(self, other):
        other = Value(other.data if isinstance(other, Value) else other)
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        other = Value(other.data if isinstance(other, Value) else other)
        return Value(self.data * other.data, (self, other), "*")
