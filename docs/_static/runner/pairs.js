// What the page shows of a stepper pair's layout (pair_layout.js says which, from the
// column's width): the article carries it for the style sheet, which stacks a pair's
// sides or keeps them side by side (micrograd-figures.css), and each of the prose's
// words about the sides (docs/_ext/pair_words.py) shows its words for it.  The layout
// is this module's state, as data: it is never read back from the page.

import { pairLayout, pairWords } from "./pair_layout.js";

let layout = null;

function render(article) {
  article.dataset.mgPairs = layout;
  for (const span of article.querySelectorAll(".mg-pair-words")) {
    span.textContent = pairWords({ beside: span.dataset.beside, stacked: span.dataset.stacked }, layout);
  }
  // The figures script fits a stepper's drawings to the layout it is shown in.
  for (const stepper of article.querySelectorAll(".mg-stepper-pair.mg-ready")) {
    if (typeof stepper.refit === "function") stepper.refit();
  }
}

/** Follow the column's width: a new layout is shown at once. */
export function setUpPairs() {
  const article = document.querySelector("article.bd-article");
  if (!article || typeof ResizeObserver !== "function") return;
  new ResizeObserver((entries) => {
    const next = pairLayout(entries[entries.length - 1].contentRect.width);
    if (next === layout) return;
    layout = next;
    render(article);
  }).observe(article);
}
