"""Predict, then see: the neuron's stepper asks before each rule runs, and the page keeps score.

By keyboard alone, on a first visit and before any Run (predict mode needs no
Python: the build made the questions from the stepper's numbers): Predict on,
then Next through the neuron's stepper, answering each question.  One answer
is right, one close, and one each gives the misconceptions this graph has
(the input's own value used in a product; the local derivative without
``out.grad``).  Each verdict is shown and said in the polite live region,
with the rule's explanation; the score is kept over a reload and shown on the
start page; Reset page clears it.  The questions and feedback pass the
accessibility audit, and fit a phone's column.

Predict, then run: on "Why +=", the prompt above the cell that backpropagates
with ``=`` keeps the reader's number before the Run, judges it against the
number the run glues, shows the explanation with the run's numbers, and counts
it in the page's score, over a reload too.

What the answers are checked against, and every misconception's words, are
tested without a browser (tests/js/features/predict/predict.test.mjs,
tests/features/predict/test_predictions.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from accessibility import audit, check
from conftest import CONTENT_PAGES
from runner_tab import Tab, cell_with, click_where_it_is, edit, run, wait_saved

#: What the test types for each input's grad, by the input's name.  The neuron's
#: gradients are the page's: x1 -1.5, w1 1.0, x2 0.5, w2 0.0, every sum's 0.5.
ANSWERS = {
    "n": ("0.5", "right"),
    "b": ("1", "forgot-out-grad"),  # 1, the local derivative of +, alone
    "x1": ("1", "swapped"),  # x1's own 2.0 times 0.5, where w1's -3.0 goes
    "w1": ("1.0", "right"),
    "x2": ("0.51", "close"),
    "w2": ("0", "right"),
}
DEFAULT = ("0.5", "right")  # the sums' grads

#: What the stepper's predict mode shows now.
PREDICT_JS = """
(stepper) => {
  const box = stepper.querySelector('.mg-predict');
  const form = stepper.querySelector('.mg-predict-ask');
  const shown = (el) => el !== null && el.getClientRects().length > 0;
  return {
    on: stepper.querySelector('.mg-predict-switch').getAttribute('aria-pressed') === 'true',
    asking: shown(form),
    questions: Array.from(form.querySelectorAll('label'), (l) => l.textContent),
    feedback: Array.from(box.querySelectorAll('.mg-predict-verdict'),
                         (p) => ({kind: p.className, text: p.textContent})),
    score: box.querySelector('.mg-predict-score').textContent,
    focused: document.activeElement.className,
    said: document.querySelector('.runner-announcer')?.textContent || '',
    frame: Number(stepper.dataset.current),
    wide: box.scrollWidth > box.clientWidth + 1
      || box.getBoundingClientRect().right > document.documentElement.clientWidth,
  };
}
"""


def state(tab: Tab) -> dict:
    return tab.page.locator(".mg-stepper").first.evaluate(PREDICT_JS)


def test_predicting_through_the_neurons_stepper_by_keyboard_keeps_the_score(tab: Tab) -> None:
    tab.open("neuron.html")
    page = tab.page
    switch = page.locator(".mg-stepper .mg-predict-switch").first
    switch.focus()
    page.keyboard.press("Enter")
    assert state(tab)["on"]
    page.locator(".mg-stepper .mg-stepper-next").first.focus()
    verdicts: dict[str, str] = {}
    feedback: dict[str, str] = {}
    audited = False
    for _ in range(20):
        page.keyboard.press("Enter")  # Next, which keeps the focus after each answer
        now = state(tab)
        if not now["asking"]:
            if now["frame"] == 0 or "mg-stepper-next" not in now["focused"]:
                break  # the last frame: Next is disabled, the focus went to the stepper
            continue
        assert "mg-predict-input" in now["focused"], now
        if not audited:
            check(audit(page, ".mg-stepper"), "neuron.html stepper, a question asked")
        for question in now["questions"]:
            name = question.split(".grad")[0].strip("()")
            typed, verdict = ANSWERS.get(name, DEFAULT)
            verdicts[name] = verdict
            page.keyboard.type(typed)
            page.keyboard.press("Tab")  # to the next answer, or to Check
        page.keyboard.press("Enter")  # Check
        after = state(tab)
        assert not after["asking"], after
        assert after["frame"] > now["frame"], after
        names = [q.split(".grad")[0].strip("()") for q in now["questions"]]
        for name, line in zip(names, after["feedback"], strict=True):
            feedback[name] = line["text"]
        assert after["said"].endswith(after["score"]), after
        if not audited:
            check(audit(page, ".mg-stepper"), "neuron.html stepper, a verdict shown")
            audited = True
        if "mg-stepper-next" not in after["focused"]:
            break
    assert set(verdicts) >= set(ANSWERS), verdicts
    assert feedback["n"].startswith(
        "n.grad: right. The local derivative of tanh(n) with respect to n is 1 - o² = 0.5"
    ), feedback["n"]
    assert "the local derivative alone" in feedback["b"], feedback["b"]
    assert "x1's own value, 2.0" in feedback["x1"], feedback["x1"]
    assert "w1 = -3.0" in feedback["x1"], feedback["x1"]
    assert feedback["x2"].startswith("x2.grad: close, it is 0.5."), feedback["x2"]
    made = len(verdicts)
    right = sum(v == "right" for v in verdicts.values())
    score = f"Your predictions on this page: {made} judged, {right} right, 1 close."
    assert state(tab)["score"] == score

    page.set_viewport_size({"width": 390, "height": 844})
    # The stepper laid out for a phone: its words no longer beside its drawing.
    page.wait_for_function(
        "() => !document.querySelector('.mg-stepper').classList.contains('mg-words-beside')"
    )
    assert not state(tab)["wide"], "the predict box is wider than a phone's column"

    wait_saved(page)
    page.reload(wait_until="networkidle")
    kept = state(tab)
    assert kept["on"], kept
    assert kept["score"] == score, kept
    tab.open("index.html")
    listed = page.locator("#mg-prediction-scores").inner_text()
    assert f"{made} judged, {right} right, 1 close" in listed, listed

    tab.open("neuron.html")
    page.locator(".runner-reset-page").click()
    reset = state(tab)
    assert not reset["on"], reset
    assert reset["score"].endswith("none judged yet."), reset


#: What "Predict, then run" on "Why +=" shows now.
PROMPT_JS = """
(box) => ({
  status: box.querySelector('.mg-predict-run-status').textContent,
  why: box.querySelector('.mg-predict-run-why').hidden ? null
    : box.querySelector('.mg-predict-run-why').textContent.trim(),
  score: box.querySelector('.mg-predict-score').textContent,
  said: document.querySelector('.runner-announcer')?.textContent || '',
})
"""


def test_a_prediction_about_the_cell_as_written_is_judged_by_the_books_run_at_once(
    tab: Tab,
) -> None:
    tab.open("accumulate.html")
    page = tab.page
    box = page.locator("div.mg-predict-run[data-key='acc_wrong_twice']")
    assert box.evaluate(PROMPT_JS)["why"] is None  # the answer waits for the prediction
    box.locator("input").focus()
    page.keyboard.type("2")  # the number += gives: the misconception the page is about
    page.keyboard.press("Enter")
    judged = box.evaluate(PROMPT_JS)
    assert judged["status"] == "You predicted 2; the book's run gave 1.0.", judged
    # With the verdict, the answer worked out, in the book's numbers.
    assert re.search(r"is left: 1\.0.*where \+=\s+gives 2\.0", judged["why"], re.S), judged
    assert judged["score"] == "Your predictions on this page: 1 judged, 0 right, 0 close.", judged
    page.wait_for_function(
        "(said) => document.querySelector('.runner-announcer')?.textContent.startsWith(said)",
        arg=judged["status"],
    )
    check(audit(page, "div.mg-predict-run"), "accumulate.html, a prediction judged")
    # The reader's own run judges it again, in the words of what they see: their run.
    run(tab, cell_with(tab, "add_overwriting(a, a).backward()"))
    ran = box.evaluate(PROMPT_JS)
    assert ran["status"] == "You predicted 2; the run gave 1.0.", ran
    assert ran["score"] == judged["score"], ran
    wait_saved(page)
    page.reload(wait_until="networkidle")
    kept = page.locator("div.mg-predict-run[data-key='acc_wrong_twice']").evaluate(PROMPT_JS)
    assert kept["status"] == ran["status"], kept
    assert kept["score"] == judged["score"], kept


def test_a_prompt_about_an_edit_keeps_its_worked_answer_for_the_readers_run(tab: Tab) -> None:
    # The neuron's prompt asks about an edit (x2 = 1.0): worked out in the build's numbers
    # (x2 = 0), its answer would read as 0 for the edit, so it waits for the run.
    tab.open("neuron.html")
    page = tab.page
    box = page.locator("div.mg-predict-run[data-key='neuron_dw2']")
    # A run of the cell as the book wrote it gives the book's answer: not the edit's.
    first = cell_with(tab, 'x2 = Value(0.0, label="x2")')
    run(tab, first)
    assert box.evaluate(PROMPT_JS)["why"] is None
    box.locator("input").focus()
    page.keyboard.type("0.5")
    page.keyboard.press("Enter")
    kept = box.evaluate(PROMPT_JS)
    assert kept["status"].startswith("Kept: 0.5. Now run it"), kept
    assert kept["why"] is None, kept
    assert kept["score"].endswith("1 kept, judged when its cell runs."), kept
    run(tab, first)
    unedited = box.evaluate(PROMPT_JS)
    assert unedited["status"] == (
        "Kept: 0.5. Your run gave the book's own answer, 0.0000: "
        "make the edit the question asks for, then run it."
    ), unedited
    assert unedited["why"] is None, unedited
    # The reader's run of the edit judges it, and the why comes, in the run's numbers.
    edit(tab, first, ('x2 = Value(0.0, label="x2")', 'x2 = Value(1.0, label="x2")'))
    run(tab, first)
    judged = box.evaluate(PROMPT_JS)
    assert judged["status"] == "You predicted 0.5; the run gave 0.0887.", judged
    assert re.search(r"1\.0000.*× 0\.0887.*= 0\.0887", judged["why"], re.S), judged
    assert not tab.errors, tab.errors


#: What a reader sees below a prompt, up to the next heading: the text shown, and how many
#: stand-ins say that something waits for the answer.
BELOW_PROMPT_JS = """
(box) => {
  const shown = [];
  let el = box.nextElementSibling;
  for (; el && el.tagName !== 'SECTION'; el = el.nextElementSibling) {
    if (el.checkVisibility()) shown.push(el.innerText);
  }
  const standIns = Array.from(document.querySelectorAll('.mg-after-predict-waiting'));
  return {text: shown.join('\\n'), standIns: standIns.filter((el) => el.checkVisibility()).length};
}
"""


def test_nothing_below_a_prompt_gives_its_answer_before_the_reader_answers(tab: Tab) -> None:
    tab.open("accumulate.html")
    page = tab.page
    page.wait_for_selector("div.mg-predict-run form")  # predict.js has set the prompts up
    box = page.locator("div.mg-predict-run[data-key='acc_wrong_twice']")
    answer = re.compile(r"(?<![\d.])1\.0(?![\d])")  # what = gives here, as the page shows it
    before = box.evaluate(BELOW_PROMPT_JS)
    assert not answer.search(before["text"]), before["text"]
    assert before["standIns"] == 1, before  # the run's output
    # On paper there is no reader to answer: everything shows, and no stand-in.
    page.emulate_media(media="print")
    printed = box.evaluate(BELOW_PROMPT_JS)
    assert answer.search(printed["text"]), printed
    assert printed["standIns"] == 0, printed
    page.emulate_media(media="screen")
    box.locator("input").fill("2")
    box.locator("input").press("Enter")
    after = box.evaluate(BELOW_PROMPT_JS)  # kept: what waited for the answer shows
    assert answer.search(after["text"]), after
    assert after["standIns"] == 0, after
    assert not tab.errors, tab.errors


def test_prose_sections_below_a_claim_prompt_waits_for_the_prompt_it_names(tab: Tab) -> None:
    tab.open("gpt-softmax.html")
    page = tab.page
    page.wait_for_selector("div.mg-predict-run form")  # steppers.js has set the prompts up
    prompt = page.locator("div.mg-predict-choice[data-key='claim:sm_a_grad_negative']")
    section = page.locator("section#the-rule-of-the-pair")
    gradient = re.compile(r"a\.grad is -0\.\d{4}")  # the sign that answers the prompt
    assert not gradient.search(section.inner_text())
    assert section.locator(".mg-after-predict-waiting:visible").count() == 1
    prompt.locator("input[value=falls]").check()
    prompt.locator("button", has_text="Keep").click()
    assert gradient.search(section.inner_text())
    assert section.locator(".mg-after-predict-waiting:visible").count() == 0
    assert not tab.errors, tab.errors


#: Every "Predict, then run" prompt of the page as a reader sees it before any run: the
#: question's visible text and whole text, what the box shows of the rest, and its sizes.
PROMPTS_SEEN_JS = """
() => Array.from(document.querySelectorAll('div.mg-predict-run'), (box) => {
  const question = box.querySelector('.mg-predict-run-question');
  const why = box.querySelector('.mg-predict-run-why');
  const legend = box.querySelector('legend');
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  return {
    key: box.dataset.key,
    choice: box.classList.contains('mg-predict-choice'),
    visible: question !== null && question.checkVisibility({visibilityProperty: true})
      && question.getClientRects().length > 0,
    seen: question === null ? '' : question.innerText,
    whole: question === null ? '' : question.textContent,
    opens: question !== null && box.innerText.trim().startsWith(question.innerText.trim()),
    whyShown: why.checkVisibility() ? why.innerText : null,
    // "Your prediction" beside the choices' own labels: a label's size, not a heading's
    ratio: legend === null ? null
      : size(legend) / size(box.querySelector('.mg-predict-choice-label')),
    // A number prompt's "Your prediction" and its field: the space between them, in px
    gap: (() => {
      const input = box.querySelector('input.mg-predict-input');
      const label = input && box.querySelector(`label[for="${input.id}"]`);
      return label ? input.getBoundingClientRect().left - label.getBoundingClientRect().right
        : null;
    })(),
  };
})
"""


def plain(text: str) -> str:
    """Text as words to compare: no code ticks, straight quotes, single spaces."""
    text = text.replace("`", "").translate(str.maketrans("‘’“”", "''\"\""))
    return " ".join(text.split())


def download_questions(html: Path, page: str) -> list[str]:
    """The questions the page's download asks, each the paragraph above a folded answer."""
    notebook = json.loads((html / "_sources" / page.replace(".html", ".ipynb")).read_text("utf-8"))
    markdown = "\n\n".join("".join(cell["source"]) for cell in notebook["cells"])
    return [
        plain(found)
        for found in re.findall(r"([^\n]+)\n\n<details><summary>The answer</summary>", markdown)
    ]


def test_every_prompt_shows_its_whole_question_before_any_run(tab: Tab, html: Path) -> None:
    pages = [page for page in CONTENT_PAGES if "mg-predict-run" in (html / page).read_text("utf-8")]
    assert len(pages) >= 2, pages  # the book has prompts of both kinds, on pages of their own
    kinds = set()
    for page in pages:
        tab.open(page)
        tab.page.wait_for_selector("div.mg-predict-run form")  # predict.js has set them up
        seen = tab.evaluate(PROMPTS_SEEN_JS)
        assert seen, page
        for prompt in seen:
            where = f"{page} {prompt['key']}"
            kinds.add(prompt["choice"])
            assert prompt["visible"], where
            asked = " ".join(prompt["seen"].split())
            assert asked == " ".join(prompt["whole"].split()), where  # nothing of it hidden
            assert asked.endswith("?"), (where, asked)
            assert prompt["opens"], where  # the box opens with it
            assert prompt["whyShown"] is None, (where, prompt["whyShown"])
            if prompt["choice"]:  # "Your prediction" is a label, not a heading
                assert prompt["ratio"] == 1, (where, prompt["ratio"])
            else:  # and its words do not touch the field they name
                assert (prompt["gap"] or 0) >= 4, (where, prompt["gap"])
        # The download asks the same questions, read from the page's source on its own.
        assert download_questions(html, page) == [plain(p["seen"]) for p in seen], page
    assert kinds == {True, False}
    assert not tab.errors, tab.errors


#: Where the backward page's stepper's drawing is, with the question's place, against the
#: window: the drawing's top and bottom (and its top in the stepper), its smallest label
#: (CSS px), the question's form (while it is asked) and the window's height.
DRAWING_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const svg = frame.querySelector('svg.micrograd-graph');
  // The part of the drawing its view shows (a phone's may be cropped to the window).
  const drawn = svg.getBoundingClientRect();
  const view = (svg.closest('.mg-stepper-view') || svg).getBoundingClientRect();
  const box = {top: Math.max(drawn.top, view.top), bottom: Math.min(drawn.bottom, view.bottom),
               left: drawn.left, right: drawn.right};
  const form = stepper.querySelector('.mg-predict-ask');
  const asked = form.getClientRects().length > 0 ? form.getBoundingClientRect() : null;
  const covers = asked !== null && asked.bottom > box.top && asked.top < box.bottom
    && asked.right > box.left && asked.left < box.right;
  const sizes = Array.from(svg.querySelectorAll('text'),
    (t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
  const inner = box.top - stepper.getBoundingClientRect().top;
  return {top: box.top, inner, bottom: box.bottom, label: Math.min(...sizes),
          question: asked && [asked.top, asked.bottom], covers, height: innerHeight};
}
"""


#: The nodes the question is about (the next frame's node at work and those its rule adds
#: to, at the same place in the drawing shown), against the part of the drawing its view
#: shows: their tops and bottoms, and the view's; the bottom of the step's words, and the
#: window's height.
QUESTION_NODES_JS = """
(stepper) => {
  const frames = Array.from(stepper.querySelectorAll(':scope > .mg-stepper-frame'));
  const current = frames.findIndex((f) => f.classList.contains('mg-current'));
  const svg = frames[current].querySelector('svg.micrograd-graph');
  const nodes = Array.from(svg.querySelectorAll('g.node'));
  const asked = Array.from(frames[current + 1].querySelectorAll('svg.micrograd-graph g.node'));
  const view = svg.closest('.mg-stepper-view').getBoundingClientRect();
  const words = frames[current].querySelector(':scope > figcaption').getBoundingClientRect();
  return {
    view: [view.top, view.bottom],
    words: words.bottom,
    height: innerHeight,
    nodes: asked.flatMap((g, k) => g.matches('.mg-active, .mg-receiving')
      ? [[nodes[k].getBoundingClientRect().top, nodes[k].getBoundingClientRect().bottom]] : []),
  };
}
"""


def test_on_a_phone_predict_shows_the_nodes_its_question_is_about(tab: Tab) -> None:
    """On a phone, Predict on crops the stepper's drawing to the window's height left by
    the question: each question's nodes (the rule's node and the inputs it adds to) are
    in the view, wherever the reader had scrolled it (here: to its top), and the step's
    words under the question end in the window."""
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.open("backward.html")
    tab.page.wait_for_function("microgradTest.setUp()")
    stepper = tab.page.locator(".mg-stepper.mg-ready:not(.mg-stepper-pair)").first
    stepper.locator(".mg-predict-switch").click()
    stepper.focus()
    tab.page.keyboard.press("Home")
    seen = []
    for _ in range(12):
        stepper.evaluate(
            "(s) => s.querySelectorAll('.mg-stepper-frame.mg-current .mg-stepper-view')"
            ".forEach((v) => { v.scrollTop = 0; })"
        )
        click_where_it_is(stepper.locator(".mg-stepper-next"))
        if stepper.locator(".mg-predict-ask").is_visible():
            seen.append(stepper.evaluate(QUESTION_NODES_JS))
            click_where_it_is(stepper.locator(".mg-predict-show"))
            tab.page.wait_for_function(
                "(f) => f.hidden", arg=stepper.locator(".mg-predict-ask").element_handle()
            )
        if stepper.locator(".mg-stepper-next").is_disabled():
            break
    assert len(seen) >= 3, seen
    for n, place in enumerate(seen):
        top, bottom = place["view"]
        assert len(place["nodes"]) >= 2, (n, place)
        assert all(a >= top - 0.5 and b <= bottom + 0.5 for a, b in place["nodes"]), (n, place)
        assert place["words"] <= place["height"] + 0.5, (n, place)


def test_on_a_laptop_predict_keeps_the_steps_words_and_its_question_in_the_window(
    tab: Tab,
) -> None:
    """On a laptop, the neuron's stepper with Predict on (its tallest questions, two
    inputs, and their verdicts beside the drawing): at every question and every step,
    the step's words, right under the buttons, end in the window, and so does the
    question being asked."""
    tab.page.set_viewport_size({"width": 1366, "height": 768})
    tab.open("neuron.html")
    tab.page.wait_for_function("microgradTest.setUp()")
    stepper = tab.page.locator(".mg-stepper.mg-ready").first
    stepper.locator(".mg-predict-switch").click()
    stepper.focus()
    tab.page.keyboard.press("Home")
    places = []
    for step in range(12):
        click_where_it_is(stepper.locator(".mg-stepper-next"))
        asking = stepper.locator(".mg-predict-ask").is_visible()
        places.append((f"step {step}, asking {asking}", stepper.evaluate(WORDS_JS)))
        if asking:
            click_where_it_is(stepper.locator(".mg-predict-show"))
            tab.page.wait_for_function(
                "(f) => f.hidden", arg=stepper.locator(".mg-predict-ask").element_handle()
            )
            places.append((f"step {step}, shown", stepper.evaluate(WORDS_JS)))
        if stepper.locator(".mg-stepper-next").is_disabled():
            break
    assert sum("asking True" in when for when, _ in places) >= 3, places
    for when, place in places:
        assert place["beside"], (when, place)
        assert place["words"] <= place["height"] + 0.5, (when, place)
        if place["question"] is not None:
            assert place["question"] <= place["height"] + 0.5, (when, place)


#: The bottom of the current step's words, and of the question asked (null when none is),
#: against the window's height; and whether the words lie beside the drawing.
WORDS_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const form = stepper.querySelector('.mg-predict-ask');
  return {
    beside: stepper.classList.contains('mg-words-beside'),
    words: frame.querySelector(':scope > figcaption').getBoundingClientRect().bottom,
    question: form.getClientRects().length ? form.getBoundingClientRect().bottom : null,
    height: innerHeight,
  };
}
"""


@pytest.mark.parametrize(
    "window",
    [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
    ids=["laptop", "phone"],
)
def test_predict_mode_keeps_the_drawing_in_place_while_the_reader_answers_and_steps(
    tab: Tab, window: dict[str, int]
) -> None:
    """Predict on, the backward page's stepper asks before each rule, the reader answers
    (a number, or Show me) and steps on: the question and its verdict share one place,
    held at the taller's height, so that the drawing's top stays where it was with
    Predict off at every question, verdict and step, its labels at 11 px or more.  While
    a question is asked, the question and the whole drawing are in the window (on a
    laptop the question beside it, on a phone under it), over no part of it."""
    tab.page.set_viewport_size(window)
    tab.open("backward.html")
    page = tab.page
    # The page sets up its other parts while idle (the cells' bars, above the stepper too):
    # measured once they are, a step's place is the stepper's doing alone.
    page.wait_for_function("microgradTest.setUp()")
    stepper = page.locator(".mg-stepper.mg-ready:not(.mg-stepper-pair)").first
    stepper.focus()
    page.keyboard.press("Home")
    seen = [("predict off", stepper.evaluate(DRAWING_JS))]
    stepper.locator(".mg-predict-switch").click()
    stepper.focus()
    page.keyboard.press("Home")
    seen.append(("predict on", stepper.evaluate(DRAWING_JS)))
    asked = 0
    for step in range(12):
        click_where_it_is(stepper.locator(".mg-stepper-next"))
        if stepper.locator(".mg-predict-ask").is_visible():
            asked += 1
            seen.append((f"question {step}", stepper.evaluate(DRAWING_JS)))
            if asked % 2:
                click_where_it_is(stepper.locator(".mg-predict-show"))
            else:
                stepper.locator(".mg-predict-input").first.fill("7")
                stepper.locator(".mg-predict-input").last.fill("7")
                click_where_it_is(stepper.locator(".mg-predict-check"))
            page.wait_for_function(
                "(f) => f.hidden", arg=stepper.locator(".mg-predict-ask").element_handle()
            )
        seen.append((f"step {step}", stepper.evaluate(DRAWING_JS)))
        if stepper.locator(".mg-stepper-next").is_disabled():
            break
    assert asked >= 3, seen
    # In the stepper, where it was with Predict off; in the window, where it was when
    # Predict came on (the first step may scroll the stepper under the header).
    assert len({round(place["inner"]) for _, place in seen}) == 1, f"the drawing moves: {seen}"
    # A move a reader would see: a sub-pixel shift of the layout (a question's box rounding
    # the column's height) is none.
    tops = [place["top"] for _, place in seen[1:]]
    assert max(tops) - min(tops) <= 1.0, f"the drawing moves: {seen}"
    for when, place in seen:
        assert place["label"] >= 11.0, (when, place)
        assert place["top"] < place["height"] - 100, (when, place)
        if place["question"]:
            assert not place["covers"], (when, place)
            assert place["question"][0] >= 0, (when, place)
            assert place["question"][1] <= place["height"], (when, place)
        assert place["bottom"] <= place["height"] + 0.5, (when, place)
