"""Checks on the built HTML itself: internal links, offline assets, accessibility basics."""

from __future__ import annotations

import re
import zlib
from itertools import pairwise
from pathlib import Path
from urllib.parse import urljoin

from sitefiles import (
    article,
    content_pages,
    discover_pages,
    is_external,
    iter_local_references,
    parse,
    resolve_local,
)

#: Pygments lexer names that mean "no language was given".
NO_LANGUAGE = frozenset({"none", "default"})


def _ids(html: Path, page: Path, cache: dict[Path, set[str]]) -> set[str]:
    if page not in cache:
        soup = parse(html, page.relative_to(html).as_posix())
        cache[page] = {str(e["id"]) for e in soup.find_all(id=True)} | {
            str(e["name"]) for e in soup.find_all("a", attrs={"name": True})
        }
    return cache[page]


def test_every_internal_link_resolves_to_a_file_and_anchor(html: Path, page_path: str) -> None:
    soup = parse(html, page_path)
    ids: dict[Path, set[str]] = {}
    broken = []
    for tag, attr, url in iter_local_references(soup):
        if is_external(url) or url == "#":
            continue
        target, fragment = resolve_local(html, page_path, url)
        if not target.is_relative_to(html.resolve()) or not target.is_file():
            broken.append(f"<{tag} {attr}={url!r}>: no file {target}")
        elif fragment and target.suffix == ".html" and fragment not in _ids(html, target, ids):
            broken.append(f"<{tag} {attr}={url!r}>: no id {fragment!r} in {target.name}")
    assert not broken, f"{page_path}:\n" + "\n".join(broken)


def test_page_references_no_asset_on_another_origin(html: Path, page_path: str) -> None:
    """Scripts, styles, images and frames are all served by the site itself.

    Plain links (``<a href>``) to other sites are fine: a reader chooses to follow them.
    """
    soup = parse(html, page_path)
    foreign = [
        f"<{tag} {attr}={url!r}>"
        for tag, attr, url in iter_local_references(soup)
        if tag != "a" and is_external(url) and not url.startswith("data:")
    ]
    assert not foreign, f"{page_path} loads assets from other origins:\n" + "\n".join(foreign)


def test_every_page_declares_a_favicon_that_exists(html: Path) -> None:
    """Without ``<link rel="icon">`` browsers ask for /favicon.ico: a 404 in the console."""
    problems = []
    for page in discover_pages(html):
        soup = parse(html, page)
        icons = [link for link in soup.find_all("link", href=True) if "icon" in link.get("rel", [])]
        if not icons:
            problems.append(f"{page}: no <link rel='icon'> (set html_favicon in docs/conf.py)")
        for link in icons:
            target, _ = resolve_local(html, page, str(link["href"]))
            if is_external(str(link["href"])) or not target.is_file():
                problems.append(f"{page}: icon {link['href']} is not a file of the site")
    assert not problems, "\n".join(problems)


def test_every_image_has_alt_text(html: Path, page_path: str) -> None:
    """Alt text is present, not blank, and not just the file's own path."""
    soup = parse(html, page_path)
    missing = []
    for img in soup.find_all("img"):
        alt = str(img.get("alt", "")).strip()
        src = str(img.get("src", ""))
        if not alt or alt == src or alt == Path(src).name:
            missing.append(f"<img src={src!r} alt={alt!r}>")
    assert not missing, f"{page_path}: images without real alt text:\n" + "\n".join(missing)


def test_headings_start_at_h1_and_skip_no_level(html: Path, content_page_path: str) -> None:
    body = article(parse(html, content_page_path))
    levels = [
        (int(h.name[1]), h.get_text(" ", strip=True))
        for h in body.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])
    ]
    assert levels, f"{content_page_path} has no heading"
    assert levels[0][0] == 1, f"{content_page_path}: first heading is {levels[0]}, not an h1"
    skips = [
        f"h{prev} {prev_text!r} -> h{level} {text!r}"
        for (prev, prev_text), (level, text) in pairwise(levels)
        if level > prev + 1
    ]
    assert not skips, f"{content_page_path}: heading levels skip:\n" + "\n".join(skips)


def _language(block: object) -> str:
    classes = block.get("class", [])  # type: ignore[attr-defined]
    tags = [c.removeprefix("highlight-") for c in classes if c.startswith("highlight-")]
    return tags[0] if tags else "none"


def test_code_cells_and_code_blocks_name_their_language(html: Path, content_page_path: str) -> None:
    """Input cells and code blocks in the prose carry a language tag (outputs need none)."""
    body = article(parse(html, content_page_path))
    untagged = []
    for block in body.select('div[class*="highlight-"]'):
        if block.find_parent("div", class_="cell_output"):
            continue
        if "doctest" in block.get("class", []):  # >>> examples: Sphinx highlights them as pycon
            continue
        if _language(block) in NO_LANGUAGE:
            untagged.append(block.get_text()[:80])
    assert not untagged, f"{content_page_path}: code without a language tag:\n" + "\n".join(
        map(repr, untagged)
    )


def test_exercise_solutions_hide_under_show_solution(html: Path, content_page_path: str) -> None:
    """A solution's toggle says what it hides, not myst-nb's "Show code cell content", and
    which cell it is, so that the cell numbers a reader sees do not skip one there."""
    body = article(parse(html, content_page_path))
    headings = body.find_all(["h2", "h3"])
    exercises = next((h for h in headings if h.get_text().startswith("Exercise")), None)
    toggles = body.select("details.hide > summary")
    if exercises is None:
        assert not toggles, f"{content_page_path}: a hidden cell on a page without exercises"
        return
    assert toggles, f"{content_page_path}: exercises without a hidden solution"
    # Its number: its place among the cells that show their code (the runner's "Cell n").
    numbered = [cell for cell in body.select("div.cell") if cell.select_one("div.cell_input")]
    for summary in toggles:
        number = numbered.index(summary.find_parent("div", class_="cell")) + 1
        shown = summary.select_one(".collapsed").get_text(strip=True)
        hidden = summary.select_one(".expanded").get_text(strip=True)
        expected = (f"Show solution (cell {number})", f"Hide solution (cell {number})")
        assert (shown, hidden) == expected, content_page_path
        assert "# Solution" in summary.find_parent("details").get_text()


def test_every_page_names_the_runners_files_by_the_bytes_the_site_ships(html: Path) -> None:
    """``?v=`` of runner.js and runner.css is the CRC-32 of the file served (Sphinx's
    checksum): when either changes, a returning reader's browser fetches it again."""
    shipped = {
        name: f"{zlib.crc32((html / '_static' / 'runner' / name).read_bytes()):08x}"
        for name in ("runner.js", "runner.css")
    }
    wrong = []
    for page in discover_pages(html):
        text = (html / page).read_text(encoding="utf-8")
        named = dict(re.findall(r"runner/(runner\.(?:js|css))\?v=([0-9a-f]+)", text))
        if named != shipped:
            wrong.append(f"{page}: {named}")
    assert not wrong, f"the site ships {shipped}; pages name:\n" + "\n".join(wrong)


def _follow(html: Path, start: str, link: str, name: str) -> list[str]:
    """The pages met from ``start`` on, following ``link`` (``name`` in messages) while the
    page has one: each page's one such link, to a page of the site, met only once."""
    met = [start]
    while found := parse(html, met[-1]).select(link):
        assert len(found) == 1, f"{met[-1]} has {len(found)} '{name}' links"
        target = urljoin(met[-1], str(found[0]["href"])).split("#")[0]
        assert target not in met, f"'{name}' loops back to {target}"
        assert (html / target).is_file(), f"'{name}' of {met[-1]} leads to {target}, no page"
        met.append(target)
    return met


def test_next_and_previous_links_walk_every_page_in_toc_order(html: Path) -> None:
    """From the start page, "next" walks the sidebar's table of contents in its order, and
    "previous" walks back; every authored page is on the way (the links' hrefs, as a click
    follows them; that a click reaches them: test_reader_experience.py)."""
    start = "index.html"
    toc = [
        urljoin(start, str(a["href"])).split("#")[0]
        for a in parse(html, start).select("nav.bd-docs-nav a.reference.internal")
    ]
    toc = list(dict.fromkeys(toc))
    assert toc, "the sidebar has no table of contents"

    forward = _follow(html, start, "a.right-next", "next")
    assert forward == [start, *toc], "'next' order differs from the table of contents"
    backward = _follow(html, forward[-1], "a.left-prev", "previous")
    assert backward == forward[::-1], "'previous' does not retrace 'next'"

    unreachable = [p for p in content_pages(discover_pages(html)) if p not in forward]
    assert not unreachable, f"pages that next/previous never reach: {unreachable}"
