"""How to read the latency table's flat first-token row, its jump past the engine's cap and a throughput dip (issue
25, tenth blind review; s21-replica21).

Round 10 read the predicted table as artefacts: q04 "flat TTFT of 4,570–4,660 ms from 1 to 16 concurrent, then a
jump" and "throughput falling from 355 to 315 tok/s between 7 and 14 concurrent is odd for continuous batching", q07
"998 ms for concurrency 25 to 80", q20 "559 ms from 25 to 60". What produces each:

- The P99 first-token time is the longest prompts' own prefill (``sizing.analytic_ttft_p99_ms`` floors a short
  sample's P99 there): the other requests' decode steps slow it only a little, so it hardly moves with load until
  requests queue. A repeated figure is one slow sample a lower load drew, carried by the running maximum
  (``advisor.sim.monotone``).
- Above the serve command's ``--max-num-seqs`` the engine runs no more requests at once; the rest wait for a seat,
  which is the jump (``capacity.served_curve``).
- A level times a short sample (``sizing.measured_requests``: 800 engine steps' worth, 8 to 128 requests): with long
  prompts, whether it drew a few more or fewer of them moves its throughput by 10 % or more. Re-simulated on 400
  requests, q04's levels rise 292 → 324 → 346 → 351 tokens/s at 7, 10, 14, 16 (``tests/core/
  test_replica21_curve_reading.py`` holds the simulator to that): no fall, so the row's dip is the sample's, said as
  such rather than smoothed into figures the plan did not simulate.
"""

from __future__ import annotations

from collections.abc import Callable

from advisor.plan.money_text import number_text
from advisor.plan.result import CurvePoint, PlanResult

FLAT_SPREAD = 1.10  # a first-token P99 within 10 % across the levels up to the cap reads as flat
JUMP = 2.0  # a level past the cap whose P99 is at least twice the cap's: the wait for a seat
SLOWER = "fx42.curve.seat_jump_slower"  # the jump's column slower per token too, past the TPOT target
HELD = "fx42.curve.cap_tpot_held"  # why the cap, where the capped column still misses the target
DIP = 0.97  # a throughput more than 3 % below a lower level's below the cap: a dip a reader sees


def _within_cap(points: list[CurvePoint], cap: int | None) -> list[CurvePoint]:
    return [p for p in points if cap is None or p.concurrency <= cap]


def flat_ttft(points: list[CurvePoint], cap: int | None) -> tuple[int, int] | None:
    """(first, last) concurrency of a first-token P99 run that stays within ``FLAT_SPREAD`` over three or more levels
    up to the cap; None otherwise."""
    run = [p for p in _within_cap(points, cap) if p.ttft_p99_ms]
    if len(run) < 3:
        return None
    values = [p.ttft_p99_ms or 0.0 for p in run]
    if max(values) > FLAT_SPREAD * min(values):
        return None
    return run[0].concurrency, run[-1].concurrency


def seat_jump(points: list[CurvePoint], cap: int | None) -> int | None:
    """The first level past the cap whose first-token P99 is at least ``JUMP`` × the cap level's; None otherwise."""
    at_cap = next((p for p in points if p.concurrency == cap), None)
    if cap is None or at_cap is None or not at_cap.ttft_p99_ms:
        return None
    return next((p.concurrency for p in points if p.concurrency > cap and (p.ttft_p99_ms or 0) >= JUMP * at_cap.ttft_p99_ms),
                None)  # fmt: skip


def seat_tokens(points: list[CurvePoint], cap: int | None, jump: int,
                tpot_slo: float | None) -> tuple[str, dict[str, float]]:
    """What the jump's column says of each token's speed beside the wait for a seat (blind review 33, q18: "claims 'the
    jump at 58 is that wait, not slower tokens', yet the table shows TPOT P99 rising from 48.8 ms at 48 to 68.3 ms at
    58, above the 50 ms SLO"). The column past the cap is its own run (``sizing.capped_curve``: a larger sample,
    a queue behind the seats), so its TPOT can rise too. The sentence's key and its figures: "not slower tokens" only
    where that TPOT stays within ``FLAT_SPREAD`` of the cap's and within the target; "a little slower, within the
    target" where it rises but meets it; both causes, with the figures, where it misses the target."""
    at_cap = next((p for p in points if p.concurrency == cap), None)
    past = next((p for p in points if p.concurrency == jump), None)
    before = at_cap.tpot_p99_ms if at_cap is not None else None
    after = past.tpot_p99_ms if past is not None else None
    if before is None or after is None:
        return "replica21.curve.seat_jump", {}
    figures = {"tpot_cap": before, "tpot_at": after}
    if tpot_slo is not None and after > tpot_slo and after > before:
        return SLOWER, {**figures, "target": tpot_slo}
    if after > FLAT_SPREAD * before:
        key = "fx42.curve.seat_jump_little" if tpot_slo is not None else "fx42.curve.seat_jump_little_no_target"
        return key, {**figures, **({"target": tpot_slo} if tpot_slo is not None else {})}
    return "replica21.curve.seat_jump", {}


def cap_reason(result: PlanResult, jump: int) -> tuple[str, dict] | None:
    """Why the cap stops below the jump's level (blind review 16, q08: "--max-num-seqs 12 ... makes TTFT jump to 26 s
    at 20: say why 12"): the same level run with every request at once (``LatencyCurve.past_cap``) misses the target,
    each output token or the first one too slow; (key, params) then, None where it would meet the target or was
    not simulated (the cap is then only the plan's share, and nothing is said that the figures do not show)."""
    curve = result.latency_curve
    past = curve.past_cap
    if past is None or past.concurrency != jump:
        return None
    tpot, ttft = curve.slo_tpot_p99_ms, curve.slo_ttft_p99_ms
    if tpot is not None and past.tpot_p99_ms is not None and past.tpot_p99_ms > tpot:
        return "fleet27.curve.cap_tpot", {"at": number_text(jump), "got": number_text(past.tpot_p99_ms, 1),
                                          "target": number_text(tpot), "cap": number_text(result.hardware.max_num_seqs)}
    if ttft is not None and past.ttft_p99_ms is not None and past.ttft_p99_ms > ttft:
        return "fleet27.curve.cap_ttft", {"at": number_text(jump), "got": number_text(past.ttft_p99_ms),
                                          "target": number_text(ttft), "cap": number_text(result.hardware.max_num_seqs)}
    return None


def throughput_dip(points: list[CurvePoint], cap: int | None) -> tuple[CurvePoint, CurvePoint] | None:
    """The first pair of shown levels up to the cap where throughput falls by more than 3 %: (higher, lower)."""
    run = _within_cap(points, cap)
    for a, b in zip(run, run[1:], strict=False):
        if b.output_tokens_per_s < DIP * a.output_tokens_per_s:
            return a, b
    return None


def past_cap_top(points: list[CurvePoint], cap: int | None) -> CurvePoint | None:
    """The level past the cap with the highest throughput where it is more than 3 % above every level up to the cap
    (blind review 20b, q42: "594 tok/s at 45 exceeds 524 at 28 despite the cap of 28"); None otherwise. Past the cap
    the engine runs no more requests at once, so that figure is the same capacity timed on a larger sample."""
    if cap is None:
        return None
    within = [p.output_tokens_per_s for p in _within_cap(points, cap)]
    past = [p for p in points if p.concurrency > cap and p.requests]
    top = max(past, key=lambda p: p.output_tokens_per_s, default=None)
    if not within or top is None or DIP * top.output_tokens_per_s <= max(within):
        return None
    return top


def reading_sentences(result: PlanResult, t: Callable[..., str], num: Callable[..., str], carried: bool,
                      lang: str = "en") -> str:
    """The sentences under the latency table that say what its flat row, jump and dip are; "" where it has none.
    ``carried``: the table repeats a figure across columns (``memo_carried``), whose sentence says the flat part."""
    curve = result.latency_curve
    if curve is None or len(curve.points) < 2:
        return ""
    pts, cap = curve.points, result.hardware.max_num_seqs
    sep = "" if lang == "zh_CN" else " "  # between sentences: Chinese sets none
    out: list[str] = []
    flat = flat_ttft(pts, cap)
    if flat is not None and not carried:
        out.append(t("replica21.curve.flat_ttft", first=num(flat[0]), last=num(flat[1])))
    jump = seat_jump(pts, cap)
    # the binding sentence in section 2 may say the wait for a seat already (engine19.binding.capped): said once
    bound = result.binding_constraint
    told = bound is not None and "--max-num-seqs" in bound.text_in(lang)
    if jump is not None and not told:
        key, tokens = seat_tokens(pts, cap, jump, curve.slo_tpot_p99_ms)
        out.append(t(key, cap=num(cap), at=num(jump), **{k: (num(v, 1) if isinstance(v, float) else num(v))
                                                          for k, v in tokens.items()}))
        why = cap_reason(result, jump)
        if why is not None and key == SLOWER and why[0] == "fleet27.curve.cap_tpot":
            # "rather than slow every request down" beside a column still past the target: what the cap holds it to
            why = HELD, {**why[1], "held": num(tokens["tpot_at"], 1)}
        if why is not None:
            out.append(t(why[0], **why[1]))
    dip = throughput_dip(pts, cap)
    top = past_cap_top(pts, cap)  # a level past the cap above every one within it: said with the row's reading
    past = {"cap": num(cap), "at": num(top.concurrency), "top": num(top.output_tokens_per_s),
            "n_at": num(top.requests)} if top is not None else {}
    if dip is not None:
        hi, lo = dip
        counts = [p.requests for p in dip if p.requests]
        # the dip said as the table shows it, then why it is no loss (review 36, q04: "do not lower throughput"
        # beside 206 → 184 tokens/s)
        key = "num44.curve.dip_counts" if len(counts) == 2 else "replica21.curve.dip"
        if past and len(counts) == 2:  # the reading's range runs to the level past the cap (review 20b, q42)
            key = "curve32.dip_past_cap"
        out.append(t(key, hi=num(hi.output_tokens_per_s), lo=num(lo.output_tokens_per_s), a=num(hi.concurrency),
                     b=num(lo.concurrency), n_a=num(counts[0]) if counts else "", n_b=num(counts[-1]) if counts else "",
                     **past))
    elif top is not None:
        at_cap = max(_within_cap(pts, cap), key=lambda p: p.concurrency)
        # the figure's own column where the table has none at the cap (review 36, q37: "633 at 32" from the 27 column)
        out.append(t("curve32.past_cap" if at_cap.concurrency == cap else "num44.curve.past_cap",
                     cap_tok=num(at_cap.output_tokens_per_s), n_cap=num(at_cap.requests or 0),
                     cap_at=num(at_cap.concurrency), **past))
    return sep.join(out)


__all__ = ["cap_reason", "flat_ttft", "past_cap_top", "reading_sentences", "seat_jump", "seat_tokens",
           "throughput_dip"]
