// Predict, then see: predict mode in every stepper, the prompts in the prose that ask
// for a run's number (or which wording of a claim it makes true), judged against the
// questions' data; the page's score, and the start page's scores.  Loaded with the
// page (runner.js); the steppers it asks in are set up by their own module
// (docs/_features/steppers/), and it drives each through its controller's methods.

import { announce, element, whenNear } from "../../_static/runner/cells.js";
import { changedState, keepState, savedStates } from "../../_static/runner/pagestate.js";
import { steppersOf } from "../steppers/state.js";

// -- judging a prediction -------------------------------------------------------------------------
// Predict, then see: the reader's answers judged against a stepper's questions.
//
// The questions are data the build (or the browser's kernel) made from the
// stepper's numbers (docs/_features/predict/runtime.py): each asks for one input's
// grad once a rule has run, with the answer, the words of the answer
// ("-1.5"), a tolerance for a close answer, the explanation by the rule and
// the numbers, and the misconceptions that give another number, each with its
// words (their text and HTML).  This module only compares numbers and picks
// which of those words apply; it touches no DOM (tests/js/ runs it in Node).

/** The reader's number: "-1.5", "−1.5" (a typographic minus), "1,5", "+2", ".5"; null if none. */
export function readNumber(text) {
  const plain = String(text).trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  const dotted = plain.includes(".") ? plain : plain.replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(dotted)) return null;
  return Number(dotted);
}

const escape = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Words of a verdict: the lead (plain text, escaped into the HTML), then the data's words. */
function words(lead, ...pieces) {
  return {
    text: [lead, ...pieces.map((p) => p.text)].join(" "),
    html: [escape(lead), ...pieces.map((p) => p.html)].join(" "),
  };
}

/**
 * Judge one answer.  `exact` is the stepper's tolerance of a right answer.
 * Returns {verdict: "right" | "close" | "wrong" | "unread", kind (the
 * misconception, or null), text, html}.  An unread answer (no number) is not
 * a prediction: the page asks again.
 */
export function judge(ask, typed, exact) {
  const value = readNumber(typed);
  const grad = ask.grad;
  if (value === null) {
    return { verdict: "unread", kind: null, ...words(`Type a number for ${grad}, like -1.5 or 0.25.`) };
  }
  const said = typed.trim();
  const off = (want) => Math.abs(value - want) <= exact + 1e-9 * Math.abs(want);
  if (off(ask.want)) {
    return { verdict: "right", kind: null, ...words(`${grad}: right.`, ask.explain) };
  }
  const mistake = ask.mistakes.find((m) => off(m.value));
  if (mistake) {
    return { verdict: "wrong", kind: mistake.kind, ...words(`${grad}: not ${said}.`, mistake, ask.explain) };
  }
  if (Math.abs(value - ask.want) <= ask.close) {
    return { verdict: "close", kind: null, ...words(`${grad}: close, it is ${ask.answer}.`, ask.explain) };
  }
  return { verdict: "wrong", kind: null, ...words(`${grad}: not ${said}, it is ${ask.answer}.`, ask.explain) };
}

/** What "Show me" says of a question: the answer and why. */
export function shown(ask) {
  return { verdict: "shown", kind: null, ...words(`${ask.grad} is ${ask.answer}:`, ask.explain) };
}

/**
 * The longest verdict each of a frame's questions (`asks`) can get: "Show me"'s, a right
 * answer's, or a misconception's, by its words' length.  The page holds the place of a
 * stepper's question and its verdict at the tallest of them, so that the drawing under
 * it keeps its place whatever the reader answers.
 */
export function longestVerdicts(asks, exact) {
  return asks.map((item) => {
    const said = [item.want, ...item.mistakes.map((m) => m.value)].map((value) => judge(item, String(value), exact));
    return [shown(item), ...said].reduce((long, next) => (next.text.length > long.text.length ? next : long));
  });
}

/**
 * Judge a prediction made before a run against the number the run gave (the
 * text the page shows it as).  `close` is the prompt's own tolerance; `whose`, whose
 * run it was ("the run": the reader's; "the book's run").
 * Returns {verdict: "right" | "close" | "wrong", text}.
 */
export function judgeRun(predicted, shownText, close, exact, whose = "the run") {
  const actual = readNumber(shownText);
  const typed = String(predicted);
  if (actual === null) return null;
  const off = Math.abs(readNumber(typed) - actual);
  if (off <= exact + 1e-9 * Math.abs(actual)) {
    return { verdict: "right", text: `You predicted ${typed}, and ${whose} gave ${shownText}: right.` };
  }
  if (off <= close) {
    return { verdict: "close", text: `You predicted ${typed}; ${whose} gave ${shownText}: close.` };
  }
  return { verdict: "wrong", text: `You predicted ${typed}; ${whose} gave ${shownText}.` };
}

/**
 * Judge a choice made before a run (one of the claim's wordings, `choices`: the
 * one true when the claim holds first) against the run's claim ({holds,
 * otherwise, about}: the claims' runtime.py; where neither wording is true, neither is right);
 * `whose`, whose run it was ("your run"; "the book's run").
 * Returns {verdict: "right" | "wrong", text}, or null for what is no choice.
 */
export function judgeChoice(predicted, claim, choices, whose = "your run") {
  const { holds, otherwise, about } = claim || {};
  if (typeof holds !== "boolean" || !choices.includes(predicted)) return null;
  if (!holds && otherwise === false) {
    const what = about ? ` (${about})` : "";
    return {
      verdict: "wrong",
      text: `You predicted “${predicted}”; in ${whose} it neither ${choices[0]} nor ${choices[1]}${what}.`,
    };
  }
  const actual = holds ? choices[0] : choices[1];
  if (predicted === actual) {
    return { verdict: "right", text: `You predicted “${predicted}”, and ${whose} says “${actual}”: right.` };
  }
  return { verdict: "wrong", text: `You predicted “${predicted}”; ${whose} says “${actual}”.` };
}

/**
 * The page's score from its answers ({key: verdict}): made, right and close; and
 * kept, the prompts' predictions ({key: {judged}}) that wait for a run to judge them.
 */
export function score(answers, runs = {}) {
  const verdicts = Object.values(answers);
  return {
    made: verdicts.length,
    right: verdicts.filter((v) => v === "right").length,
    close: verdicts.filter((v) => v === "close").length,
    kept: Object.values(runs).filter((run) => !run.judged).length,
  };
}

/**
 * "4 judged, 2 right, 1 close" (or "none judged yet"): a prediction counts once a run
 * (or the stepper's step) has judged it; one only kept is said to wait for its run, so
 * that a Keep never reads as lost.
 */
export function scoreText({ made, right, close, kept = 0 }) {
  const judged = made === 0 ? "none judged yet" : `${made} judged, ${right} right, ${close} close`;
  if (kept === 0) return judged;
  return `${judged}; ${kept} kept, judged when ${kept === 1 ? "its cell runs" : "their cells run"}`;
}

/**
 * Stepping from frame `from` to frame `to`: the frame to ask about first, or null.
 * A frame is asked about when it has questions and has not been revealed yet;
 * only forward steps ask (going back shows what was already seen).
 */
export function frameToAsk(frames, revealed, from, to) {
  for (let k = from + 1; k <= to; k += 1) {
    if (frames[k] && !revealed.has(k)) return k;
  }
  return null;
}

/** The key an answer is kept under: the stepper, the frame, the input. */
export const answerKey = (stepper, frame, input) => `${stepper}/${frame}/${input}`;

// -- predict mode and the prompts -----------------------------------------------------------------
// Predict, then see: predict mode in every stepper, and the page's score.
//
// A stepper's questions follow its HTML as JSON (docs/_features/predict/runtime.py
// made them from the stepper's numbers, at build time or in the worker).  Each
// stepper gets a Predict switch; the switch is one for the page, off by
// default.  With it on, a step forward to a frame in which a rule runs is held
// back (the stepper's controller, holdSteps): the stepper asks
// for the grad each input of the rule will hold, judges the answers
// (judge, above), explains them by the rule and the numbers, and then
// shows the frame.  Answers are kept with the page's state (pagestate.js):
// the switch, each answer's verdict and the frames already shown; Reset page
// clears them.  A prompt in the prose (docs/_features/predict/directive.py) asks for the
// number a run will give, or which wording of a claim the run makes true.  About the
// cell as the book wrote it, the prediction is judged as it is kept, against the book's
// own run (builtVerdict), and judged again by the reader's run; about the reader's
// edit, it is kept, and when their run's glued value or claim arrives (the Prose's,
// micrograd:prose) with an answer other than the book's, it is judged.  Either is
// explained, and counts in the same score.  What
// below a prompt gives its answer away (the build's list: docs/_features/predict/spoilers.py)
// waits behind a stand-in until the reader keeps a prediction, a run gives the answer, or
// the reader asks to see it.  The start page lists every page's score.

const DATA = "script.mg-predict-data";

/** What a page keeps of its predictions where none is made yet (and after Reset page). */
const freshState = () => ({
  on: false,
  answers: {}, // answerKey -> "right" | "close" | "wrong"
  revealed: {}, // stepper id -> frames shown (asked, or shown without an answer)
  runs: {}, // a prompt's key -> {typed, judged, text, by, asBuilt}: the prediction kept
  // before a run (typed: the number as typed, or the wording chosen; by: "book" where the
  // book's run judged it; asBuilt: a run of the cell as written left it waiting for the edit)
  seen: [], // the prompts whose answer a run (or the reader's Show) gave without a prediction
});

/** A button of `type` ("button" or "submit"). */
const buttonOf = (className, text, type = "button") => Object.assign(element("button", className, text), { type });

/** A field for a number, with the id its `label` names it by. */
function numberInput(label, id) {
  const input = element("input", "mg-predict-input");
  Object.assign(input, { type: "text", inputMode: "decimal", autocomplete: "off", id });
  label.htmlFor = id;
  return input;
}

/**
 * The page's predictions (session.features, under "predict"), as data: what is saved (state), and
 * the steppers and prompts set up.
 */
const newPredictions = (session) => ({
  session,
  state: freshState(),
  steppers: new Map(), // stepper element -> its view {data, id, box, form, ...}
  prompts: new Map(), // a prompt's key -> its view {key, format, close, box, ...}
});

const revealedOf = (p, id) => new Set(p.state.revealed[id] || []);

function reveal(p, id, frame) {
  p.state.revealed[id] = [...revealedOf(p, id).add(frame)].sort((a, b) => a - b);
}

function pageTitle(session) {
  const heading = session.root.querySelector("article.bd-article h1");
  return heading ? heading.textContent.replace(/#$/, "").trim() : document.title;
}

// -- what each stepper shows ----------------------------------------------------------------------

function scoreLine(p) {
  return `Your predictions on this page: ${scoreText(score(p.state.answers, p.state.runs))}.`;
}

function render(p, view) {
  const { state } = p;
  view.toggle.setAttribute("aria-pressed", String(state.on));
  const changed = view.box.hidden === state.on;
  view.box.hidden = !state.on;
  if (!state.on) {
    view.pending = null;
    view.form.hidden = true;
  }
  view.score.textContent = scoreLine(p);
  if (state.on) holdSlot(view);
  // The drawings sized once for the window the question's place leaves them.
  if (changed) view.control.refit();
}

/**
 * Hold the slot of a stepper's question and its verdict (one or the other, in one place)
 * at the height of the tallest of either over the stepper's frames (their longest
 * verdicts: longestVerdicts), at the slot's width: the drawing under it keeps its place
 * while the reader answers and steps on.  Measured while no question is asked.
 */
function holdSlot(view) {
  const { slot, data } = view;
  const width = slot.clientWidth;
  if (view.pending !== null || !width || view.heldAt === width) return;
  const kept = Array.from(view.feedback.childNodes);
  slot.style.minHeight = "";
  let tallest = 0;
  data.frames.forEach((question, frame) => {
    if (!question) return;
    fillQuestion(view, frame);
    view.form.hidden = false;
    view.feedback.replaceChildren();
    tallest = Math.max(tallest, slot.getBoundingClientRect().height);
    view.form.hidden = true;
    showFeedback(view, longestVerdicts(question.asks, data.exact));
    tallest = Math.max(tallest, slot.getBoundingClientRect().height);
  });
  view.lead.replaceChildren();
  view.fields.replaceChildren();
  view.inputs = [];
  view.feedback.replaceChildren(...kept);
  slot.style.minHeight = `${Math.ceil(tallest)}px`;
  view.heldAt = width;
}

/** The book's answer to a prompt as its words quote it: a wording in quotes, a number bare. */
const quoted = (view) => (view.choices ? `“${view.built}”` : view.built);

function renderPrompt(p, view) {
  const kept = p.state.runs[view.key];
  const shown = answerShown(p.state, view.key);
  view.why.hidden = !whyShown(p.state, view.key);
  for (const { held, line } of view.waiting) {
    held.classList.toggle("mg-withheld", !shown);
    line.hidden = shown;
  }
  const judging = view.choices ? "the page tells you what your run says"
    : "the page compares your number with the run's";
  // Kept, the build's answer held back below is shown: the words say whose it is.
  view.status.textContent = !kept ? ""
    : kept.judged ? kept.text
      : kept.asBuilt ? `Kept: ${kept.typed}. Your run gave the book's own answer, ${quoted(view)}: make the edit the question asks for, then run it.`
      : view.waiting.length ? `Kept: ${kept.typed}. The book's own run is shown below now; run the cell, and ${judging}.`
        : `Kept: ${kept.typed}. Now run it: ${judging}.`;
  if (view.choices) {
    // (a choice being made, not kept yet, stays as the reader has it)
    const choosing = view.form.contains(document.activeElement);
    for (const radio of view.radios) {
      if (!choosing) radio.checked = Boolean(kept) && radio.value === kept.typed;
    }
  } else if (kept && document.activeElement !== view.input) view.input.value = kept.typed;
  else if (!kept) view.input.value = "";
  view.score.textContent = scoreLine(p);
}

const renderAll = (p) => {
  p.steppers.forEach((view) => render(p, view));
  p.prompts.forEach((view) => renderPrompt(p, view));
};

/** The form's question about `frame`: its lead and a field for each input's grad. */
function fillQuestion(view, frame) {
  const question = view.data.frames[frame];
  view.lead.innerHTML = question.lead.html;
  view.fields.replaceChildren();
  view.inputs = question.asks.map((item, k) => {
    const row = element("p", "mg-predict-row");
    const label = element("label");
    label.innerHTML = item.question.html;
    const input = numberInput(label, `${view.id}-predict-${frame}-${k}`);
    row.append(label, " ", input);
    view.fields.append(row);
    return input;
  });
}

function ask(view, frame) {
  const question = view.data.frames[frame];
  view.pending = frame;
  fillQuestion(view, frame);
  view.feedback.replaceChildren();
  view.form.hidden = false;
  // The question's nodes in view (a phone's cropped drawing scrolls to them).
  view.control.showNodesOf(frame);
  view.inputs[0].focus();
  announce(`${question.lead.text} ${question.asks.map((item) => item.question.text).join(" ")}`);
}

function showFeedback(view, lines) {
  view.feedback.replaceChildren(
    ...lines.map(({ verdict, html }) => {
      const line = element("p", `mg-predict-verdict mg-predict-${verdict}`);
      line.innerHTML = html;
      return line;
    }),
  );
}

/** The frame asked about is answered or skipped: show it, and keep what was learnt. */
function done(p, view, frame) {
  reveal(p, view.id, frame);
  view.pending = null;
  view.form.hidden = true;
  changedState(p.session);
  renderAll(p);
  view.control.goTo(frame);
  const next = view.stepper.querySelector(".mg-stepper-next");
  (next && !next.disabled ? next : view.stepper).focus({ preventScroll: true });
}

function check(p, view) {
  const frame = view.pending;
  const asks = view.data.frames[frame].asks;
  const results = asks.map((item, k) => judge(item, view.inputs[k].value, view.data.exact));
  const unread = results.findIndex((r) => r.verdict === "unread");
  if (unread >= 0) {
    showFeedback(view, [results[unread]]);
    view.inputs[unread].focus();
    announce(results[unread].text);
    return;
  }
  asks.forEach((item, k) => {
    const key = answerKey(view.id, frame, item.input);
    if (!(key in p.state.answers)) p.state.answers[key] = results[k].verdict;
  });
  showFeedback(view, results);
  done(p, view, frame);
  announce(`${results.map((r) => r.text).join(" ")} ${scoreLine(p)}`);
}

function showMe(p, view) {
  const frame = view.pending;
  const lines = view.data.frames[frame].asks.map(shown);
  showFeedback(view, lines);
  done(p, view, frame);
  announce(lines.map((line) => line.text).join(" "));
}

function toggle(p) {
  p.state.on = !p.state.on;
  changedState(p.session);
  renderAll(p);
  announce(p.state.on
    ? "Predict on: before each rule runs, the stepper asks what it will give."
    : "Predict off: the stepper shows each step at once.");
}

function makeView(p, control, data) {
  const stepper = control.element;
  const controls = stepper.querySelector(":scope > .mg-stepper-controls");
  const view = {
    stepper, control, data, id: stepper.id, pending: null, inputs: [],
    toggle: buttonOf("mg-predict-switch", "Predict"),
    box: element("div", "mg-predict"),
    slot: element("div", "mg-predict-slot"),
    heldAt: null, // the slot's width its height was held at (holdSlot)
    form: element("form", "mg-predict-ask"),
    lead: element("p", "mg-predict-lead"),
    fields: element("div", "mg-predict-fields"),
    feedback: element("div", "mg-predict-feedback"),
    score: element("p", "mg-predict-score"),
  };
  view.toggle.title = "Predict each step's gradients before the stepper shows them";
  view.toggle.addEventListener("click", () => toggle(p));
  const submit = buttonOf("mg-predict-check", "Check", "submit");
  const skip = buttonOf("mg-predict-show", "Show me");
  skip.addEventListener("click", () => showMe(p, view));
  const buttons = element("p", "mg-predict-buttons");
  buttons.append(submit, " ", skip);
  view.form.append(view.lead, view.fields, buttons);
  view.form.hidden = true;
  view.form.addEventListener("submit", (event) => {
    event.preventDefault();
    check(p, view);
  });
  view.box.setAttribute("role", "group");
  view.box.setAttribute("aria-label", "Predict, then see");
  view.slot.append(view.form, view.feedback);
  view.box.append(view.slot, view.score);
  controls.append(view.toggle);
  controls.after(view.box);
  control.holdSteps((from, to) => {
    if (!p.state.on) return false;
    const frame = frameToAsk(data.frames, revealedOf(p, view.id), from, to);
    if (frame === null) return false;
    ask(view, frame);
    return true;
  });
  return view;
}

/** A stepper's controller (docs/_features/steppers/) gets predict mode, if it has questions. */
function setUpStepper(p, control) {
  const stepper = control.element;
  const script = stepper.nextElementSibling;
  if (p.steppers.has(stepper) || !script || !script.matches(DATA)) return;
  const data = JSON.parse(script.textContent);
  if (!data.frames.some(Boolean)) return;
  const view = makeView(p, control, data);
  p.steppers.set(stepper, view);
  render(p, view);
}

// -- predict, then run: a prompt in the prose ----------------------------------------------------

const runKey = (key) => `run/${key}`;

/**
 * Whether what a prompt's answer shows in (the build's list, spoilers.py) is shown: once
 * the reader has kept a prediction, or a run (or Show) has given the answer.  Paper and a
 * page without this script show it all along.
 */
export function answerShown(state, key) {
  return key in state.runs || state.seen.includes(key);
}

/**
 * Whether a prompt's "why" (the answer worked out) shows: with the answer, however the
 * reader came to it (a judged prediction, a run without one, or Show).  A prediction
 * about the cell as the book wrote it is judged as it is kept (builtVerdict); one about
 * the reader's edit waits for their run, and its why with it: worked out in the build's
 * numbers, it would read as the answer to the edit.
 */
export function whyShown(state, key) {
  return Boolean(state.runs[key]?.judged) || state.seen.includes(key);
}

/** The words that stand in for what waits for the prompt's answer, by its kind. */
export const WAITING_WORDS = Object.freeze({
  output: "This output gives the answer away: it shows once you keep a prediction above, or run the cell.",
  prose: "Here the text gives the answer away: it shows once you keep a prediction above, or run the cell.",
});

function see(p, view) {
  if (answerShown(p.state, view.key)) return;
  p.state.seen = [...p.state.seen, view.key];
  changedState(p.session);
  renderAll(p);
}

/** What waits for the prompt's answer: each element (by the build's id) and its stand-in. */
function waiting(p, view, box) {
  const listed = box.dataset.withholds ? JSON.parse(box.dataset.withholds) : [];
  return listed.map(({ id, kind }) => {
    const held = document.getElementById(id);
    if (!held) return null;
    const line = element("p", "mg-after-predict-waiting", `${WAITING_WORDS[kind]} `);
    const show = buttonOf("mg-after-predict-show", "Show it");
    show.addEventListener("click", () => {
      see(p, view);
      announce("Shown: the answer is no longer held back.");
    });
    line.append(show);
    held.before(line);
    return { held, line };
  }).filter(Boolean);
}

function keep(p, view) {
  const chosen = view.choices ? view.radios.find((radio) => radio.checked) : null;
  const typed = view.choices ? (chosen ? chosen.value : "") : view.input.value.trim();
  const unread = view.choices ? !chosen : readNumber(typed) === null;
  if (unread) {
    view.status.textContent = view.choices
      ? `Pick one: ${view.choices.join(" or ")}.` : "Type a number, like -1.5 or 0.25.";
    announce(view.status.textContent);
    return;
  }
  const result = view.edit ? null : builtVerdict(view, typed);
  p.state.runs[view.key] = result ? { typed, judged: true, text: result.text, by: "book" }
    : { typed, judged: false, text: "" };
  if (result) p.state.answers[runKey(view.key)] = result.verdict;
  changedState(p.session);
  renderAll(p);
  announce(result ? `${result.text} ${whyWords(view)} ${scoreLine(p)}` : view.status.textContent);
}

/**
 * A prediction judged against the book's own run, the answer the build gave (`built`,
 * the box's data-built), for a question about the cell as the book wrote it.
 */
export function builtVerdict({ built, choices, close, exact }, typed) {
  return choices ? judgeChoice(typed, { holds: built === choices[0] }, choices, "the book's run")
    : judgeRun(typed, built, close, exact, "the book's run");
}

/**
 * The answer a run's value gives a prompt, as the page shows it (the number in the
 * prompt's format, or the wording the claim made true; null: neither wording).
 */
export function runAnswer({ choices, format }, value) {
  if (!choices) return value[format] ?? null;
  if (value.holds === true) return choices[0];
  return value.holds === false && value.otherwise !== false ? choices[1] : null;
}

/**
 * Whether a run answers the prompt: any run does, but for a question about the reader's
 * edit, which a run giving the book's own answer (`built`: the cell as the book wrote
 * it) does not.
 */
export function runAnswers(view, value) {
  return !view.edit || runAnswer(view, value) !== view.built;
}

/**
 * A run gave the prompt's number: judge the prediction kept before it, once (one the
 * book's run judged as it was kept is judged again by the reader's, which they see).
 */
function onValue(p, view, glued) {
  const { state } = p;
  const kept = state.runs[view.key];
  if (glued.from !== "run" || glued.value === null) return;
  if (!runAnswers(view, glued.value)) {
    if (kept && !kept.judged && !kept.asBuilt) {
      state.runs[view.key] = { ...kept, asBuilt: true };
      changedState(p.session);
      renderAll(p);
    }
    return;
  }
  if (!kept) see(p, view); // the run has shown the answer: what waited for it shows too
  if (!kept || (kept.judged && kept.by !== "book")) return;
  const text = view.choices ? null : glued.value[view.format];
  const result = view.choices ? judgeChoice(kept.typed, glued.value, view.choices)
    : text === undefined ? null : judgeRun(kept.typed, text, view.close, view.exact);
  if (result === null) return;
  state.answers[runKey(view.key)] = result.verdict;
  state.runs[view.key] = { typed: kept.typed, judged: true, text: result.text };
  changedState(p.session);
  renderAll(p);
  afterThisRun(() => announce(`${result.text} ${whyWords(view)} ${scoreLine(p)}`));
}

/**
 * Call `say` once the cell now running is done (micrograd:run-done), not if Python ends
 * first: a prompt's why holds numbers its cell may glue after the prompt's own (the
 * neuron's x2, after w2's gradient), which are the run's only then.
 */
function afterThisRun(say) {
  const done = () => {
    document.removeEventListener("micrograd:restart", ended);
    say();
  };
  const ended = () => document.removeEventListener("micrograd:run-done", done);
  document.addEventListener("micrograd:run-done", done, { once: true });
  document.addEventListener("micrograd:restart", ended, { once: true });
}

/** A prompt's why as the page shows it: its glued numbers without their notes. */
function whyWords(view) {
  const copy = view.why.cloneNode(true);
  copy.querySelectorAll(".mg-glue-note").forEach((note) => note.remove());
  return copy.textContent.replace(/\s+/g, " ").trim();
}

/** A number prompt's field: "Your prediction [    ]". */
function numberField(view) {
  const label = element("label", "mg-predict-label", "Your prediction");
  view.input = numberInput(label, `mg-predict-run-${view.key}`);
  return [label, view.input];
}

/** A choice prompt's fields: one radio button a wording, in a group named for the prompt. */
function choiceFields(view) {
  const group = element("fieldset", "mg-predict-choices");
  group.append(element("legend", "", "Your prediction"));
  const name = `mg-predict-run-${view.key}`;
  view.radios = view.choices.map((choice, k) => {
    const label = element("label", "mg-predict-choice-label");
    const radio = Object.assign(element("input"), { type: "radio", name, value: choice, id: `${name}-${k}` });
    label.append(radio, ` ${choice}`);
    group.append(label, " ");
    return radio;
  });
  return [group];
}

function setUpPrompt(p, box) {
  const view = {
    key: box.dataset.key, box,
    // A number prompt: the format it is compared in, how near is close, and
    // book_runtime.features.predict.runtime.EXACT (as a stepper's).  A choice prompt: the
    // claim's two wordings, the one true when it holds first.
    format: box.dataset.format, close: Number(box.dataset.close),
    exact: Number(box.dataset.exact),
    choices: box.dataset.choices ? JSON.parse(box.dataset.choices) : null,
    // The book's run's answer, as the page shows it, and whether the question is about the
    // reader's edit (the directive's :edit:), which only their run answers.
    built: box.dataset.built,
    edit: box.dataset.edit !== undefined,
    why: box.querySelector(".mg-predict-run-why"),
    waiting: [], // what the page holds back until the answer: {held, line} each
    form: element("form", "mg-predict-run-form"),
    input: null,
    radios: [],
    status: element("p", "mg-predict-run-status"),
    score: element("p", "mg-predict-score"),
  };
  const submit = buttonOf("mg-predict-check", "Keep", "submit");
  view.form.append(...(view.choices ? choiceFields(view) : numberField(view)), " ", submit);
  view.form.addEventListener("submit", (event) => {
    event.preventDefault();
    keep(p, view);
  });
  view.status.setAttribute("aria-live", "off"); // the page's one live region says it
  box.querySelector(".mg-predict-run-question").after(view.form, view.status);
  box.append(view.score);
  view.waiting = waiting(p, view, box);
  p.prompts.set(view.key, view);
  renderPrompt(p, view);
}

// -- the start page: every page's score -----------------------------------------------------------

function showScores(session, box) {
  const pages = savedStates(session)
    .map(({ path, state: saved }) => ({ path, predict: saved.addons && saved.addons.predict }))
    .filter(({ predict }) => {
      const counts = predict && score(predict.answers || {}, predict.runs);
      return counts && counts.made + counts.kept > 0;
    });
  box.replaceChildren();
  if (!pages.length) {
    box.append(element("p", "", "You have made no predictions yet: turn on Predict in a stepper."));
    return;
  }
  const list = element("ul");
  for (const { path, predict } of pages) {
    const item = element("li");
    const link = element("a", "", predict.title || path);
    link.href = path;
    item.append(link, `: ${scoreText(score(predict.answers, predict.runs))}.`);
    list.append(item);
  }
  box.append(list);
}

// -- start ----------------------------------------------------------------------------------------

/** Set up predict mode on the page's steppers (and those a run shows later), and the scores. */
export function setUpPredictions(session) {
  const p = newPredictions(session);
  const { root } = session;
  const { state, steppers } = p;
  session.features.set("predict", p);
  const scores = root.querySelector("#mg-prediction-scores");
  if (scores) showScores(session, scores);
  // Each stepper's Predict switch and each prompt's form, once it nears the viewport.
  // (The steppers' module tells of each stepper it sets up, those a run shows too.)
  const stepperNear = (control) => whenNear(session, control.element, () => setUpStepper(p, control));
  const controllers = steppersOf(session);
  controllers.controllers.forEach(stepperNear);
  controllers.listeners.push(stepperNear);
  // A new width: each open question's place held again, once the steppers are laid out
  // for it (steppers.js, on the same event, a moment before).
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => steppers.forEach((view) => {
      if (state.on) holdSlot(view);
    }), 200);
  });
  // A prompt that holds back what gives its answer away is set up at once: what it holds
  // back may be in view (a link into the section) before the prompt nears the viewport.
  root.querySelectorAll("div.mg-predict-run[data-key]").forEach((box) => {
    if (box.dataset.withholds) setUpPrompt(p, box);
    else whenNear(session, box, () => setUpPrompt(p, box));
  });
  document.addEventListener("micrograd:prose", ({ detail }) => {
    const view = p.prompts.get(detail.key);
    if (view) onValue(p, view, detail.state);
  });
  keepState(session, "predict", {
    snapshot: () => {
      const made = [state.answers, state.revealed, state.runs, state.seen].some((kept) => Object.keys(kept).length);
      return state.on || made ? { ...state, title: pageTitle(session) } : null;
    },
    restore: (saved) => {
      const fresh = freshState();
      for (const field of Object.keys(fresh)) state[field] = structuredClone(saved[field] ?? fresh[field]);
      renderAll(p);
    },
    reset: () => {
      Object.assign(state, freshState());
      steppers.forEach((view) => view.feedback.replaceChildren());
      renderAll(p);
    },
  });
}
