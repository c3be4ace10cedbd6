// The exercises of "Build your own micrograd": an add-on of the runner that
// loads with a page that has exercise cells (code cells tagged exercise-<id>):
// what the reader did on them, as data (the rules of what their panels and the
// page's progress show), and the panels, Check, hints, solutions and progress.

import {
  addToolToEveryCell, announce, button, element, resetCell, runToTheEnd,
} from "../../_static/runner/cells.js";
import { changedState, keepState } from "../../_static/runner/pagestate.js";
import { now } from "../../_static/runner/session.js";

// -- the progress, as data ------------------------------------------------------------------------
// What the reader did on the exercises of "Build your own micrograd", as data,
// and what the exercises' panels and the page's progress show of it: the rules
// the panels below draw.  No DOM in them, so that Node's tests read them as they are.
//
// A progress is {passed, hints, solutions, checked, results}: the steps that passed
// their last Check, how many hints each step has shown, the steps whose solution the
// reader opened, the steps checked at least once, and each checked step's last result
// (what its panel shows, after a reload too).

/** Why the checks could not run, by the state the cell's Run ended in. */
export const NOT_RUN = Object.freeze({
  raised: "Your cell raised an exception before the checks could run: its traceback is above.",
  skipped: "A cell above yours raised an exception, so yours did not run: fix that one first.",
  stopped: "The run was stopped before the checks could run: press Check again.",
  crashed: "Python crashed while it ran your cell (the note above says more): press Check again.",
});

/** A progress's fields: each a Set of steps, or a Map of step -> what it keeps. */
const FIELDS = Object.freeze({
  passed: Set, hints: Map, solutions: Set, checked: Set, results: Map,
});

/** A progress where nothing is done yet. */
export const freshProgress = () => Object.fromEntries(
  Object.entries(FIELDS).map(([field, Kind]) => [field, new Kind()]));

/**
 * A Check of step `id` ended with `result` (the checks', or one made on the page): it is
 * checked, passed only if it passed, and `result` is what its panel shows.
 */
export function recordCheck(progress, id, result) {
  progress.checked.add(id);
  progress.results.set(id, result);
  if (result.status === "passed") progress.passed.add(id);
  else progress.passed.delete(id);
}

/** Show step `id`'s next hint: returns how many it shows now. */
export function nextHint(progress, id) {
  const shown = (progress.hints.get(id) || 0) + 1;
  progress.hints.set(id, shown);
  return shown;
}

/** Step `id` is as the book gives it again. */
export function forget(progress, id) {
  for (const field of Object.keys(FIELDS)) progress[field].delete(id);
}

/** The progress as JSON-able data, or null when there is nothing to keep. */
export function progressSnapshot(progress) {
  if (!progress.checked.size && !progress.hints.size && !progress.solutions.size) return null;
  return Object.fromEntries(Object.entries(FIELDS).map(([field, Kind]) => [
    field, Kind === Set ? [...progress[field]] : Object.fromEntries(progress[field])]));
}

/**
 * A saved progress brought back, without the steps the page no longer has (known(id)).
 * A progress saved before results were kept brings back none.
 */
export function restoredProgress(saved, known) {
  return Object.fromEntries(Object.entries(FIELDS).map(([field, Kind]) => [field, Kind === Set
    ? new Set((saved[field] || []).filter(known))
    : new Map(Object.entries(saved[field] || {}).filter(([id]) => known(id)))]));
}

/**
 * What a step's panel shows: {hints (the hints shown, each {label, html}: the
 * build rendered a hint's Markdown, directive.py), hintHidden (no hint
 * left), hintLabel, solveHidden (no offer of the solution: not checked yet, or it
 * is shown), solutionOpen, beside (the solution beside the reader's code: passed)}.
 */
export function panelView(progress, exercise) {
  const shown = progress.hints.get(exercise.id) || 0;
  const total = exercise.hints.length;
  const passed = progress.passed.has(exercise.id);
  const opened = progress.solutions.has(exercise.id);
  return {
    hints: exercise.hints.slice(0, shown).map((hint, i) => ({ label: hintLabel(i + 1, total), html: hint.html })),
    hintHidden: shown >= total,
    hintLabel: `Show hint ${shown + 1} of ${total}`,
    solveHidden: !progress.checked.has(exercise.id) || opened || passed,
    solutionOpen: opened || passed,
    beside: passed,
  };
}

const hintLabel = (number, total) => `Hint ${number} of ${total}: `;

/** What the live region says of hint `shown` (from 1) of a step, in plain words. */
export function hintAnnouncement(exercise, shown) {
  return hintLabel(shown, exercise.hints.length) + exercise.hints[shown - 1].text;
}

/**
 * The heading of a Check's result: {lead, html, tail, text}.  The page shows lead,
 * plain text, then the checks' message: html, the HTML the Python made of its inline
 * Markdown (book_runtime.inline_markup, in Result.to_json), or, for a result made on
 * the page (NOT_RUN), which has none, tail, plain text.  text is the whole heading in
 * plain words, for the live region.
 */
export function verdict(exercise, result) {
  const heading = (lead, shows = true) => {
    const html = shows ? result.message_html ?? null : null;
    const tail = shows && html === null ? result.message : "";
    const words = shows ? result.message_text ?? result.message : "";
    return { lead, html, tail, text: lead + words };
  };
  switch (result.status) {
    case "passed":
      return heading(`Passed: step ${exercise.number} does all the book asks of it (${result.checked} checks).`, false);
    case "failed":
      return heading("Not yet: ");
    case "not-done":
      return heading("Not done yet: ");
    case "raised":
      // A raise the checks put down to one of the reader's methods says which; else the
      // traceback under it does.
      return result.traceback && !result.part ? heading("Your code raised an exception:", false) : heading("");
    default: // "not-yours": the message says it
      return heading("");
  }
}

/**
 * What the page's progress shows: {text ("4 of 6 steps done."), steps (each step's id
 * and whether it is "done" or "open", in order), next (the first step not passed, or
 * null), offerReset (something to reset)}.  order: the steps' ids.
 */
export function progressView(progress, order) {
  const done = order.filter((id) => progress.passed.has(id)).length;
  return {
    text: `${done} of ${order.length} steps done.`,
    steps: order.map((id) => ({ id, state: progress.passed.has(id) ? "done" : "open" })),
    next: order.find((id) => !progress.passed.has(id)) || null,
    offerReset: done > 0 || progress.checked.size > 0,
  };
}

// -- the exercises on the page --------------------------------------------------------------------
// The exercises of "Build your own micrograd": an add-on of the runner that
// loads with a page that has exercise cells (code cells tagged exercise-<id>).
//
// Each exercise cell gets a Check in its toolbar: Check runs the cell (and what
// it needs), then asks the worker's Python to check the reader's code against
// the book's hidden tests (book_runtime.features.track.checks, in the runtime's wheel; the
// worker side is worker.js and exercises.py), and shows one result
// under the cell: passed, not done yet, the reader's own exception, or the
// first failure, with the mistake it recognises, why it gives that number, and
// the failing case as code to paste.  Under each exercise: hints, one at a time
// ("Hint 2 of 4"); the book's solution, offered after a first Check and shown
// only once the reader confirms, and shown beside the reader's code once the
// exercise passes; "Reset this exercise".  At the top of the page, the progress
// ("4 of 6 steps done"), a link to the next open step, and "Reset all
// progress".  What the reader did is kept with the page's state (pagestate.js):
// which steps passed, how many hints were shown, which solutions were
// opened.  Results and hints are said in the page's polite live region (cells.js
// announce).
//
// The exercises' titles, hints and solutions come from the build
// (directive.py writes them into the page), so that hints and solutions
// need no Python.  records.checks keeps each check's time, for the tests.  What
// this keeps while the page is open is the session's (session.features, under "track").

const exerciseOf = (t, cell) => {
  const tag = Array.from(cell.el.classList).find((c) => c.startsWith("tag_exercise-"));
  return tag ? t.exercises.get(tag.slice("tag_exercise-".length)) || null : null;
};

/**
 * Set up every exercise cell of the page, from the track's data (the build's JSON,
 * data); actions.run(cell) is the runner's Run.
 */
export function setUpExercises(session, data, actions) {
  const t = {
    session,
    actions,
    exercises: new Map(data.exercises.map((exercise) => [exercise.id, exercise])),
    order: data.exercises.map((exercise) => exercise.id),
    progress: freshProgress(), // what the reader did (above)
    // Each exercise cell's file name (as tracebacks name it) -> its step: the checks find
    // the step whose code fails from the failing method's own file name.
    cellSteps: {},
    panels: new Map(), // exercise id -> its panel's parts
  };
  session.features.set("track", t);
  const { cellSteps } = t;
  const above = []; // the exercise cells above
  for (const cell of session.cells) {
    const exercise = exerciseOf(t, cell);
    if (exercise === null) continue;
    // The check reads the reader's classes of the steps above this one: a Check makes
    // them what the reader's cells define now, never a leftover of an earlier version
    // of a cell (the flow runs those cells again, and says so).
    session.alsoRead.set(cell, [...above]);
    above.push(cell);
    cellSteps[cell.filename] = exercise.id;
    makePanel(t, cell, exercise);
  }
  // Each exercise cell's bar (made when the cell nears the viewport) gets its Check.
  addToolToEveryCell(session, (cell) => {
    const exercise = exerciseOf(t, cell);
    if (exercise === null) return null;
    const check = button("runner-check", "Check", () => checkCell(t, cell, exercise), "check");
    check.setAttribute("aria-label", `Check step ${exercise.number}: ${exercise.title}`);
    check.title = "Run this cell, then check your code against the book's tests";
    return check;
  });
  keepState(session, "exercises", {
    snapshot: () => progressSnapshot(t.progress),
    restore: (saved) => restore(t, saved),
    reset: () => resetAll(t),
  });
  showProgress(t);
}

/** The feature's set-up, as the runner calls it (the registry): the page's exercises' data. */
export const install = (session, actions) => setUpExercises(
  session, JSON.parse(session.root.querySelector("#micrograd-track").textContent), actions);

// -- checking --------------------------------------------------------------------------------

async function checkCell(t, cell, exercise) {
  const panel = t.panels.get(exercise.id);
  const started = now();
  say(panel, `Checking step ${exercise.number}…`);
  const result = await resultOf(t, cell, exercise);
  t.session.records.checks.push({
    exercise: exercise.id,
    status: result.status,
    mistake: result.mistake ? result.mistake.id : null,
    part: result.part || null,
    step: result.step || null,
    seconds: (now() - started) / 1000,
  });
  recordCheck(t.progress, exercise.id, result);
  const heading = show(t, panel, exercise, result);
  announce(`Step ${exercise.number}: ${heading.text}`);
  showProgress(t);
  changedState(t.session);
}

/** Run the cell (and what it needs), then ask the worker's Python for the checks' verdict. */
async function resultOf(t, cell, exercise) {
  const state = await runToTheEnd(cell, t.actions);
  if (state !== "done") return { status: "raised", message: NOT_RUN[state] };
  const { ask } = await import("../../_static/runner/python.js");
  try {
    return await ask(t.session, "track", "check", { exercise: exercise.id, cells: t.cellSteps });
  } catch (error) {
    return { status: "raised", message: `The checks could not run: ${error.message}` };
  }
}

// -- one exercise's panel ----------------------------------------------------------------------

function makePanel(t, cell, exercise) {
  const panel = {
    element: element("section", "mg-exercise"),
    result: element("div", "mg-exercise-result"),
    hints: element("ol", "mg-exercise-hints"),
    hint: button("mg-exercise-hint", "", () => showHint(t, exercise)),
    solve: button("mg-exercise-solve", "Show the book's solution", () => confirmSolution(t, exercise)),
    confirm: element("div", "mg-exercise-confirm"),
    solution: element("div", "mg-exercise-solution"),
    reset: button("mg-exercise-reset", "Reset this exercise", () => resetExercise(t, cell, exercise), "reset"),
    cell,
  };
  panel.element.setAttribute("aria-label", `Step ${exercise.number}: ${exercise.title}`);
  panel.element.id = `mg-exercise-${exercise.id}`;
  const buttons = element("div", "mg-exercise-buttons");
  buttons.append(panel.hint, panel.solve, panel.reset);
  panel.confirm.hidden = true;
  panel.solution.hidden = true;
  panel.element.append(panel.result, buttons, panel.hints, panel.confirm, panel.solution);
  cell.el.append(panel.element);
  t.panels.set(exercise.id, panel);
  showExercise(t, exercise);
}

function say(panel, text) {
  delete panel.result.dataset.status;
  panel.result.replaceChildren(element("p", "", text));
  announce(text);
}

/**
 * `el` with `html` added at its end: HTML the Python made of a text's inline Markdown
 * (book_runtime.inline_markup), which escaped everything but the marks it renders.
 */
function withHTML(el, html) {
  el.insertAdjacentHTML("beforeend", html);
  return el;
}

/**
 * Show a Check's result in its step's panel; returns its heading (verdict).  A known
 * mistake's message names it already (its headline, after the method): under it
 * comes why it gives those numbers, not its title again.
 */
function show(t, panel, exercise, result) {
  panel.result.replaceChildren();
  panel.result.dataset.status = result.status;
  const heading = verdict(exercise, result);
  const shown = element("p", "mg-exercise-verdict", heading.lead);
  if (heading.html !== null) withHTML(shown, heading.html);
  else shown.append(heading.tail);
  panel.result.append(shown);
  if (result.mistake) {
    const mistake = element("p", "mg-exercise-mistake");
    mistake.append(element("strong", "", "Why: "));
    panel.result.append(withHTML(mistake, result.mistake.why_html));
  }
  if (result.traceback) panel.result.append(element("pre", "runner-error", result.traceback));
  if (result.case) {
    panel.result.append(element("p", "", "The case, to paste into a cell and run:"));
    panel.result.append(element("pre", "mg-exercise-case", result.case));
  }
  showExercise(t, exercise);
  return heading;
}

/** The hint button, the solution's offer and the comparison, as the progress says. */
function showExercise(t, exercise) {
  const panel = t.panels.get(exercise.id);
  const view = panelView(t.progress, exercise);
  panel.hints.replaceChildren(...view.hints.map(({ label, html }) => {
    const item = element("li", "", "");
    item.append(element("strong", "", label));
    return withHTML(item, html);
  }));
  panel.hint.hidden = view.hintHidden;
  panel.hint.textContent = view.hintLabel;
  panel.solve.hidden = view.solveHidden;
  panel.solution.hidden = !view.solutionOpen;
  if (view.solutionOpen) showSolution(panel, exercise, view.beside);
}

function showHint(t, exercise) {
  const shown = nextHint(t.progress, exercise.id);
  showExercise(t, exercise);
  announce(hintAnnouncement(exercise, shown));
  changedState(t.session);
}

function confirmSolution(t, exercise) {
  const panel = t.panels.get(exercise.id);
  panel.confirm.replaceChildren(element("p", "",
    "The solution is a whole answer: the checks can still tell you what is wrong with yours. " +
    "Show it?"));
  const yes = button("mg-exercise-yes", "Show the solution", () => {
    panel.confirm.hidden = true;
    t.progress.solutions.add(exercise.id);
    showExercise(t, exercise);
    announce(`The book's solution to step ${exercise.number} is shown under your code.`);
    changedState(t.session);
  });
  const no = button("mg-exercise-no", "Keep trying", () => {
    panel.confirm.hidden = true;
    panel.solve.focus();
  });
  panel.confirm.append(yes, no);
  panel.confirm.hidden = false;
  yes.focus();
}

function showSolution(panel, exercise, passed) {
  panel.solution.replaceChildren();
  panel.solution.classList.toggle("mg-exercise-beside", passed);
  if (passed) {
    const yours = element("figure", "mg-exercise-yours");
    yours.append(element("figcaption", "", "Your code"), element("pre", "", panel.cell.code));
    const book = element("figure", "mg-exercise-book");
    book.append(element("figcaption", "", "The book's solution"), element("pre", "", exercise.solution));
    panel.solution.append(yours, book);
  } else {
    panel.solution.append(element("p", "", "The book's solution:"), element("pre", "", exercise.solution));
  }
}

// -- resetting ---------------------------------------------------------------------------------

/** Step `id`'s progress forgotten, and its panel (if the page has it) without a result. */
function forgetStep(t, id) {
  forget(t.progress, id);
  const panel = t.panels.get(id);
  if (!panel) return;
  panel.result.replaceChildren();
  delete panel.result.dataset.status;
  showExercise(t, t.exercises.get(id));
}

function resetExercise(t, cell, exercise) {
  resetCell(cell);
  forgetStep(t, exercise.id);
  showProgress(t);
  announce(`Step ${exercise.number} is as the book gives it again: its starter, no hints.`);
  changedState(t.session);
}

function resetAll(t) {
  for (const id of t.order) forgetStep(t, id);
  showProgress(t);
}

// -- the progress, and keeping it ------------------------------------------------------------

function showProgress(t) {
  const { exercises } = t;
  const box = t.session.root.querySelector(".mg-track-progress");
  if (!box) return;
  const { text, steps, next, offerReset } = progressView(t.progress, t.order);
  box.replaceChildren(element("p", "mg-track-count", text));
  const list = element("ol", "mg-track-steps");
  list.setAttribute("aria-label", "The steps, done or open");
  // A link to step `id`'s section: `words` before its number and title, `after` them.
  const link = (id, words, after = "") => {
    const { number, title } = exercises.get(id);
    const a = element("a", "", `${words} ${number}, ${title}${after}`);
    a.href = `#${sectionOf(t, id)}`;
    return a;
  };
  for (const { id, state } of steps) {
    const item = element("li", `mg-track-step mg-track-${state}`);
    item.dataset.state = state;
    item.append(link(id, "Step", `: ${state}`));
    list.append(item);
  }
  box.append(list);
  if (next !== null) box.append(link(next, "Next: step"));
  if (offerReset) {
    box.append(button("mg-track-reset", "Reset all progress", () => {
      for (const cell of t.session.cells) if (exerciseOf(t, cell)) resetCell(cell);
      resetAll(t);
      announce("Every step is as the book gives it again.");
      changedState(t.session);
    }, "reset"));
  }
}

/** The id of step `id`'s section: its explanation and example come before its cell. */
function sectionOf(t, id) {
  const panel = t.panels.get(id);
  const section = panel ? panel.cell.el.closest("section[id]") : null;
  return section ? section.id : `mg-exercise-${id}`;
}

function restore(t, saved) {
  Object.assign(t.progress, restoredProgress(saved, (id) => t.exercises.has(id)));
  for (const id of t.order) {
    const panel = t.panels.get(id);
    if (!panel) continue;
    const result = t.progress.results.get(id);
    if (result) show(t, panel, t.exercises.get(id), result);
    else showExercise(t, t.exercises.get(id));
  }
  showProgress(t);
}
