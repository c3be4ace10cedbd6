// Run and edit the page's code cells in the reader's browser.
//
// Each code cell gets a Run button.  Nothing is fetched until the first
// click, which starts one worker for the page (worker.js: Pyodide and the
// micrograd wheel the site was built from, all from this site).  Run makes
// the cell editable and runs, in order, the cells above it that have not run
// yet, then the cell itself; all of them share the page's variables.  The
// output appears under the cell, marked as computed in the browser; the
// build's output stays one click away.  Stop (while a cell runs) and Restart
// end the worker and start a fresh one.  Cells tagged build-only keep their
// build-time output and get a one-line note instead.
//
// window.microgradRunner exposes the cells, their outputs and the timings
// (for the browser tests and for the curious).

(() => {
  "use strict";

  const script = document.currentScript;
  const settings = {
    base: new URL(".", script.src).href,
    pyodide: script.dataset.pyodide,
    viz: script.dataset.viz,
    marked: script.dataset.marked,
    wheels: script.dataset.wheels.split(" ").filter(Boolean),
  };
  const downloadMB = (Number(script.dataset.downloadBytes) / 1e6).toFixed(1);
  const buildOnlyClass = `tag_${script.dataset.buildOnlyTag}`;

  const runner = {
    cells: [],
    log: [],
    timings: { clicked: null, ready: null, firstOutput: null, firstDone: null, runs: [] },
    status: "off", // off, starting, ready, crashed
  };
  window.microgradRunner = runner;

  let worker = null;
  let ready = null; // a promise, resolved when the worker can run cells
  let generation = 0; // bumped at each restart: cells that ran before must run again
  let nextId = 1;
  const queue = [];
  let running = null; // {cell, id, resolve}

  const element = (tag, className, text) => {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const button = (className, label, onClick) => {
    const b = element("button", `runner-button ${className}`, label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  };
  const now = () => performance.now();

  // -- the worker ------------------------------------------------------------------------------

  function startWorker() {
    runner.status = "starting";
    document.documentElement.classList.add("runner-active");
    const thisWorker = new Worker(new URL("worker.js", settings.base), { type: "module" });
    worker = thisWorker;
    ready = new Promise((resolve, reject) => {
      thisWorker.addEventListener("message", (event) => {
        if (worker !== thisWorker) return;
        const message = event.data;
        if (message.type === "ready") {
          runner.status = "ready";
          if (runner.timings.ready === null && runner.timings.clicked !== null) {
            runner.timings.ready = (now() - runner.timings.clicked) / 1000;
          }
          resolve();
        } else if (message.type === "fatal") {
          crashed(message.message);
          reject(new Error(message.message));
        } else {
          onMessage(message);
        }
      });
      thisWorker.addEventListener("error", (event) => {
        if (worker !== thisWorker) return;
        event.preventDefault();
        const message = event.message || "the worker could not start";
        crashed(message);
        reject(new Error(message));
      });
    });
    ready.catch(() => {}); // reported in the cell by crashed()
    thisWorker.postMessage({ type: "init", ...settings });
  }

  function stopWorker() {
    if (worker !== null) worker.terminate();
    worker = null;
    ready = null;
    runner.status = "off";
    generation += 1;
    for (const cell of runner.cells) {
      cell.ranIn = -1;
      if (cell.output) {
        cell.output.classList.add("runner-stale");
        cell.head.firstChild.textContent = "Computed in your browser, by an earlier Python session";
      }
    }
  }

  function restart() {
    const interrupted = running;
    running = null;
    for (const waiting of queue.splice(0)) setStatus(waiting, "");
    stopWorker();
    if (interrupted) {
      setStatus(interrupted.cell, "stopped", "stopped");
      showNote(interrupted.cell, "runner-stopped",
        "Stopped. Python was restarted: variables from earlier cells are gone, Run runs them again.");
      interrupted.resolve({ ok: false, stopped: true });
    }
    startWorker();
  }

  function crashed(message) {
    runner.status = "crashed";
    const recent = runner.log.filter((entry) => entry.level === "error").map((e) => e.text);
    const cell = running ? running.cell : runner.cells.find((c) => c.waiting) || null;
    const finish = running;
    running = null;
    for (const waiting of queue.splice(0)) setStatus(waiting, "");
    if (worker !== null) worker.terminate();
    worker = null;
    ready = null;
    if (cell) {
      setStatus(cell, "crashed", "crashed");
      const note = showNote(cell, "runner-crashed",
        "The Python runtime crashed, and this page's Python state is lost. ");
      note.append(button("runner-restart", "Restart Python", () => {
        note.remove();
        stopWorker();
        startWorker();
      }));
      if (/Maximum call stack size exceeded/.test(message)) {
        note.append(element("p", "", "The browser's stack ran out: freeing or walking a graph " +
          "a few thousand operations deep does that here, where native Python copes."));
      }
      const details = element("pre", "runner-crash-details", [message, ...recent].join("\n"));
      note.append(details);
    }
    if (finish) finish.resolve({ ok: false, crashed: true });
  }

  function onMessage(message) {
    if (message.type === "log") {
      runner.log.push({ level: message.level, text: message.text });
      return;
    }
    if (!running || message.id !== running.id) return;
    const cell = running.cell;
    if (message.type === "output") addOutput(cell, message);
    else if (message.type === "drawing") fillOutput(cell, message);
    else if (message.type === "done") {
      const finish = running;
      running = null;
      finish.resolve(message);
    }
  }

  // -- cells -----------------------------------------------------------------------------------

  function sourceOf(cell) {
    if (cell.editor) return cell.editor.value;
    return cell.source;
  }

  function makeEditable(cell) {
    if (cell.editor) return;
    const editor = element("textarea", "runner-editor");
    editor.value = cell.source;
    editor.spellcheck = false;
    editor.setAttribute("aria-label", "Code of this cell (editable; Shift+Enter runs it)");
    editor.rows = Math.max(1, cell.source.split("\n").length);
    editor.addEventListener("input", () => {
      editor.rows = Math.max(1, editor.value.split("\n").length);
    });
    editor.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.shiftKey || event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run(cell);
      }
    });
    cell.code.hidden = true;
    cell.code.after(editor);
    cell.editor = editor;
  }

  // cell.state: "" (not run), queued, starting, running, ok, error, skipped, stopped, crashed
  function setStatus(cell, text, state) {
    cell.state = state === undefined ? "" : state;
    cell.el.dataset.runnerState = cell.state;
    cell.status.textContent = text;
    cell.runButton.disabled = ["queued", "starting", "running"].includes(cell.state);
    cell.stopButton.hidden = !["starting", "running"].includes(cell.state);
  }

  function showNote(cell, className, text) {
    const output = freshOutput(cell);
    const note = element("div", `runner-note ${className}`, text);
    output.body.append(note);
    return note;
  }

  function freshOutput(cell) {
    if (!cell.output) {
      const output = element("div", "runner-output");
      output.setAttribute("aria-live", "polite");
      const head = element("div", "runner-output-head");
      head.append(element("span", "", "Computed in your browser"));
      if (cell.buildOutput) {
        const toggle = button("runner-toggle", "Show the build's output", () => {
          cell.buildOutput.hidden = !cell.buildOutput.hidden;
          toggle.textContent = cell.buildOutput.hidden
            ? "Show the build's output"
            : "Hide the build's output";
        });
        head.append(toggle);
      }
      const body = element("div", "runner-output-body");
      output.append(head, body);
      cell.bar.after(output);
      cell.output = output;
      cell.head = head;
      output.body = body;
    }
    cell.output.classList.remove("runner-stale");
    cell.head.firstChild.textContent = "Computed in your browser";
    cell.output.body.replaceChildren();
    cell.outputs = [];
    if (cell.buildOutput) {
      cell.buildOutput.hidden = true;
      const toggle = cell.head.querySelector(".runner-toggle");
      if (toggle) toggle.textContent = "Show the build's output";
    }
    return cell.output;
  }

  const MIME_ORDER = [
    "text/vnd.graphviz",
    "image/svg+xml",
    "text/html",
    "text/markdown",
    "text/latex",
    "text/plain",
  ];

  function addOutput(cell, message) {
    if (runner.timings.firstOutput === null && runner.timings.clicked !== null) {
      runner.timings.firstOutput = (now() - runner.timings.clicked) / 1000;
    }
    const body = cell.output.body;
    if (message.kind === "stream") {
      cell.outputs.push({ kind: "stream", name: message.name, text: message.text });
      let pre = body.lastElementChild;
      if (!pre || !pre.classList.contains("runner-stream")) {
        pre = element("pre", "runner-stream");
        body.append(pre);
      }
      const span = element("span", message.name === "stderr" ? "runner-stderr" : "", message.text);
      pre.append(span);
      return;
    }
    const mime = MIME_ORDER.find((m) => m in message.bundle);
    const data = message.bundle[mime];
    cell.outputs.push({ kind: "display", mime, data, bundle: message.bundle });
    const box = element("div", "runner-display");
    box.dataset.mime = mime;
    box.dataset.index = message.index;
    if (mime === "text/vnd.graphviz") {
      box.classList.add("runner-drawing");
      box.textContent = "Laying out the drawing…";
    } else if (mime === "text/markdown") {
      box.textContent = data;
    } else if (mime === "image/svg+xml" || mime === "text/html") {
      box.innerHTML = data;
    } else {
      box.append(element("pre", "", data));
    }
    body.append(box);
  }

  function fillOutput(cell, message) {
    const box = cell.output.body.querySelector(`.runner-display[data-index="${message.index}"]`);
    if (!box) return;
    if (message.error) {
      box.replaceChildren(element("pre", "runner-error", `Could not draw: ${message.error}`));
    } else if (message.svg) {
      box.innerHTML = message.svg;
    } else if (message.html) {
      box.innerHTML = message.html;
      for (const table of box.querySelectorAll("table")) table.classList.add("table");
    }
  }

  // -- running ---------------------------------------------------------------------------------

  function runOne(cell) {
    return new Promise((resolve) => {
      const id = nextId++;
      running = { cell, id, resolve };
      setStatus(cell, "running…", "running");
      freshOutput(cell);
      worker.postMessage({ type: "run", id, code: sourceOf(cell), filename: cell.filename });
    });
  }

  async function pump() {
    if (running || queue.length === 0) return;
    const cell = queue[0];
    if (!worker) startWorker();
    if (runner.status !== "ready") {
      cell.waiting = true;
      setStatus(cell, `starting Python (the first time, it downloads ${downloadMB} MB)…`, "starting");
      try {
        await ready;
      } catch {
        return; // crashed() has reported it
      } finally {
        cell.waiting = false;
      }
      if (queue[0] !== cell) return;
    }
    queue.shift();
    const clicked = now();
    const result = await runOne(cell);
    if (result.stopped || result.crashed) return;
    const seconds = (now() - clicked) / 1000;
    cell.ranIn = generation;
    runner.timings.runs.push({ cell: cell.index, seconds, ok: result.ok });
    if (runner.timings.firstDone === null) {
      runner.timings.firstDone = (now() - runner.timings.clicked) / 1000;
    }
    if (!result.ok) {
      cell.output.body.append(element("pre", "runner-error", result.error));
      setStatus(cell, "raised an exception", "error");
      for (const waiting of queue.splice(0)) {
        setStatus(waiting, "not run: a cell above raised an exception", "skipped");
      }
    } else {
      setStatus(cell, `ran in ${seconds.toFixed(2)} s`, "ok");
    }
    cell.output.dataset.state = result.ok ? "ok" : "error";
    pump();
  }

  function run(cell) {
    if (runner.timings.clicked === null) runner.timings.clicked = now();
    makeEditable(cell);
    if (running && running.cell === cell) return;
    if (queue.includes(cell)) return;
    if (runner.status === "crashed") {
      stopWorker();
    }
    for (const above of runner.cells) {
      if (above === cell) break;
      if (above.ranIn !== generation && !queue.includes(above) && !(running && running.cell === above)) {
        queue.push(above);
        setStatus(above, "queued", "queued");
      }
    }
    queue.push(cell);
    setStatus(cell, "queued", "queued");
    pump();
  }

  // -- set-up ----------------------------------------------------------------------------------

  function setUp() {
    const started = now();
    const article = document.querySelector("article.bd-article") || document.body;
    let number = 0;
    for (const el of article.querySelectorAll("div.cell")) {
      const input = el.querySelector("div.cell_input");
      if (!input) continue;
      number += 1;
      if (el.classList.contains(buildOnlyClass)) {
        const note = element("p", "runner-note runner-build-only",
          "Runs when the site is built, not in your browser (it needs NumPy, matplotlib, " +
          "PyTorch or the build machine): the output is the build's.");
        input.after(note);
        continue;
      }
      const code = input.querySelector("div.highlight") || input.querySelector("pre");
      const pre = input.querySelector("pre");
      if (!code || !pre) continue;
      const cell = {
        el,
        index: runner.cells.length,
        filename: `<cell ${number}>`,
        source: pre.textContent.replace(/\n$/, ""),
        code,
        buildOutput: el.querySelector("div.cell_output"),
        editor: null,
        output: null,
        outputs: [],
        ranIn: -1,
        state: "",
      };
      const bar = element("div", "runner-bar");
      cell.runButton = button("runner-run", "▶ Run", () => run(cell));
      cell.runButton.title = "Run this cell (and the cells above it that have not run) in your browser";
      cell.stopButton = button("runner-stop", "■ Stop", () => restart());
      cell.stopButton.title = "Stop: ends this page's Python and starts a fresh one";
      cell.stopButton.hidden = true;
      const restartButton = button("runner-restart", "↻ Restart", () => restart());
      restartButton.title = "Restart this page's Python: every variable is forgotten";
      cell.status = element("span", "runner-status");
      cell.status.setAttribute("role", "status");
      bar.append(cell.runButton, cell.stopButton, restartButton, cell.status);
      input.after(bar);
      cell.bar = bar;
      runner.cells.push(cell);
    }
    runner.outputsOf = (index) => runner.cells[index].outputs;
    runner.run = (index) => run(runner.cells[index]);
    runner.timings.setUpMilliseconds = now() - started;
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
