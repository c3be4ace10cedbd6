a = Value(2.0)
b = Value(-3.0)
c = a * b
c.grad = 1.0
c._backward()  # the rule of *: a receives b's number, b receives a's
print(a.grad, b.grad)
