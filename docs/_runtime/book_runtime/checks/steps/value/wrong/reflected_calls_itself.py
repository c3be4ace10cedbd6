class Value(Value):
    # The number goes on the left again, which hands the operation back here.
    def __radd__(self, other):
        return other + self

    def __rmul__(self, other):
        return other * self
