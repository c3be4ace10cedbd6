// The copy actions of every code cell's bar: "Copy" copies the cell's code as the
// cell holds it now; "Copy as a script" copies the cell together with what it
// needs from the cells above, as one script that runs by itself in a fresh Python
// (docs/_static/runner/snippets.py assembles it).  While the reader has edited
// nothing on the page, that is the build's script, from the page's manifest (the
// same text as the cell's download, _sources/<page>/cell-<n>.py): copying needs
// neither Python nor a connection.  Once the reader has edited the page, the
// script is their version, assembled by the same snippets.py in the page's
// Python (scripts.js; Python starts if it is not running, and the status says so).
// Build-only cells get both actions too.  Loaded with the page (runner.js).

import { addToolToEveryCell, announce, setToolStatus } from "./cells.js";
import { button, element } from "./dom.js";

/** How long a copy's word stays in the status line. */
const SAID_FOR_MS = 4000;

/**
 * Give every cell's bar its copy actions.  hooks.readerScript(code, {starting}) makes
 * the script of the reader's version of the page's code cell `code` (scripts.js,
 * loaded on demand); it calls starting() when Python must start first.
 */
export function setUpCopy(session, { readerScript }) {
  const entries = session.manifest.cells;
  addToolToEveryCell(session, (cell) => copyButton(
    "runner-copy",
    ["Copy", ` ${cell.name}`, ""],
    "Copy this cell's code",
    () => copy(cell, cell.code, ""),
  ), { buildOnly: true });
  addToolToEveryCell(session, (cell) => {
    const entry = entryOf(entries, cell);
    if (entry === null) return null; // a page built without scripts
    return copyButton(
      "runner-copy-script",
      ["Copy", ` ${cell.name}`, " as a script"],
      "Copy this cell with what it needs from the cells above: a script that runs by itself",
      () => copyScript(session, cell, entry, readerScript),
    );
  }, { buildOnly: true });
}

/**
 * A button that shows the copy sign and "Copy as a script" and is named "Copy cell 3 as a
 * script": the name is its text (the cell, for screen readers only; the sign, a drawing,
 * for eyes only), so that what it shows is part of what it is called.  words: [shown,
 * read only, shown].
 */
function copyButton(className, [before, readOnly, after], title, onClick) {
  const b = button(className, "", onClick, "copy");
  b.append(before, element("span", "runner-read-only", readOnly), after);
  b.title = title;
  return b;
}

/** The cell's manifest entry (the build wrote its position on the cell), if it has a script. */
function entryOf(entries, cell) {
  const code = Number.parseInt(cell.el.getAttribute("data-micrograd-cell"), 10);
  const entry = entries[code];
  return entry && typeof entry.script === "string" ? { ...entry, code } : null;
}

const edited = (session) => session.cells.some((cell) => cell.edited);

function copyScript(session, cell, entry, readerScript) {
  if (!edited(session)) return copy(cell, entry.script, " as a script");
  setToolStatus(cell, "putting your version into a script…");
  const starting = () => setToolStatus(cell, "starting Python to put your version into a script…");
  return copy(cell, readerScript(entry.code, { starting }), " as a script");
}

/** Put text (or what a promise of it gives) on the clipboard, and say so. */
async function copy(cell, text, how) {
  try {
    await write(text);
  } catch (error) {
    say(cell, `not copied: ${(error && error.message) || error}`);
    return;
  }
  say(cell, `copied${how}`);
}

function say(cell, words) {
  setToolStatus(cell, words);
  announce(`${cell.name}: ${words}`);
  setTimeout(() => {
    if (cell.toolStatus === words) setToolStatus(cell, "");
  }, SAID_FOR_MS);
}

/**
 * Write to the clipboard.  Text still to come goes in as a ClipboardItem holding the
 * promise, so that the click's permission to write holds (Safari's rule); where the
 * browser refuses that, the text is written once it is there.
 */
async function write(text) {
  if (typeof text === "string") return navigator.clipboard.writeText(text);
  if (window.ClipboardItem && navigator.clipboard.write) {
    const blob = text.then((t) => new Blob([t], { type: "text/plain" }));
    try {
      return await navigator.clipboard.write([new window.ClipboardItem({ "text/plain": blob })]);
    } catch {
      // fall through: write the text itself once it is there
    }
  }
  return navigator.clipboard.writeText(await text);
}
