# Mistake: `*`'s rule not crossed over
# In: Value.__mul__
# Why: In c = a * b, dc/da = b and dc/db = a: each input receives the other's number.
# Says: `*`'s rule not crossed over: `c = a * b` with a = {a} and b = {b}, holding {held}, then
#   c.grad = {out_grad} and `c._backward()`, gave {gave}; expected {expected}. Each input received
#   its own number times out.grad. In a * b, a change in a is scaled by b (dc/da = b), so a
#   receives b's number and b receives a's: `self.grad += other.data * out.grad` and `other.grad
#   += self.data * out.grad`.


class Value(Value):
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():  # each input receives its own number
            self.grad += self.data * out.grad
            other.grad += other.data * out.grad

        out._backward = _backward
        return out
