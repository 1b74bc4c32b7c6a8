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
