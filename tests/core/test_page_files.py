"""#27 "Pages as panels": no page file over 400 lines. A page that grows past it is split into panel files, as
ui/pages/bench/, sizing/, wizard/, ab/ and history/ are (docs/ui.md, "For developers")."""

from pathlib import Path

PAGES = Path(__file__).resolve().parents[2] / "ui" / "pages"
MAX_LINES = 400


def test_no_page_file_is_over_400_lines():
    sizes = {str(p.relative_to(PAGES)): len(p.read_text(encoding="utf-8").splitlines()) for p in PAGES.rglob("*.py")}
    assert sizes, "no page files found"
    too_long = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"page files over {MAX_LINES} lines (split them into panels): {too_long}"
