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
import { post } from "./session.js";

let current = null; // the run in the worker: {id, entry, changed, resolve}
let nextId = 1;
// The worker's replies to a request: an analysis, an add-on's answer, a script.
const REPLIES = new Set([TO_PAGE.analysis, TO_PAGE.answer, TO_PAGE.script]);
const requests = new Map(); // analyse, ask and script request id -> resolve

/**
 * Send a run of `entry` (a flow entry, flow.js) to the worker.  Resolves with
 * {ok, error, changed} when it ends, or {ok: false, stopped: true} or
 * {ok: false, crashed: true} when it is abandoned (abandon below).
 */
export function startRun(entry, { code, filename, watch }) {
  const id = nextId++;
  return new Promise((resolve) => {
    current = { id, entry, changed: [], resolve };
    post({ type: TO_WORKER.run, run: id, code, filename, watch });
  });
}

/** The run in the worker ended without finishing (why: "stopped" or "crashed"). */
export function abandon(why) {
  if (current === null) return;
  const { resolve } = current;
  current = null;
  resolve({ ok: false, [why]: true });
}

/** The flow entry whose run is in the worker, or null. */
export const runningEntry = () => (current ? current.entry : null);

/**
 * Python's analysis of the page's code as it is now (snippets.py's runner_analysis, in
 * the worker): cells [{source, buildOnly}] -> for each, {names, watches, needs}.
 */
export function analyse(cells) {
  return new Promise((resolve) => {
    const request = nextId++;
    requests.set(request, resolve);
    post({ type: TO_WORKER.analyse, request, cells });
  });
}

/**
 * An add-on's question to its worker side (layouts.js registerAnswer): resolves with
 * the answer's fields; rejects with the worker's reason when there is none.
 */
export function ask(addon, question, fields) {
  return new Promise((resolve, reject) => {
    const request = nextId++;
    requests.set(request, (answer) => (answer.error === null ? resolve(answer.fields)
      : reject(new Error(answer.error))));
    post({ type: TO_WORKER.ask, request, addon, question, fields });
  });
}

/**
 * A cell of the page as a script, assembled by snippets.py in the worker from
 * {cells, index, page}; resolves with {text, error}.
 */
export function requestScript(fields) {
  return new Promise((resolve) => {
    const request = nextId++;
    requests.set(request, resolve);
    post({ type: TO_WORKER.script, request, ...fields });
  });
}

/** What the worker says about runs (session.js hands over everything else). */
export function onMessage(message) {
  if (REPLIES.has(message.type)) {
    const resolve = requests.get(message.request);
    requests.delete(message.request);
    if (resolve) resolve(message.type === TO_PAGE.analysis ? message.cells : message);
    return;
  }
  if (current === null || message.run !== current.id) return; // a run that has ended
  const cell = current.entry.cell;
  switch (message.type) {
    case TO_PAGE.stream:
      if (cell) addStream(cell, message.name, message.text);
      break;
    case TO_PAGE.display:
      if (cell) addDisplay(cell, message.index, message.bundle);
      break;
    case TO_PAGE.laidOut:
      if (cell) addLayout(cell, message.index, message.html);
      break;
    case TO_PAGE.layoutFailed:
      if (cell) addLayoutError(cell, message.index, message.error);
      break;
    case TO_PAGE.changed:
      current.changed = message.names;
      break;
    case TO_PAGE.done: {
      const { resolve, changed } = current;
      current = null;
      resolve({ ok: message.ok, error: message.error, changed });
      break;
    }
    case TO_PAGE.addon: {
      const handle = addonHandler(message.name);
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
