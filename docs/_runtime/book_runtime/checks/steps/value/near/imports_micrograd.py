# Check: not-yours Value
from micrograd import Value
