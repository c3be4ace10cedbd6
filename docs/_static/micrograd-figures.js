/* The figures of the micrograd book (see micrograd-figures.css): full size on click.
 *
 * A figure (plot, or graph drawn inline) shown smaller than its natural size opens
 * full size in a dialog (micrograd-zoom.js says how).  Figures added to the article
 * later (a cell's output replaced in the browser) are marked as they arrive, and all
 * of them again when the window's size changes.  The steppers are the runner's
 * (docs/_features/steppers/steppers.js): this page script only zooms.
 *
 * The page's entry point for zoom: starting it is the one thing done on import.
 */
import { onFigureEvent, refreshZoomable } from "./micrograd-zoom.js";

function debounce(callback, wait) {
  let timer = null;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(callback, wait);
  };
}

function start() {
  const refresh = () => refreshZoomable(document);
  const article = document.querySelector(".bd-article");
  if (article) {
    article.addEventListener("click", onFigureEvent);
    article.addEventListener("keydown", onFigureEvent);
    new MutationObserver(debounce(refresh, 150)).observe(article, { childList: true, subtree: true });
  }
  refresh();
  window.addEventListener("load", refresh);
  window.addEventListener("resize", debounce(refresh, 150));
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
