# Mistake: A plain number not wrapped in a Value
# In: Value.__add__, Value.__mul__
# Why: In `a + 1`, the 1 reaches __add__ as a plain number: it has no .data, and it must become a
#   Value (a leaf) to be an input of the graph.


class Value(Value):
    # other is used as it comes: a plain number has no .data.
    def __add__(self, other):
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), "*")
