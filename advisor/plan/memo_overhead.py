"""The components of a rented setup's share on top of its GPU rate, in words, once (s22-uplift22c, issue 25).

The memo's cost arithmetic prints the factor (1 + the share) and, in brackets, the parts it is made of with their
sources and grades: storage and the support plan always, egress with the GB a month it is priced on where the answers
stream to the public internet, and otherwise why there is none (a batch job, a LAN or private network, a line priced
apart). ``advisor.plan.cloud_overhead`` computes them.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.cloud_overhead import parts_of
from advisor.plan.data import factor
from advisor.plan.money_text import money_range


def _pct(lo: float, hi: float) -> str:
    """Percent, whole where whole, else one decimal (egress is often a fraction of a percent), never "0"."""
    def one(v: float) -> str:
        p = v * 100
        if p >= 1 or p == 0:
            return f"{p:.0f}"
        return f"{p:.1f}" if p >= 0.1 else "<0.1"
    a, b = one(lo), one(hi)
    return a if a == b else f"{a}–{b}"


def _gb(lo: float, hi: float) -> str:
    def one(v: float) -> str:
        return f"{v:,.0f}" if v >= 10 else f"{v:.2g}"
    a, b = one(lo), one(hi)
    return a if a == b else f"{a}–{b}"


def _rate(lo: float, hi: float) -> str:
    a, b = f"{lo:.3g}", f"{hi:.3g}"
    return a if a == b else f"{a}–{b}"


def parts_text(costs: Any, lang: str) -> str:
    """"storage 5–15 % (…) and a support plan 3–10 % (…); egress …" for the formula's brackets; "" where the plan
    carries no components (an older result)."""
    parts = {p.name: p for p in parts_of(costs)}
    st, su = parts.get("storage"), parts.get("support")
    if st is None:
        return ""
    out = translate(lang, "prices25.parts.no_support", storage=_pct(st.low, st.high),
                    storage_src=translate(lang, "uplift22c.src.storage"), storage_date=st.date,
                    storage_grade=st.grade) if su is None else translate(lang, "uplift22c.parts.rented", storage=_pct(st.low, st.high),
                    storage_src=translate(lang, "uplift22c.src.storage"), storage_date=st.date,
                    storage_grade=st.grade, support=_pct(su.low, su.high),
                    support_src=translate(lang, "uplift22c.src.support"), support_grade=su.grade)  # fmt: skip
    eg = parts.get("egress")
    if eg is not None and eg.egress_gb is not None and eg.per_gb is not None:
        out += translate(lang, "uplift22c.parts.egress", egress=_pct(eg.low, eg.high),
                         gb=_gb(eg.egress_gb.low, eg.egress_gb.high), per_gb=_rate(eg.per_gb.low, eg.per_gb.high),
                         currency=costs.currency, egress_src=translate(lang, "uplift22c.src.egress"),
                         egress_date=eg.date, egress_grade=eg.grade)  # fmt: skip
    vpn = parts.get("vpn")
    if vpn is not None and vpn.cost is not None:
        # how the rented node joins the company's network, and what that costs (s24-prices24, q35/q38/q41)
        out += translate(lang, "prices24.parts.vpn", vpn=_pct(*sorted((vpn.low, vpn.high))), cost=money_range(vpn.cost, costs.currency),
                         src=translate(lang, "prices24.src.vpn_" + ("mainland" if vpn.source == factor("site_vpn_cny_month_mainland")["source"] else "aws")),
                         date=vpn.date, grade=vpn.grade)  # fmt: skip
    elif costs.cloud_egress_skipped:  # why none, said here once (a job's worked sentence names the parts only)
        out += translate(lang, f"uplift22c.parts.no_egress.{costs.cloud_egress_skipped}")
    return out


__all__ = ["parts_text"]
