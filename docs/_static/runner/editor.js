// The cell editor: CodeMirror 6 (npm, pinned in package-lock.json; its ES
// modules come from this site through the page's import map, written by
// docs/_ext/browser_runner.py), loaded the first time a reader edits or runs a
// cell: a page nobody edits loads none of it.  Python highlighting, Python's
// indentation (Tab indents; Escape, then Tab, leaves the editor), Shift+Enter
// (or Ctrl/Cmd+Enter) runs the cell.
//
// A cell's editor is {element, view, value (get, set), focus()} (cells.js attaches it).

import {
  attachEditor, codeChanged, element, setUpNow,
} from "./cells.js";
import { mark } from "./session.js";

/** CodeMirror's modules (each import() loads a module once, the first time). */
const loadCodeMirror = () => Promise.all([
  import("@codemirror/view"),
  import("@codemirror/state"),
  import("@codemirror/commands"),
  import("@codemirror/language"),
  import("@codemirror/lang-python"),
  import("@lezer/highlight"),
]).then(([view, state, commands, language, python, highlight]) => ({
  view, state, commands, language, python, highlight,
}));

/**
 * Give the cell its editor (once: session.editors keeps each cell's), in place of
 * its highlighted code; run(cell) is what Shift+Enter does.  keepBar: the reader's
 * Run or Edit opens it, and the cell's bar stays where it is (cells.js,
 * attachEditor).  Resolves when the editor is there.
 */
export function openEditor(session, cell, run, { focus = false, keepBar = false } = {}) {
  setUpNow(session, cell.el); // the editor opens above the cell's bar
  const opening = session.editors;
  if (!opening.has(cell)) opening.set(cell, makeEditor(session, cell, run, keepBar));
  return opening.get(cell).then(() => {
    if (focus) cell.editor.focus();
  });
}

async function makeEditor(session, cell, run, keepBar) {
  const { view, state, commands, language, python, highlight } = await loadCodeMirror();
  const runIt = () => {
    run(cell);
    return true;
  };
  const wrapper = element("div", "runner-editor");
  const help = element("p", "runner-editor-help",
    "Shift+Enter runs the cell · Tab indents · Escape, then Tab, leaves the editor");
  help.id = `runner-editor-help-${cell.scratch ? "scratch" : cell.index}`;
  const editorView = new view.EditorView({
    parent: wrapper,
    state: state.EditorState.create({
      doc: cell.source,
      extensions: [
        commands.history(),
        view.drawSelection(),
        view.highlightActiveLine(),
        language.indentOnInput(),
        language.bracketMatching(),
        language.syntaxHighlighting(highlight.classHighlighter),
        python.python(),
        state.EditorState.tabSize.of(4),
        language.indentUnit.of("    "),
        view.keymap.of([
          { key: "Shift-Enter", run: runIt },
          { key: "Mod-Enter", run: runIt },
          commands.indentWithTab,
          ...commands.defaultKeymap,
          ...commands.historyKeymap,
        ]),
        view.EditorView.contentAttributes.of({
          "aria-label": `Code of ${cell.name}`,
          "aria-describedby": help.id,
          // Focusable by name, not only as editable text: the editor's scroller, which
          // scrolls a long line or a long cell, then has a focusable element inside it
          // for every assistive technology (axe: scrollable-region-focusable).  It is
          // the one Tab stop the editor already is.
          tabindex: "0",
        }),
        view.EditorView.updateListener.of((update) => {
          // (the reader's typing, pasting, undoing: a transaction with a user event)
          const typed = update.transactions
            .some((t) => t.annotation(state.Transaction.userEvent) !== undefined);
          if (update.docChanged) codeChanged(cell, { typed });
        }),
      ],
    }),
  });
  const editor = {
    element: wrapper,
    view: editorView,
    get value() {
      return editorView.state.doc.toString();
    },
    set value(text) {
      editorView.dispatch({ changes: { from: 0, to: editorView.state.doc.length, insert: text } });
    },
    focus: () => editorView.focus(),
  };
  attachEditor(cell, editor, help, { keepBar });
  mark(session.records, "editorOpened");
}
