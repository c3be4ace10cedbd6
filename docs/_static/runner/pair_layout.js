// A stepper pair's layout (micrograd.viz.stepper.StepperPair): its two steppers side
// by side ("beside") where the column has room for both at a readable size, one at a
// time with a switch between them ("switch") where it has not, as on a phone: two
// drawings one above the other were two screens apart there.  Plain data in, plain
// data out: pairs.js measures the column and shows what this says; the words the prose
// has for each layout are the build's (docs/_ext/pair_words.py).

/** The narrowest a side may be (CSS px): a graph of the book's drawn at about 2/3 size. */
export const SIDE_MIN_PX = 272;
/** The room between the two sides, and around them in the stepper's box (CSS px). */
export const GAP_PX = 16;
export const FRAME_PX = 18;

/** The layout of a pair in a column `width` CSS px wide: "beside" or "switch". */
export function pairLayout(width) {
  return width >= 2 * SIDE_MIN_PX + GAP_PX + FRAME_PX ? "beside" : "switch";
}

/**
 * The words a span of the prose shows in `layout`: its words for every layout are
 * the build's (`words`: {beside, switch}, as pair_words.py writes them).
 */
export function pairWords(words, layout) {
  if (typeof words[layout] !== "string") throw new Error(`no words for the layout ${JSON.stringify(layout)}`);
  return words[layout];
}

/** The sides a pair shows (0 the first, 1 the second): both beside, the chosen one on a switch. */
export function shownSides(layout, chosen) {
  if (chosen !== 0 && chosen !== 1) throw new Error(`a pair has sides 0 and 1, not ${JSON.stringify(chosen)}`);
  if (layout === "beside") return [0, 1];
  if (layout === "switch") return [chosen];
  throw new Error(`no layout ${JSON.stringify(layout)}`);
}

/**
 * What a pair's switch shows: whether it is offered (only in the switch layout) and,
 * for each side's button, whether it is pressed.  The step is not the switch's: the
 * pair stays on the step it is on, whichever side is shown.
 */
export function switchState(layout, chosen) {
  const shown = shownSides(layout, chosen);
  return { offered: layout === "switch", pressed: [0, 1].map((side) => layout === "switch" && shown.includes(side)) };
}
