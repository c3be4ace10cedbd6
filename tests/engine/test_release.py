"""The release: what ``nox -s release`` builds from and checks (tools/release.py), and the
workflow that publishes it (.github/workflows/release.yml).

The session itself builds, checks and installs (half a minute, with a fresh
virtual environment): these tests check its parts on small inputs, and that
the workflow publishes what that session builds, through trusted publishing.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from scripts import ROOT, import_tool

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

release = import_tool("release")
REPOSITORY = "https://github.com/o/micrograd-book"


def test_the_example_is_the_readmes_ten_lines_and_what_they_print() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code, output = release.readme_example(readme)
    assert code.startswith("from micrograd import Value\n")
    assert "o.backward()" in code
    assert output.startswith("o = 0.7071\n")
    assert f"```python\n{code}```\n\nprints\n\n```text\n{output}```" in readme


def test_a_readme_without_the_example_is_refused() -> None:
    readme = "# x\n\n## Ten lines\n\n```python\nprint(1)\n```\n\n## Next\n\n```text\n1\n```\n"
    with pytest.raises(ValueError, match=r"a python block and, next, the text block"):
        release.readme_example(readme)


def test_the_version_is_pyprojects() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert release.project_version(pyproject) == tomllib.loads(pyproject)["project"]["version"]


@pytest.mark.parametrize(
    ("environ", "problem"),
    [
        ({}, None),
        ({"GITHUB_REF_TYPE": "branch", "GITHUB_REF_NAME": "main"}, None),
        ({"GITHUB_REF_TYPE": "tag", "GITHUB_REF_NAME": "v1.2.0"}, None),
        ({"GITHUB_REF_TYPE": "tag", "GITHUB_REF_NAME": "v1.2.1"}, "'v1.2.1' does not name"),
        ({"GITHUB_REF_TYPE": "tag", "GITHUB_REF_NAME": "1.2.0"}, "tag it v1.2.0"),
    ],
)
def test_a_tag_must_name_the_version(environ: dict[str, str], problem: str | None) -> None:
    found = release.tag_problem("1.2.0", environ)
    assert found is None if problem is None else problem in found


def test_the_metadata_links_to_the_repository_it_is_told() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    urls = tomllib.loads(release.with_project_urls(pyproject, REPOSITORY + "/"))["project"]["urls"]
    assert urls == {
        "Homepage": REPOSITORY,
        "Repository": REPOSITORY,
        "Issues": f"{REPOSITORY}/issues",
        "Changelog": f"{REPOSITORY}/blob/main/CHANGELOG.md",
    }
    with pytest.raises(ValueError, match="its own"):
        release.with_project_urls(pyproject + '\n[project.urls]\nx = "y"\n', REPOSITORY)


def test_the_readmes_relative_links_point_into_the_repository() -> None:
    readme = (
        "See [examples/README.md](examples/README.md), [the original](https://x.org/a), "
        "[below](#quick-start), [mail](mailto:a@b.c) and [root](/LICENSE)."
    )
    assert release.with_absolute_links(readme, REPOSITORY) == (
        f"See [examples/README.md]({REPOSITORY}/blob/main/examples/README.md), "
        "[the original](https://x.org/a), [below](#quick-start), [mail](mailto:a@b.c) "
        "and [root](/LICENSE)."
    )


def test_the_copy_is_the_package_and_links_to_the_repository_only_when_told(
    tmp_path: Path,
) -> None:
    release.copy_project(ROOT, tmp_path / "local", None)
    release.copy_project(ROOT, tmp_path / "told", REPOSITORY)
    local = {p.relative_to(tmp_path / "local").as_posix() for p in (tmp_path / "local").rglob("*")}
    assert {"pyproject.toml", "README.md", "LICENSE", "src/micrograd/engine.py"} <= local
    assert not [name for name in local if name.startswith(("docs", "tests")) or "egg-info" in name]
    assert (tmp_path / "local" / "README.md").read_bytes() == (ROOT / "README.md").read_bytes()
    told = (tmp_path / "told" / "pyproject.toml").read_text(encoding="utf-8")
    assert tomllib.loads(told)["project"]["urls"]["Repository"] == REPOSITORY


def test_a_pyproject_with_its_own_urls_keeps_them(tmp_path: Path) -> None:
    """pyproject.toml's own [project.urls] may be where the repository was found: kept as is."""
    source = tmp_path / "source"
    (source / "src").mkdir(parents=True)
    for name in release.PROJECT_FILES:
        (source / name).write_bytes((ROOT / name).read_bytes())
    own = '\n[project.urls]\nRepository = "https://example.org/me/book"\n'
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8") + own
    (source / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    release.copy_project(source, tmp_path / "copy", REPOSITORY)
    assert (tmp_path / "copy" / "pyproject.toml").read_text(encoding="utf-8") == pyproject
    readme = (tmp_path / "copy" / "README.md").read_text(encoding="utf-8")
    assert f"{REPOSITORY}/blob/main/" in readme  # its links still point into the repository


METADATA = textwrap.dedent(
    """\
    Metadata-Version: 2.4
    Name: micrograd-book
    Version: 1.2.0
    Summary: micrograd as an executable book
    License-Expression: MIT
    Classifier: Programming Language :: Python :: 3
    Requires-Python: >=3.10
    Description-Content-Type: text/markdown
    License-File: LICENSE
    Project-URL: Repository, https://github.com/o/micrograd-book

    # micrograd, the executable book
    """
)


def test_metadata_with_what_pypi_shows_has_no_problem() -> None:
    assert release.metadata_problems(METADATA, "1.2.0", REPOSITORY) == []
    assert release.metadata_problems(METADATA, "1.2.0", None) == []


def test_metadata_without_what_pypi_shows_names_what_is_missing() -> None:
    bare = "Metadata-Version: 2.4\nName: micrograd\nVersion: 1.1.0\n\n"
    problems = release.metadata_problems(bare, "1.2.0", REPOSITORY)
    assert "Name is 'micrograd', not 'micrograd-book'" in problems
    assert "Version is '1.1.0', not '1.2.0'" in problems
    assert {"no Summary", "no classifiers", "no description (the README)"} <= set(problems)
    assert f"no Project-URL links to {REPOSITORY}" in problems


def test_the_workflow_publishes_a_tag_with_the_release_session_by_trusted_publishing() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text("utf-8"))
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML 1.1 reads the key `on` as True
    assert workflow["permissions"] == {}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    assert "python -m nox -s release" in [step.get("run") for step in build["steps"]]
    assert publish["needs"] == "build"
    assert publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert any(use.startswith("pypa/gh-action-pypi-publish@") for use in uses)
