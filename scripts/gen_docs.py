"""The documentation's tables that describe code, generated from the code itself.

`python -m scripts.gen_docs` rewrites each generated block of docs/ in place: the text
between a line `<!-- generated: NAME ... -->` and the line `<!-- end generated: NAME -->`.
`--check` writes nothing and exits 1 when a committed block differs from what the code
says now (tests/test_docs.py asserts the same), so a table cannot drift from the code.
`make docs` runs this, then builds the site.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def violation_codes() -> str:
    """Every violation code: severity, the rules it cites, and when the engine reports it."""
    from validator.violations import ABOUT

    rows = ["| code | severity | rule | when |", "|---|---|---|---|"]
    for code, info in ABOUT.items():
        severity = " or ".join(str(s) for s in info.severities)
        rows.append(f"| `{code}` | {severity} | {info.rule or '-'} | {info.meaning} |")
    return "\n".join(rows)


def settings() -> str:
    """Every setting (edh_service/config.py's SETTINGS)."""
    from edh_service import config

    return config.markdown_table()


def game_formats() -> str:
    """The Commander-family formats as the engine judges them (validator/formats.py)."""
    from validator.formats import format_table

    rows = ["| key | name | deck size | aliases | who can command |", "|---|---|---|---|---|"]
    for row in format_table():
        aliases = ", ".join(f"`{alias}`" for alias in row["aliases"]) or "-"
        rows.append(f"| `{row['key']}` | {row['name']} | {row['deck_size']} | {aliases} | {row['commander']} |")
    return "\n".join(rows)


def languages() -> str:
    """The languages answers are written in (edh_service/i18n)."""
    from edh_service.i18n import LANGUAGES, LOCALES, PRINTED

    rows = ["| code | language | catalog (`translations/<locale>/`) | card names from (names table) |",
            "|---|---|---|---|"]
    for code, name in LANGUAGES.items():
        catalog = "none: the message ids are English" if code == "en" else f"`{LOCALES[code]}`"
        printed = "the English Oracle names" if code == "en" else f"`{PRINTED[code]}`"
        rows.append(f"| `{code}` | {name} | {catalog} | {printed} |")
    return "\n".join(rows)


def cli_options() -> str:
    """edh-validate's options (edh_service/cli/validate.py's parser)."""
    from edh_service.cli.validate import build_parser

    rows = ["| option | meaning |", "|---|---|"]
    for action in build_parser()._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        name = max(action.option_strings, key=len)
        if action.choices:
            name = f"{name} {{{','.join(sorted(action.choices))}}}"
        elif action.nargs != 0:
            name = f"{name} {action.metavar or action.dest.upper()}"
        rows.append(f"| `{name}` | {escape(action.help or '')} |")
    return "\n".join(rows)


def action_inputs() -> str:
    """The GitHub Action's inputs (action.yml)."""
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    rows = ["| input | default | meaning |", "|---|---|---|"]
    for name, item in action["inputs"].items():
        default = f"`{item['default']}`" if item.get("default") else "(none)"
        meaning = " ".join(str(item["description"]).split())
        rows.append(f"| `{name}` | {default} | {escape(meaning)} |")
    return "\n".join(rows)


def escape(text: str) -> str:
    """Text for a Markdown table cell: a `|` would end the cell."""
    return text.replace("|", "\\|")


# page -> block name -> what writes it
BLOCKS: dict[str, dict[str, Callable[[], str]]] = {
    "violation-codes.md": {"codes": violation_codes},
    "configuration.md": {"settings": settings},
    "game-formats.md": {"formats": game_formats},
    "cli-and-action.md": {"cli-options": cli_options, "action-inputs": action_inputs},
    "languages.md": {"languages": languages},
}


def block_pattern(name: str) -> re.Pattern[str]:
    """The generated block NAME: its opening marker line, its body, its closing marker."""
    return re.compile(rf"(<!-- generated: {re.escape(name)}\b[^\n]*-->\n)(.*?)(<!-- end generated: "
                      rf"{re.escape(name)} -->)", re.DOTALL)


def committed(text: str, name: str) -> str:
    """The body of block NAME in a page's text (ValueError when its markers are missing)."""
    found = block_pattern(name).search(text)
    if found is None:
        raise ValueError(f"no generated block {name!r}")
    return found.group(2).strip()


def regenerate(text: str, blocks: dict[str, Callable[[], str]]) -> str:
    """The page's text with each of its blocks written anew."""
    for name, write in blocks.items():
        committed(text, name)  # the markers must be there
        body = write()
        text = block_pattern(name).sub(lambda m: f"{m.group(1)}{body}\n{m.group(3)}", text, count=1)
    return text


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated blocks (or, with --check, say which are stale)."""
    parser = argparse.ArgumentParser(prog="python -m scripts.gen_docs", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block is stale")
    options = parser.parse_args(argv)
    stale = []
    for page, blocks in BLOCKS.items():
        path = DOCS / page
        text = path.read_text(encoding="utf-8")
        new = regenerate(text, blocks)
        if new != text:
            stale.append(page)
            if not options.check:
                path.write_text(new, encoding="utf-8")
    verb = "stale" if options.check else "rewritten"
    for page in stale:
        print(f"docs/{page}: {verb}")
    return 1 if options.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
