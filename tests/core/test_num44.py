"""num44 (blind review 36): a memo's figures that disagree with each other.

- q19: the plan as asked (H100) is blocked and the L20 re-plan is the memo's body; section 8's context line said the
  asked setup's serve limit ("served up to 8,192 … holds 36 requests") beside the L20 command's --max-model-len 5120.
- q05: page 1's month starts the peak-hour replicas on demand while the cost row and a finding said "reserve all 7
  GPUs": reserving all is now the priced option beside the plan's month, not a recommendation against it; and the two
  nodes' different --max-model-len are said with the reason.

Through the engine, on the real scenario plans, in both languages.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q19 = "q19_export_controlled_h100_mainland"
Q05 = "q05_filed_finetune_mainland_sg"


def _memo(scenario: str, lang: str) -> str:
    return render_memo_markdown(planned(advice_answers(scenario)), lang)


def _flag(command: str, name: str) -> int:
    got = re.search(rf"--{name} (\d+)", command)
    assert got is not None, command
    return int(got.group(1))


def test_q19_context_assumption_is_the_served_setups() -> None:
    r = planned(advice_answers(Q19))
    said = next(a for a in r.assumptions if a.field == "max_context_tokens")
    served = said.params.get("served")
    # never a limit other than the command's, nor a request count other than the command's cap
    limit = _flag(r.hardware.command or "", "max-model-len")
    assert served is None or int(str(served).replace(",", "")) == limit
    assert said.params.get("seqs") in (None, r.hardware.max_num_seqs)


@pytest.mark.parametrize("lang", LANGS)
def test_q19_section8_context_line_is_the_commands(lang: str) -> None:
    memo = _memo(Q19, lang)
    lead = {"en": "- Longest context not given", "zh_CN": "- 未填写最长上下文"}[lang]
    line = next(x for x in memo.splitlines() if x.startswith(lead))
    assert "5,120" in line and "8,192" not in line and "36" not in line


@pytest.mark.parametrize("lang", LANGS)
def test_q05_page_one_does_not_recommend_another_month(lang: str) -> None:
    memo = _memo(Q05, lang)
    page_one = memo.split("\n## ")[1]
    assert "reserve all 7" not in page_one and "建议 7 张 GPU 全部预留" not in page_one
    reserved = "49,233–67,501"
    assert reserved in page_one  # still priced, as the option beside the plan's month
    option = {"en": "reserving all 7 GPUs instead", "zh_CN": "改为 7 张 GPU 全部预留"}[lang]
    assert option in page_one
    assert "Reserve all 7 GPUs" not in memo and "7 张 GPU 全部预留：" not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_q05_nodes_context_difference_is_explained(lang: str) -> None:
    r = planned(advice_answers(Q05))
    limits = {_flag(r.hardware.command or "", "max-model-len"),
              *(_flag(n.command, "max-model-len") for n in r.nodes[1:] if n.command)}
    memo = _memo(Q05, lang)
    if len(limits) > 1:
        why = {"en": "refuses requests longer than 4,096 tokens, the mainland node only past 8,192",
               "zh_CN": "新加坡节点拒绝超过 4,096 个 token 的请求，大陆节点到 8,192 个 token 才拒绝"}[lang]
        assert why in memo


Q23 = "q23_japan_game_npc"


@pytest.mark.parametrize("lang", LANGS)
def test_q23_two_whole_month_figures_are_named_apart(lang: str) -> None:
    """q23: "held all month: 11,165–13,766" (a capacity reservation at the on-demand rate) and "7,828–11,263" (every
    GPU committed at the discount) were two "whole month reserved" figures a boss could not tell apart."""
    r = planned(advice_answers(Q23))
    c = r.costs
    assert c.cloud_reserved_all_monthly is not None
    committed = f"{round(c.cloud_reserved_all_monthly.low):,}"
    page_one = render_memo_markdown(r, lang).split("\n## ")[1]
    cost = next(x for x in page_one.splitlines() if x.startswith(("| Cost |", "| 成本 |")))
    named = {"en": ("on-demand rate", "reserved-instance discount"), "zh_CN": ("按按量价格计费", "包月/预留折扣")}[lang]
    assert committed in cost and all(n in cost for n in named), cost
    f = r.finding("scaling.burst_reservation")
    assert f is not None and committed in f.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_q04_dip_sentence_is_true_to_the_table(lang: str) -> None:
    """q04: "more requests do not lower throughput" beside a row that drops 206 → 184 tokens/s from 10 to 12."""
    memo = _memo("q04_securities_h20_l20_fleet", lang)
    said = {"en": "The row dips from 206 tokens/s at 10 at once to 184 at 12",
            "zh_CN": "这一行的吞吐量从同时 10 个时的 206 tokens/s 降到 12 个时的 184"}[lang]
    assert said in memo
    assert "Below the cap more requests do not lower throughput" not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_q37_throughput_cited_from_its_own_column(lang: str) -> None:
    """q37: "633 tokens/s at 32 concurrent" where 633 is the 27 column's and the table has no 32 column."""
    r = planned(advice_answers("q37_sg_fintech_public"))
    columns = {p.concurrency for p in r.latency_curve.points}
    cap = r.hardware.max_num_seqs
    memo = render_memo_markdown(r, lang)
    if cap not in columns:
        assert "633 at 32" not in memo and "32 个时为 633" not in memo
        assert {"en": "633 in the 27 column", "zh_CN": "27 一列、即上限以内最后一列为 633"}[lang] in memo
