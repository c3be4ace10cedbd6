// The size at which a stepper's frame is drawn (micrograd-figures.js shows it): the one
// place of that rule, as plain numbers in and out, so that Node runs it as the page does
// (tests/test_graph_margins.py asks it how the book's graphs are drawn on a phone).

// The smallest a stepper's labels may be drawn (CSS px) when it is scaled to fit the
// screen: below this a frame keeps that size, whole, and the page scrolls to the node
// at work.  No box ever cuts a drawing: every node of a frame is there to see.
export const MIN_LABEL_PX = 9.5;
// The smallest a drawing's labels may be where the column is too narrow for it (a
// phone): the drawing keeps this size and scrolls sideways in a labelled region.
// 12 px, a margin over the 11 px below which a phone's reader no longer reads them.
export const MIN_NARROW_LABEL_PX = 12;

/**
 * The scale of a frame's drawing (1: its natural size), and whether it scrolls sideways.
 *
 * `width` and `height` are the drawing's natural size and `label` its smallest label
 * at that size (CSS px); `room` is the view's width and `free` the window's height left
 * for the drawing.  The drawing fits the window's height and the view's width, unless
 * its labels would get smaller than MIN_LABEL_PX: then it keeps that size, whole.  Where
 * the view is too narrow for the labels at MIN_NARROW_LABEL_PX, the drawing keeps that
 * size (and a hundredth: not below it once rounded) and scrolls sideways.
 */
export function frameScale({ width, height, label, room, free }) {
  const across = Math.min(1, room / width);
  if (across * label < MIN_NARROW_LABEL_PX && across < 1 && label > MIN_NARROW_LABEL_PX) {
    return { scale: (MIN_NARROW_LABEL_PX + 0.01) / label, sideways: true };
  }
  const fits = Math.min(across, Math.max(free, 0) / height);
  return { scale: Math.max(fits, Math.min(across, MIN_LABEL_PX / label)), sideways: false };
}
