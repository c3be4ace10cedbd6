// The routing of the worker's messages about runs: each message of the run in
// the worker goes to the cell it belongs to (outputs, the layouts that follow,
// add-on messages), the dataflow's news goes to the flow, and the run's end
// settles the promise the run queue waits on.  A message of a run that has
// ended, or was stopped, is dropped.  The messages: protocol.js.

import { addonHandler } from "./api.js";
import {
  addDisplay, addLayout, addLayoutError, addStream, displayBox,
} from "./outputs.js";
import { TO_PAGE, TO_WORKER } from "./protocol.js";
import { post, request } from "./session.js";

/**
 * Send a run of `entry` (a flow entry, flow.js) to the worker.  Resolves with
 * {ok, error, changed} when it ends, or {ok: false, stopped: true} or
 * {ok: false, crashed: true} when a teardown abandons it (runtime.js).
 */
export function startRun(session, entry, {
  code, filename, watch, apart,
}) {
  const id = session.newId();
  return new Promise((resolve) => {
    session.startRun({ id, entry, changed: [], resolve });
    post(session, {
      type: TO_WORKER.run, run: id, code, filename, watch, apart,
    });
  });
}

/** The flow entry whose run is in the worker, or null. */
export const runningEntry = (session) => (session.current ? session.current.entry : null);

/**
 * Python's analysis of the page's code as it is now (snippets.py's runner_analysis, in
 * the worker): cells [{source, buildOnly}] -> for each, {names, watches, needs}.
 */
export function analyse(session, cells) {
  return request(session, { type: TO_WORKER.analyse, cells }).then((reply) => reply.cells);
}

/**
 * A cell of the page as a script, assembled by snippets.py in the worker from
 * {cells, index, page}; resolves with {text, error}.
 */
export function requestScript(session, fields) {
  return request(session, { type: TO_WORKER.script, ...fields });
}

/** What the worker says about runs (session.js hands over everything else). */
export function onMessage(session, message) {
  const current = session.current;
  if (current === null || message.run !== current.id) return; // a run that has ended
  const cell = current.entry.cell;
  switch (message.type) {
    case TO_PAGE.stream:
      if (cell) addStream(session, cell, message.name, message.text);
      break;
    case TO_PAGE.display:
      if (cell) addDisplay(session, cell, message.index, message.bundle);
      break;
    case TO_PAGE.laidOut:
      if (cell) addLayout(session, cell, message.index, message.html);
      break;
    case TO_PAGE.layoutFailed:
      if (cell) addLayoutError(cell, message.index, message.error);
      break;
    case TO_PAGE.changed:
      current.changed = message.names;
      break;
    case TO_PAGE.done: {
      const { resolve, changed } = session.finishRun();
      resolve({ ok: message.ok, error: message.error, changed });
      break;
    }
    case TO_PAGE.addon: {
      const handle = addonHandler(session, message.name);
      if (handle) handle(message.fields, runContext(current.entry));
      break;
    }
    default:
      throw new Error(`runner: the worker sent a message of no known type: ${message.type}`);
  }
}

/** What an add-on's handler learns about the run a message belongs to (api.js). */
function runContext(entry) {
  const { cell } = entry;
  return { cell, code: entry.code, display: (index) => (cell ? displayBox(cell, index) : null) };
}
