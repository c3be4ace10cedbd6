// A stepper's controller (docs/_features/steppers/steppers.js) on a page in happy-dom:
// the runner loads the steppers' module with a page that has one and sets each up;
// its state (the frame shown, the whole graph asked for, who holds steps back) is its
// controller's, held by the session.  happy-dom lays nothing out: the drawings' sizes
// are the browser tests' (browser_tests/test_figures.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { steppersOf } from "../../../../docs/_features/steppers/state.js";
import { openPage, pageHTML, stepperHTML } from "../../fake_page.mjs";

const CELLS = [{ source: "a = 1" }];

/** Resolves once `holds()` is true (checked after each turn of the loop). */
function until(holds) {
  return new Promise((resolve) => {
    const look = () => (holds() ? resolve() : setTimeout(look, 0));
    look();
  });
}

/** A page with `prose`, once its steppers are set up: {window, session, control(id)}. */
async function pageWith(prose, ids) {
  const { window, session } = await openPage(pageHTML(CELLS, { prose }));
  const byId = (id) => window.document.getElementById(id);
  await until(() => ids.every((id) => steppersOf(session).controllers.has(byId(id))));
  return { window, session, control: (id) => steppersOf(session).controllers.get(byId(id)) };
}

const key = (window, element, name) =>
  element.dispatchEvent(new window.KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true }));

test("a page's stepper is set up with the page: its first frame, its buttons and its status", async () => {
  const { control } = await pageWith(stepperHTML("st", 3), ["st"]);
  const stepper = control("st");
  const { element } = stepper;
  assert.equal(stepper.current, 0);
  assert.ok(element.classList.contains("mg-ready"));
  assert.equal(stepper.controls.hidden, false);
  assert.equal(stepper.status.textContent, "Step 1 of 3");
  assert.equal(stepper.previous.disabled, true);
  assert.equal(stepper.next.disabled, false);
  assert.deepEqual(stepper.frames.map((f) => f.classList.contains("mg-current")), [true, false, false]);
  // Each drawing sits in its view, which may scroll it, with the note that would say so.
  assert.equal(element.querySelectorAll(".mg-stepper-view > svg.micrograd-graph").length, 3);
  assert.equal(element.querySelectorAll(".mg-stepper-scroll-note + .mg-stepper-view").length, 3);
});

test("Next, Previous and the arrow keys step, the live region says the step's words", async () => {
  const { window, control } = await pageWith(stepperHTML("st", 3), ["st"]);
  const stepper = control("st");
  const { element } = stepper;
  stepper.next.click();
  assert.equal(stepper.current, 1);
  assert.equal(element.dataset.current, "1");
  assert.equal(stepper.status.textContent, "Step 2 of 3");
  assert.equal(stepper.live.textContent, "Step 2 of 3: the words of step 2.");
  key(window, element, "End");
  assert.equal(stepper.current, 2);
  assert.equal(stepper.next.disabled, true);
  key(window, element, "ArrowRight"); // past the last frame: it stays
  assert.equal(stepper.current, 2);
  key(window, element, "ArrowLeft");
  assert.equal(stepper.current, 1);
  stepper.previous.click();
  key(window, element, "Home");
  assert.equal(stepper.current, 0);
  assert.equal(stepper.previous.disabled, true);
});

test("Next, disabled on the last frame while it has the focus, hands the focus to Previous", async () => {
  const { window, control } = await pageWith(stepperHTML("st", 2), ["st"]);
  const stepper = control("st");
  stepper.next.focus();
  stepper.next.click();
  assert.equal(stepper.next.disabled, true);
  assert.equal(window.document.activeElement, stepper.previous);
});

test("whoever holds steps decides each reader's step; goTo makes it later", async () => {
  const { control } = await pageWith(stepperHTML("st", 4), ["st"]);
  const stepper = control("st");
  const asked = [];
  stepper.holdSteps((from, to) => {
    asked.push([from, to]);
    return to === 2;
  });
  stepper.next.click();
  assert.equal(stepper.current, 1); // not held
  stepper.next.click();
  assert.equal(stepper.current, 1); // held: the frame stays
  assert.deepEqual(asked, [[0, 1], [1, 2]]);
  stepper.goTo(2); // the holder's answer: shown, and said
  assert.equal(stepper.current, 2);
  assert.equal(stepper.live.textContent, "Step 3 of 4: the words of step 3.");
  assert.equal(asked.length, 2); // goTo asks nobody
});

test("the whole graph switch is the stepper's state, and its pressed state says it", async () => {
  const { control } = await pageWith(stepperHTML("st", 2), ["st"]);
  const stepper = control("st");
  // (It lies in the note under a drawing a phone crops: happy-dom lays nothing out.)
  const button = stepper.wholeSwitch;
  assert.equal(button.getAttribute("aria-pressed"), "false");
  button.click();
  assert.equal(stepper.layout.whole, true);
  assert.equal(button.getAttribute("aria-pressed"), "true");
  stepper.next.click(); // a step keeps it
  assert.equal(stepper.layout.whole, true);
  button.click();
  assert.equal(stepper.layout.whole, false);
  assert.equal(button.getAttribute("aria-pressed"), "false");
});

test("each stepper is set up once, and a stepper shown later is set up and told of", async () => {
  const { window, session } = await pageWith(stepperHTML("one", 2), ["one"]);
  const { setUpIn } = await import("../../../../docs/_features/steppers/steppers.js");
  const first = steppersOf(session).controllers.get(window.document.getElementById("one"));
  const told = [];
  steppersOf(session).listeners.push((stepper) => told.push(stepper.element.id));
  // A run's output: the same HTML, set up in its box (outputs.js does so).
  const box = window.document.createElement("div");
  box.innerHTML = stepperHTML("two", 3);
  window.document.querySelector("article").append(box);
  setUpIn(session, box);
  setUpIn(session, window.document); // again: nothing new
  assert.deepEqual(told, ["two"]);
  assert.equal(steppersOf(session).controllers.size, 2);
  assert.equal(steppersOf(session).controllers.get(window.document.getElementById("one")), first);
  // One without frames (or controls) is no stepper: left as it is.
  const empty = window.document.createElement("div");
  empty.innerHTML = '<div class="mg-stepper" id="three"></div>';
  setUpIn(session, empty);
  assert.equal(steppersOf(session).controllers.size, 2);
});

test("a pair's switch shows the chosen side, and its stepper is fitted again", async () => {
  const words = '<span class="mg-pair-words" data-beside="on the right" data-switch="on its side">x</span>';
  const pair = stepperHTML("pair", 2, { pair: true }).replace(
    '<p class="mg-stepper-live',
    '<div class="mg-stepper-switch" hidden><button type="button" data-side="0">Left</button>'
      + '<button type="button" data-side="1">Right</button></div><p class="mg-stepper-live',
  );
  // The column's width, as a browser reports it: a phone's.
  globalThis.ResizeObserver = class {
    constructor(callback) {
      this.callback = callback;
    }

    observe(target) {
      setTimeout(() => this.callback([{ target, contentRect: { width: 358 } }]), 0);
    }
  };
  const { window, session, control } = await pageWith(`${words}${pair}`, ["pair"]);
  const stepper = control("pair");
  let refits = 0;
  const refit = stepper.refit.bind(stepper);
  stepper.refit = () => {
    refits += 1;
    refit();
  };
  // A phone's column: the pair shows one side at a time, with its switch.
  await until(() => session.pairs.layout !== null);
  assert.equal(session.pairs.layout, "switch");
  const article = window.document.querySelector("article");
  assert.equal(article.dataset.mgPairs, "switch");
  assert.equal(article.querySelector(".mg-pair-words").textContent, "on its side");
  const box = stepper.element.querySelector(".mg-stepper-switch");
  assert.equal(box.hidden, false);
  const before = refits;
  box.querySelector('button[data-side="1"]').click();
  assert.equal(stepper.element.dataset.mgSide, "1");
  assert.equal(box.querySelector('button[data-side="1"]').getAttribute("aria-pressed"), "true");
  assert.equal(refits, before + 1);
  delete globalThis.ResizeObserver;
});
