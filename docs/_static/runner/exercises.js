// The exercises of "Build your own micrograd": an add-on of the runner that
// loads with a page that has exercise cells (code cells tagged exercise-<id>).
//
// Each exercise cell gets a Check in its toolbar: Check runs the cell (and what
// it needs), then asks the worker's Python to check the reader's code against
// the book's hidden tests (book_checks, shipped as a wheel; the worker side is
// exercise_answers.js and exercises.py), and shows one result under the cell:
// passed, not done yet, the reader's own exception, or the first failure, with
// the mistake it recognises, why it gives that number, and the failing case as
// code to paste.  Under each exercise: hints, one at a time ("Hint 2 of 4"); the
// book's solution, offered after a first Check and shown only once the reader
// confirms, and shown beside the reader's code once the exercise passes; "Reset
// this exercise".  At the top of the page, the progress ("4 of 6 steps done"),
// a link to the next open step, and "Reset all progress".  What the reader did
// is kept with the page's state (pagestate.js): which steps passed, how many
// hints were shown, which solutions were opened.  Results and hints are said
// in the page's polite live region (cells.js announce).
//
// The exercises' titles, hints and solutions come from the build
// (docs/_ext/track.py writes them into the page), so that hints and solutions
// need no Python.  records.checks keeps each check's time, for the tests.

import { addToolToEveryCell, allCells, announce, resetCell } from "./cells.js";
import { button, element } from "./dom.js";
import { alsoReads } from "./flow.js";
import { changedState, keepState } from "./pagestate.js";
import { now, records } from "./state.js";

const data = JSON.parse(document.getElementById("micrograd-track").textContent);
const exercises = new Map(data.exercises.map((exercise) => [exercise.id, exercise]));
const order = data.exercises.map((exercise) => exercise.id);
const progress = { passed: new Set(), hints: new Map(), solutions: new Set(), checked: new Set() };
const panels = new Map(); // exercise id -> its panel's parts
records.checks = [];

const exerciseOf = (cell) => {
  const tag = Array.from(cell.el.classList).find((c) => c.startsWith("tag_exercise-"));
  return tag ? exercises.get(tag.slice("tag_exercise-".length)) || null : null;
};

/** Set up every exercise cell of the page; actions.run(cell) is the runner's Run. */
export function setUpExercises(actions) {
  const above = []; // the exercise cells above
  addToolToEveryCell((cell) => {
    const exercise = exerciseOf(cell);
    if (exercise === null) return null;
    // The check reads the reader's classes of the steps above this one: a Check makes
    // them what the reader's cells define now, never a leftover of an earlier version
    // of a cell (the flow runs those cells again, and says so).
    alsoReads(cell, above);
    above.push(cell);
    const check = button("runner-check", "✓ Check", () => checkCell(cell, exercise, actions));
    check.setAttribute("aria-label", `Check step ${exercise.number}: ${exercise.title}`);
    check.title = "Run this cell, then check your code against the book's tests";
    makePanel(cell, exercise);
    return check;
  });
  keepState("exercises", { snapshot, restore, reset: resetAll });
  showProgress();
}

// -- checking --------------------------------------------------------------------------------

/** Run the cell (and what it needs); resolves with the state its Run ends in. */
function runToTheEnd(cell, actions) {
  actions.run(cell);
  // Listening starts after run(): a Run after a crash first ends that Python (a restart).
  return new Promise((resolve) => {
    const settled = (event) => {
      if (event.detail.cell === cell.index) finish(event.detail.state);
    };
    const ended = () => finish("stopped"); // Restart or Reset page before the cell ran
    function finish(state) {
      document.removeEventListener("micrograd:cell-settled", settled);
      document.removeEventListener("micrograd:restart", ended);
      resolve(state);
    }
    document.addEventListener("micrograd:cell-settled", settled);
    document.addEventListener("micrograd:restart", ended);
  });
}

/** Why the checks could not run, by the state the cell's Run ended in. */
const NOT_RUN = {
  raised: "Your cell raised an exception before the checks could run: its traceback is above.",
  skipped: "A cell above yours raised an exception, so yours did not run: fix that one first.",
  stopped: "The run was stopped before the checks could run: press Check again.",
  crashed: "Python crashed while it ran your cell (the note above says more): press Check again.",
};

async function checkCell(cell, exercise, actions) {
  const panel = panels.get(exercise.id);
  const started = now();
  say(panel, `Checking step ${exercise.number}…`);
  const result = await resultOf(cell, exercise, actions);
  records.checks.push({
    exercise: exercise.id,
    status: result.status,
    mistake: result.mistake ? result.mistake.id : null,
    seconds: (now() - started) / 1000,
  });
  progress.checked.add(exercise.id);
  if (result.status === "passed") progress.passed.add(exercise.id);
  else progress.passed.delete(exercise.id);
  show(panel, exercise, result);
  showProgress();
  changedState();
}

/** Run the cell (and what it needs), then ask the worker's Python for the checks' verdict. */
async function resultOf(cell, exercise, actions) {
  const state = await runToTheEnd(cell, actions);
  if (state !== "done") return { status: "raised", message: NOT_RUN[state] };
  const { ask } = await import("./api.js");
  try {
    return await ask("exercises", "check", { exercise: exercise.id });
  } catch (error) {
    return { status: "raised", message: `The checks could not run: ${error.message}` };
  }
}

// -- one exercise's panel ----------------------------------------------------------------------

function makePanel(cell, exercise) {
  const panel = {
    element: element("section", "mg-exercise"),
    result: element("div", "mg-exercise-result"),
    hints: element("ol", "mg-exercise-hints"),
    hint: button("mg-exercise-hint", "", () => nextHint(exercise)),
    solve: button("mg-exercise-solve", "Show the book's solution", () => confirmSolution(exercise)),
    confirm: element("div", "mg-exercise-confirm"),
    solution: element("div", "mg-exercise-solution"),
    reset: button("mg-exercise-reset", "↺ Reset this exercise", () => resetExercise(cell, exercise)),
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
  panels.set(exercise.id, panel);
  showExercise(exercise);
}

function say(panel, text) {
  delete panel.result.dataset.status;
  panel.result.replaceChildren(element("p", "", text));
  announce(text);
}

function show(panel, exercise, result) {
  panel.result.replaceChildren();
  panel.result.dataset.status = result.status;
  const heading = {
    passed: `Passed: step ${exercise.number} does all the book asks of it (${result.checked} checks).`,
    failed: `Not yet: ${result.message}`,
    "not-done": `Not done yet: ${result.message}`,
    raised: result.traceback ? "Your code raised an exception:" : result.message,
  }[result.status];
  panel.result.append(element("p", "mg-exercise-verdict", heading));
  if (result.mistake) {
    const mistake = element("p", "mg-exercise-mistake");
    mistake.append(element("strong", "", `${result.mistake.title}. `), result.mistake.why);
    panel.result.append(mistake);
  }
  if (result.traceback) panel.result.append(element("pre", "runner-error", result.traceback));
  if (result.case) {
    panel.result.append(element("p", "", "The case, to paste into a cell and run:"));
    panel.result.append(element("pre", "mg-exercise-case", result.case));
  }
  announce(`Step ${exercise.number}: ${heading}${result.mistake ? ` ${result.mistake.title}.` : ""}`);
  showExercise(exercise);
}

/** The hint button, the solution's offer and the comparison, as the progress says. */
function showExercise(exercise) {
  const panel = panels.get(exercise.id);
  const shown = progress.hints.get(exercise.id) || 0;
  const total = exercise.hints.length;
  panel.hints.replaceChildren(...exercise.hints.slice(0, shown).map((hint, i) => {
    const item = element("li", "", "");
    item.append(element("strong", "", `Hint ${i + 1} of ${total}: `), hint);
    return item;
  }));
  panel.hint.hidden = shown >= total;
  panel.hint.textContent = `Show hint ${shown + 1} of ${total}`;
  panel.solve.hidden = !progress.checked.has(exercise.id) || progress.solutions.has(exercise.id)
    || progress.passed.has(exercise.id);
  const open = progress.solutions.has(exercise.id) || progress.passed.has(exercise.id);
  panel.solution.hidden = !open;
  if (open) showSolution(panel, exercise);
}

function nextHint(exercise) {
  const shown = (progress.hints.get(exercise.id) || 0) + 1;
  progress.hints.set(exercise.id, shown);
  showExercise(exercise);
  announce(`Hint ${shown} of ${exercise.hints.length}: ${exercise.hints[shown - 1]}`);
  changedState();
}

function confirmSolution(exercise) {
  const panel = panels.get(exercise.id);
  panel.confirm.replaceChildren(element("p", "",
    "The solution is a whole answer: the checks can still tell you what is wrong with yours. " +
    "Show it?"));
  const yes = button("mg-exercise-yes", "Show the solution", () => {
    panel.confirm.hidden = true;
    progress.solutions.add(exercise.id);
    showExercise(exercise);
    announce(`The book's solution to step ${exercise.number} is shown under your code.`);
    changedState();
  });
  const no = button("mg-exercise-no", "Keep trying", () => {
    panel.confirm.hidden = true;
    panel.solve.focus();
  });
  panel.confirm.append(yes, no);
  panel.confirm.hidden = false;
  yes.focus();
}

function showSolution(panel, exercise) {
  const passed = progress.passed.has(exercise.id);
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

function forget(id) {
  progress.passed.delete(id);
  progress.hints.delete(id);
  progress.solutions.delete(id);
  progress.checked.delete(id);
}

function resetExercise(cell, exercise) {
  resetCell(cell);
  forget(exercise.id);
  const panel = panels.get(exercise.id);
  panel.result.replaceChildren();
  delete panel.result.dataset.status;
  showExercise(exercise);
  showProgress();
  announce(`Step ${exercise.number} is as the book gives it again: its starter, no hints.`);
  changedState();
}

function resetAll() {
  for (const id of order) {
    forget(id);
    const panel = panels.get(id);
    if (!panel) continue;
    panel.result.replaceChildren();
    delete panel.result.dataset.status;
    showExercise(exercises.get(id));
  }
  showProgress();
}

// -- the progress, and keeping it ------------------------------------------------------------

function showProgress() {
  const box = document.querySelector(".mg-track-progress");
  if (!box) return;
  const done = order.filter((id) => progress.passed.has(id)).length;
  const next = order.find((id) => !progress.passed.has(id));
  box.replaceChildren(element("p", "mg-track-count", `${done} of ${order.length} steps done.`));
  if (next) {
    const link = element("a", "", `Next: step ${exercises.get(next).number}, ${exercises.get(next).title}`);
    // To the step's section: its explanation and example come before its cell.
    const panel = panels.get(next);
    const section = panel ? panel.cell.el.closest("section[id]") : null;
    link.href = `#${section ? section.id : `mg-exercise-${next}`}`;
    box.append(link);
  }
  if (done || progress.checked.size) {
    box.append(button("mg-track-reset", "↺ Reset all progress", () => {
      for (const cell of allCells()) if (exerciseOf(cell)) resetCell(cell);
      resetAll();
      announce("Every step is as the book gives it again.");
      changedState();
    }));
  }
}

function snapshot() {
  if (!progress.checked.size && !progress.hints.size && !progress.solutions.size) return null;
  return {
    passed: [...progress.passed],
    hints: Object.fromEntries(progress.hints),
    solutions: [...progress.solutions],
    checked: [...progress.checked],
  };
}

function restore(saved) {
  progress.passed = new Set(saved.passed.filter((id) => exercises.has(id)));
  progress.hints = new Map(Object.entries(saved.hints).filter(([id]) => exercises.has(id)));
  progress.solutions = new Set(saved.solutions.filter((id) => exercises.has(id)));
  progress.checked = new Set(saved.checked.filter((id) => exercises.has(id)));
  for (const id of order) if (panels.has(id)) showExercise(exercises.get(id));
  showProgress();
}
