// The Nudge control's logic: which value a key or a drag asks for, and the
// requests to Python, coalesced.  Pure: no DOM, no module state; the page's
// control (given a send function) owns one Requests, and tests/js/ runs it in Node.
//
// Python computes every number a nudge shows (book_runtime/nudge.py): this side
// only turns the reader's gesture into the value to send and draws the reply.

/** How much a key moves the value, in steps; Shift moves it ten times as far. */
export const KEY_STEPS = Object.freeze({
  ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10,
});
/** Shift's factor on a key's or a drag's step. */
export const SHIFT = 10;
/** Pixels of horizontal drag per step. */
export const PX_PER_STEP = 4;

/**
 * The value a key press asks for, or null for a key that is not a nudge.
 *
 * The result is rounded to the step's decimals, so that repeated presses land
 * on round numbers (-3 + 0.001 + 0.001 is -2.998, never -2.9979999999999998).
 */
export function keyValue(key, shift, value, step) {
  const steps = KEY_STEPS[key];
  if (steps === undefined) return null;
  return roundTo(value + steps * (shift ? SHIFT : 1) * step, step);
}

/** The value a drag of `dx` pixels from `start` asks for. */
export function dragValue(start, dx, shift, step) {
  const steps = Math.trunc(dx / PX_PER_STEP) * (shift ? SHIFT : 1);
  return roundTo(start + steps * step, step);
}

/** `x` rounded to the decimals of `step` (0.001 -> 3 decimals). */
export function roundTo(x, step) {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return Number(x.toFixed(decimals));
}

/**
 * The nudges sent to Python, one at a time: a nudge asked for while one is
 * computing replaces any other waiting, so a fast drag never queues a backlog
 * and the last value asked for is always the one answered last.
 */
export class Requests {
  constructor(send) {
    this.send = send;
    this.inFlight = null;
    this.waiting = null;
  }

  /** Ask for `request`: sent now if Python is free, else kept as the one to send next. */
  ask(request) {
    if (this.inFlight === null) this.#start(request);
    else this.waiting = request;
  }

  /** Python answered the one in flight: send the one waiting, if any. */
  answered() {
    this.inFlight = null;
    const next = this.waiting;
    this.waiting = null;
    if (next !== null) this.#start(next);
  }

  /** Forget what is in flight and waiting (Stop, Restart, Reset). */
  clear() {
    this.inFlight = null;
    this.waiting = null;
  }

  #start(request) {
    this.inFlight = request;
    this.send(request);
  }
}
