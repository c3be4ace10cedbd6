// A figure of the book shown smaller than its natural size (a plot, or a graph drawn
// inline) gets the class "mg-zoomable": a click, or Enter/Space when it has the focus,
// opens it full size in a dialog (Escape, the Close button or a click outside closes
// it).  Plain functions: the page's figures script (micrograd-figures.js) starts them,
// and the steppers (docs/_features/steppers/steppers.js) mark a drawing they scale.

/** The figures of an article that may be shown smaller than drawn. */
export const FIGURES = ".bd-article div.cell_output img, .bd-article svg.micrograd-graph";

/** A figure's size as drawn: an SVG's width and height attributes (CSS px), an image's own. */
export function naturalSize(figure) {
  if (figure instanceof figure.ownerDocument.defaultView.SVGSVGElement) {
    return { width: figure.width.baseVal.value, height: figure.height.baseVal.value };
  }
  return { width: figure.naturalWidth, height: figure.naturalHeight };
}

/** Say whether a figure is shown smaller than drawn: a zoomable one takes the focus. */
export function markZoomable(figure) {
  const shown = figure.getBoundingClientRect().width;
  const zoomable = shown > 0 && naturalSize(figure).width - shown > 1;
  figure.classList.toggle("mg-zoomable", zoomable);
  if (zoomable) {
    figure.setAttribute("tabindex", "0");
    figure.setAttribute("aria-keyshortcuts", "Enter");
  } else if (figure.hasAttribute("aria-keyshortcuts")) {
    figure.removeAttribute("tabindex");
    figure.removeAttribute("aria-keyshortcuts");
  }
}

/** Mark every figure of the page (`page`: its document). */
export function refreshZoomable(page) {
  page.querySelectorAll(FIGURES).forEach(markZoomable);
}

function openFullSize(figure) {
  const page = figure.ownerDocument;
  const dialog = page.createElement("dialog");
  dialog.className = "mg-lightbox";
  dialog.setAttribute("aria-label", "The figure at full size");
  const close = page.createElement("button");
  close.type = "button";
  close.className = "mg-lightbox-close btn btn-sm btn-secondary";
  close.textContent = "Close";
  close.addEventListener("click", () => dialog.close());
  const copy = figure.cloneNode(true);
  copy.removeAttribute("tabindex");
  copy.removeAttribute("aria-keyshortcuts");
  copy.classList.remove("mg-zoomable");
  copy.querySelectorAll("[id]").forEach((element) => element.removeAttribute("id"));
  copy.removeAttribute("id");
  const { width, height } = naturalSize(figure); // the copy's image may not be loaded yet
  copy.style.width = `${width}px`;
  copy.style.height = `${height}px`;
  dialog.append(close, copy);
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) {
      dialog.close();
    }
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    figure.focus({ preventScroll: true });
  });
  page.body.append(dialog);
  dialog.showModal();
  close.focus();
}

/** A click, Enter or Space on a zoomable figure opens it full size. */
export function onFigureEvent(event) {
  const figure = event.target.closest(".mg-zoomable");
  if (!figure) {
    return;
  }
  if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") {
    return;
  }
  event.preventDefault();
  openFullSize(figure);
}
