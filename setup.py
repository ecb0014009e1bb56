"""Build steps pyproject.toml cannot say: the gettext catalogs compiled to .mo in the build
(edh_service/i18n), so an installed service answers in every language with no manual step."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """build_py, then every translations/*/LC_MESSAGES/*.po compiled beside itself in the build."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path("edh_service/i18n/translations").glob("*/LC_MESSAGES/*.po"):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source)
            with target.open("wb") as compiled:
                write_mo(compiled, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogs})
