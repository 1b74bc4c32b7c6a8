"""Every scenario's ``advisor plan --json`` in one folder: to check that a speed change keeps every plan to the byte.

Plans each advice scenario (``bench/advice_scenarios/*.json``) and each plan scenario
(``tests/fixtures/plan_scenarios/*.json``) from empty level caches, in one process, and writes ``result.to_json(lang)``
as ``advisor plan --json`` prints it (``advisor.cli.common.print_json``) for each language asked, one file per scenario
and language, less its ``generated_at`` time stamp (the one field that differs between two runs). Dump before and after a change, then ``diff -r BEFORE AFTER``.

Run: ``.venv/bin/python bench/plan_json_dump.py OUT_DIR [--lang en,zh_CN] [--only q12] [--warm]`` (``--warm``: every
plan made once first and the caches kept, so each dumped plan reads what the others left, as in a test session).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCENARIOS = sorted((ROOT / "bench" / "advice_scenarios").glob("q*.json")) + sorted(
    (ROOT / "tests" / "fixtures" / "plan_scenarios").glob("*.json"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for the JSON files (created)")
    ap.add_argument("--lang", default="en,zh_CN", help="comma-separated languages (default en,zh_CN)")
    ap.add_argument("--only", help="scenarios whose file name starts with this")
    ap.add_argument("--warm", action="store_true",
                    help="plan every scenario once first and keep the planner's caches (each plan then reads what the "
                         "others left: levels, screened setups, step costs), as a test session does")
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    from advisor.cli.common import _default
    from advisor.i18n import set_language
    from advisor.plan import answers_from_dict, make_plan, sizing

    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [p for p in SCENARIOS if not args.only or p.stem.startswith(args.only)]
    if args.warm:
        sizing.LEVEL_CACHE_SIZE = max(sizing.LEVEL_CACHE_SIZE, 16_384)
        for path in chosen:
            make_plan(answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"]))
    for path in chosen:
        answers = answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"])
        if not args.warm:
            sizing.clear_level_cache()
        result = make_plan(answers)
        for lang in args.lang.split(","):
            set_language(lang)
            data = result.to_json(lang)
            data.pop("generated_at", None)
            text = json.dumps(data, ensure_ascii=False, indent=2, default=_default)
            (args.out / f"{path.parent.name}__{path.stem}.{lang}.json").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
