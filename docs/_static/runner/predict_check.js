// Predict, then see: the reader's answers judged against a stepper's questions.
//
// The questions are data the build (or the browser's kernel) made from the
// stepper's numbers (book_runtime/predictions.py): each asks for one input's
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
 * Judge a prediction made before a run against the number the run gave (the
 * text the page shows it as).  `close` is the prompt's own tolerance.
 * Returns {verdict: "right" | "close" | "wrong", text}.
 */
export function judgeRun(predicted, shownText, close, exact) {
  const actual = readNumber(shownText);
  const typed = String(predicted);
  if (actual === null) return null;
  const off = Math.abs(readNumber(typed) - actual);
  if (off <= exact + 1e-9 * Math.abs(actual)) {
    return { verdict: "right", text: `You predicted ${typed}, and the run gave ${shownText}: right.` };
  }
  if (off <= close) {
    return { verdict: "close", text: `You predicted ${typed}; the run gave ${shownText}: close.` };
  }
  return { verdict: "wrong", text: `You predicted ${typed}; the run gave ${shownText}.` };
}

/**
 * Judge a choice made before a run (one of the claim's wordings, `choices`: the
 * one true when the claim holds first) against the run's claim ({holds,
 * otherwise, about}: claims.py; where neither wording is true, neither is right).
 * Returns {verdict: "right" | "wrong", text}, or null for what is no choice.
 */
export function judgeChoice(predicted, claim, choices) {
  const { holds, otherwise, about } = claim || {};
  if (typeof holds !== "boolean" || !choices.includes(predicted)) return null;
  if (!holds && otherwise === false) {
    const what = about ? ` (${about})` : "";
    return {
      verdict: "wrong",
      text: `You predicted “${predicted}”; in your run it neither ${choices[0]} nor ${choices[1]}${what}.`,
    };
  }
  const actual = holds ? choices[0] : choices[1];
  if (predicted === actual) {
    return { verdict: "right", text: `You predicted “${predicted}”, and your run says “${actual}”: right.` };
  }
  return { verdict: "wrong", text: `You predicted “${predicted}”; your run says “${actual}”.` };
}

/** The page's score from its answers ({key: verdict}): made, right and close. */
export function score(answers) {
  const verdicts = Object.values(answers);
  return {
    made: verdicts.length,
    right: verdicts.filter((v) => v === "right").length,
    close: verdicts.filter((v) => v === "close").length,
  };
}

/**
 * "4 judged, 2 right, 1 close" (or "none judged yet"): a prediction counts once a run
 * (or the stepper's step) has judged it, not while it is only kept.
 */
export function scoreText({ made, right, close }) {
  if (made === 0) return "none judged yet";
  return `${made} judged, ${right} right, ${close} close`;
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
