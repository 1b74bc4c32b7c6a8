"""A finding's title reads as a sentence in both languages: one that opens with a parameter starts upper-case in
English (the memo's reasons read "three-network optimised …: about 2 Mbps" mid-list), and a list parameter is
joined the language's way (Chinese uses 、, not ", ")."""

from advisor.plan.result import Finding, render


def test_a_title_opening_with_a_parameter_starts_upper_case():
    f = Finding(id="cost.line_bandwidth", severity="info", title_key="plan.rule.cost.line_bandwidth.title",
                detail_key="plan.rule.cost.line_bandwidth.detail",
                params={"line": "three-network optimised", "mbps": 2, "cost": "price unknown"})
    assert f.title_in("en").startswith("Three-network optimised: about 2 Mbps")


def test_a_list_parameter_is_joined_the_languages_way():
    params = {"gpus": ["H20", "L20"], "region": {"tr": "plan.region.singapore"}}
    assert "H20、L20" in render("zh_CN", "plan.rule.gpu.not_offered_offshore.title", params)
    assert "H20, L20" in render("en", "plan.rule.gpu.not_offered_offshore.title", params)
