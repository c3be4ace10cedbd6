"""Sphinx extension: the highlighted source pages follow a change of the configuration.

``sphinx.ext.viewcode`` writes ``_modules/<module>.html`` again only when the
module's file is newer than the page, so after a change of ``conf.py`` (the
theme's options, the repository buttons) those pages would keep the old
header and links while every other page changes.  When Sphinx reports the
configuration as changed, this removes them, and viewcode writes them anew.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sphinx.environment import CONFIG_OK


def drop_stale_source_pages(app: Any) -> None:
    if app.env.config_status != CONFIG_OK:
        shutil.rmtree(Path(app.outdir) / "_modules", ignore_errors=True)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", drop_stale_source_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
