"""`advisor models`: the model presets."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("models", help="list model presets")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from advisor.catalog import load_models, modelscope_id
    from advisor.cli.common import print_json
    from advisor.sizing.tensors import param_counts
    from advisor.units import format_context

    rows = []
    for m in load_models():
        c = param_counts(m)
        rows.append({
            "id": m.id, "name": m.name, "hf_repo": m.hf_repo, "family": m.family, "attention": m.attention_kind,
            "moe": m.is_moe, "params_total": c.total, "params_active": c.active, "max_context": m.max_context,
            "checkpoint_quant": m.checkpoint_quant, "modelscope_id": modelscope_id(m.id),
        })  # fmt: skip
    if args.json:
        print_json(rows)
        return 0
    for r in rows:
        size = f"{r['params_total'] / 1e9:.1f}B" + (f" (A{r['params_active'] / 1e9:.1f}B)" if r["moe"] else "")
        print(f"{r['id']:34} {size:>16}  {r['attention']:4} ctx {format_context(r['max_context']):>6}  {r['name']}")
    return 0
