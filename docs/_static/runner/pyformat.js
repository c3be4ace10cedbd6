// Python's format(value, spec) in the page, for the numbers the prose glues:
// the reader's value arrives as its text/plain (repr), and the page shows it
// with the span's format spec exactly as myst-nb's {glue:text} did at build
// time (myst_nb.core.variables.format_plain_text: literal_eval, then int() or
// float() by the spec's type, then format()).  Rounding is Python's: on the
// exact binary value, an exact tie to even.  Used by glue.js.

/** myst-nb's reading of a value's text/plain: a number, a string literal, else the text. */
function literal(plain) {
  const text = plain.trim();
  if (/^[-+]?\d+$/.test(text)) return { kind: "int", value: BigInt(text) };
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(text)) {
    return { kind: "float", value: Number(text) };
  }
  const quoted = /^'([^'\\]*)'$|^"([^"\\]*)"$/.exec(text);
  if (quoted) return { kind: "str", value: quoted[1] ?? quoted[2] };
  return { kind: "str", value: text };
}

/** |x| exactly, as digits * 10^-point (a double is a binary fraction: it always ends). */
function exactDecimal(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  if (biased !== 0) mantissa |= 1n << 52n;
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  if (exponent >= 0) return { digits: mantissa << BigInt(exponent), point: 0 };
  return { digits: mantissa * 5n ** BigInt(-exponent), point: -exponent };
}

/** digits / 10^shift, rounded half to even (Python's rounding of an exact tie). */
function roundShift(digits, shift) {
  if (shift <= 0) return digits * 10n ** BigInt(-shift);
  const unit = 10n ** BigInt(shift);
  const quotient = digits / unit;
  const rest = (digits % unit) * 2n;
  if (rest > unit || (rest === unit && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

function grouped(integer) {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function fixed(x, precision, comma) {
  const { digits, point } = exactDecimal(x);
  const scaled = roundShift(digits, point - precision).toString().padStart(precision + 1, "0");
  const whole = scaled.slice(0, scaled.length - precision);
  const part = precision ? `.${scaled.slice(scaled.length - precision)}` : "";
  return (comma ? grouped(whole) : whole) + part;
}

function scientific(x, precision) {
  let { digits, point } = exactDecimal(x);
  if (digits === 0n) return `${(0).toFixed(precision)}e+00`;
  const length = digits.toString().length;
  let exponent = length - 1 - point;
  let kept = roundShift(digits, length - (precision + 1));
  if (kept.toString().length > precision + 1) {
    kept /= 10n; // 9.99... rounded up to 10.0...: exactly a power of ten
    exponent += 1;
  }
  const text = kept.toString();
  const mantissa = precision ? `${text[0]}.${text.slice(1)}` : text;
  const sign = exponent < 0 ? "-" : "+";
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

const SPEC = /^([-+ ])?(,)?(?:\.(\d+))?([efs%d])?$/;

/**
 * format(value, spec) as Python gives it, for the value myst-nb reads from
 * text/plain (literal).  The specs: [sign][,][.precision][type], type one of
 * e f % d s or none.  Returns null for anything else (the build's number stays).
 */
export function pythonFormat(plain, spec) {
  const parsed = SPEC.exec(spec);
  if (!parsed) return null;
  const [, sign = "-", comma, digits, type = ""] = parsed;
  const value = literal(plain);
  if (type === "s" || (type === "" && !comma && !digits && !parsed[1])) {
    if (sign !== "-" || comma || digits) return null;
    return value.kind === "str" ? value.value : plain.trim();
  }
  if (value.kind === "str") return null;
  const x = value.kind === "int" ? Number(value.value) : value.value;
  if (!Number.isFinite(x)) return null;
  let body;
  if (type === "d" || (type === "" && value.kind === "int")) {
    if (value.kind !== "int" || digits) return null;
    const integer = (value.value < 0n ? -value.value : value.value).toString();
    body = comma ? grouped(integer) : integer;
  } else if (type === "f") {
    body = fixed(x, digits === undefined ? 6 : Number(digits), comma);
  } else if (type === "e") {
    if (comma) return null;
    body = scientific(x, digits === undefined ? 6 : Number(digits));
  } else if (type === "%") {
    body = `${fixed(x * 100, digits === undefined ? 6 : Number(digits), comma)}%`;
  } else {
    return null; // a float with "," or ".N" and no type: Python's general format
  }
  const negative = value.kind === "int" ? value.value < 0n : x < 0 || Object.is(x, -0);
  return (negative ? "-" : sign === "-" ? "" : sign) + body;
}
