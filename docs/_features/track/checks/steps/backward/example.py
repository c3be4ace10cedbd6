a, b = Value(2.0), Value(-3.0)
c, f = Value(10.0), Value(-2.0)
L = (a * b + c) * f
L.backward()
print(L.data, a.grad, b.grad, c.grad, f.grad)
