"""Compliance sequencing and caveats of blind review 29 (issue 25; s37-seq): the algorithm filing made with the
generative-AI filing, before launch (q30); one launch range in the deadline fix (q30 zh); a step that concerns only
the overseas node of a two-node plan holds only that node's launch (q34); the MAS outsourcing step keeps its finding's
condition (q37); the export-sensitive switch part's supply caveat, said once, and the Ascend 910B named beside the fix
for an export-controlled part (q19)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import filedwait38, quote_first39
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from tests.support.planned import advice_plan, only_finding

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")


def _row(memo: str, key: str, lang: str) -> str:
    label = translate(lang, key)
    return next(line for line in memo.splitlines() if line.startswith(f"| {label} |"))


def _timeline(memo: str, lang: str) -> str:
    return memo.split("## 5." if lang == "en" else "## 五、")[1].split("\n## ")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_algorithm_filing_is_made_with_the_generative_ai_filing_before_launch(lang):
    r = advice_plan("q30_unfiled_finetune_public_30d")
    tl = r.timeline
    [algo] = [i for i in tl.items if i.id == filedwait38.ALGORITHM_STEP]
    [genai] = [i for i in tl.items if i.id == algo.within]
    assert algo.blocking and genai.blocking and genai.length_known
    assert algo not in tl.untimed and tl.gate is genai  # inside the filing's days: it does not move the launch
    memo = render_memo_markdown(r, lang)
    row = next(x for x in _timeline(memo, lang).splitlines() if x.startswith(f"| {algo.label_in(lang)} |"))
    assert row.endswith(f"| {translate(lang, 'seq39_timeline.before_launch_within')} |")
    assert algo.days_in(lang) in row and ("dossier" if lang == "en" else "备案材料") in row
    assert ("省级网信办" in row) and ("length unknown" not in row and "所需时间未知" not in row)


@pytest.mark.parametrize("lang", LANGS)
def test_the_deadline_fix_gives_the_launch_rows_own_range(lang):
    r = advice_plan("q30_unfiled_finetune_public_30d")
    fix = next(f for f in r.fixes if f.id == "extend_deadline")
    rng = f"{r.timeline.launch_days_low}–{r.timeline.launch_days_high}"
    assert fix.params["range"] == rng
    page1 = render_memo_markdown(r, lang).split("\n## ")[1]
    assert rng in fix.text_in(lang) and rng in _row(page1, "memo.key.launch", lang)
    assert ("about 245" if lang == "en" else "约 245") not in page1


@pytest.mark.parametrize("lang", LANGS)
def test_a_check_of_the_overseas_nodes_countries_holds_only_that_node(lang):
    r = advice_plan("q34_mixed_users_split")
    tl = r.timeline
    [sea] = [i for i in tl.items if i.id == "sea_markets"]
    overseas = next(n.region for n in r.nodes if n.region != "mainland")
    assert sea.blocking and sea.node == overseas and tl.node_only == overseas and tl.gate is None
    assert r.next_steps[0].key == "seq39_next.waits_node"
    page1 = render_memo_markdown(r, lang).split("\n## ")[1]
    region = translate(lang, f"plan.region.{overseas}")
    launch = _row(page1, "memo.key.launch", lang)
    setup = next(i for i in tl.items if i.id == "setup").days_in(lang)
    assert launch.startswith(f"| {translate(lang, 'memo.key.launch')} | " +
                             ("mainland node in " if lang == "en" else "大陆节点 ") + setup)
    assert region in launch and region in _row(page1, "memo.key.feasible", lang)
    memo = render_memo_markdown(r, lang)
    assert translate(lang, "seq39_timeline.before_node", region=region) in _timeline(memo, lang)


def test_a_single_overseas_node_keeps_its_checks_as_launch_gates():
    r = advice_plan("q37_sg_fintech_public")
    assert r.timeline.node_only is None and all(i.node is None for i in r.timeline.items)
    assert r.next_steps[0].key == "steps18.next.waits"


@pytest.mark.parametrize("lang", LANGS)
def test_the_mas_outsourcing_step_keeps_its_findings_condition(lang):
    r = advice_plan("q37_sg_fintech_public")
    detail = only_finding(r, "fin.mas_outsourcing").detail_in(lang)
    assert detail.startswith("If the firm is regulated by the Monetary Authority of Singapore" if lang == "en"
                             else "如果公司受新加坡金融管理局（MAS）监管")
    [step] = [i for i in r.timeline.items if i.id == "mas_outsourcing"]
    label = step.label_in(lang, clause=True)
    assert label.startswith("if the firm is regulated by the MAS" if lang == "en" else "如公司受新加坡金融管理局（MAS）监管")
    assert label in r.next_steps[0].text_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_export_sensitive_switch_parts_supply_caveat_is_said_once(lang):
    caveat = render(lang, "seq39_supply.export").strip()
    r = advice_plan("q19_export_controlled_h100_mainland")
    step = next(s for s in r.next_steps if s.id == quote_first39.STEP_ID)
    assert caveat in step.text_in(lang)
    assert render_memo_markdown(r, lang).count(caveat) == 1  # not again in section 2's switch sentence
    other = advice_plan("q14_medical_followup_mainland")  # no quote step: the switch sentence says it
    assert not any(s.id == quote_first39.STEP_ID for s in other.next_steps)
    assert render_memo_markdown(other, lang).count(caveat) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_an_export_controlled_part_names_the_domestic_accelerator_beside_the_fix(lang):
    x = only_finding(advice_plan("q19_export_controlled_h100_mainland"), "gpu.not_in_region")
    assert x.severity == "blocker" and "domestic" in x.params
    assert ("Huawei Ascend 910B" if lang == "en" else "华为昇腾 910B") in x.detail_in(lang)
    assert any("Ascend 910B" in s.title for s in x.sources)  # its figures' source, grade C
