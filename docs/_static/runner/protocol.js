// The worker protocol: every message between the page and its Python worker,
// one type per kind of thing.  The page (python.js, queue.js, python.js) and
// the worker (worker.js) name message types only through TO_WORKER and
// TO_PAGE.  Times are milliseconds since 1970 (the page's clock and the
// worker's differ in origin).
//
// Page -> worker
// | type    | fields                                   | what it asks                         |
// |---------|------------------------------------------|--------------------------------------|
// | start   | base, pyodide, wheels, viz, marked,      | start Python, once per worker        |
// |         | glueFormats ({key: [format spec, ...]})  |                                      |
// | run     | run, code, filename, watch ([names]),    | run a cell; run: the run's id; apart:|
// |         | apart                                    | a cell the build hides (kernel.py)   |
// | analyse | request, cells ([{source, buildOnly}])   | snippets.py's analysis of the page's |
// |         |                                          | code as it is now (the reader's)     |
// | ask     | request, addon, question, fields         | an add-on's question to its worker   |
//         |                                          | side (worker.js registerAnswer)     |
// | script  | request, cells ([{source, hidden,        | cells[index] as a script that runs   |
// |         | buildOnly, shows, edited}]), index, page | by itself (snippets.py)              |
//
// Worker -> page
// | type          | fields                 | what it says                                     |
// |---------------|------------------------|--------------------------------------------------|
// | ready         | names                  | Python is ready; names: what the namespace has   |
// | phases        | phases ({name: time})  | when steps of the start or of a run ended        |
// | stream        | run, name, text        | the run printed text (name: stdout or stderr)    |
// | display       | run, index, bundle     | the run displayed its index-th value ({mime: data}) |
// | laid-out      | run, index, html       | that display, laid out after the run (DOT to SVG,|
// |               |                        | Markdown to HTML, a stepper): worker.js         |
// | layout-failed | run, index, error      | laying it out failed                             |
// | changed       | run, names             | the watched names the run rebound or changed     |
// | done          | run, ok, error         | the run ended; error: its traceback, if it raised |
// | analysis      | request, cells         | for an "analyse", each cell's {names (its facts, |
// |               |                        | cell_names.py), watches, needs} (snippets.py)    |
// | answer        | request, fields, error | the answer to an "ask" (error: why there is none) |
// | script        | request, text, error   | the script, for a "script" (error: why there is  |
// |               |                        | none, if snippets.py raised)                     |
// | addon         | run, name, fields      | an add-on's message (kernel.py's post_message):  |
// |               |                        | name is in the add-ons' namespace, not this table's |
// | console       | level, text            | the runtime wrote to its console (error, warn)   |
// | stray-output  | name, text             | Python printed outside any cell                  |
// | fatal         | message                | the runtime cannot go on                         |
//
// Messages with a run belong to that run: the page drops them once the run has
// ended or was stopped.

export const TO_WORKER = Object.freeze({
  start: "start",
  run: "run",
  analyse: "analyse",
  ask: "ask",
  script: "script",
});

export const TO_PAGE = Object.freeze({
  ready: "ready",
  phases: "phases",
  stream: "stream",
  display: "display",
  laidOut: "laid-out",
  layoutFailed: "layout-failed",
  changed: "changed",
  done: "done",
  analysis: "analysis",
  answer: "answer",
  script: "script",
  addon: "addon",
  console: "console",
  strayOutput: "stray-output",
  fatal: "fatal",
});
