"""Print docs/plan.md's "Scenario outcomes" table from the engine itself, so the figures there are never stale.

    python tools/plan_scenario_table.py           # print the table (Markdown)
    python tools/plan_scenario_table.py --write   # replace the table in docs/plan.md

Each row is `advisor plan --json` for one scenario in tests/fixtures/plan_scenarios/ (its "answers" block), with the
built-in prices: form, region, line, feasible, hardware (replicas × GPUs × GPU, weights; the servers or VMs bought
or rented), the recommended monthly cost range, and the ids of the warnings and blockers in the plan's order.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.plan.answers import PlanAnswers  # noqa: E402
from advisor.plan.engine import plan  # noqa: E402

SCENARIOS = ROOT / "tests" / "fixtures" / "plan_scenarios"
DOC = ROOT / "docs" / "plan.md"
HEADER = ("| scenario | form | region | line | feasible | hardware (replicas × GPUs × GPU, weights; as bought or rented) "
          "| monthly | warnings and blockers |\n|---|---|---|---|---|---|---|---|")


def _units(hw: dict) -> str:
    layout = hw.get("layout") or {}
    units, unit_gpus = layout.get("units"), layout.get("unit_gpus")
    if not units or not unit_gpus:
        return "—"
    kind = {"vm": "cloud VM", "server": "server"}.get(layout.get("unit", ""), layout.get("unit", ""))
    return f"{units} {kind}{'s' if units != 1 else ''} of {unit_gpus} × {hw['gpu']}"


def row(name: str, result: dict) -> str:
    hw = result.get("hardware")
    hardware = "—"
    if hw and hw.get("gpu"):  # an infeasible plan has no hardware to name
        hardware = (f"{hw['replicas']} × {hw['gpus_per_replica']} × {hw['gpu']}, {hw['weights']} ({_units(hw)})")
    costs = result.get("costs") or {}
    monthly = costs.get("recommended_monthly")
    lo, hi = (f"{monthly[k]:,.0f}" for k in ("low", "high")) if monthly else ("", "")
    money = (f"{lo} {costs['currency']}" if lo == hi else f"{lo}–{hi} {costs['currency']}") if monthly else "—"
    ids = [f"`{f['id']}`" for f in result.get("findings", []) if f.get("severity") in ("blocker", "warning")]
    cells = [name, result["deployment_form"], result["region"], result["line"], "yes" if result["feasible"] else "no",
             hardware, money, ", ".join(ids) or "—"]
    return "| " + " | ".join(cells) + " |"


def table() -> str:
    rows = []
    for path in sorted(SCENARIOS.glob("*.json")):
        answers = PlanAnswers.model_validate(json.loads(path.read_text(encoding="utf-8"))["answers"])
        rows.append(row(path.stem, plan(answers).to_json("en")))
    return HEADER + "\n" + "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="replace the table in docs/plan.md")
    args = parser.parse_args()
    new = table()
    if not args.write:
        print(new)
        return 0
    text = DOC.read_text(encoding="utf-8")
    start = text.index(HEADER.splitlines()[0])
    end = text.index("\n\n", start)
    DOC.write_text(text[:start] + new + text[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
