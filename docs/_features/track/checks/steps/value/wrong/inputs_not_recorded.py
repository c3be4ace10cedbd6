# Mistake: Inputs not recorded
# In: Value.__add__, Value.__mul__, Value.__init__
# Why: A Value made by an operation must remember the Values it was made from (_prev): the backward
#   pass finds its way back to the leaves through them.
# Says: Inputs not recorded: `c = a + b` made c, but {what}. backward() will walk the graph from the
#   output back to the leaves through _prev, so each new Value must record the Values it was made
#   from: pass (self, other) as its _children, and keep them in _prev.


class Value(Value):
    # The new Value is made from nothing: () where (self, other) belongs.
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (), "*")
