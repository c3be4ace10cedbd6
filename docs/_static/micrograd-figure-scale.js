// The size at which a stepper's frame is drawn (docs/_features/steppers/steppers.js
// shows it), and where its words lie: the one place of those rules, as plain numbers
// in and out, so that Node runs them as the page does (tests/site/test_graph_margins.py
// asks them how the book's graphs are drawn on a phone and on a laptop).

// The smallest a stepper's labels may be drawn (CSS px) when it is scaled to fit a
// wider screen's window: below this a frame keeps that size, whole, and the page
// scrolls to the node at work.  No box ever cuts a drawing: every node of a frame is
// there to see.
export const MIN_LABEL_PX = 9.5;
// The smallest a drawing's labels may be on a phone, and wherever the column is too
// narrow for it: 12 px, a margin over the 11 px below which a phone's reader no longer
// reads them.  On a phone a frame keeps this size, whole, right under the buttons, its
// words under it (wordsBelow); too wide for the column at it, the drawing keeps it and
// scrolls sideways in a labelled region.
export const MIN_NARROW_LABEL_PX = 12;
// The smallest a phone may draw a stepper's labels to show its drawing whole in the
// window, its buttons and words with it: 11 px, read without a zoom.  A drawing the
// window holds at this size or more is shown whole, and nothing in it moves from step
// to step; one it does not keeps MIN_NARROW_LABEL_PX, and its view crops it
// (croppedHeight) and scrolls to the step's nodes.
export const MIN_WHOLE_LABEL_PX = 11;
// A window narrower than this (CSS px) is a phone's: the theme's smallest breakpoint.
export const PHONE_WIDTH_PX = 576;
// The smallest a stepper's labels may be drawn beside its words (a laptop): 11 px, read
// there without a zoom.  With the words beside the drawings, none of the window's height
// goes to them, so that a laptop's window holds the buttons, the drawings and the words.
export const MIN_BESIDE_LABEL_PX = 11;
// The narrowest the words beside a stepper's drawings may be (CSS px): a rule's sum
// ("q.grad += c × r.grad = 10.0000 × 1.0000 = 10.0000") on two lines.
export const WORDS_MIN_PX = 240;
// The share of the row the words beside the drawings keep, where the drawings would
// take more at a larger size: a pair's two sides' words, one under the other in 14 px
// type (micrograd-figures.css), are then no taller than a laptop's window leaves them
// (at 0.26 they were, at 1366x768), and its drawings' text 13.0 px there (at 0.34 and
// 16 px words, 11.8).
export const WORDS_SHARE = 0.28;
// The room between a drawing and the next, or the words, in that row (CSS px).
export const BESIDE_GAP_PX = 12;

/** A drawing's width (CSS px) at MIN_BESIDE_LABEL_PX, never wider than drawn. */
const besideWidth = (width, label) => width * Math.min(1, (MIN_BESIDE_LABEL_PX + 0.01) / label);

/**
 * Whether a stepper's words lie beside its drawings (one row: the drawings, then the
 * words), not above or below them.
 *
 * `drawings` drawings, each at most `width` CSS px wide as drawn, its smallest label
 * `label` px, share a row `room` px wide on a screen `screen` px wide.  Never on a phone;
 * elsewhere where the row holds each drawing at MIN_BESIDE_LABEL_PX and the words at
 * WORDS_MIN_PX, a gap of BESIDE_GAP_PX after each drawing.
 */
export function wordsBeside({ width, label, drawings, room, screen }) {
  if (screen < PHONE_WIDTH_PX || drawings < 1) return false;
  return drawings * (besideWidth(width, label) + BESIDE_GAP_PX) + WORDS_MIN_PX <= room;
}

/**
 * Whether a stepper's words lie below its drawing, not above it: on a phone (`screen`
 * px wide), where its buttons, the drawing at MIN_NARROW_LABEL_PX and the words above it
 * are taller than the window.  Words above a drawing push it down by their height, which
 * changes from step to step, and stuck under the buttons they cover it as the page
 * scrolls to the node at work; below it, they cover nothing, and the drawing keeps one
 * place, right under the buttons, at every step.  A pair's sides have their words below
 * their drawings already.
 */
export function wordsBelow({ screen, pair }) {
  return !pair && screen < PHONE_WIDTH_PX;
}

/**
 * The scale of a frame's drawing (1: its natural size), and whether it scrolls sideways.
 *
 * `width` and `height` are the drawing's natural size and `label` its smallest label
 * at that size (CSS px); `room` is the view's width, `free` the window's height left
 * for the drawing, and `screen` the window's width.  The drawing fits the window's
 * height and the view's width, unless its labels would get smaller than MIN_LABEL_PX,
 * or on a phone MIN_NARROW_LABEL_PX: then it keeps that size, whole (a phone's
 * window may crop it, croppedHeight), unless the window holds it whole with its labels
 * at MIN_WHOLE_LABEL_PX or more: then it takes the window's height.  Where
 * the view is too narrow for the labels at MIN_NARROW_LABEL_PX, the drawing keeps that
 * size and scrolls sideways.  MIN_NARROW_LABEL_PX is kept with a hundredth more: not
 * below it once rounded.
 *
 * `beside` (the count of drawings in the row, where wordsBeside says the words lie
 * beside them; `room` is then the whole row's width): each drawing gets its share of
 * the row less the words' WORDS_SHARE and the gaps, and fits the window's height, unless
 * its labels would get smaller than MIN_BESIDE_LABEL_PX: then it keeps that size.
 */
export function frameScale({ width, height, label, room, free, screen, beside = 0 }) {
  if (beside > 0) {
    const share = (room * (1 - WORDS_SHARE)) / beside - BESIDE_GAP_PX;
    const least = besideWidth(width, label) / width;
    const fits = Math.min(1, share / width, Math.max(free, 0) / height);
    return { scale: Math.max(least, fits), sideways: false };
  }
  const across = Math.min(1, room / width);
  const readable = (MIN_NARROW_LABEL_PX + 0.01) / label;
  if (across * label < MIN_NARROW_LABEL_PX && across < 1 && label > MIN_NARROW_LABEL_PX) {
    return { scale: readable, sideways: true };
  }
  const phone = screen < PHONE_WIDTH_PX;
  const least = phone ? readable : MIN_LABEL_PX / label;
  const fits = Math.min(across, Math.max(free, 0) / height);
  if (phone && fits * label >= MIN_WHOLE_LABEL_PX + 0.01) return { scale: fits, sideways: false };
  return { scale: Math.max(fits, Math.min(across, least)), sideways: false };
}

// The least a cropped drawing's view shows (CSS px): a node at work with the nodes its
// rule adds to, at MIN_NARROW_LABEL_PX.
export const MIN_CROP_PX = 240;

/**
 * The height of the view of a drawing whose words lie under it on a phone (`screen` px
 * wide), or null where it shows the whole drawing: a stepper `over` px taller than the
 * window below the theme's header, its drawing `drawn` px tall, shows only so much of
 * it, and the view scrolls up and down (the node at work in it), so that the step's
 * words are in the window with the drawing.  Never less than MIN_CROP_PX; never on a
 * wider screen, whose window holds the whole drawing.
 */
export function croppedHeight({ drawn, over, screen }) {
  if (screen >= PHONE_WIDTH_PX || over <= 0.5) return null;
  return Math.max(MIN_CROP_PX, Math.floor(drawn - over));
}
