# Mistake: A plain number not wrapped in a Value
# In: Value.__add__, Value.__mul__
# Why: In `a {op} 1`, the 1 reaches {method} as a plain number: it has no .data, and it must become
#   a Value (a leaf) to be an input of the graph.
# Says: A plain number not wrapped: `a {op} 1.5` raised AttributeError ({error}): your `{part}`
#   reads other.data, and a plain number has none. Make it a Value first: `other = other if
#   isinstance(other, Value) else Value(other)`.
# Says if recorded: A plain number not wrapped: `c = a {op} 1.5` gave c.data = {data}, but c._prev
#   holds {prev}: the 1.5 went into the result, but not into the graph as a Value. Every input of a
#   node is a Value (the number too: it is a leaf): `other = other if isinstance(other, Value) else
#   Value(other)` in your `{part}`.


class Value(Value):
    # other is used as it comes: a plain number has no .data.
    def __add__(self, other):
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), "*")
