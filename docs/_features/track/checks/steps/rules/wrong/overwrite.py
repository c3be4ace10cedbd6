# Mistake: `=` instead of `+=`
# In: Value.__add__, Value.__mul__, Value.tanh, Value.exp, Value.__pow__
# Why: A Value used more than once gets a share of its gradient along each edge; with `=` each share
#   replaces the one before instead of adding to it.
# Says: `=` instead of `+=`: in `c = {text}` holding {held}, then c.grad = {out_grad} and
#   `c._backward()`, each input already held a gradient (a share from another use of it), and the
#   rule overwrote it instead of adding its own share: it gave {gave}; expected {expected}. A Value
#   used more than once receives a share of its gradient along each edge; each rule must add its
#   share: `self.grad += ...`.
# Says if twice: `=` instead of `+=`: in `c = {text}` holding {held}, then c.grad = {out_grad} and
#   `c._backward()`, a is both inputs, so the rule sends a its share twice, along two edges, and the
#   second assignment overwrote the first: it gave {gave}; expected {expected}. A Value used more
#   than once receives a share of its gradient along each edge; each rule must add its share:
#   `self.grad += ...`.


class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():  # = where += belongs: a second share replaces the first
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out
