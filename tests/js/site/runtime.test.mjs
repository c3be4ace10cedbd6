// The runtime's state machine (docs/_static/runner/session.js): the moves its
// status may make, the ones it refuses, and the one teardown, from each status.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Session, Status, allowed } from "../../../docs/_static/runner/session.js";

const createRuntime = () => new Session();

/**
 * A runtime brought to `status` by allowed moves (running: with a run started;
 * crashed: by a crash's teardown).
 */
function runtimeAt(status) {
  const runtime = createRuntime();
  const path = {
    off: [],
    starting: [Status.starting],
    ready: [Status.starting, Status.ready],
    running: [Status.starting, Status.ready],
    crashed: [Status.starting],
  }[status];
  for (const to of path) runtime.moveTo(to);
  if (status === Status.running) startRun(runtime);
  if (status === Status.crashed) runtime.teardown("crashed", "the worker died");
  return runtime;
}

/** A run as python.js starts one; `settled` holds what its promise resolved with. */
function startRun(runtime, entry = { code: 0 }) {
  const run = { id: runtime.newId(), entry, changed: [], settled: null };
  run.resolve = (result) => {
    run.settled = result;
  };
  runtime.startRun(run);
  return run;
}

test("the status is a frozen enum of plain names", () => {
  assert.ok(Object.isFrozen(Status));
  assert.deepEqual(Object.keys(Status), ["off", "starting", "ready", "running", "crashed"]);
  for (const [name, value] of Object.entries(Status)) assert.equal(name, value);
  assert.throws(() => {
    "use strict";
    Status.off = "on";
  }, TypeError);
});

test("a fresh runtime is off, at generation 0, with nothing running or waiting", () => {
  const runtime = createRuntime();
  assert.equal(runtime.status, Status.off);
  assert.equal(runtime.generation, 0);
  assert.equal(runtime.current, null);
  assert.deepEqual(runtime.waiting, []);
  assert.equal(runtime.isUp(), false);
});

test("the allowed moves: off, starting, ready, and running and back", () => {
  const runtime = createRuntime();
  for (const to of [Status.starting, Status.ready, Status.running, Status.ready, Status.running]) {
    runtime.moveTo(to);
    assert.equal(runtime.status, to);
  }
  assert.equal(runtime.isUp(), true);
});

test("every other move is refused, and leaves the status as it was", () => {
  const moves = {
    off: [Status.starting],
    starting: [Status.ready],
    ready: [Status.running],
    running: [Status.ready],
    crashed: [],
  };
  for (const from of Object.values(Status)) {
    for (const to of Object.values(Status)) {
      assert.equal(allowed(from, to), moves[from].includes(to), `${from} -> ${to}`);
      if (moves[from].includes(to)) continue;
      const runtime = runtimeAt(from);
      assert.throws(() => runtime.moveTo(to), /cannot go from/, `${from} -> ${to}`);
      assert.equal(runtime.status, from);
    }
  }
});

test("a status that is not one of the enum's is refused", () => {
  assert.throws(() => createRuntime().moveTo("on"), /no runtime status on/);
});

test("a run makes the runtime running; its end, ready again", () => {
  const runtime = runtimeAt(Status.ready);
  const run = startRun(runtime);
  assert.equal(runtime.status, Status.running);
  assert.equal(runtime.current, run);
  assert.equal(runtime.finishRun(), run);
  assert.equal(runtime.status, Status.ready);
  assert.equal(runtime.current, null);
  assert.equal(runtime.finishRun(), null); // nothing to finish: the status stays
  assert.equal(runtime.status, Status.ready);
});

test("a run cannot start unless Python is ready", () => {
  for (const status of [Status.off, Status.starting, Status.running, Status.crashed]) {
    assert.throws(() => startRun(runtimeAt(status)), /cannot go from/, status);
  }
});

test("a Run of a cell that waits or runs is the request already made", () => {
  const runtime = runtimeAt(Status.ready);
  const [first, second] = [{ code: 1 }, { code: 2 }];
  runtime.waiting.push(first, second);
  assert.equal(runtime.asked(first, false), true); // next: its steps or its own run ahead
  assert.equal(runtime.asked(second, true), true); // waits behind, whatever it showed before
  startRun(runtime, second);
  assert.equal(runtime.asked(second, true), true); // it runs (as a step of another, say)
  assert.equal(runtime.asked({ code: 3 }, true), false);
});

test("once a cell's own run is over, Run asks again, behind the hidden cells after it", () => {
  const runtime = runtimeAt(Status.ready);
  const cell = { code: 1 };
  const follower = { code: 2 };
  runtime.waiting.push(cell);
  startRun(runtime, follower); // the request's hidden follower runs; the cell is done
  assert.equal(runtime.asked(cell, true), false);
  runtime.waiting.push(cell);
  assert.equal(runtime.asked(cell, true), true); // asked again: the second Run waits
});

test("ids are never given twice, across teardowns", () => {
  const runtime = createRuntime();
  const first = runtime.newId();
  runtime.teardown();
  assert.ok(runtime.newId() > first);
});

for (const from of Object.values(Status)) {
  for (const reason of ["stopped", "crashed"]) {
    test(`a teardown (${reason}) from ${from} bumps the generation and ends the run`, () => {
      const runtime = runtimeAt(from);
      const run = runtime.current;
      assert.equal(run !== null, from === Status.running);
      runtime.waiting.push({ code: 1 }, { code: 2 });
      runtime.ready = Promise.resolve();
      const generation = runtime.generation;
      const heard = [];
      runtime.onTeardown((why, ended) => heard.push([why, ended]));

      const ended = runtime.teardown(reason, "what the runtime said");

      assert.equal(runtime.generation, generation + 1);
      assert.equal(runtime.status, reason === "crashed" ? Status.crashed : Status.off);
      assert.equal(runtime.current, null);
      assert.equal(runtime.ready, null);
      assert.deepEqual(runtime.waiting, []);
      assert.deepEqual(ended.waited, [{ code: 1 }, { code: 2 }]);
      assert.equal(ended.details, "what the runtime said");
      assert.deepEqual(heard, [[reason, ended]]);
      if (run === null) {
        assert.equal(ended.interrupted, null);
      } else {
        assert.equal(ended.interrupted, run.entry);
        const why = reason === "crashed" ? "crashed" : "stopped";
        assert.deepEqual(run.settled, { ok: false, [why]: true });
      }
    });
  }
}

test("after a teardown a new session starts, from off or from a crash's teardown to off", () => {
  const crashed = runtimeAt(Status.crashed);
  assert.throws(() => crashed.moveTo(Status.starting), /cannot go from crashed/);
  crashed.teardown("off");
  crashed.moveTo(Status.starting);
  assert.equal(crashed.status, Status.starting);
});

test("listeners hear each teardown in the order they registered", () => {
  const runtime = createRuntime();
  const order = [];
  runtime.onTeardown(() => order.push("worker"));
  runtime.onTeardown(() => order.push("page"));
  runtime.teardown();
  runtime.teardown("crashed");
  assert.deepEqual(order, ["worker", "page", "worker", "page"]);
});
