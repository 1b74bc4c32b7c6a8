"""Issue 25 (s29-lead29, volume29's note): q08's tokens row said "as 30 requests in flight, … / 260,000,000" as the
high end of its month while the row under it costed 860,000,000 for the same steady load by its busiest-hour floor.
The in-flight reading kept its average up through the working hours only; the floor counts a load the answers say is
steady around the clock on every hour. The in-flight reading now counts the hours the floor does for a steady load,
so the row's high end is never below the month the costs use; a day/night tool keeps its working hours.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from advisor.plan import people_volume, volume_peak
from advisor.plan.context import PEAK_FACTOR
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from advisor.plan.volume_range import OFFICE_HOURS
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
LABEL = {"en": "| Tokens per month", "zh_CN": "| 每月 token"}
# the in-flight reading's output figure, the range's high end (rowtrim38.high.flight, s36-rowtrim; before it
# plan.volume19b.flight's "as 30 requests in flight, IN / OUT"): "IN / OUT with your 30 at once as requests in flight"
FLIGHT = {"en": r"[\d,]+ / ([\d,]+) with your \d+ at once as requests in flight",
          "zh_CN": r"把高峰 \d+ 个并发看作同时处理的请求时的 [\d,]+ / ([\d,]+)"}


def _phrase(name: str, lang: str) -> str:
    """The estimate's own phrase (its basis with its range), as the record keeps it. Re-argued (onebasis36, blind
    review 25, q09/q34 "pick one"): a month raised to its busiest hour's floor prints one tokens row, the figure the
    costs use first and the estimate as the reading not used, without the estimate's range; the range's readings
    stay in the record (the GPU-use row's upper share reads its high end), so they are read there, and the memo's
    row is checked not to print the range's clause (at most its high end, said as the high end of the month used)."""
    r = advice_plan(name)
    basis = r.costs.volume_basis
    row = next(line for line in render_memo_markdown(r, lang).splitlines() if line.startswith(LABEL[lang]))
    if basis.get(volume_peak.FLOOR):
        assert re.search(FLIGHT[lang], row) is None and len(re.findall(r"[\d,]{9,} / [\d,]{9,}", row)) <= 3, row
    return render(lang, str(basis["tr"]), basis) if basis.get(volume_peak.FLOOR) else row


def _flight_out(name: str, lang: str) -> float | None:
    got = re.search(FLIGHT[lang], _phrase(name, lang))
    return float(got.group(1).replace(",", "")) if got else None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q08_ascend_fleet_internal", "q43_us_team_mainland_low_latency"])
def test_the_in_flight_high_end_is_never_below_the_floor_the_costs_use(name, lang):
    """q08 (steady) and q43 (day/night): both months raised to their busiest hour's floor, both rows reading the
    peak as requests in flight as the high end; that reading is at least the month the costs use."""
    r = advice_plan(name)
    assert r.costs.volume_basis.get(volume_peak.FLOOR), name
    out = _flight_out(name, lang)
    assert out is not None, name
    assert out >= r.costs.output_tokens_per_month, (name, out, r.costs.output_tokens_per_month)


def test_a_steady_load_is_in_flight_every_hour_the_floor_counts():
    """The hours the in-flight reading keeps its average up: a steady load's are the floor's (every hour of every
    day, ``volume_peak.hours_a_day`` × ``run_days``); a day/night staff tool's the working hours, fewer."""
    for audience in ("internal", "public"):
        steady = SimpleNamespace(load="stable", audience=audience, internal_only=audience == "internal",
                                 office_steady=audience == "internal")  # staff's steady load: office hours (s35)
        floor_hours = volume_peak.hours_a_day(steady) * volume_peak.run_days(steady)[0]
        assert people_volume.in_flight_hours(steady) == pytest.approx(floor_hours)
    daynight = SimpleNamespace(load="diurnal", audience="internal", internal_only=True, office_steady=False)
    assert people_volume.in_flight_hours(daynight) == OFFICE_HOURS < people_volume.in_flight_hours(steady)


@pytest.mark.parametrize("lang", LANGS)
def test_q08s_floor_and_in_flight_reading_use_one_hour_mean(lang):
    """q08 (steady): the floor's month ÷ the hour's mean it prints is the in-flight month ÷ the peak's average in
    flight (the peak ÷ the steady load's ratio), both around the clock at one per-request rate: the floor printed
    "about 21" (the busiest hour's mean) beside a month costed on 20 (the steady load's average)."""
    r = advice_plan("q08_ascend_fleet_internal")
    raised = r.costs.volume_basis[volume_peak.FLOOR]
    out = _flight_out("q08_ascend_fleet_internal", lang)
    assert out is not None
    # re-argued (s30-floor30): the costs now use the most q08's people send (``implied``, the people's cap); the
    # busiest hour's own month is ``peak_implied``, the reading this test is about
    assert float(raised["peak_implied"]) / raised["mean"] == pytest.approx(out / (raised["peak"] / PEAK_FACTOR["stable"]),
                                                                      rel=0.02)


@pytest.mark.parametrize("lang", LANGS)
def test_a_public_services_peak_reading_prints_as_an_estimate(lang):
    """q09's tokens row printed the peak's reading to the token (88,863,998,542 / 4,443,199,927) beside a floor of
    440,000,000: a derived figure said as an estimate prints, two significant figures, as the in-flight clause."""
    row = _phrase("q09_eu_voice_agent", lang)  # raised to its floor: the estimate's phrase, as the record keeps it
    high = re.search({"en": r"up to ([\d,]+) / ([\d,]+)", "zh_CN": r"至 ([\d,]+) / ([\d,]+)"}[lang], row)
    assert high, row
    for figure in high.groups():
        digits = figure.replace(",", "").rstrip("0")
        assert len(digits) <= 2, (figure, row)
