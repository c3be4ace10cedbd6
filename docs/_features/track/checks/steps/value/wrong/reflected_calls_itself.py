# Mistake: {method} that computes `other {op} self`
# In: Value.__radd__, Value.__rmul__
# Why: A reflected method that writes the number on the left again hands the operation back to
#   itself: an endless recursion.
# Says: {method} calls itself: `{expression}` raised RecursionError. Your {method} computes `other
#   {op} self`, which asks the number first, which hands it back to your {method}, and so on until
#   Python stops. Turn it round: `return self {op} other`, which your own {own} handles.


class Value(Value):
    # The number goes on the left again, which hands the operation back here.
    def __radd__(self, other):
        return other + self

    def __rmul__(self, other):
        return other * self
