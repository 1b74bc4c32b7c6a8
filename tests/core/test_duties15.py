"""The regional duties of s15-duties in the memo's own terms: the Hong Kong bank's residency text points to the SA-2
finding (not "a choice" alone), the works council's text is firm only where Germany is named, and the South-East
Asian finding names the markets it was given."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from tests.core.test_plan_obligations import EU_STAFF, HK_BANK, NO_MAINLAND, pi


def _by_id(answers: dict) -> dict:
    plan = make_plan(answers_from_dict(answers))
    return {f.id: f for f in plan.findings}


def test_hk_bank_residency_points_to_the_sa2_finding() -> None:
    got = _by_id(HK_BANK)
    assert "fin.hkma_outsourcing" in got
    extra = got["pi.region_residency"].params["extra"]
    assert extra == {"tr": "plan.residency.hkma_sa2"}
    assert "SA-2" in translate("en", "plan.residency.hkma_sa2")


def test_non_bank_in_hong_kong_gets_no_hkma_text() -> None:
    got = _by_id({**HK_BANK, **pi(800_000, 0, sector="retail")})
    assert "fin.hkma_outsourcing" not in got
    assert got["pi.region_residency"].params["extra"] == ""


def test_works_council_firm_only_where_germany_is_named() -> None:
    eu = _by_id(EU_STAFF)["labour.works_council"]
    de = _by_id({**EU_STAFF, "overseas_markets": ["DE"]})["labour.works_council"]
    assert eu.title_key == "plan.rule.labour.works_council.title"
    assert de.title_key == "plan.rule.labour.works_council.de.title"
    assert "If staff work in Germany" in translate("en", eu.detail_key)


def test_sea_finding_names_the_markets_given() -> None:
    got = _by_id({**NO_MAINLAND, "overseas_markets": ["SG", "VN", "ID"], **pi(100_000, 0)})
    assert got["pi.sea_markets"].params["markets"] == "VN, ID"


def test_the_launch_row_never_reads_as_days_alone_when_it_waits_on_the_hkma():
    """The HKMA finding says the launch waits on its review; page 1's "Earliest launch" said "in 1–5 days" beside it
    (a decision contradicting itself). The review's length is unknown here, so the row names it, not a number."""
    from advisor.plan.memo import render_memo_markdown
    from tests.support.planned import advice_answers, planned

    r = planned(advice_answers("q25_hk_bank_retail"))
    assert r.finding("fin.hkma_outsourcing") is not None
    en = next(x for x in render_memo_markdown(r, "en").splitlines() if x.startswith("| Earliest launch"))
    zh = next(x for x in render_memo_markdown(r, "zh_CN").splitlines() if x.startswith("| 最早上线"))
    assert "HKMA" in en and "not before" in en and "HKMA" in zh and "须等" in zh  # (s16-duties: the general form)
    other = planned(advice_answers("q37_sg_fintech_public"))
    assert "HKMA" not in next(x for x in render_memo_markdown(other, "en").splitlines() if x.startswith("| Earliest"))
