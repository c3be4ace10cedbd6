// Predict, then see: predict mode in every stepper, and the page's score.
//
// A stepper's questions follow its HTML as JSON (book_runtime/predictions.py
// made them from the stepper's numbers, at build time or in the worker).  Each
// stepper gets a Predict switch; the switch is one for the page, off by
// default.  With it on, a step forward to a frame in which a rule runs is held
// back (micrograd-figures.js's cancelable "mg-stepper-step"): the stepper asks
// for the grad each input of the rule will hold, judges the answers
// (predict_check.js), explains them by the rule and the numbers, and then
// shows the frame.  Answers are kept with the page's state (pagestate.js):
// the switch, each answer's verdict and the frames already shown; Reset page
// clears them.  A prompt in the prose (docs/_ext/predict_prompts.py) asks for the
// number a run will give, or which wording of a claim the run makes true: the
// prediction is kept, and when the run's glued value or claim arrives (prose.js's
// micrograd:prose) it is judged and explained, and counts in the same score.  The
// start page lists every page's score.

import { announce } from "./cells.js";
import { element } from "./dom.js";
import { changedState, keepState, savedStates } from "./pagestate.js";
import {
  answerKey, frameToAsk, judge, judgeChoice, judgeRun, readNumber, score, scoreText, shown,
} from "./predict_check.js";

const DATA = "script.mg-predict-data";

/**
 * The page's predictions (session.predictions), as data: what is saved (state), and
 * the steppers and prompts set up.
 */
const newPredictions = (session) => ({
  session,
  state: {
    on: false,
    answers: {}, // answerKey -> "right" | "close" | "wrong"
    revealed: {}, // stepper id -> frames shown (asked, or shown without an answer)
    runs: {}, // a prompt's key -> {typed, judged, text}: the prediction kept before a run
    // (typed: the number as typed, or the wording chosen)
  },
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
  return `Your predictions on this page: ${scoreText(score(p.state.answers))}.`;
}

function render(p, view) {
  const { state } = p;
  view.toggle.setAttribute("aria-pressed", String(state.on));
  view.box.hidden = !state.on;
  if (!state.on) {
    view.pending = null;
    view.form.hidden = true;
  }
  view.score.textContent = scoreLine(p);
}

function renderPrompt(p, view) {
  const kept = p.state.runs[view.key];
  view.why.hidden = !(kept && kept.judged);
  view.status.textContent = !kept ? ""
    : kept.judged ? kept.text
      : view.choices ? `Kept: ${kept.typed}. Now run it: the page tells you what your run says.`
        : `Kept: ${kept.typed}. Now run it: the page compares your number with the run's.`;
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

function ask(view, frame) {
  const question = view.data.frames[frame];
  view.pending = frame;
  view.lead.innerHTML = question.lead.html;
  view.fields.replaceChildren();
  view.inputs = question.asks.map((item, k) => {
    const row = element("p", "mg-predict-row");
    const label = element("label");
    label.innerHTML = item.question.html;
    const input = element("input", "mg-predict-input");
    input.type = "text";
    input.inputMode = "decimal";
    input.autocomplete = "off";
    input.id = `${view.id}-predict-${frame}-${k}`;
    label.htmlFor = input.id;
    row.append(label, " ", input);
    view.fields.append(row);
    return input;
  });
  view.feedback.replaceChildren();
  view.form.hidden = false;
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
  view.stepper.goTo(frame);
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

function makeView(p, stepper, data) {
  const controls = stepper.querySelector(":scope > .mg-stepper-controls");
  const view = {
    stepper, data, id: stepper.id, pending: null, inputs: [],
    toggle: element("button", "mg-predict-switch", "Predict"),
    box: element("div", "mg-predict"),
    form: element("form", "mg-predict-ask"),
    lead: element("p", "mg-predict-lead"),
    fields: element("div", "mg-predict-fields"),
    feedback: element("div", "mg-predict-feedback"),
    score: element("p", "mg-predict-score"),
  };
  view.toggle.type = "button";
  view.toggle.title = "Predict each step's gradients before the stepper shows them";
  view.toggle.addEventListener("click", () => toggle(p));
  const submit = element("button", "mg-predict-check", "Check");
  submit.type = "submit";
  const skip = element("button", "mg-predict-show", "Show me");
  skip.type = "button";
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
  view.box.append(view.form, view.feedback, view.score);
  controls.append(view.toggle);
  controls.after(view.box);
  stepper.addEventListener("mg-stepper-step", (event) => {
    if (!p.state.on) return;
    const { from, to } = event.detail;
    const frame = frameToAsk(data.frames, revealedOf(p, view.id), from, to);
    if (frame === null) return;
    event.preventDefault();
    ask(view, frame);
  });
  return view;
}

function setUpStepper(p, stepper) {
  const script = stepper.nextElementSibling;
  if (p.steppers.has(stepper) || !script || !script.matches(DATA) || !stepper.goTo) return;
  const data = JSON.parse(script.textContent);
  if (!data.frames.some(Boolean)) return;
  const view = makeView(p, stepper, data);
  p.steppers.set(stepper, view);
  render(p, view);
}

// -- predict, then run: a prompt in the prose ----------------------------------------------------

const runKey = (key) => `run/${key}`;

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
  p.state.runs[view.key] = { typed, judged: false, text: "" };
  changedState(p.session);
  renderAll(p);
  announce(view.status.textContent);
}

/** A run gave the prompt's number: judge the prediction kept before it, once. */
function onValue(p, view, glued) {
  const { state } = p;
  const kept = state.runs[view.key];
  if (!kept || kept.judged || glued.from !== "run" || glued.value === null) return;
  const text = view.choices ? null : glued.value[view.format];
  const result = view.choices ? judgeChoice(kept.typed, glued.value, view.choices)
    : text === undefined ? null : judgeRun(kept.typed, text, view.close, view.exact);
  if (result === null) return;
  state.answers[runKey(view.key)] = result.verdict;
  state.runs[view.key] = { ...kept, judged: true, text: result.text };
  changedState(p.session);
  renderAll(p);
  announce(`${result.text} ${view.why.textContent.trim()} ${scoreLine(p)}`);
}

/** A number prompt's field: "Your prediction [    ]". */
function numberField(view) {
  const label = element("label", "mg-predict-label", "Your prediction");
  view.input = element("input", "mg-predict-input");
  view.input.type = "text";
  view.input.inputMode = "decimal";
  view.input.autocomplete = "off";
  view.input.id = `mg-predict-run-${view.key}`;
  label.htmlFor = view.input.id;
  return [label, view.input];
}

/** A choice prompt's fields: one radio button a wording, in a group named for the prompt. */
function choiceFields(view) {
  const group = element("fieldset", "mg-predict-choices");
  group.append(element("legend", "", "Your prediction"));
  view.radios = view.choices.map((choice, k) => {
    const label = element("label", "mg-predict-choice-label");
    const radio = element("input");
    radio.type = "radio";
    radio.name = `mg-predict-run-${view.key}`;
    radio.value = choice;
    radio.id = `${radio.name}-${k}`;
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
    // book_runtime.predictions.EXACT (as a stepper's).  A choice prompt: the
    // claim's two wordings, the one true when it holds first.
    format: box.dataset.format, close: Number(box.dataset.close),
    exact: Number(box.dataset.exact),
    choices: box.dataset.choices ? JSON.parse(box.dataset.choices) : null,
    why: box.querySelector(".mg-predict-run-why"),
    form: element("form", "mg-predict-run-form"),
    input: null,
    radios: [],
    status: element("p", "mg-predict-run-status"),
    score: element("p", "mg-predict-score"),
  };
  const submit = element("button", "mg-predict-check", "Keep");
  submit.type = "submit";
  view.form.append(...(view.choices ? choiceFields(view) : numberField(view)), " ", submit);
  view.form.addEventListener("submit", (event) => {
    event.preventDefault();
    keep(p, view);
  });
  view.status.setAttribute("aria-live", "off"); // the page's one live region says it
  box.querySelector(".mg-predict-run-question").after(view.form, view.status);
  box.append(view.score);
  p.prompts.set(view.key, view);
  renderPrompt(p, view);
}

// -- the start page: every page's score -----------------------------------------------------------

function showScores(session, box) {
  const pages = savedStates(session)
    .map(({ path, state: saved }) => ({ path, predict: saved.addons && saved.addons.predict }))
    .filter(({ predict }) => predict && Object.keys(predict.answers || {}).length);
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
    item.append(link, `: ${scoreText(score(predict.answers))}.`);
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
  session.predictions = p;
  const scores = root.querySelector("#mg-prediction-scores");
  if (scores) showScores(session, scores);
  root.querySelectorAll(".mg-stepper.mg-ready").forEach((stepper) => setUpStepper(p, stepper));
  document.addEventListener("mg-stepper-ready", (event) => setUpStepper(p, event.target));
  root.querySelectorAll("div.mg-predict-run[data-key]").forEach((box) => setUpPrompt(p, box));
  document.addEventListener("micrograd:prose", ({ detail }) => {
    const view = p.prompts.get(detail.key);
    if (view) onValue(p, view, detail.state);
  });
  keepState(session, "predict", {
    snapshot: () => {
      const answered = Object.keys(state.answers).length > 0;
      const seen = Object.keys(state.revealed).length > 0 || Object.keys(state.runs).length > 0;
      return state.on || answered || seen ? { ...state, title: pageTitle(session) } : null;
    },
    restore: (saved) => {
      state.on = Boolean(saved.on);
      state.answers = { ...(saved.answers || {}) };
      state.revealed = { ...(saved.revealed || {}) };
      state.runs = { ...(saved.runs || {}) };
      renderAll(p);
    },
    reset: () => {
      Object.assign(state, { on: false, answers: {}, revealed: {}, runs: {} });
      steppers.forEach((view) => view.feedback.replaceChildren());
      renderAll(p);
    },
  });
}
