// The size at which a stepper's frame is drawn (micrograd-figures.js shows it): the one
// place of that rule, as plain numbers in and out, so that Node runs it as the page does
// (tests/test_graph_margins.py asks it how the book's graphs are drawn on a phone).

// The smallest a stepper's labels may be drawn (CSS px) when it is scaled to fit a
// wider screen's window: below this a frame keeps that size, whole, and the page
// scrolls to the node at work.  No box ever cuts a drawing: every node of a frame is
// there to see.
export const MIN_LABEL_PX = 9.5;
// The smallest a drawing's labels may be on a phone, and wherever the column is too
// narrow for it: 12 px, a margin over the 11 px below which a phone's reader no longer
// reads them.  Fitting a phone's window, a frame keeps this size, whole, and the page
// scrolls to the node at work, its words stuck under its buttons; too wide for the
// column at it, the drawing keeps it and scrolls sideways in a labelled region.
export const MIN_NARROW_LABEL_PX = 12;
// A window narrower than this (CSS px) is a phone's: the theme's smallest breakpoint.
export const PHONE_WIDTH_PX = 576;

/**
 * The scale of a frame's drawing (1: its natural size), and whether it scrolls sideways.
 *
 * `width` and `height` are the drawing's natural size and `label` its smallest label
 * at that size (CSS px); `room` is the view's width, `free` the window's height left
 * for the drawing, `screen` the window's width, and `wordsBelow` whether the frame's
 * words lie under its drawing (a pair's sides): the page scrolling to the node at work
 * would leave them below the window.  The drawing fits the window's height and the
 * view's width, unless its labels would get smaller than MIN_LABEL_PX, or on a phone
 * (its words not below it) MIN_NARROW_LABEL_PX: then it keeps that size, whole.  Where
 * the view is too narrow for the labels at MIN_NARROW_LABEL_PX, the drawing keeps that
 * size and scrolls sideways.  MIN_NARROW_LABEL_PX is kept with a hundredth more: not
 * below it once rounded.
 */
export function frameScale({ width, height, label, room, free, screen, wordsBelow = false }) {
  const across = Math.min(1, room / width);
  const readable = (MIN_NARROW_LABEL_PX + 0.01) / label;
  if (across * label < MIN_NARROW_LABEL_PX && across < 1 && label > MIN_NARROW_LABEL_PX) {
    return { scale: readable, sideways: true };
  }
  const least = screen < PHONE_WIDTH_PX && !wordsBelow ? readable : MIN_LABEL_PX / label;
  const fits = Math.min(across, Math.max(free, 0) / height);
  return { scale: Math.max(fits, Math.min(across, least)), sideways: false };
}
