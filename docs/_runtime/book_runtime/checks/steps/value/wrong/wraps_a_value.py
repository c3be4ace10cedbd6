class Value(Value):
    # Every other is made a new Value, even one that is a Value already.
    def __add__(self, other):
        other = Value(other.data if isinstance(other, Value) else other)
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        other = Value(other.data if isinstance(other, Value) else other)
        return Value(self.data * other.data, (self, other), "*")
