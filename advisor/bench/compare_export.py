"""A comparison of 2–4 runs (``RunHistory.compare``) as rows of text: printed by ``advisor history --compare``,
written as Markdown or CSV by it (``--out``) and by the History page's Compare tab. Cells carry their units and the
change against the first run; the best value is starred only where the runs were ranked (same provenance)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from advisor.atomic import write_text_atomic
from advisor.i18n import tr

FORMATS = (".md", ".csv")


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def metric_cell(metric: str, value: Any) -> str:
    from advisor.units import format_bytes

    if metric == "gpu_memory_peak_bytes":
        return format_bytes(value) if value is not None else "-"
    if metric == "status" and value:
        return tr(f"history.status.{value}")
    if metric in ("error_rate", "kv_cache_usage_peak") and value is not None:
        return f"{value * 100:.1f}%"
    return _fmt(value)


def comparison_rows(c: dict[str, Any], *, changes: bool = True) -> list[list[str]]:
    """A header row (metric, concurrency, one column per run) and one row per difference."""
    rows = [[tr("history.col.metric"), tr("history.col.concurrency")] + [r["run_id"] for r in c["runs"]]]
    for d in c["differences"]:
        cells = []
        for i, v in enumerate(d["values"]):
            cell = metric_cell(d["metric"], v)
            ch = d["change"][i]
            if changes and ch is not None:
                cell += f" ({ch * 100:+.0f}%)"
            if d["best"] == i:
                cell = "*" + cell
            cells.append(cell)
        rows.append([tr(f"history.metric.{d['metric']}"), _fmt(d["concurrency"])] + cells)
    return rows


def comparison_markdown(c: dict[str, Any]) -> str:
    """The runs (label, model, GPU, time scale), the table of differences and the notes, as Markdown."""
    lines = [f"# {tr('history.compare.md_title')}", ""]
    for r in c["runs"]:
        scale = f" · ×{r['time_scale']:g}" if r.get("time_scale") not in (None, 1.0) else ""
        sim = f" · {tr('history.page.simulated')}" if r.get("simulated") else ""
        lines.append(f"- `{r['run_id']}` {r.get('label') or ''} · {r.get('model') or '-'} · {r.get('gpu') or '-'}{sim}{scale}")
    lines.append("")
    rows = comparison_rows(c)
    esc = [[cell.replace("|", "\\|") for cell in row] for row in rows]
    lines.append("| " + " | ".join(esc[0]) + " |")
    lines.append("|" + "---|" * len(esc[0]))
    lines += ["| " + " | ".join(row) + " |" for row in esc[1:]]
    if c.get("notes"):
        lines += ["", tr("history.cli.notes")] + [f"- {n}" for n in c["notes"]]
    return "\n".join(lines) + "\n"


def comparison_csv(c: dict[str, Any]) -> str:
    """The table of differences as CSV (values without the change column; cells a spreadsheet reads as text)."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    for row in comparison_rows(c, changes=False):
        writer.writerow([("'" + cell) if cell[:1] in ("=", "+", "-", "@") and cell != "-" else cell for cell in row])
    return buf.getvalue()


def write_comparison(c: dict[str, Any], path: str | Path) -> Path:
    """``.md`` or ``.csv`` by the file's suffix, written atomically."""
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(tr("history.compare.export_format", path=str(out)))
    write_text_atomic(out, comparison_markdown(c) if suffix == ".md" else comparison_csv(c))
    return out
