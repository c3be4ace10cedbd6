// A stepper pair's layout (micrograd.viz.stepper.StepperPair): its two steppers side
// by side ("beside") where the column has room for both at a readable size, one above
// the other ("stacked") where it has not, as on a phone.  Plain data in, plain data out:
// pairs.js measures the column and shows what this says; the words the prose has for
// each layout are the build's (docs/_ext/pair_words.py).

/** The narrowest a side may be (CSS px): a graph of the book's drawn at about 2/3 size. */
export const SIDE_MIN_PX = 272;
/** The room between the two sides, and around them in the stepper's box (CSS px). */
export const GAP_PX = 16;
export const FRAME_PX = 18;

/** The layout of a pair in a column `width` CSS px wide: "beside" or "stacked". */
export function pairLayout(width) {
  return width >= 2 * SIDE_MIN_PX + GAP_PX + FRAME_PX ? "beside" : "stacked";
}

/**
 * The words a span of the prose shows in `layout`: its words for every layout are
 * the build's (`words`: {beside, stacked}, as pair_words.py writes them).
 */
export function pairWords(words, layout) {
  if (typeof words[layout] !== "string") throw new Error(`no words for the layout ${JSON.stringify(layout)}`);
  return words[layout];
}
