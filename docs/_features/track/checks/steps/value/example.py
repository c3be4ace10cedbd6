a = Value(2.0)
b = Value(-3.0)
c = a * b + 10
print(c.data, c._op, len(c._prev))
print((2 * a).data, (a + 1).data)
