# Mistake: __radd__ or __rmul__ that computes `other + self`
# In: Value.__radd__, Value.__rmul__
# Why: A reflected method that writes the number on the left again hands the operation back to
#   itself: an endless recursion.


class Value(Value):
    # The number goes on the left again, which hands the operation back here.
    def __radd__(self, other):
        return other + self

    def __rmul__(self, other):
        return other * self
