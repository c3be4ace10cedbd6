// Predict mode's answer checking (docs/_features/predict/predict.js), on the
// questions the page gets: predictions.fixture.json is what
// book_runtime.features.predict.runtime makes of L = (a*b*a) * e
// (tests/features/predict/test_predictions.py
// keeps it so), where a is used twice and every misconception has its number.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  answerKey, frameToAsk, judge, judgeChoice, judgeRun, longestVerdicts, readNumber, score, scoreText,
  builtVerdict, runAnswer, runAnswers, shown, whyShown,
} from "../../../../docs/_features/predict/predict.js";

const DATA = JSON.parse(readFileSync(new URL("../../predictions.fixture.json", import.meta.url), "utf8"));

/** The question about `input` asked before `node`'s rule runs. */
function askAbout(node, input) {
  const frame = DATA.frames.find((f) => f && f.node === node);
  return frame.asks.find((a) => a.input === input);
}

const valueOf = (ask, kind) => String(ask.mistakes.find((m) => m.kind === kind).value);

test("a reader's number is read as typed, with a comma or a typographic minus", () => {
  assert.deepEqual(["-1.5", "\u22121.5", " 1,5 ", "+2", ".5", "1e-3"].map(readNumber), [-1.5, -1.5, 1.5, 2, 0.5, 0.001]);
  assert.deepEqual(["", "abc", "1.2.3", "- 1", "1,000.5.2"].map(readNumber), [null, null, null, -1, null]);
});

test("the right number, as a reader rounds it, is right and explained by the rule", () => {
  const ask = askAbout("d", "a");
  const result = judge(ask, ask.answer, DATA.exact);
  assert.equal(result.verdict, "right");
  assert.equal(result.text, `a.grad: right. ${ask.explain.text}`);
  assert.ok(result.html.includes("<code>"));
});

test("a number near the answer is close, and says the answer", () => {
  const ask = askAbout("d", "a"); // -1.5
  const result = judge(ask, "-1.53", DATA.exact);
  assert.equal(result.verdict, "close");
  assert.ok(result.text.startsWith("a.grad: close, it is -1.5."));
});

test("each misconception is named by its own words", () => {
  const first = askAbout("d", "a");
  const second = askAbout("c", "a");
  const cases = [
    [first, "swapped", "own value"],
    [first, "forgot-out-grad", "local derivative alone"],
    [first, "too-early", "once every user"],
    [second, "assigned", "with ="],
  ];
  for (const [ask, kind, words] of cases) {
    const result = judge(ask, valueOf(ask, kind), DATA.exact);
    assert.equal(result.verdict, "wrong", kind);
    assert.equal(result.kind, kind);
    assert.ok(result.text.includes(words), `${kind}: ${result.text}`);
    assert.ok(result.text.endsWith(ask.explain.text), kind);
  }
});

test("another wrong number gets the answer and the rule, and no misconception", () => {
  const ask = askAbout("d", "a");
  const result = judge(ask, "42", DATA.exact);
  assert.deepEqual([result.verdict, result.kind], ["wrong", null]);
  assert.ok(result.text.startsWith("a.grad: not 42, it is -1.5."));
});

test("an answer that is not a number is not a prediction", () => {
  const result = judge(askAbout("d", "a"), "minus one", DATA.exact);
  assert.equal(result.verdict, "unread");
  assert.equal(result.text, "Type a number for a.grad, like -1.5 or 0.25.");
});

test("Show me gives the answer and the rule, and is not a prediction", () => {
  const ask = askAbout("c", "a");
  const result = shown(ask);
  assert.equal(result.verdict, "shown");
  assert.equal(result.text, `a.grad is -3.0: ${ask.explain.text}`);
});

test("a step forward asks about the first frame not yet shown, and a step back asks nothing", () => {
  const asked = DATA.frames.map((f, k) => (f ? k : null)).filter((k) => k !== null);
  assert.equal(frameToAsk(DATA.frames, new Set(), 0, 1), null); // the seed: no rule
  assert.equal(frameToAsk(DATA.frames, new Set(), 1, 2), asked[0]);
  assert.equal(frameToAsk(DATA.frames, new Set([asked[0]]), 1, DATA.frames.length - 1), asked[1]);
  assert.equal(frameToAsk(DATA.frames, new Set(), 4, 2), null);
});

test("the score counts the predictions made, right and close", () => {
  const answers = {
    [answerKey("s", 2, "a")]: "right",
    [answerKey("s", 2, "b")]: "close",
    [answerKey("s", 3, "a")]: "wrong",
  };
  assert.deepEqual(score(answers), { made: 3, right: 1, close: 1, kept: 0 });
  assert.equal(scoreText(score(answers)), "3 judged, 1 right, 1 close");
  assert.equal(scoreText(score({})), "none judged yet");
});

test("a prediction only kept is said to wait for its run, not left out of the score", () => {
  const waiting = { p1: { typed: "1.0", judged: false } };
  assert.equal(scoreText(score({}, waiting)), "none judged yet; 1 kept, judged when its cell runs");
  const both = { ...waiting, p2: { typed: "2", judged: false }, p3: { typed: "3", judged: true } };
  assert.equal(
    scoreText(score({ p3: "right" }, both)),
    "1 judged, 1 right, 0 close; 2 kept, judged when their cells run",
  );
});

test("a prediction before a run is judged against the number the run shows", () => {
  assert.deepEqual(judgeRun("0.0887", "0.0887", 0.01, 5e-4).verdict, "right");
  assert.equal(judgeRun("0.09", "0.0887", 0.01, 5e-4).verdict, "close");
  const wrong = judgeRun("0.5", "0.0887", 0.01, 5e-4);
  assert.equal(wrong.verdict, "wrong");
  assert.equal(wrong.text, "You predicted 0.5; the run gave 0.0887.");
  assert.equal(judgeRun("1", "not a number", 0.01, 5e-4), null);
});

test("a choice before a run is judged by whether the run's claim holds", () => {
  const choices = ["rises", "falls"]; // the claim's wordings: the one when it holds first
  const run = (holds, otherwise = true) => ({ holds, otherwise, about: "from 0.5 to 0.5" });
  assert.deepEqual(judgeChoice("falls", run(false), choices), {
    verdict: "right", text: "You predicted “falls”, and your run says “falls”: right.",
  });
  assert.deepEqual(judgeChoice("falls", run(true), choices), {
    verdict: "wrong", text: "You predicted “falls”; your run says “rises”.",
  });
  assert.equal(judgeChoice("rises", run(true), choices).verdict, "right");
  assert.equal(judgeChoice("stays", run(true), choices), null); // not one of the choices
  assert.equal(judgeChoice("rises", run("yes"), choices), null); // no verdict from the run
  assert.equal(judgeChoice("rises", null, choices), null);
});

test("a choice is wrong either way when the run makes neither wording true", () => {
  const choices = ["rises", "falls"];
  const still = { holds: false, otherwise: false, about: "from 0.5000 to 0.5000" };
  for (const predicted of choices) {
    assert.deepEqual(judgeChoice(predicted, still, choices), {
      verdict: "wrong",
      text: `You predicted “${predicted}”; in your run it neither rises nor falls (from 0.5000 to 0.5000).`,
    });
  }
});

test("a question's place is held for its longest verdict: every answer's fits in it", () => {
  for (const frame of DATA.frames.filter(Boolean)) {
    const longest = longestVerdicts(frame.asks, DATA.exact);
    assert.equal(longest.length, frame.asks.length);
    frame.asks.forEach((ask, k) => {
      const answers = [ask.answer, ...ask.mistakes.map((m) => String(m.value)), "12345"];
      const verdicts = [shown(ask), ...answers.map((typed) => judge(ask, typed, DATA.exact))];
      const most = Math.max(...verdicts.map((v) => v.text.length));
      assert.equal(longest[k].text.length, most, `${ask.grad}: ${longest[k].text}`);
      assert.ok(verdicts.some((v) => v.text === longest[k].text), ask.grad);
    });
  }
});

test("a prediction's worked answer shows once it is judged, or the run or Show gave the answer", () => {
  const key = "run/neuron_dw2";
  const state = (runs, seen = []) => ({ runs, seen });
  // Kept for the reader's edit (the neuron's x2): the build's numbers are not its answer.
  assert.equal(whyShown(state({ [key]: { typed: "0.5", judged: false } }), key), false);
  assert.equal(whyShown(state({ [key]: { typed: "0.5", judged: true, text: "" } }), key), true);
  assert.equal(whyShown(state({}, [key]), key), true);
  assert.equal(whyShown(state({}), key), false);
  assert.equal(whyShown(state({ other: { typed: "1", judged: true } }), key), false);
});

test("a prediction about the cell as written is judged by the book's run as it is kept", () => {
  const number = { built: "1.0", choices: null, close: 0.05, exact: 5e-4 };
  assert.deepEqual(builtVerdict(number, "2"), { verdict: "wrong", text: "You predicted 2; the book's run gave 1.0." });
  assert.equal(builtVerdict(number, "1").text, "You predicted 1, and the book's run gave 1.0: right.");
  const choice = { built: "stay the same", choices: ["stay the same", "change"] };
  assert.deepEqual(builtVerdict(choice, "change"), {
    verdict: "wrong", text: "You predicted “change”; the book's run says “stay the same”.",
  });
  assert.equal(builtVerdict(choice, "stay the same").verdict, "right");
});

test("a run that gives the book's own answer does not answer a question about an edit", () => {
  const neuron = { built: "0.0000", choices: null, format: ".4f", edit: true };
  assert.equal(runAnswer(neuron, { ".4f": "0.0887" }), "0.0887");
  assert.equal(runAnswers(neuron, { ".4f": "0.0000" }), false); // the cell as written
  assert.equal(runAnswers(neuron, { ".4f": "0.0887" }), true); // x2 = 1.0
  assert.equal(runAnswers({ ...neuron, edit: false }, { ".4f": "0.0000" }), true);
  const moons = { built: "rises", choices: ["rises", "falls"], edit: true };
  assert.equal(runAnswers(moons, { holds: true, otherwise: true }), false);
  assert.equal(runAnswers(moons, { holds: false, otherwise: true }), true); // falls
  assert.equal(runAnswer(moons, { holds: false, otherwise: false }), null); // neither
  assert.equal(runAnswers(moons, { holds: false, otherwise: false }), true);
});
