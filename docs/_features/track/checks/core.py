"""What every exercise shares: its parts, a check's result, and running the reader's code.

A check runs the exercise's visible example and then its hidden cases, in
order, on the reader's namespace, and stops at the first that fails: a
number that differs from micrograd's, or an exception from the reader's code.
It then asks the exercise's known mistakes, and those of the steps it builds
on, whether they recognise the reader's code, so that the result can name the
mistake rather than only the number.  Nothing the reader wrote makes
:func:`run_check` raise, and it leaves the interpreter as it found it.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import gc
import io
import math
import os
import random
import re
import sys
import traceback
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from dataclasses import replace
from importlib import resources
from types import CodeType
from types import FrameType
from typing import Any
from typing import TypeVar
from typing import cast

from book_runtime.inline_markup import inline_html
from book_runtime.inline_markup import inline_text

#: The reader's namespace: the page's names after the reader's cells ran.
Namespace = Mapping[str, Any]

#: What a probe returns.
T = TypeVar("T")

#: The file name the checker's cases run under: their frames are not the reader's.
CASE_FILE = "<book check>"
#: The checker's package: its folder holds the steps' code files, and its frames are not
#: the reader's either.
PACKAGE = "book_runtime.features.track.checks"
_PACKAGE_DIR = os.path.join(os.path.abspath(str(resources.files(PACKAGE))), "")

PASSED, FAILED, NOT_DONE, RAISED = "passed", "failed", "not-done", "raised"
#: The status of a check whose step's code is micrograd's own, imported or inherited.
NOT_YOURS = "not-yours"

#: The deepest the reader's sort may recurse, CPython's usual limit: a page may raise its own,
#: but the browser's stack is far smaller than CPython's, so a sort that needs more fails here.
RECURSION_LIMIT = 1000

#: Which step each of the page's cells is: its file name (``<cell 5>``) -> the step's id.
Cells = Mapping[str, str]

#: What the reader's code may raise that a check catches: any error, and ``exit()``.
#: (A KeyboardInterrupt, the reader stopping the check, is let through.)
READER_ERRORS = (Exception, SystemExit)


@dataclass(frozen=True)
class Case:
    """One check of the reader's code: code they can paste into a cell, and its run.

    ``run(namespace)`` runs the case on the reader's code and returns what
    differs from micrograd as a sentence (the input, the value received and the
    value expected), or None; what the reader's code raises goes up to the
    check.  A case with a ``part`` is a probe: it checks that one method
    (``"Value.__add__"``, or a function's name, ``"train"``) alone, on a few
    Values of its own, before the step's example and hidden cases.  A case
    whose ``needs`` (an optional part: ``"exp"``) the reader did not write, or
    whose ``applies(namespace)`` is false (the reader wrote no ``__sub__``), is
    skipped.  A probe that takes long (``later=False``: the chain of 5,000
    links) runs only in its own step's check, not again in the checks of the
    steps after it.  ``name`` is how a message names the case.
    """

    code: str
    run: Callable[[Namespace], str | None]
    part: str | None = None
    needs: str | None = None
    applies: Callable[[Namespace], bool] = field(default=lambda namespace: True)
    later: bool = True
    name: str = "A hidden case"


@dataclass(frozen=True)
class Finding:
    """What a mistake's detector saw: the code that shows it, and the numbers its message says.

    The message is the mistake's ``# Says:`` template (its wrong file's header) filled
    with ``fields``; ``says`` names another of its templates (``# Says if <says>:``),
    where the reader's code shows the mistake in another way.  The fields fill in the
    mistake's title and why too, which so say the mistake as the reader made it
    (``No __radd__``, where another reader's is ``No __rmul__``).
    """

    case: str
    part: str | None = None  # the method it is about, where the mistake's are several
    fields: Mapping[str, Any] = field(default_factory=dict)
    says: str = ""


class MicrogradAnswers:
    """micrograd's answer to each case the checks put to it: the checker's one cache of them.

    micrograd's numbers for a case never change, so each is computed once, the first
    time a check asks for it; its key is the case (an engine case, a rule, a graph, a
    network's draw).
    """

    def __init__(self) -> None:
        self._by_case: dict[Hashable, Any] = {}

    def answer(self, case: Hashable, compute: Callable[[], T]) -> T:
        """micrograd's answer to ``case``: ``compute()``, run the first time it is asked for."""
        if case not in self._by_case:
            self._by_case[case] = compute()
        return cast(T, self._by_case[case])


#: micrograd's answers to the track's cases.
MICROGRAD = MicrogradAnswers()


@functools.cache  # the files do not change while the checks run
def step_file(step: str, name: str) -> str:
    """The text of one of a step's code files: ``steps/<step>/<name>`` of this package.

    The starter, the solution and the known-wrong solutions are ``.py`` files
    that ruff reads; the page, the runner and the checks read their text here.
    """
    steps = resources.files(PACKAGE) / "steps"
    return (steps / step / name).read_text(encoding="utf-8")


class Failure(str):
    """A probe's failure, as the sentence it says, with the numbers it names as ``fields``.

    A known mistake's message (``# Says:`` in its wrong file) is a template of these.
    """

    fields: dict[str, Any]

    def __new__(cls, text: str, /, **fields: Any) -> Failure:
        made = super().__new__(cls, text)
        made.fields = fields
        return made


@dataclass(frozen=True)
class Outcome:
    """How a program first fails a step's probes: the probe, and what it said or raised.

    Two programs with the same outcome gave the same numbers (or the same exception) on
    the same input: the outcome of a known mistake's wrong solution is its fingerprint.
    """

    probe: Case
    text: str
    raised: bool = False
    fields: Mapping[str, Any] = field(default_factory=dict)

    def same_as(self, other: Outcome | None) -> bool:
        """Whether ``other`` is the same failure of the same probe, with every number it saw."""
        return other == self


#: A field of a wrong file's header: ``# Mistake: <title>``, ``# Why: ...``..., which goes on
#: over the lines after it that begin ``#   ``.
_FIELD = re.compile(r"# (Mistake|In|Why|Says(?: if [\w-]+)?): (.*(?:\n#   .*)*)\n")


def read_header(text: str) -> tuple[dict[str, str], str]:
    """A wrong file's header fields (each on one line) and its code.

    The code is what the mistake writes on top of the solution: the header and the blank lines
    after it left out, so that its lines are numbered in the cell as they were written.
    """
    fields, end = {}, 0
    while found := _FIELD.match(text, end):
        fields[found[1]] = found[2].replace("\n#   ", " ")
        end = found.end()
    return fields, text[end:].lstrip("\n") if end else text


@dataclass(frozen=True)
class Mistake:
    """A known mistake: its wrong solution, what it is, why it gives the numbers it gives.

    Each is one file, ``steps/<step>/wrong/<id>.py`` (:attr:`wrong_file`): code
    run on top of that step's solution, headed by the mistake's title
    (``# Mistake:``), the methods it can be made in (``# In:``), its why
    (``# Why:``) and, for a mistake told by its fingerprint, its message
    (``# Says:``, a template of the failing probe's fields).  Its fingerprint is
    how the wrong solution fails each of its step's probes (an :class:`Outcome`);
    a reader's code that first fails a probe as the wrong solution fails it gave
    the same numbers on the same input: it is this mistake.  Where the numbers
    alone cannot tell the mistake, ``detector(namespace)`` runs small probes of
    its own on the reader's code (functions of the reader's names, see
    :func:`attempt`) and returns a :class:`Finding`, or None (also when a probe
    raises).
    """

    id: str
    step: str
    title: str
    why: str
    parts: tuple[str, ...]
    says: tuple[tuple[str, str], ...] = ()  # each template's name ("" for # Says:), and its text
    detector: Callable[[Namespace], Finding | None] | None = None

    @classmethod
    def known(
        cls, step: str, id: str, detector: Callable[[Namespace], Finding | None] | None = None
    ) -> Mistake:
        """The mistake ``id`` of ``step``, as its wrong file's header says it."""
        fields, _ = read_header(step_file(step, _wrong_file(id)))
        parts = tuple(part.strip() for part in fields["In"].split(","))
        says = tuple(
            (key.removeprefix("Says").removeprefix(" if "), text)
            for key, text in fields.items()
            if key.startswith("Says")
        )
        return cls(id, step, fields["Mistake"], fields["Why"], parts, says, detector)

    @property
    def wrong_file(self) -> str:
        """The wrong solution's file name in the step's folder (``wrong/no_seed.py``)."""
        return _wrong_file(self.id)

    @property
    def wrong(self) -> str:
        """The wrong solution's code: the methods the mistake writes, on top of the solution."""
        return read_header(step_file(self.step, self.wrong_file))[1]

    def detect(self, namespace: Namespace) -> Finding | None:
        """A :class:`Finding` when the reader's code in ``namespace`` is this mistake, else None."""
        if self.detector is not None:
            return self.detector(namespace)
        return self.matches(readers_outcome(self.step, namespace))

    def matches(self, outcome: Outcome | None) -> Finding | None:
        """A :class:`Finding` when the wrong solution fails ``outcome``'s probe as ``outcome`` says.

        Its message is the ``# Says:`` template, filled with the probe's fields and its
        method (``{part}``).
        """
        if not self.says or outcome is None:
            return None
        if not outcome.same_as(fingerprint(self, outcome.probe)):
            return None
        fields = {"part": outcome.probe.part, **outcome.fields}
        return Finding(outcome.probe.code, outcome.probe.part, fields)

    def message(self, finding: Finding) -> str:
        """What the reader reads: the template ``finding`` names, filled with its fields."""
        return dict(self.says)[finding.says].format(**finding.fields)

    def as_found(self, finding: Finding) -> Mistake:
        """The mistake as ``finding`` saw it made: its title and why filled with its fields."""
        fields = finding.fields
        return replace(self, title=self.title.format(**fields), why=self.why.format(**fields))

    def to_json(self) -> dict[str, str]:
        """The mistake for the page: its title and why as written (inline Markdown), as HTML
        to insert, and as plain text to say (:mod:`book_runtime.inline_markup`)."""
        return {"id": self.id, **_marked("title", self.title), **_marked("why", self.why)}


def _wrong_file(mistake: str) -> str:
    return f"wrong/{mistake.replace('-', '_')}.py"


def _marked(key: str, text: str) -> dict[str, str]:
    """``text`` (inline Markdown) as written, as HTML to insert, and as plain text to say."""
    return {key: text, f"{key}_html": inline_html(text), f"{key}_text": inline_text(text)}


def defined(namespace: Namespace, part: str) -> Any:
    """The function that ``part`` (``"Value.__add__"`` or ``"train"``) is in ``namespace``, or None.

    A method is looked up as Python does, through the class's bases, and
    without running anything of the reader's (no descriptor is called).
    """
    owner, _, name = part.rpartition(".")
    found = namespace.get(owner or name)
    if owner:
        if not isinstance(found, type):
            return None
        found = next((k.__dict__[name] for k in found.__mro__ if name in k.__dict__), None)
    if isinstance(found, (staticmethod, classmethod)):
        found = found.__func__
    if isinstance(found, property):
        found = found.fget
    return found


def micrograds_own(namespace: Namespace, name: str) -> type | None:
    """The class of micrograd's that the reader's ``name`` is, or derives from; or None."""
    found = namespace.get(name)
    if not isinstance(found, type):
        return None
    return next((klass for klass in found.__mro__ if is_micrograds_code(klass)), None)


@dataclass(frozen=True)
class Exercise:
    """One step of the track.

    Its code is in the package's ``steps/<id>/`` folder: ``starter.py``,
    ``solution.py`` and, for each known mistake, ``wrong/<mistake>.py``.
    ``ready(namespace)`` says what the page still lacks before the step can
    be checked (a not-done message), or None; ``written(namespace)`` which
    of the step's optional parts the reader wrote (a case whose ``needs``
    is not among them is skipped); ``unfinished(written)``, asked once every
    case passed, what is still missing (say, neither of two optional parts
    written), or None.  ``builds_on`` names the steps whose code this one
    uses, in the track's order: their known mistakes are recognised here too.
    """

    id: str
    title: str
    hints: tuple[str, ...]
    prints: str  # what the visible example (``example.py``) prints
    hidden_cases: tuple[Case, ...]
    mistakes: tuple[Mistake, ...]
    ready: Callable[[Namespace], str | None]
    written: Callable[[Namespace], frozenset[str]] = field(default=lambda namespace: frozenset())
    unfinished: Callable[[frozenset[str]], str | None] = field(default=lambda written: None)
    builds_on: tuple[str, ...] = ()
    probes: tuple[Case, ...] = ()
    parts: tuple[str, ...] = ()

    @property
    def example(self) -> Case:
        """The step's visible example: ``example.py``, which must print exactly :attr:`prints`."""
        code = step_file(self.id, "example.py")

        def run(namespace: Namespace) -> str | None:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                run_code(code, reader_scope(namespace))
            if printed.getvalue() == self.prints:
                return None
            return (
                f"The example printed\n{_indent(printed.getvalue())}\n"
                f"where it should print\n{_indent(self.prints)}"
            )

        return Case(code, run, name="The example")

    @property
    def starter(self) -> str:
        """The exercise cell as the page gives it to the reader (``starter.py``)."""
        return step_file(self.id, "starter.py")

    @property
    def solution(self) -> str:
        """The book's solution, as the runner shows it (``solution.py``)."""
        return step_file(self.id, "solution.py")

    @property
    def known_wrong(self) -> dict[str, str]:
        """Each mistake's id, and a cell that makes it: the solution, then its wrong file."""
        return {m.id: f"{self.solution}\n\n{m.wrong}" for m in self.mistakes}


@dataclass(frozen=True)
class Result:
    """A check's one result: passed, or the first failure, naming the mistake where it knows it.

    ``checked`` is how many cases ran, the failing one included.  ``part``
    is the method the failure is put down to (``"Value.__add__"``), and
    ``step`` the step whose cell defines it, where the check could tell.
    """

    exercise: str
    status: str
    message: str
    case: str | None = None
    mistake: Mistake | None = None
    traceback: str | None = None
    checked: int = 0
    part: str | None = None
    step: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The result for the page; its message (inline Markdown) also as HTML and plain text."""
        data = {name.name: getattr(self, name.name) for name in fields(self)}
        mistake = None if self.mistake is None else self.mistake.to_json()
        return {**data, **_marked("message", self.message), "mistake": mistake}


# -- running the reader's code ----------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _compiled(code: str) -> CodeType:
    return compile(code, CASE_FILE, "exec")


def run_code(code: str, scope: dict[str, Any]) -> dict[str, Any]:
    """Run ``code`` in ``scope`` (under the checker's file name) and return the scope."""
    exec(_compiled(code), scope)
    return scope


def reader_scope(namespace: Namespace) -> dict[str, Any]:
    """A scratch copy of the reader's namespace: a case's own names do not land in the page's."""
    scope = dict(namespace)
    scope.setdefault("__builtins__", builtins)
    return scope


def attempt(look: Callable[[Namespace], T], namespace: Namespace) -> T | None:
    """Try ``look`` on the reader's names: what it returns, or None if their code raised.

    ``look`` is a detector's small experiment (not a step's probe, which is a
    :class:`Case`): a function of the reader's namespace that reads the
    reader's classes from it, ``names["Value"]``, and keeps what it makes to
    itself; what it returns is never None, so that None says the reader's code
    raised.
    """
    try:
        return look(namespace)
    except READER_ERRORS:
        return None


def attempt_error(
    look: Callable[[Namespace], object], namespace: Namespace
) -> BaseException | None:
    """The exception the reader's code raised trying ``look`` (see :func:`attempt`), or None."""
    try:
        look(namespace)
    except READER_ERRORS as error:
        return error
    return None


# -- numbers in messages ---------------------------------------------------------------------


def same(got: Any, want: Any) -> bool:
    """Whether the reader's ``got`` is micrograd's ``want`` (floats: up to rounding)."""
    if isinstance(want, float):
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            return False
        if math.isnan(want):
            return math.isnan(got)
        return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(want, (list, tuple)):
        return (
            isinstance(got, (list, tuple))
            and len(got) == len(want)
            and all(same(g, w) for g, w in zip(got, want, strict=True))
        )
    return bool(type(got) is type(want) and got == want)


def first_difference(got: Sequence[Any], want: Sequence[Any]) -> int:
    """The first index where the reader's ``got`` is not micrograd's ``want`` (they differ)."""
    return next(i for i, (g, w) in enumerate(zip(got, want, strict=True)) if not same(g, w))


def show(x: Any, other: Any = None) -> str:
    """A number as a message shows it: short, but never like ``other``'s text when they differ."""
    if isinstance(x, float):
        text = repr(x) if len(repr(x)) <= 10 else f"{x:.6g}"
        if isinstance(other, float) and other != x and text == show(other):
            return repr(x)
        return text
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(show(v) for v in x) + "]"
    return repr(x)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in (text.rstrip("\n") or "(nothing)").splitlines())


# -- the reader's traceback ----------------------------------------------------------------


def _checkers(filename: str) -> bool:
    """Whether a frame of this file is the checker's (this package, or a case it runs)."""
    return filename == CASE_FILE or os.path.abspath(filename).startswith(_PACKAGE_DIR)


def _trim(exception: traceback.TracebackException) -> None:
    kept = [frame for frame in exception.stack if not _checkers(frame.filename)]
    exception.stack = traceback.StackSummary.from_list(kept)
    for chained in (exception.__cause__, exception.__context__):
        if chained is not None:
            _trim(chained)


def reader_traceback(error: BaseException) -> str:
    """The traceback of an exception from the reader's code, the checker's frames left out."""
    exception = traceback.TracebackException.from_exception(error)
    _trim(exception)
    return "".join(exception.format())


def readers(error: BaseException) -> list[CodeType]:
    """The code of the reader's frames in an exception's traceback, outermost first."""
    codes = [frame.f_code for frame, _ in traceback.walk_tb(error.__traceback__)]
    return [code for code in codes if not _checkers(code.co_filename)]


def starter_part(error: BaseException) -> str | None:
    """The name of the starter's function that raised NotImplementedError, or None.

    A starter's unwritten functions raise NotImplementedError; one raised in
    the reader's code means that part is still the starter's.
    """
    frames = readers(error) if isinstance(error, NotImplementedError) else []
    return str(getattr(frames[-1], "co_qualname", frames[-1].co_name)) if frames else None


# -- the interpreter as the caller had it ----------------------------------------------------


class Guard:
    """Keeps what a check may disturb as the caller had it.

    The random generator's state (the cases seed it), the recursion limit (the
    reader's code may raise it: see :func:`limit_put_back`), the garbage
    collector's switch and thresholds, and the standard streams: what the
    reader's code prints while it is checked is not part of the result.  The
    collector is off during the check: the reader's closures make every node a
    reference cycle, and rescanning a growing graph of them would take longer
    than the check itself (what the book's ``paused_gc()`` is for).
    """

    def __enter__(self) -> Guard:
        self._random = random.getstate()
        self._limit = sys.getrecursionlimit()
        self._collector = gc.isenabled(), gc.get_threshold()
        self._streams = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = io.StringIO()
        gc.disable()
        return self

    def __exit__(self, *exc_info: object) -> None:
        sys.stdout, sys.stderr = self._streams
        random.setstate(self._random)
        _put_back(self._limit)
        enabled, thresholds = self._collector
        gc.set_threshold(*thresholds)
        (gc.enable if enabled else gc.disable)()


def _put_back(limit: int) -> None:
    """The recursion limit as it was before the reader's code changed it (if it did)."""
    if sys.getrecursionlimit() != limit:
        sys.setrecursionlimit(limit)


@contextlib.contextmanager
def limit_put_back() -> Iterator[list[int]]:
    """Run the reader's code, then put back the recursion limit it set: the list it gives
    then holds the limit the code set (empty when it left the limit alone).

    The check never sets the limit itself: it runs under the page's, and a sort
    deeper than :data:`RECURSION_LIMIT` fails whatever the limit (see step_backward).
    """
    before = sys.getrecursionlimit()
    asked: list[int] = []
    try:
        yield asked
    finally:
        if sys.getrecursionlimit() != before:
            asked.append(sys.getrecursionlimit())
            _put_back(before)


def stack_depth() -> int:
    """How many frames the stack holds, this one's caller's included (no recursion)."""
    depth, frame = 0, cast("FrameType | None", sys._getframe(1))
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def left_number(x: float, uses: int = 50) -> float:
    """``x``, to put on the left of an operation on the reader's Value: a float that fails as
    Python would at its recursion limit once handed back more than ``uses`` times.

    A reflected method that writes the number on the left again (``other + self``)
    hands the operation back to itself: it recurses through C until Python's limit,
    which takes seconds in the browser, where 50 hand-backs say the same in no time.
    Its class is named ``float``, so that what the reader's code says of it is what
    it says of a float.
    """
    handed_back = 0

    def counted(operation: Callable[[float, Any], Any]) -> Callable[[float, Any], Any]:
        def method(number: float, other: Any) -> Any:
            nonlocal handed_back
            result = operation(number, other)
            if result is NotImplemented:  # the Value's reflected method is asked next
                handed_back += 1
                if handed_back > uses:
                    raise RecursionError("maximum recursion depth exceeded")
            return result

        return method

    methods = ("__add__", "__sub__", "__mul__", "__truediv__")
    number = type("float", (float,), {m: counted(getattr(float, m)) for m in methods})
    return cast(float, number(x))


# -- fingerprints ----------------------------------------------------------------------------------


def first_failure(
    items: Iterable[Case], namespace: Namespace
) -> tuple[int, Case | None, str | BaseException | None]:
    """``items`` run in order on ``namespace``, to the first that fails: how many ran, that
    item, and what it said or what the reader's code raised (None, None: all passed).  A probe
    that does not apply to the reader's code is skipped (and counted)."""
    number = 0  # no items: none ran
    for number, item in enumerate(items, start=1):
        try:
            if not item.applies(namespace):
                continue
            with limit_put_back():
                failure = item.run(namespace)
        except READER_ERRORS as error:
            return number, item, error
        if failure is not None:
            return number, item, failure
    return number, None, None


def steps_probes(
    steps: Sequence[Exercise], written: Mapping[str, frozenset[str]]
) -> Iterator[Case]:
    """The probes of ``steps`` in order, those whose optional part the reader did not write
    left out.  The last of ``steps`` is the one checked: a probe of an earlier step that takes
    long (``later=False``) is left out too."""
    for step in steps:
        yield from (
            method
            for method in step.probes
            if (method.needs is None or method.needs in written[step.id])
            and (method.later or step is steps[-1])
        )


def outcome_of(method: Case | None, failure: str | BaseException | None) -> Outcome | None:
    """A probe's failure as an :class:`Outcome` (an exception: its type and its words); None
    for a case's, which is no probe's."""
    if method is None or method.part is None or failure is None:
        return None
    if isinstance(failure, BaseException):
        return Outcome(method, f"{type(failure).__name__}: {failure}", raised=True)
    return Outcome(method, str(failure), fields=getattr(failure, "fields", {}))


def _track() -> Mapping[str, Exercise]:
    from . import EXERCISES  # the track is made of this module's classes

    return EXERCISES


def readers_outcome(step: str, namespace: Namespace) -> Outcome | None:
    """How the code of ``namespace`` first fails the probes of ``step`` and the steps before it."""
    track = _track()
    exercise = track[step]
    steps = (*(track[s] for s in exercise.builds_on), exercise)
    try:
        written = {s.id: s.written(namespace) for s in steps}
    except READER_ERRORS:
        return None
    _, method, failure = first_failure(steps_probes(steps, written), namespace)
    return outcome_of(method, failure)


@functools.cache  # a wrong file's page does not change: it is made once
def _wrong_page(mistake: Mistake) -> dict[str, Any]:
    """The page with the solutions of the steps before the mistake's, and its wrong solution."""
    namespace: dict[str, Any] = {"__builtins__": builtins, "__name__": "__main__"}
    for exercise in _track().values():
        mine = exercise.id == mistake.step
        code = exercise.known_wrong[mistake.id] if mine else exercise.solution
        exec(compile(code, f"<{exercise.id}>", "exec"), namespace)
        if mine:
            break
    return namespace


@functools.cache  # a wrong file's numbers do not change: each fingerprint is made once
def fingerprint(mistake: Mistake, method: Case | None = None) -> Outcome | None:
    """How the mistake's wrong solution fails the probe ``method`` (None: it passes it, or it
    fails an earlier probe of the same method), or, without one, how it first fails the
    probes of its step (None: it passes them all).

    A reader's code that fails a probe as the wrong solution fails it gave the same numbers
    on the same input: a mistake made in any of its methods is told by the probe of that
    method, whichever of them the wrong solution first fails.  The reader's code passed the
    probes before it; a wrong solution that fails one of the same method is another way of
    getting that method wrong (and is not run further: the chain of 5,000 links, on a
    backward() that recurses, would take the browser's stack).
    """
    namespace = _wrong_page(mistake)
    if method is not None:
        probes = [probe for step in _track().values() for probe in step.probes]
        before = probes[: probes.index(method)] if method in probes else []
        if any(fingerprint(mistake, p) for p in before if p.part == method.part):
            return None
    with Guard():
        if method is None:
            return readers_outcome(mistake.step, namespace)
        _, failed, failure = first_failure([method], namespace)
        return outcome_of(failed, failure)


# -- a check ------------------------------------------------------------------------------------


def run_check(
    exercise: Exercise,
    namespace: Namespace,
    builds_on: Sequence[Exercise],
    cells: Cells | None = None,
    exercises: Mapping[str, Exercise] | None = None,
) -> Result:
    """Check the reader's namespace against one exercise (see the module's docstring).

    ``cells`` names the step of each exercise cell, so that a failure can
    say which step's code it comes from; ``exercises`` are all the track's
    steps, in order, by id (for their numbers and titles).
    """
    known = dict(exercises) if exercises is not None else {e.id: e for e in (*builds_on, exercise)}
    with Guard():
        return _Check(exercise, namespace, builds_on, dict(cells or {}), known).judge()


@dataclass(frozen=True)
class _Check:
    """One check of one exercise: its probes and cases in order, and the first failure's diagnosis.

    ``blame_earlier`` lets a failure that no known mistake explains be
    traced to the earliest step it builds on that fails its own check.
    """

    exercise: Exercise
    namespace: Namespace
    builds_on: Sequence[Exercise]
    cells: Cells
    exercises: Mapping[str, Exercise]
    blame_earlier: bool = True

    @property
    def steps(self) -> tuple[Exercise, ...]:
        """This step and the steps it builds on, in the track's order."""
        return (*self.builds_on, self.exercise)

    def result(self, status: str, message: str, **fields: Any) -> Result:
        return Result(self.exercise.id, status, message, **fields)

    def judge(self) -> Result:
        try:
            missing = self.exercise.ready(self.namespace)
            if missing is not None:
                return self.result(NOT_DONE, missing)
            written = {step.id: step.written(self.namespace) for step in self.steps}
        except READER_ERRORS as error:
            return self.diagnose(None, error, 0)
        borrowed = self.not_yours()
        if borrowed is not None:
            return borrowed
        mine = written[self.exercise.id]
        cases: list[Case] = [self.exercise.example]
        cases += [c for c in self.exercise.hidden_cases if c.needs is None or c.needs in mine]
        number, item, failure = first_failure(
            [*steps_probes(self.steps, written), *cases], self.namespace
        )
        if item is not None and failure is not None:
            return self.diagnose(item, failure, number)
        missing = self.exercise.unfinished(mine)
        if missing is not None:
            return self.result(NOT_DONE, missing, checked=number)
        return self.result(
            PASSED,
            f"Passed: each of your methods alone, the example and all {len(cases) - 1} hidden "
            "cases give micrograd's numbers.",
            checked=number,
        )

    # -- whose code it is --------------------------------------------------------------------

    def lead(self, part: str) -> tuple[str, str | None]:
        """How a message about ``part`` begins, and the step whose cell holds it.

        ``Your `Value.__add__` (step 2's cell, line 12)``: the method and where it is
        defined, its step's cell, or another cell (``cell 7``), when it is a function of
        code.  A method of another step's cell names that step first.
        """
        code = getattr(defined(self.namespace, part), "__code__", None)
        if not isinstance(code, CodeType):
            return f"Your `{part}`", None
        filename, line = code.co_filename, code.co_firstlineno
        steps, step = list(self.exercises), self.cells.get(filename)
        if step is not None and step in self.exercises:
            where = f" (step {steps.index(step) + 1}'s cell, line {line})"
        else:
            where = f" ({filename.strip('<>')}, line {line})" if filename.startswith("<") else ""
        if step is not None and step != self.exercise.id:
            number, title = steps.index(step) + 1, self.exercises[step].title
            return f'This comes from step {number} "{title}": your `{part}`{where}', step
        return f"Your `{part}`{where}", step

    def not_yours(self) -> Result | None:
        """A NOT_YOURS result if a class or function of these steps is micrograd's own."""
        parts = (part for step in self.steps for part in step.parts)
        for owner in dict.fromkeys(part.rpartition(".")[0] or part for part in parts):
            klass = micrograds_own(self.namespace, owner)
            found = self.namespace.get(owner)
            if klass is None and not (callable(found) and is_micrograds_code(found)):
                continue
            if klass is None or found is klass:
                how = f"`{owner}` is micrograd's own ({_origin(found)}), imported"
            else:
                how = (
                    f"your `{owner}` derives from micrograd's `{klass.__name__}` "
                    f"({_origin(klass)}): what it does not define, it takes from micrograd"
                )
            return self.result(
                NOT_YOURS,
                f"Not yours: {how}, so a check would test micrograd, not your code. The track "
                f"asks you to write `{owner}` yourself: define it in its step's cell "
                "(without importing it from micrograd, and without deriving from micrograd's "
                "class), and run that cell.",
                part=owner,
            )
        return None

    # -- a failure, diagnosed ----------------------------------------------------------------

    def diagnose(self, item: Case | None, failure: str | BaseException, number: int) -> Result:
        """The result of the first failure: what ``item`` (a probe, a case, or None: the code
        run before any case) said, or what the reader's code raised running it.

        A starter's method that raised is not done yet.  A known mistake is named first (a
        probe's, among the mistakes of its method), and a case's failure put down to an earlier
        step that fails; else the failure is the method's (a probe's, or the one the traceback
        or the step names).
        """
        error = failure if isinstance(failure, BaseException) else None
        part = None if error is None else starter_part(error)
        if error is not None and part is not None:  # an earlier step's: write it there
            said, holder = self.lead(part)
            if holder is not None and holder != self.exercise.id:
                message = f"{said} is still the starter's ({error}): write it there first."
            else:
                message = f"`{part}` is still the starter's ({error})."
            return self.result(NOT_DONE, message, checked=number, part=part)
        tb = None if error is None else reader_traceback(error)
        probed = None if item is None else item.part
        named = self.recognised(number, tb, probed, outcome_of(item, failure))
        if named is None and probed is None and self.blame_earlier:
            named = self.earlier_failure(number)
        if named is not None:
            return named
        status, part, message = self.unexplained(item, failure, error)
        step = None if part is None else self.lead(part)[1]
        code = None if item is None else item.code
        return self.result(
            status, message, case=code, traceback=tb, checked=number, part=part, step=step
        )

    def unexplained(
        self, item: Case | None, failure: str | BaseException, error: BaseException | None
    ) -> tuple[str, str | None, str]:
        """A failure no known mistake explains: its status, the method it is put down to
        (a probe's, or the one the traceback or the step names) and its message."""
        probed = None if item is None else item.part
        if error is None:  # a Failure keeps its fields: it is a str
            part, message = probed or self._only_part(), str(failure)
            if part is None:
                return FAILED, part, message
            joined = message if probed else message[0].lower() + message[1:]
            return FAILED, part, f"{self.lead(part)[0]}: {joined}"
        raised = f"{type(error).__name__}: {error}"
        unset = None if probed is None else self.never_set(error)
        if unset is not None:
            owner, attribute = unset
            lead = self.lead(f"{owner}.__init__")[0]
            message = f"{lead} never sets {attribute}, which `{probed}` reads: {raised}"
            return RAISED, f"{owner}.__init__", message
        if probed is not None:
            return RAISED, probed, f"{self.lead(probed)[0]} raised {raised}"
        where = "Your code, before any case," if item is None else item.name
        part = _raising_part(error, self.exercise.parts) or self._only_part()
        return RAISED, part, f"{where} raised {raised}"

    def _only_part(self) -> str | None:
        """The step's one method, to which a case's failure is put down (None: it has several)."""
        return self.exercise.parts[0] if len(self.exercise.parts) == 1 else None

    def never_set(self, error: BaseException) -> tuple[str, str] | None:
        """(class, attribute) when ``error`` reads an attribute the class's __init__ never set.

        The attribute is the object's own, not its class's, and the class is one
        of these steps' (whose ``__init__`` the reader writes): the fault is there.
        """
        if not isinstance(error, AttributeError) or error.name is None:
            return None
        found = getattr(error, "obj", None)
        owner = type(found).__name__
        if f"{owner}.__init__" not in {part for step in self.steps for part in step.parts}:
            return None
        if self.namespace.get(owner) is not type(found) or hasattr(type(found), error.name):
            return None
        return owner, error.name

    def recognised(
        self, number: int, tb: str | None, part: str | None, outcome: Outcome | None = None
    ) -> Result | None:
        """The failure put down to a known mistake (of ``part``, if given), or None.

        When several fit, the more specific is named: first one whose fingerprint is the
        reader's outcome (the same numbers on the same input), then the one made in the
        fewest methods, then the first listed.
        """
        fits: list[tuple[int, int, Mistake, Finding]] = []
        for owner in reversed(self.steps):
            for mistake in owner.mistakes:
                if part is not None and part not in mistake.parts:
                    continue
                try:
                    if mistake.detector is None:
                        finding = mistake.matches(outcome)
                    else:
                        with limit_put_back():
                            finding = mistake.detector(self.namespace)
                except READER_ERRORS:  # a probe that trips on other code recognises nothing
                    finding = None
                if finding is not None:
                    rank = (mistake.detector is not None, len(mistake.parts))
                    fits.append((*rank, mistake, finding))
        if not fits:
            return None
        *_, mistake, finding = min(fits, key=lambda fit: fit[:2])
        part = finding.part or part or mistake.parts[0]  # a mistake is made in a method
        lead, step = self.lead(part)
        return self.result(
            FAILED,
            f"{lead}: {mistake.message(finding)}",
            case=finding.case,
            mistake=mistake.as_found(finding),
            traceback=tb,
            checked=number,
            part=part,
            step=step,
        )

    def earlier_failure(self, number: int) -> Result | None:
        """The result of the earliest step this one builds on that fails its own check."""
        for i, step in enumerate(self.builds_on):
            earlier = replace(
                self, exercise=step, builds_on=self.builds_on[:i], blame_earlier=False
            )
            result = earlier.judge()
            if result.status in (FAILED, RAISED):
                said = f'This comes from step "{step.title}", whose check fails: {result.message}'
                return replace(
                    result,
                    exercise=self.exercise.id,
                    message=said,
                    checked=number,
                    step=result.step or step.id,
                )
        return None


def is_micrograds_code(thing: Any) -> bool:
    """Whether ``thing`` (a class or a function) is micrograd's own code, by its module.

    A reader's class or function may have any ``__module__``, None or no string at all:
    that is not micrograd's.
    """
    module = getattr(thing, "__module__", None)
    return isinstance(module, str) and (module == "micrograd" or module.startswith("micrograd."))


def _origin(thing: Any) -> str:
    return f"{getattr(thing, '__module__', '?')}.{getattr(thing, '__qualname__', '?')}"


def _raising_part(error: BaseException, parts: Sequence[str]) -> str | None:
    """The reader's method that raised: the innermost of ``parts`` in the traceback, else the
    innermost of the reader's functions (a nested function counts as its method)."""
    qualnames = (str(getattr(code, "co_qualname", code.co_name)) for code in readers(error))
    names = [name.split(".<locals>.")[0] for name in qualnames if name != "<module>"]
    mine = [name for name in names if name in parts]
    found = mine or names
    return found[-1] if found else None
