"""Page 1 of a paid API whose launch forks on counsel: the recommendation first, the two launch paths as two
bullets, then the margin's go/no-go (vrd44, blind review 35, q11).

Section 1 opened with the margin test, then one sentence in which the launch date forked on counsel's reading
(181–245 days vs 61–95), then the stopgap, before the recommendation. Reviewers: "order it recommendation first,
then the two launch paths as a two-row table (or two bullets), then the margin go/no-go". Where the first line is
that go/no-go and the recommendation line carries both launch dates (``launch_paths42.both``), the template gets the
two paths as bullets here and prints the margin line after them.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import launch_paths42
from advisor.plan.result import FULL_FILING_LABEL, render


def paths(result: Any, lang: str) -> list[str]:
    """["If counsel reads it as offered to the public: …, launch in 181–245 days …", "If not …: 61–95 days …"];
    [] where the launch does not fork on counsel (``launch_paths42.both`` says nothing)."""
    if not launch_paths42.both(result, lang):
        return []
    tl = result.timeline
    g = tl.gate
    early = launch_paths42.early(result, lang)
    if early is None or g is None:
        return []
    if g.shorter_low is not None:  # the days counted are the full filing's (``Timeline.gate_text``)
        g = g.model_copy(update={"label_key": FULL_FILING_LABEL, "label_params": {}})
    low, high = tl.launch_days_low, tl.launch_days_high
    flow, fhigh = g.days_low, g.days_high
    late = {"filing": g.label_in(lang, clause=True), "filing_days": f"{flow}" if flow == fhigh else f"{flow}–{fhigh}",
            "days": f"{low}" if low == high else f"{low}–{high}"}
    return [render(lang, "vrd44.paths.public", late),
            render(lang, "vrd44.paths.contracted", {"days": early[0], "step": early[1]})]


def rec_form(lang: str, rec: str, form: str) -> str:
    """The recommendation's "If your price list covers that cost, …" pointing down to the margin line below it."""
    from advisor.plan.result import clause_case

    if rec != render(lang, "ld43.unit.rec", {"form": clause_case(form, lang)}):
        return rec
    return render(lang, "vrd44.unit.rec", {"form": clause_case(form, lang)})


def intro(lang: str) -> str:
    return render(lang, "vrd44.paths.intro", {})


__all__ = ["intro", "paths", "rec_form"]
