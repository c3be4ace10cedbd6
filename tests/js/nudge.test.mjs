// The Nudge control's logic (docs/_static/runner/nudge.js): keys, drags and the
// coalescing of requests to Python.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { dragValue, keyValue, Requests, roundTo } from "../../docs/_static/runner/nudge.js";

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
