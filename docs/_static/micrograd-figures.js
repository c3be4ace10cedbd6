/* Figures of the micrograd book (see micrograd-figures.css).
 *
 * - A figure (plot, or graph drawn inline) shown smaller than its natural
 *   size gets the class "mg-zoomable": a click, or Enter/Space when it has the
 *   focus, opens it full size in a dialog (Escape, the Close button or a click
 *   outside closes it).
 * - The backward stepper (micrograd.viz.stepper.BackwardStepper, StepperPair): one
 *   frame at a time, with Previous/Next buttons, and the arrow keys (Home/End
 *   too) when the stepper has the focus.  Each frame's drawings are scaled so
 *   that the buttons, the captions and the drawings fit the window together
 *   (a drawing that would get too small to read keeps a readable size and
 *   scrolls inside its own view to the node at work; a pair stacked on a phone
 *   shows each drawing whole, as wide as the column), and stepping scrolls the
 *   stepper into view, its buttons above its drawings.  A page's script may hold a step
 *   back (the cancelable "mg-stepper-step" event, detail {from, to}) and make it later
 *   (stepper.goTo(k)); a stepper set up says so ("mg-stepper-ready", bubbling).
 *   Its frames were drawn when the page was
 *   built, or by the reader's browser (docs/_static/runner/steppers.js).
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

  // The smallest a stepper's labels may be drawn (CSS px) when it is scaled to fit the
  // screen: below this a frame keeps that size and scrolls inside its own box instead,
  // keeping the node at work in view.
  const MIN_LABEL_PX = 9.5;

  /** The bottom of what the theme keeps stuck to the top of the window (its header). */
  function stuckTop() {
    let bottom = 0;
    for (const bar of document.querySelectorAll(".bd-header, .bd-header-article")) {
      const position = getComputedStyle(bar).position;
      if (position === "sticky" || position === "fixed") {
        const box = bar.getBoundingClientRect();
        if (box.top <= 0 && box.height > 0) bottom = Math.max(bottom, box.bottom);
      }
    }
    return bottom;
  }

  /** Each drawing of a frame sits in a view that can scroll it, should it need to. */
  function wrapDrawings(frame) {
    for (const svg of frame.querySelectorAll("svg.micrograd-graph")) {
      if (!svg.parentElement.classList.contains("mg-stepper-view")) {
        const view = document.createElement("div");
        view.className = "mg-stepper-view";
        svg.replaceWith(view);
        view.append(svg);
      }
    }
  }

  /** The largest label of a drawing at its natural size, in CSS px. */
  function labelPx(svg) {
    const sizes = Array.from(svg.querySelectorAll("text"), (t) => parseFloat(t.getAttribute("font-size")))
      .filter(Number.isFinite);
    const smallest = sizes.length ? Math.min(...sizes) : 14;
    const units = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : naturalWidth(svg);
    return (smallest * naturalWidth(svg)) / units;
  }

  /**
   * Scale the current frame's drawings so that the controls, the captions and the
   * drawings fit the window together; where that would make the labels too small,
   * the drawing keeps a readable size and its view scrolls to the node at work.
   */
  function fitFrame(stepper, frame) {
    const views = Array.from(frame.querySelectorAll(".mg-stepper-view"));
    if (!views.length) return;
    views.forEach((view) => {
      view.style.height = "";
      view.firstElementChild.style.width = "";
      view.firstElementChild.style.height = "";
    });
    // Side by side (a pair on a wide screen) or one above the other (a phone).
    const columns = new Set(views.map((view) => Math.round(view.getBoundingClientRect().left))).size;
    const rows = Math.ceil(views.length / columns);
    if (rows > 1) {
      fitToColumn(views);
      return;
    }
    const heights = views.map((view) => view.getBoundingClientRect().height);
    const drawn = columns > 1 ? Math.max(...heights) : heights.reduce((sum, h) => sum + h, 0);
    // What is not drawing: the stepper's height now, less its drawings' own.
    const chrome = stepper.getBoundingClientRect().height - drawn;
    const free = (window.innerHeight - stuckTop() - chrome - 8) / rows;
    for (const view of views) {
      const svg = view.firstElementChild;
      const width = naturalWidth(svg);
      const height = naturalHeight(svg);
      const room = view.getBoundingClientRect().width;
      const fits = Math.min(1, room / width, Math.max(free, 0) / height);
      const readable = Math.min(1, room / width, MIN_LABEL_PX / labelPx(svg));
      const scale = Math.max(fits, readable);
      svg.style.width = `${width * scale}px`;
      svg.style.height = `${height * scale}px`;
      if (height * scale > free + 1) {
        view.style.height = `${Math.max(free, 120)}px`;
        // The node at work and its operation, together in the middle of the view.
        const active = Array.from(svg.querySelectorAll("g.node.mg-active"), (g) => g.getBoundingClientRect());
        if (active.length) {
          const top = Math.min(...active.map((b) => b.top));
          const bottom = Math.max(...active.map((b) => b.bottom));
          const box = view.getBoundingClientRect();
          view.scrollTop += (top + bottom) / 2 - (box.top + box.height / 2);
        }
      }
      markZoomable(svg);
    }
  }

  /**
   * A pair stacked on a narrow screen: two drawings that fit the window together would
   * each be too small to read, so each is as wide as the column lets it be (never
   * wider than drawn), whole, with no box of its own to scroll; the reader scrolls the
   * page, with the buttons stuck above the drawings.
   */
  function fitToColumn(views) {
    for (const view of views) {
      const svg = view.firstElementChild;
      const scale = Math.min(1, view.getBoundingClientRect().width / naturalWidth(svg));
      svg.style.width = `${naturalWidth(svg) * scale}px`;
      svg.style.height = `${naturalHeight(svg) * scale}px`;
      markZoomable(svg);
    }
  }

  /** Scroll the window (not smoothly) so that the whole stepper is in view, if it is not. */
  function keepInView(stepper) {
    const box = stepper.getBoundingClientRect();
    const top = stuckTop();
    if (box.top < top || box.bottom > window.innerHeight) {
      window.scrollBy({ top: box.top - top - 4, behavior: "instant" });
    }
  }

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
    const caption = (frame) =>
      Array.from(frame.querySelectorAll("figcaption"), (c) => c.textContent.trim()).join(" ");
    let current = 0;
    frames.forEach(wrapDrawings);

    function show(index, announce) {
      current = Math.max(0, Math.min(frames.length - 1, index));
      frames.forEach((frame, k) => frame.classList.toggle("mg-current", k === current));
      previous.disabled = current === 0;
      next.disabled = current === frames.length - 1;
      status.textContent = `Step ${current + 1} of ${frames.length}`;
      stepper.dataset.current = String(current);
      fitFrame(stepper, frames[current]);
      if (announce) {
        if (live) live.textContent = caption(frames[current]);
        keepInView(stepper);
      }
    }

    // The reader's step: a page's script may hold it back (predict mode asks first,
    // then calls goTo), by cancelling the "mg-stepper-step" event.
    function step(index) {
      const to = Math.max(0, Math.min(frames.length - 1, index));
      const detail = { from: current, to };
      if (stepper.dispatchEvent(new CustomEvent("mg-stepper-step", { cancelable: true, detail }))) {
        show(to, true);
      }
    }

    previous.addEventListener("click", () => step(current - 1));
    next.addEventListener("click", () => step(current + 1));
    stepper.addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: frames.length - 1 };
      if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      if (event.target.closest("input, textarea, select")) {
        return; // the arrow keys move the caret there
      }
      event.preventDefault();
      step(moves[event.key]);
    });
    stepper.tabIndex = 0;
    controls.hidden = false;
    stepper.classList.add("mg-ready");
    stepper.refit = () => fitFrame(stepper, frames[current]);
    stepper.goTo = (index) => show(index, true);
    show(0, false);
    stepper.dispatchEvent(new CustomEvent("mg-stepper-ready", { bubbles: true }));
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
    const refit = () => {
      document.querySelectorAll(".mg-stepper.mg-ready").forEach((stepper) => stepper.refit());
      refreshZoomable();
    };
    window.addEventListener("load", refit);
    window.addEventListener("resize", debounce(refit, 150));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
