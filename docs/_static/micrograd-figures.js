/* Figures of the micrograd book (see micrograd-figures.css).
 *
 * - A figure (plot, or graph drawn inline) shown smaller than its natural
 *   size gets the class "mg-zoomable": a click, or Enter/Space when it has the
 *   focus, opens it full size in a dialog (Escape, the Close button or a click
 *   outside closes it).
 * - The backward stepper (micrograd.stepper.BackwardStepper): one frame at a
 *   time, with Previous/Next buttons, and the arrow keys (Home/End too) when
 *   the stepper has the focus.  Its frames were drawn when the page was built.
 *
 * Figures and steppers added to the article later (a cell's output replaced
 * in the browser) are set up as they arrive.
 *
 * Plain JavaScript, no dependencies, nothing fetched.
 */
(() => {
  "use strict";

  const FIGURES = ".bd-article div.cell_output img, .bd-article svg.micrograd-graph";

  function naturalWidth(figure) {
    if (figure instanceof SVGSVGElement) {
      return figure.width.baseVal.value; // the width attribute, in CSS px
    }
    return figure.naturalWidth;
  }

  function naturalHeight(figure) {
    if (figure instanceof SVGSVGElement) {
      return figure.height.baseVal.value;
    }
    return figure.naturalHeight;
  }

  // -- full size on click ---------------------------------------------------------

  function markZoomable(figure) {
    const shown = figure.getBoundingClientRect().width;
    const zoomable = shown > 0 && naturalWidth(figure) - shown > 1;
    figure.classList.toggle("mg-zoomable", zoomable);
    if (zoomable) {
      figure.setAttribute("tabindex", "0");
      figure.setAttribute("aria-keyshortcuts", "Enter");
    } else if (figure.hasAttribute("aria-keyshortcuts")) {
      figure.removeAttribute("tabindex");
      figure.removeAttribute("aria-keyshortcuts");
    }
  }

  function refreshZoomable() {
    document.querySelectorAll(FIGURES).forEach(markZoomable);
  }

  function openFullSize(figure) {
    const dialog = document.createElement("dialog");
    dialog.className = "mg-lightbox";
    dialog.setAttribute("aria-label", "The figure at full size");
    const close = document.createElement("button");
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
    copy.style.width = `${naturalWidth(figure)}px`;
    copy.style.height = `${naturalHeight(figure)}px`;
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
    document.body.append(dialog);
    dialog.showModal();
    close.focus();
  }

  function onFigureEvent(event) {
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

  // -- the backward stepper -------------------------------------------------------

  function setUpStepper(stepper) {
    const frames = Array.from(stepper.querySelectorAll(":scope > .mg-stepper-frame"));
    const controls = stepper.querySelector(":scope > .mg-stepper-controls");
    if (!frames.length || !controls) {
      return;
    }
    const previous = controls.querySelector(".mg-stepper-prev");
    const next = controls.querySelector(".mg-stepper-next");
    const status = controls.querySelector(".mg-stepper-status");
    const live = stepper.querySelector(":scope > .mg-stepper-live");
    let current = 0;

    function show(index, announce) {
      current = Math.max(0, Math.min(frames.length - 1, index));
      frames.forEach((frame, k) => frame.classList.toggle("mg-current", k === current));
      previous.disabled = current === 0;
      next.disabled = current === frames.length - 1;
      status.textContent = `Step ${current + 1} of ${frames.length}`;
      stepper.dataset.current = String(current);
      if (announce && live) {
        live.textContent = frames[current].querySelector("figcaption").textContent;
      }
      frames[current].querySelectorAll("svg.micrograd-graph").forEach(markZoomable);
    }

    previous.addEventListener("click", () => show(current - 1, true));
    next.addEventListener("click", () => show(current + 1, true));
    stepper.addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: frames.length - 1 };
      if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      event.preventDefault();
      show(moves[event.key], true);
    });
    stepper.tabIndex = 0;
    controls.hidden = false;
    stepper.classList.add("mg-ready");
    show(0, false);
  }

  // -- start ----------------------------------------------------------------------

  function debounce(callback, wait) {
    let timer = null;
    return () => {
      clearTimeout(timer);
      timer = setTimeout(callback, wait);
    };
  }

  function setUpNewSteppers() {
    document.querySelectorAll(".mg-stepper:not(.mg-ready)").forEach(setUpStepper);
  }

  function start() {
    setUpNewSteppers();
    const article = document.querySelector(".bd-article");
    if (article) {
      article.addEventListener("click", onFigureEvent);
      article.addEventListener("keydown", onFigureEvent);
      const later = debounce(() => {
        setUpNewSteppers();
        refreshZoomable();
      }, 150);
      new MutationObserver(later).observe(article, { childList: true, subtree: true });
    }
    refreshZoomable();
    window.addEventListener("load", refreshZoomable);
    window.addEventListener("resize", debounce(refreshZoomable, 150));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
