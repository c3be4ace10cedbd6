# Mistake: `other` wrapped even when it is a Value
# In: Value.__add__, Value.__mul__
# Why: Only a plain number needs wrapping: `Value(b)` of a Value b makes a Value whose data is b
#   itself, so the graph holds the wrapper in b's place, and arithmetic on its data gives a Value
#   where a number belongs.
# Says: A Value wrapped in a Value: in `c = a {op} b`, your `{part}` wraps other even when it is
#   already a Value, and `Value(b)` is a new Value whose data is b itself, not b's number. So
#   c._prev holds that wrapper in b's place, and c.data = {got}, not the number {want}:
#   `self.data {op} other.data` is a number {op} b, which Python hands to b's reflected method,
#   and that makes a Value. backward() would fill in the wrapper's gradient, never b's. Wrap only
#   a plain number: `other = other if isinstance(other, Value) else Value(other)`.


class Value(Value):
    # other is wrapped whatever it is: a Value too, which then holds a Value as its data.
    def __add__(self, other):
        other = Value(other)
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        other = Value(other)
        return Value(self.data * other.data, (self, other), "*")
