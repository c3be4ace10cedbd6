// What the reader did on the exercises of "Build your own micrograd", as data,
// and what the exercises' panels and the page's progress show of it: the rules
// exercises.js draws.  No DOM here, so that Node's tests read them as they are.
//
// A progress is {passed, hints, solutions, checked}: the steps that passed their
// last Check, how many hints each step has shown, the steps whose solution the
// reader opened, and the steps checked at least once.

/** Why the checks could not run, by the state the cell's Run ended in. */
export const NOT_RUN = Object.freeze({
  raised: "Your cell raised an exception before the checks could run: its traceback is above.",
  skipped: "A cell above yours raised an exception, so yours did not run: fix that one first.",
  stopped: "The run was stopped before the checks could run: press Check again.",
  crashed: "Python crashed while it ran your cell (the note above says more): press Check again.",
});

/** A progress where nothing is done yet. */
export const freshProgress = () => ({
  passed: new Set(), hints: new Map(), solutions: new Set(), checked: new Set(),
});

/** A Check of step `id` ended with this status: it is checked, and passed only if it passed. */
export function recordCheck(progress, id, status) {
  progress.checked.add(id);
  if (status === "passed") progress.passed.add(id);
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
  progress.passed.delete(id);
  progress.hints.delete(id);
  progress.solutions.delete(id);
  progress.checked.delete(id);
}

/** The progress as JSON-able data, or null when there is nothing to keep. */
export function progressSnapshot(progress) {
  if (!progress.checked.size && !progress.hints.size && !progress.solutions.size) return null;
  return {
    passed: [...progress.passed],
    hints: Object.fromEntries(progress.hints),
    solutions: [...progress.solutions],
    checked: [...progress.checked],
  };
}

/** A saved progress brought back, without the steps the page no longer has (known(id)). */
export function restoredProgress(saved, known) {
  return {
    passed: new Set(saved.passed.filter(known)),
    hints: new Map(Object.entries(saved.hints).filter(([id]) => known(id))),
    solutions: new Set(saved.solutions.filter(known)),
    checked: new Set(saved.checked.filter(known)),
  };
}

/**
 * What a step's panel shows: {hints (the hints shown, each {label, html}: the
 * build rendered a hint's Markdown, docs/_ext/track.py), hintHidden (no hint
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
