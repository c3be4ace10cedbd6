// The Nudge control's logic (docs/_features/nudge/nudge.js): keys, drags and the
// coalescing of requests to Python.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  captionText, change, dragValue, howText, keptOf, keptText, keyValue, leadText, readout, Requests, roundTo,
  shown, spoken,
} from "../../../../docs/_features/nudge/nudge.js";

import {
  idle, openPage, pageHTML, saved,
} from "../../fake_page.mjs";

const LEAD_L = "Nudge an input and see how far L moves: about the input's gradient times the nudge.";

describe("keys", () => {
  test("the arrows move by one step, Shift by ten, Page keys by ten", () => {
    assert.equal(keyValue("ArrowUp", false, -3, 0.001), -2.999);
    assert.equal(keyValue("ArrowLeft", false, -3, 0.001), -3.001);
    assert.equal(keyValue("ArrowRight", true, -3, 0.001), -2.99);
    assert.equal(keyValue("PageDown", false, -3, 0.001), -3.01);
    assert.equal(keyValue("PageUp", true, -3, 0.001), -2.9);
  });

  test("a key that is no nudge asks for nothing", () => {
    assert.equal(keyValue("Enter", false, 1, 0.01), null);
    assert.equal(keyValue("a", true, 1, 0.01), null);
  });

  test("repeated presses land on round numbers", () => {
    let value = -3;
    for (let i = 0; i < 7; i += 1) value = keyValue("ArrowUp", false, value, 0.001);
    assert.equal(value, -2.993);
  });
});

describe("drags", () => {
  test("every four pixels is a step, Shift makes it ten", () => {
    assert.equal(dragValue(2, 3, false, 0.1), 2);
    assert.equal(dragValue(2, 8, false, 0.1), 2.2);
    assert.equal(dragValue(2, -8, true, 0.1), 0);
  });

  test("a value keeps the step's decimals", () => {
    assert.equal(roundTo(0.1 + 0.2, 0.1), 0.3);
    assert.equal(roundTo(6.8813735870195432, 1), 7);
  });
});

describe("requests to Python", () => {
  test("one is sent at once when none is computing", () => {
    const sent = [];
    const requests = new Requests((r) => sent.push(r));
    requests.ask(1);
    assert.deepEqual(sent, [1]);
  });

  test("those asked while one computes are coalesced into the last", () => {
    const sent = [];
    const requests = new Requests((r) => sent.push(r));
    requests.ask(1);
    requests.ask(2);
    requests.ask(3);
    requests.ask(4);
    assert.deepEqual(sent, [1]);
    requests.answered();
    assert.deepEqual(sent, [1, 4]);
    requests.answered();
    assert.deepEqual(sent, [1, 4]);
    requests.ask(5);
    assert.deepEqual(sent, [1, 4, 5]);
  });

  test("clear forgets the one in flight and the one waiting", () => {
    const sent = [];
    const requests = new Requests((r) => sent.push(r));
    requests.ask(1);
    requests.ask(2);
    requests.clear();
    requests.answered();
    assert.deepEqual(sent, [1]);
    requests.ask(3);
    assert.deepEqual(sent, [1, 3]);
  });
});

describe("the readout", () => {
  const answer = (fields) => ({
    out: 0.7078, base_out: 0.7071, moved: true, rebased: false,
    leaves: [{ name: "x1", value: 2, base: 2, grad: -1.5 }, { name: "w1", value: -2.999, base: -3, grad: 1 }],
    reply: {
      leaf: "w1", value: -2.999, delta_x: 0.001, out: 0.7078, delta_out: 0.000999, grad: 1,
      predicted: 0.001, difference: -0.000001, why: "They agree.",
    },
    ...fields,
  });

  test("says the output, the measured change, the prediction from the moved inputs and why", () => {
    const lines = readout("o", answer());
    assert.equal(lines.out, "o = 0.7078: measured Δo = +0.0010");
    assert.equal(lines.predicted, "The gradient predicts grad(w1) × Δw1 = 1.0000 × +0.0010 = +0.0010");
    assert.equal(lines.difference, "Difference: 0.0000");
    assert.equal(lines.why, "They agree.");
  });

  test("with nothing moved, says only the output and what to do", () => {
    const lines = readout("o", answer({ moved: false, reply: null }));
    assert.deepEqual(lines, {
      out: "o = 0.7078", predicted: null, difference: null,
      why: "Move an input to see how much the output changes.",
    });
  });

  test("numbers have a true minus sign, and a change too small to show has no sign", () => {
    assert.equal(shown(-2.5), "−2.5000");
    assert.equal(shown(-0.00001), "0.0000");
    assert.equal(change(0.001), "+0.0010");
    assert.equal(change(-0.00004), "0.0000");
    assert.equal(change(-0.0005), "−0.0005");
  });

  test("the teaching lead says how to nudge, by how much, and what the step is for", () => {
    const lead = leadText({ root: "o", step: 0.001, teach: true });
    assert.equal(lead, howText({ root: "o", step: 0.001 }));
    assert.match(lead, /^Nudge an input and watch o: drag its number sideways/);
    assert.match(lead, /each press moves it by 0\.001; with Shift, 0\.01\)/);
    assert.match(lead, /"Take a gradient step" moves the input against its gradient, so that o goes down; /);
    assert.match(lead, /press "backward\(\) again" between steps to follow the slope, as training does\.$/);
  });

  test("every other panel's lead is one line that names its output", () => {
  assert.equal(leadText({ root: "L", step: 0.01, teach: false }), LEAD_L);
  assert.equal(leadText({ root: "L", step: 0.01 }), LEAD_L);
});

test("the drawing's caption says whose gradients it shows, and where they belong", () => {
    assert.equal(captionText(answer({ page_grads: true })), "The graph now: its data after your nudges, "
      + "its gradients still those of the point you left (w1 = −3.0000) until you press \"backward() again\".");
    const still = answer({ page_grads: false, moved: false, leaves: [{ name: "a", value: 1, base: 1, grad: 2 }] });
    assert.equal(captionText(still), "The graph now, with the gradients of this point. The panel computes "
      + "them on a copy: the page's own graph has none until its code calls backward().");
  });

  test("the live region hears the input, the output and both changes", () => {
    assert.equal(spoken("o", answer(), "w1"),
      "w1 = −2.9990: o = 0.7078, measured change +0.0010, predicted +0.0010");
  });

  test("what is kept: each input's base and value and the one nudged last, or nothing for a graph as built", () => {
    assert.deepEqual(keptOf(answer()), {
      base: { x1: 2, w1: -3 }, now: { x1: 2, w1: -2.999 }, leaf: "w1",
    });
    assert.equal(keptOf(answer({ moved: false, reply: null })), null);
    assert.deepEqual(keptOf(answer({ moved: false, rebased: true, reply: null })), {
      base: { x1: 2, w1: -3 }, now: { x1: 2, w1: -2.999 },
    });
    assert.match(keptText(keptOf(answer())), /^Kept from your last visit: w1 = −2\.9990\. Resume/);
  });
});

// -- a control on a page, with the runner's real Session and a fake worker ------------------------

/** The fake Python's nudges of o = x * w: the numbers book_runtime.features.nudge.runtime would give. */
function fakeNudges({ pageGrads = true } = {}) {
  const asked = [];
  const graph = { now: { x: 2, w: -3 }, base: { x: 2, w: -3 }, last: null };
  const answer = () => {
    const grad = { x: graph.base.w, w: graph.base.x };
    const leaves = ["x", "w"].map((name) => ({
      name, value: graph.now[name], base: graph.base[name], grad: grad[name],
    }));
    const out = graph.now.x * graph.now.w;
    const moved = leaves.some((l) => l.value !== l.base);
    const deltaOut = out - graph.base.x * graph.base.w;
    const predicted = leaves.reduce((sum, l) => sum + l.grad * (l.value - l.base), 0);
    const reply = moved ? {
      leaf: graph.last, value: graph.now[graph.last], delta_out: deltaOut, predicted,
      difference: deltaOut - predicted, why: "They agree.",
    } : null;
    return {
      out, base_out: graph.base.x * graph.base.w, leaves, reply, bound: ["o"],
      svg: `<svg><text>o ${out}</text></svg>`, moved, rebased: graph.base.w !== -3 || graph.base.x !== 2,
      page_grads: pageGrads, settled: !moved || !pageGrads,
    };
  };
  const set = (namespace, leaf, value) => {
    graph.now[leaf] = value;
    graph.last = leaf;
    namespace.o = graph.now.x * graph.now.w; // the page's graph is nudged, in the page's Python
    return answer();
  };
  const answers = {
    state: (fields) => { asked.push(["state", fields]); return answer(); },
    set: (fields, namespace) => { asked.push(["set", fields]); return set(namespace, fields.leaf, fields.value); },
    step: (fields, namespace) => {
      asked.push(["step", fields]);
      const grad = fields.leaf === "w" ? graph.base.x : graph.base.w;
      return set(namespace, fields.leaf, graph.now[fields.leaf] - fields.rate * grad);
    },
    backward: (fields, namespace) => {
      asked.push(["backward", fields]);
      graph.base = { ...graph.now };
      namespace.o = graph.now.x * graph.now.w;
      return answer();
    },
    reset: (fields, namespace) => {
      asked.push(["reset", fields]);
      graph.now = { x: 2, w: -3 };
      graph.base = { x: 2, w: -3 };
      namespace.o = -6;
      return answer();
    },
    restore: (fields) => {
      asked.push(["restore", fields]);
      graph.base = { ...fields.base };
      graph.now = { ...fields.now };
      graph.last = fields.leaf;
      return answer();
    },
  };
  return { answers, asked };
}

const NUDGE_HTML = pageHTML([
  { source: "o = 2 * -3" },
  { source: "glue(\"total\", o * 1000)", hidden: true, glue: ["total"] },
], {
  prose: `<p>o is <span class="pasted-text" data-glue-key="total" data-glue-format=".1f">-6000.0</span>.</p>
<div class="mg-nudge" data-nudge='${JSON.stringify({
    root: "o", leaves: ["x", "w"], step: 0.001, rate: 0.1,
  })}'><p>On the book's web pages, with JavaScript on, this graph can be nudged.</p></div>`,
});

/** Resolves once `holds()` is true (checked after each turn of the event loop). */
function until(holds) {
  return new Promise((resolve) => {
    const look = () => (holds() ? resolve() : setTimeout(look, 0));
    look();
  });
}

const press = (window, el, key, shiftKey = false) =>
  el.dispatchEvent(new window.KeyboardEvent("keydown", { key, shiftKey, bubbles: true }));

test("the first nudge runs the graph's cell, then the keys nudge an input and Python's numbers show", { timeout: 20_000 }, async () => {
  const { answers, asked } = fakeNudges();
  const { window, session } = await openPage(NUDGE_HTML, { answers });
  await until(() => (session.features.get("nudge") || []).length === 1);
  const box = window.document.querySelector("div.mg-nudge");
  const [control] = session.features.get("nudge");
  assert.equal(control.cell, session.cells[0]);
  assert.equal(box.querySelector(".mg-nudge-rows").hidden, true);
  box.querySelector(".mg-nudge-start").click();
  await until(() => control.answer !== null);
  assert.equal(session.cells[0].state, "done");
  assert.deepEqual(asked[0], ["state", { root: "o" }]);
  const slider = box.querySelector('[role="slider"][aria-label="w"]');
  assert.equal(slider.getAttribute("aria-valuenow"), "-3");
  press(window, slider, "ArrowUp");
  assert.equal(slider.getAttribute("aria-valuenow"), "-2.999");
  await until(() => session.records.nudges.length === 1);
  assert.deepEqual(asked[1], ["set", { root: "o", leaf: "w", value: -2.999 }]);
  assert.match(box.querySelector(".mg-nudge-out").textContent, /^o = −5\.9980: measured Δo = \+0\.0020/);
  assert.match(box.querySelector(".mg-nudge-predicted").textContent, /grad\(w\) × Δw = 2\.0000 × \+0\.0010 = \+0\.0020$/);
  assert.match(window.document.querySelector(".runner-announcer").textContent, /^w = −2\.9990: o = −5\.9980/);
  // The cell's drawing is marked: it is the graph before the nudges.
  assert.ok(session.cells[0].el.querySelector(".mg-nudge-mark").classList.contains("mg-nudge-mark-on"));
  assert.match(box.querySelector(".mg-nudge-drawing").innerHTML, /o -5\.998/);
  // The prose's number about the graph is stale while the graph is nudged (its data and
  // its gradients belong to two points); backward() again makes them one, and the
  // hidden cell after the graph's runs again: the prose follows.
  const total = window.document.querySelector("span.pasted-text");
  await until(() => total.dataset.shown === "stale");
  assert.match(total.textContent, /^-6000\.0/);
  box.querySelector(".mg-nudge-backward").click();
  await until(() => total.textContent.startsWith("-5998.0") && total.dataset.shown === "yours");
  // Three presses while one is computing: the last value asked for is the last one answered,
  // and those in between are coalesced away.
  const before = asked.length;
  press(window, slider, "ArrowUp");
  press(window, slider, "ArrowUp", true);
  press(window, slider, "ArrowUp");
  await until(() => control.requests.inFlight === null && control.requests.waiting === null);
  const sent = asked.slice(before).map(([, fields]) => fields.value);
  assert.ok(sent.length < 3, sent);
  assert.equal(sent.at(-1), -2.987);
  // The gradient step moves w by −rate × grad: w, the input nudged last, not x, the first.
  assert.match(box.querySelector(".mg-nudge-step").textContent, /^Take a gradient step on w \(/);
  box.querySelector(".mg-nudge-step").click();
  await until(() => asked.at(-1)[0] === "step" && control.requests.inFlight === null);
  assert.deepEqual(asked.at(-1), ["step", { root: "o", leaf: "w", rate: 0.1 }]);
  assert.equal(control.answer.leaves[1].value, -2.987 - 0.1 * 2);
  // Reset: the graph as built, and the mark goes.
  box.querySelector(".mg-nudge-reset").click();
  await until(() => control.answer.moved === false);
  assert.ok(!session.cells[0].el.querySelector(".mg-nudge-mark").classList.contains("mg-nudge-mark-on"));
});

const TWO_NUDGES_HTML = pageHTML([
  { source: "o = 2 * -3" },
  { source: "L = o * 2" },
], {
  prose: [["o", true], ["L", false]].map(([root, teach]) => `<div class="mg-nudge" data-nudge='${JSON.stringify({
    root, leaves: ["x", "w"], step: 0.001, rate: 0.1, teach,
  })}'><p>On the book's web pages, with JavaScript on, this graph can be nudged.</p></div>`).join("\n"),
});

test("the nudge instructions are taught once: the panel the build marks says them in full, the others fold them", async () => {
  const { answers } = fakeNudges();
  const { window, session } = await openPage(TWO_NUDGES_HTML, { answers });
  await until(() => (session.features.get("nudge") || []).length === 2);
  const panels = [...window.document.querySelectorAll(".mg-nudge-control")];
  const leads = panels.map((panel) => panel.querySelector(".mg-nudge-lead").textContent);
  assert.equal(leads[0], howText({ root: "o", step: 0.001 }));
  assert.equal(leads[1], LEAD_L);
  assert.equal(panels[0].querySelector("details.mg-nudge-how"), null);
  const how = panels[1].querySelector("details.mg-nudge-how");
  assert.ok(!how.open);
  assert.ok(how.hidden, "the folded instructions wait for the nudging to start");
  assert.equal(how.querySelector("summary").textContent, "How to nudge");
  assert.equal(how.querySelector("p").textContent, howText({ root: "L", step: 0.001 }));
  // The panel's words come first in it, the one line before the folded instructions.
  assert.equal(panels[1].firstElementChild, panels[1].querySelector(".mg-nudge-lead"));
});

const IDENTITY_HTML = pageHTML([
  { source: "o = 2 * -3" },
  {
    source: "glue(\"total\", o * 1000)\nclaim(\"by_hand\", o === o)",
    hidden: true,
    glue: ["total", "claim:by_hand"],
    anyInput: ["claim:by_hand"],
  },
], {
  prose: `<p>o is <span class="pasted-text" data-glue-key="total" data-glue-format=".1f">-6000.0</span>.
<span class="mg-claim" data-claim-key="by_hand"><span class="mg-claim-holds">By hand: do/dw = x</span></span>.</p>
<div class="mg-nudge" data-nudge='${JSON.stringify({
    root: "o", leaves: ["x", "w"], step: 0.001, rate: 0.1,
  })}'><p>On the book's web pages, with JavaScript on, this graph can be nudged.</p></div>`,
});

test("a nudge makes the prose's numbers out of date, but not a claim that holds for any input", { timeout: 20_000 }, async () => {
  const { answers } = fakeNudges();
  const { window, session } = await openPage(IDENTITY_HTML, { answers });
  await until(() => (session.features.get("nudge") || []).length === 1);
  const box = window.document.querySelector("div.mg-nudge");
  box.querySelector(".mg-nudge-start").click();
  await until(() => session.features.get("nudge")[0].answer !== null);
  const identity = window.document.querySelector("span.mg-claim");
  await until(() => identity.dataset.shown === "yours");
  press(window, box.querySelector('[role="slider"][aria-label="w"]'), "ArrowUp");
  const total = window.document.querySelector("span.pasted-text");
  await until(() => total.dataset.shown === "stale");
  assert.equal(identity.dataset.shown, "yours");
  assert.equal(identity.querySelector(".mg-claim-mark"), null);
  assert.ok(!identity.classList.contains("mg-claim-stale"));
});

test("a graph its page never ran backward() on: the prose follows each nudge, never out of date", { timeout: 20_000 }, async () => {
  const { answers } = fakeNudges({ pageGrads: false });
  const { window, session } = await openPage(NUDGE_HTML, { answers });
  await until(() => (session.features.get("nudge") || []).length === 1);
  const box = window.document.querySelector("div.mg-nudge");
  box.querySelector(".mg-nudge-start").click();
  await until(() => session.features.get("nudge")[0].answer !== null);
  press(window, box.querySelector('[role="slider"][aria-label="w"]'), "ArrowUp");
  const total = window.document.querySelector("span.pasted-text");
  await until(() => total.textContent.startsWith("-5998.0") && total.dataset.shown === "yours");
});

test("a typed value is nudged to, and a typed word is named as no number", async () => {
  const { answers, asked } = fakeNudges();
  const { window, session } = await openPage(NUDGE_HTML, { answers });
  await until(() => (session.features.get("nudge") || []).length === 1);
  const box = window.document.querySelector("div.mg-nudge");
  box.querySelector(".mg-nudge-start").click();
  await until(() => session.features.get("nudge")[0].answer !== null);
  const typed = box.querySelector('input[aria-label="Type a value for x"]');
  typed.value = "two";
  typed.dispatchEvent(new window.Event("change"));
  assert.match(box.querySelector(".mg-nudge-status").textContent, /x needs a number, such as -2\.5: "two" is not one\./);
  typed.value = "2.5";
  typed.dispatchEvent(new window.Event("change"));
  await until(() => asked.at(-1)[0] === "set");
  assert.deepEqual(asked.at(-1), ["set", { root: "o", leaf: "x", value: 2.5 }]);
  assert.equal(box.querySelector(".mg-nudge-status").hidden, true);
});

test("a reload keeps the nudged value, and Resume nudges the graph back there", async () => {
  const first = fakeNudges();
  const opened = await openPage(NUDGE_HTML, { answers: first.answers });
  await until(() => (opened.session.features.get("nudge") || []).length === 1);
  const box = opened.window.document.querySelector("div.mg-nudge");
  box.querySelector(".mg-nudge-start").click();
  await until(() => opened.session.features.get("nudge")[0].answer !== null);
  press(opened.window, box.querySelector('[role="slider"][aria-label="w"]'), "ArrowUp");
  await until(() => opened.session.records.nudges.length === 1);
  await idle(opened.session);
  await saved(opened.session);

  const second = fakeNudges();
  const again = await openPage(NUDGE_HTML, { answers: second.answers, storage: opened.storage });
  await until(() => (again.session.features.get("nudge") || []).length === 1);
  await again.session.restored;
  const kept = again.window.document.querySelector("div.mg-nudge");
  await until(() => !kept.querySelector(".mg-nudge-kept").hidden);
  assert.match(kept.querySelector(".mg-nudge-kept").textContent, /Kept from your last visit: w = −2\.9990\./);
  assert.match(kept.querySelector(".mg-nudge-start").textContent, /Resume nudging/);
  kept.querySelector(".mg-nudge-start").click();
  await until(() => again.session.features.get("nudge")[0].answer !== null);
  assert.deepEqual(second.asked[0], ["restore", {
    root: "o", base: { x: 2, w: -3 }, now: { x: 2, w: -2.999 }, leaf: "w",
  }]);
  assert.equal(kept.querySelector('[role="slider"][aria-label="w"]').getAttribute("aria-valuenow"), "-2.999");
});
