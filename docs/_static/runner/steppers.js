// What the page does with its steppers (micrograd-figures.js draws them): a
// stepper pair's layout, side by side or one side at a time, from the column's
// width, and the prose's words for its sides.  Loaded with the page.

// -- a stepper pair's layout, as data -------------------------------------------------------------
// A stepper pair's layout (micrograd.viz.stepper.StepperPair): its two steppers side
// by side ("beside") where the column has room for both at a readable size, one at a
// time with a switch between them ("switch") where it has not, as on a phone: two
// drawings one above the other were two screens apart there.  Plain data in, plain
// data out: setUpPairs measures the column and shows what this says; the words the prose
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

// -- that layout on the page ----------------------------------------------------------------------
// What the page shows of a stepper pair's layout (pairLayout says which, from the
// column's width): the article carries it for the style sheet, which keeps a pair's
// sides side by side or shows one at a time (micrograd-figures.css), each pair the side
// its switch chose, and each of the prose's words about the sides
// (docs/_ext/pair_words.py) shows its words for it.  The layout and each pair's chosen
// side are the session's state (session.pairs: {layout, chosen: each pair's
// chosen side, its element's id -> 0 or 1; a pair not in it shows its first}), as
// data: they are never read back from the page.

function renderPair(pairs, stepper) {
  const side = pairs.chosen.get(stepper.id) ?? 0;
  const state = switchState(pairs.layout, side);
  stepper.dataset.mgSide = String(side);
  const box = stepper.querySelector(".mg-stepper-switch");
  if (box) {
    box.hidden = !state.offered;
    for (const button of box.querySelectorAll("button[data-side]")) {
      button.setAttribute("aria-pressed", String(state.pressed[Number(button.dataset.side)]));
    }
  }
  // The figures script fits a stepper's drawings to what it shows.
  if (stepper.classList.contains("mg-ready") && typeof stepper.refit === "function") stepper.refit();
}

function renderPairs(pairs, article) {
  article.dataset.mgPairs = pairs.layout;
  for (const span of article.querySelectorAll(".mg-pair-words")) {
    span.textContent = pairWords({ beside: span.dataset.beside, switch: span.dataset.switch }, pairs.layout);
  }
  for (const stepper of article.querySelectorAll(".mg-stepper-pair")) renderPair(pairs, stepper);
}

/** Follow the column's width, and each pair's switch: what they choose is shown at once. */
export function setUpPairs(session) {
  const { pairs } = session;
  const article = session.root.querySelector("article.bd-article");
  if (!article || typeof ResizeObserver !== "function") return;
  article.addEventListener("click", (event) => {
    const button = event.target.closest(".mg-stepper-switch button[data-side]");
    const stepper = button && button.closest(".mg-stepper-pair");
    if (!stepper || pairs.layout === null) return;
    pairs.chosen.set(stepper.id, Number(button.dataset.side));
    renderPair(pairs, stepper);
  });
  // A pair set up later (a cell's output replaced) shows the layout's switch too.
  article.addEventListener("mg-stepper-ready", (event) => {
    if (pairs.layout !== null && event.target.classList.contains("mg-stepper-pair")) renderPair(pairs, event.target);
  });
  new ResizeObserver((entries) => {
    const next = pairLayout(entries[entries.length - 1].contentRect.width);
    if (next === pairs.layout) return;
    pairs.layout = next;
    renderPairs(pairs, article);
  }).observe(article);
}

