// What the page shows of a stepper pair's layout (pair_layout.js says which, from the
// column's width): the article carries it for the style sheet, which keeps a pair's
// sides side by side or shows one at a time (micrograd-figures.css), each pair the side
// its switch chose, and each of the prose's words about the sides
// (docs/_ext/pair_words.py) shows its words for it.  The layout and each pair's chosen
// side are the session's state (session.pairs: {layout, chosen: each pair's
// chosen side, its element's id -> 0 or 1; a pair not in it shows its first}), as
// data: they are never read back from the page.

import { pairLayout, pairWords, switchState } from "./pair_layout.js";

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

function render(pairs, article) {
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
    render(pairs, article);
  }).observe(article);
}
