// The reader's version of a cell as a script that runs by itself: the page's
// Python assembles it with snippets.py, the module with which the build made
// the page's own scripts, from the page's code cells as the reader has them now
// (copy.js asks for it once the reader has edited the page).  Loaded on demand.

import { isEdited, sourceOf } from "./flow.js";
import { ensurePython } from "./queue.js";
import { requestScript } from "./routing.js";

/**
 * The script of the page's code cell `code` (its index among all the page's code
 * cells), from the cells' code as it is now.  starting() is called when Python
 * must start first.  Rejects when Python cannot start or snippets.py fails.
 */
export async function readerScript(session, code, { starting }) {
  if (!session.isUp()) starting();
  await ensurePython(session);
  const { flow } = session;
  const cells = flow.codeCells.map((c) => ({
    source: sourceOf(c),
    hidden: c.hidden,
    buildOnly: c.buildOnly,
    shows: c.shows || null,
    edited: isEdited(c),
  }));
  const answer = await requestScript(session, { cells, index: code, page: flow.scriptPage });
  if (answer.error) throw new Error(answer.error);
  return answer.text;
}
