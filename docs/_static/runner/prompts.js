// The prompt a run shows when a cell it needs crashed Python or was stopped
// the last time it ran: run that cell again, skip it, or edit it.  The run
// queue (queue.js) asks, and waits for the answer.

import { announce, bringIntoView, setState } from "./cells.js";
import { button, element } from "./dom.js";
import { capital, nameOf } from "./notes.js";

/**
 * Ask, under the cell about to run, what to do about `blocked` (a flow entry above
 * it that crashed Python or was stopped: why).  Resolves with "run", "skip",
 * "edit" (the blocked cell's editor is opened) or "stop" (stop(cell) answered).
 * The open prompts are the session's (session.prompts: cell -> {prompt, answer}).
 */
export function ask(session, cell, blocked, why, edit) {
  const open = session.prompts;
  const name = nameOf(blocked);
  const what = why === "crashed" ? "crashed Python" : "was stopped";
  setState(cell, "waiting", `waiting: ${name} must run first`);
  announce(`${cell.name} waits: ${name} above ${what} the last time it ran`);
  return new Promise((resolve) => {
    const prompt = element("div", "runner-note runner-prompt",
      `${capital(name)} above ${what} the last time it ran, and this cell needs what it defines. `);
    prompt.setAttribute("role", "group");
    prompt.setAttribute("aria-label", `Before ${cell.name} runs`);
    const answer = (choice) => {
      prompt.remove();
      open.delete(cell);
      if (choice === "stop") {
        setState(cell, "stopped", "not run: stopped while it waited");
        announce(`${cell.name}: stopped`);
      }
      resolve(choice);
    };
    open.set(cell, { prompt, answer });
    prompt.append(button("runner-prompt-run", `Run ${name} again`, () => answer("run")));
    prompt.append(button("runner-prompt-skip", `Skip ${name}`, () => answer("skip")));
    if (blocked.cell) {
      prompt.append(button("runner-prompt-edit", `Edit ${name}`, () => {
        answer("edit");
        setState(cell, "idle", `not run: edit ${name}, then run it or this cell`);
        edit(blocked.cell);
        bringIntoView(blocked.cell.el);
      }));
    }
    cell.controls.bar.after(prompt);
    prompt.querySelector("button").focus();
  });
}

/** Stop on a cell that waits for an answer: it stays unrun.  Returns whether one was open. */
export function stopAsking(session, cell) {
  const asking = session.prompts.get(cell);
  if (asking) asking.answer("stop");
  return Boolean(asking);
}

/** Take away the cell's prompt, if it has one, without an answer (Python restarts). */
export function dropPrompt(session, cell) {
  const asking = session.prompts.get(cell);
  if (asking) {
    asking.prompt.remove();
    session.prompts.delete(cell);
  }
}
