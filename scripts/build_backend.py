"""The package's build: setuptools' PEP 517 backend (setuptools.build_meta) with the two
steps pyproject.toml cannot say, named by its [build-system] (backend-path = ["scripts"]):

- the gettext catalogs compiled to .mo in the build (edh_service/i18n), so an installed
  service answers in every language with no manual step;
- the engine, validator/ and edh_service/pipeline.py, compiled with mypyc when a C compiler
  and Python's headers are at hand (DESIGN.md "The compiled core"), else installed as the
  plain Python it is written in. EDH_PURE_PYTHON=1 builds plain Python; an editable install
  (pip install -e .) is plain too, so the source a developer edits is what runs.

pip, `python -m build` and every other frontend call the hooks below; `make compiled` runs
this module as a program for what no hook does, the engine built in place beside its source:

    python -m scripts.build_backend --quiet build_ext --inplace

Needs what [build-system] requires (setuptools, Babel), and to compile what
get_requires_for_build_wheel adds (COMPILING), not the service.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

import setuptools
from setuptools import Extension, build_meta
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The per-request engine: the validator and the pipeline around it; the rest stays Python.
# The packages' __init__ modules stay Python (they only gather names): the one library of
# compiled code is a module of the validator package (GROUP), found wherever the package is,
# an editable install's source tree too, and imported after its package.
COMPILED = ("validator", "edh_service/pipeline.py")
GROUP = "validator.compiled"  # validator/compiled__mypyc.*.so
CATALOGS = "edh_service/i18n/translations"  # <lang>/LC_MESSAGES/messages.po, compiled to .mo

# What a compiling build needs besides [build-system]'s requirements: mypy (mypyc and its own
# dependencies), and the typed packages the compiled modules' imports reach (card_data's
# HTTP, Redis and fuzzy matching; validator's XML), so an isolated build (pip install ., the
# Dockerfile) type-checks the engine as the development venv's `make compiled` does. Pinned
# as requirements*.txt pin them (tests/test_build.py); a plain build needs none of them.
COMPILING = ["mypy==2.4.1", "librt==0.17.0", "pathspec==1.1.1", "typing-extensions==4.16.0", "mypy-extensions==1.2.0",
             "requests==2.34.2", "types-requests==2.33.0.20261030", "urllib3==2.8.0", "redis==8.1.0",
             "rapidfuzz==3.14.6", "defusedxml==0.7.1", "types-defusedxml==0.7.0.20260504"]


class BuildWithCatalogs(build_py):
    """build_py, then every translations/*/LC_MESSAGES/*.po compiled beside itself in the build;
    an sdist holds this module too, the build a wheel is made from it with."""

    def get_source_files(self) -> list[str]:
        return [*super().get_source_files(), os.path.relpath(__file__)]

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path(CATALOGS).glob("*/LC_MESSAGES/*.po"):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source)
            with target.open("wb") as compiled:
                write_mo(compiled, catalog, use_fuzzy=False)


def compiler_at_hand() -> bool:
    """A C compiler and Python.h: what mypyc's C needs (Debian: gcc and python3-dev)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    return shutil.which(compiler) is not None and headers.is_file()


def compiling() -> bool:
    """Whether this build compiles the engine."""
    if os.environ.get("EDH_PURE_PYTHON", "") not in ("", "0"):
        return False
    return compiler_at_hand()


# Stands for the engine's extensions until build_ext runs: mypyc type-checks and writes C only
# for a build that compiles, not each time a frontend asks for metadata.
ENGINE = Extension("validator.__engine__", sources=[])


class BuildEngine(build_ext):
    """build_ext with the engine's extensions made by mypyc when it runs; none for an
    editable install."""

    def run(self) -> None:
        if ENGINE in self.extensions:
            self.extensions = self.distribution.ext_modules = [] if self.editable_mode else engine_extensions()
            for extension in self.extensions:  # what finalize_options did for the stand-in
                name = extension._full_name = self.get_ext_fullname(extension.name)
                self.ext_map[name] = self.ext_map[name.split(".")[-1]] = extension
                extension._links_to_dynamic = extension._needs_stub = False
                extension._file_name = self.get_ext_filename(name)
        super().run()


def engine_modules() -> list[str]:
    """The files mypyc compiles: every module of COMPILED but the packages' __init__."""
    parts = [Path(part) for part in COMPILED]
    return sorted(str(path) for part in parts for path in (part.rglob("*.py") if part.is_dir() else [part])
                  if path.name != "__init__.py")


def engine_extensions() -> list[Extension]:
    """mypyc's extension modules for every compiled module."""
    from mypyc.build import mypycify  # a compiling build's requirement (COMPILING); only needed here

    return mypycify(engine_modules(), opt_level="3", debug_level="0", group_name=GROUP)


def setup() -> None:
    """setuptools.setup() with the two steps: what a setup.py would hold; pyproject.toml gives the rest."""
    setuptools.setup(cmdclass={"build_py": BuildWithCatalogs, "build_ext": BuildEngine},
                     ext_modules=[ENGINE] if compiling() else [])


class Backend(build_meta._BuildMetaBackend):
    """setuptools.build_meta's hooks, each running setup() above where theirs would run a setup.py.

    run_setup is the one method setuptools' own legacy backend overrides too; setuptools is
    pinned in [build-system] and in requirements-dev.txt, and tests/test_build.py builds
    through these hooks.
    """

    def run_setup(self, setup_script: str = "setup.py") -> None:
        setup()

    def get_requires_for_build_wheel(self, config_settings: dict[str, str | list[str]] | None = None) -> list[str]:
        """setuptools' requirements, and COMPILING when this build compiles the engine."""
        return [*super().get_requires_for_build_wheel(config_settings), *(COMPILING if compiling() else [])]

    def get_requires_for_build_editable(self, config_settings: dict[str, str | list[str]] | None = None) -> list[str]:
        """setuptools' requirements alone: an editable install never compiles."""
        return super().get_requires_for_build_wheel(config_settings)


_BACKEND = Backend()

# The PEP 517 and PEP 660 hooks, setuptools.build_meta's own names.
get_requires_for_build_wheel = _BACKEND.get_requires_for_build_wheel
get_requires_for_build_sdist = _BACKEND.get_requires_for_build_sdist
get_requires_for_build_editable = _BACKEND.get_requires_for_build_editable
prepare_metadata_for_build_wheel = _BACKEND.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _BACKEND.prepare_metadata_for_build_editable
build_wheel = _BACKEND.build_wheel
build_sdist = _BACKEND.build_sdist
build_editable = _BACKEND.build_editable

if __name__ == "__main__":  # setuptools' commands from the command line (`make compiled`)
    setup()
