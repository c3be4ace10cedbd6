"""Print the book to PDF: the site's single-page build, printed by headless Chromium.

    python browser_tests/print_book.py SINGLEHTML_DIR OUT.pdf

``SINGLEHTML_DIR`` is a ``sphinx-build -b singlehtml`` build of docs/ made
with the HTML build's execution cache, so every number and picture is the
published one.  The page is printed as the reader's browser would print it,
with three differences that a printed book needs:

* the in-browser parts show their build output: the runner
  (``_static/runner/``) and the figures' script (``micrograd-figures.js``:
  stepper buttons, zoom) are not loaded, so every cell shows what the build
  printed and drew, and every frame of a stepper is there, one after the other;
* hidden cells (exercise solutions) are opened: paper cannot be clicked;
* links that leave the book (to the highlighted source pages, the index)
  lose their target, and the rest become the PDF's internal links; links to
  other sites stay.

Formulas are typeset by the site's own MathJax before printing.  Chromium
keeps SVG (graphs, plots) as vector drawings and text as text.  The
``CHROMIUM`` environment variable names the browser, else ``chromium`` on
``PATH``; only where there is neither (Read the Docs) does Playwright use a
browser of its own (``python -m playwright install chromium``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM_ARGS

#: Scripts that make the page interactive; without them the page shows its build output.
INTERACTIVE_SCRIPTS = ("**/_static/runner/**", "**/_static/micrograd-figures.js*")

PREPARE_JS = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (href.startsWith('#') || /^(https?:|mailto:)/.test(href)) continue;
    a.removeAttribute('href');  // another file of the site: not in the PDF
  }
}
"""

FOOTER = (
    '<div style="font-size:8px; width:100%; text-align:center; color:#48566b;">'
    '<span class="title"></span> &middot; <span class="pageNumber"></span> / '
    '<span class="totalPages"></span></div>'
)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def print_book(singlehtml: Path, out: Path) -> float:
    """Print ``singlehtml``'s index.html to ``out`` (A4); return the seconds it took."""
    from playwright.sync_api import sync_playwright

    if not (singlehtml / "index.html").is_file():
        raise FileNotFoundError(f"no single-page build in {singlehtml}: sphinx-build -b singlehtml")
    start = time.perf_counter()
    handler = partial(_Quiet, directory=str(singlehtml))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(color_scheme="light")
                context.add_init_script(
                    "localStorage.setItem('mode', 'light'); localStorage.setItem('theme', 'light');"
                )
                for pattern in INTERACTIVE_SCRIPTS:
                    context.route(pattern, lambda route: route.abort())
                page = context.new_page()
                host, port = httpd.server_address[:2]
                page.goto(f"http://{host}:{port}/index.html", wait_until="networkidle")
                page.evaluate(PREPARE_JS)
                out.parent.mkdir(parents=True, exist_ok=True)
                page.pdf(
                    path=str(out),
                    format="A4",
                    margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                    print_background=True,
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=FOOTER,
                    outline=True,
                    tagged=True,
                )
            finally:
                browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("singlehtml", type=Path, help="the sphinx-build -b singlehtml output")
    parser.add_argument("out", type=Path, help="where to write the PDF")
    args = parser.parse_args()
    seconds = print_book(args.singlehtml, args.out)
    size = args.out.stat().st_size
    print(f"wrote {args.out} ({size:,} bytes) in {seconds:.1f} s")


if __name__ == "__main__":
    main()
