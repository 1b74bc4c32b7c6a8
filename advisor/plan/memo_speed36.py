"""The sizing table's output-speed and headroom rows in a few words (s34-rows36, blind review 25).

q30: "26.1 tokens/s per user; 1,002 tokens/s if every replica runs at its planned load, the spare included: the peak
spread over them, not a ceiling (without the spare: …); the 40 users at the peak draw about 1,002 tokens/s, …" was
one run-on sentence ("cut it to the two figures that matter"; q18: "a newcomer will not parse"). The facts other
rows need stay, each said once:
- the per-user speed and the peak's output in all (every replica at its planned load is the peak spread over them:
  the GPU-use share is of it);
- the peak's draw the line is sized on and the monthly tokens start from, with the per-user rate that makes it
  (stream ÷ peak users; q32: "a different per-request rate" unexplained) — one figure where it rounds to the total;
- the most requests within the target without the spare goes to the headroom row, beside its percent (q23: the
  total beside the draw read as "no margin" against a 20 % headroom).
"""

from __future__ import annotations

from collections.abc import Callable

# the peak's draw said alone where it is the total to within this share (q30 1,002 both; q23 5,920 against 5,932)
SAME_SHARE = 0.005


def speed_text(t: Callable[..., str], *, user: str, total: float, total_text: str, stream: float,
               stream_text: str, each: str, peak: str, why: str, basis: str) -> str:
    """``why``: "sim" (the prediction at the planned load, the first token's wait in it), "slow" (the slow decode
    steps' speed) or "cautious" (the sizing's per-user figure); ``basis``: "line", "tokens" or "both"."""
    one = abs(total - stream) <= SAME_SHARE * max(total, stream)
    return t("rows36.cap.speed_one" if one else "rows36.cap.speed_two", user=user, total=total_text,
             stream=stream_text, each=each, peak=peak, why=t(f"rows36.cap.why_{why}"),
             basis=t(f"rows36.cap.basis_{'one' if one else 'two'}_{basis}"))


def headroom_text(t: Callable[..., str], *, head: float, most: int | None, peak: int, spare: bool,
                  num: Callable[..., str]) -> str:
    """The headroom's percent, with the most requests within the target beside the peak where it is counted."""
    if most is None:
        return f"{head * 100:.0f} %"
    return t("rows36.cap.headroom_spare" if spare else "rows36.cap.headroom", head=f"{head * 100:.0f}",
             most=num(most), peak=num(peak))
