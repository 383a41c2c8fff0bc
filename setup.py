"""Build hook: the wheel carries the web client's npm packages (Preact, htm, Swagger UI).

They are copied at build time from ``node_modules`` (``npm ci`` at the repo root) into the
built package as ``deadwood_knock/web_vendor/<package>``; nothing is copied into the repo.
An editable install serves them from ``node_modules`` directly and copies nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: Every npm package the server serves (web/index.html's import map, /docs).
WEB_PACKAGES = ("preact", "htm", "swagger-ui-dist")


class BuildWithWebPackages(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "deadwood_knock" / "web_vendor"
        for package in WEB_PACKAGES:
            source = ROOT / "node_modules" / package
            if not source.is_dir():
                raise SystemExit(
                    f"node_modules/{package} is missing: run `npm ci` before building the wheel"
                )
            shutil.rmtree(target / package, ignore_errors=True)
            shutil.copytree(source, target / package)


setup(cmdclass={"build_py": BuildWithWebPackages})
