"""Memo wording a Chinese deployment engineer reads (issue 25, s15-text): no English labels in a Chinese memo's
tables, Ascend said as an accelerator / NPU, a paid API's cost per million input and output tokens quoted apart,
no public-internet boilerplate (carriers, B25) for an office LAN tool, and B25 stated without a hedge where it
applies, with the non-operating ICP filing turning into the operating licence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from advisor.i18n import catalog, translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.data import builtin_rows
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_text15 import per_million_split
from tests.support.planned import scenario_plan

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "bench" / "advice_scenarios"
LANGS = ("en", "zh_CN")

# words a Chinese memo's tables may keep in Latin letters: vendors, products and sites named as they name
# themselves, units and the acronyms the glossary keeps (TTFT, TPOT, KV Cache, token)
LATIN_OK = {
    "token", "tokens", "nvidia", "geforce", "huawei", "ascend", "atlas", "runpod", "deploybase", "mercatus-ai",
    "pseo-ai", "technolynx", "lingducloud", "autodl", "cache", "ttft", "tpot", "mbps",
    "awq-int", "block", "max-num-seqs", "capacity", "blocks", "lambda", "aliyun",
    "digitalocean", "spheron", "network", "theneuralbase", "kufanyun", "instinct",
    "computingpower",  # the cloud storage share's site (s22-uplift22c)
    "semianalysis", "tojoyun",  # the H20 server price's report (a firm, a site) on a plan that now rents H20
    "php", "xlycwl",  # s30-prices30: the site that carried the 8 × H200 machine price the H20 row derives from
    # s27-prices27: the mainland rows' sources and Alibaba's instance names, as the vendor and the sites write them
    # (an API, a disk product, a site, an index's name; "2xlarge" and "vCPU" in the instance's shape), and the L20
    # purchase row's source that q11's memo shows now that it rents the L20
    "describeprice", "essd", "github", "gpu-price-index", "xlarge", "vcpu", "pcie", "aqiusha",
    "qwen",  # s32-permil33: the per-million row names the model whose list prices the API (q24's Qwen3-32B)
    # s35-ownpower37: the mainland power row's sources, a publication, its firm and a statistics site, as they write
    # themselves
    "china", "briefing", "dezan", "shira", "statista",
}
TABLE_WORD = re.compile(r"[A-Za-z][A-Za-z\-]{3,}")


def memo(stem: str, lang: str) -> str:
    return render_memo_markdown(scenario_plan(SCEN / f"{stem}.json"), lang)


def prose(markdown: str, lang: str) -> str:
    """The memo without code blocks, inline code, link targets and its source list (documents' own titles)."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = text.split(f"## {translate(lang, 'memo.h.sources')}")[0]
    return re.sub(r"`[^`]*`|\]\([^)]*\)", "", text)


def table_lines(markdown: str) -> list[str]:
    return [ln for ln in prose(markdown, "zh_CN").splitlines()
            if ln.startswith("|") and not set(ln) <= set("|-: ")]


@pytest.mark.parametrize("stem", ["q01_office_lan_capex_contracts", "q11_paid_api_b25", "q33_office_4090d_fleet",
                                  "q08_ascend_fleet_internal", "q24_us_saas_rent"])
def test_a_chinese_memo_has_no_english_labels_in_its_tables(stem):
    """Price rows, their sources, the exchange rate's source: in Chinese (vendor and product names stay as they
    are); before s15 the price table read "Mainland cloud L20 (placeholder; get a quote) | no public source"."""
    text = memo(stem, "zh_CN")
    english = sorted({w for ln in table_lines(text) for w in TABLE_WORD.findall(ln)
                      if w.lower() not in LATIN_OK and not re.search(r"\d", w)})
    assert english == [], f"{stem}: English words in the zh memo's tables: {english}"


def test_every_price_row_and_every_cited_source_has_a_chinese_name():
    """A new price row or source title without its Chinese name fails here, not in a reader's hands."""
    zh = json.loads((ROOT / "resources" / "plan" / "prices_zh.json").read_text(encoding="utf-8"))
    missing = [r.id for r in builtin_rows() if r.id not in zh["offers"]]
    assert missing == [], f"price rows without a Chinese name in resources/plan/prices_zh.json: {missing}"
    assert [r.source for r in builtin_rows() if r.source not in zh["sources"]] == []
    titles = json.loads((ROOT / "resources" / "plan" / "source_titles_zh.json").read_text(encoding="utf-8"))["titles"]
    found: set[str] = set()

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("title"), str) and ({"grade", "url", "date"} & set(x)):
                found.add(x["title"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for path in [*(ROOT / "resources" / "plan").glob("*.json"), ROOT / "resources" / "gpus" / "node_shapes.json"]:
        if not path.name.endswith("_zh.json"):
            walk(json.loads(path.read_text(encoding="utf-8")))
    assert sorted(found - set(titles)) == [], "source titles without a Chinese title in source_titles_zh.json"
    # and no internal reference (a rule number, a file of ours) in a Chinese title
    assert [t for t in titles.values() if re.search(r"deployment-facts|Rule \d|\.json|gpus\.csv", t)] == []


def test_a_chinese_memos_sources_are_in_chinese_or_introduced_in_chinese():
    text = memo("q11_paid_api_b25", "zh_CN")
    sources = text.split(f"## {translate('zh_CN', 'memo.h.sources')}")[1]
    items = [ln for ln in sources.splitlines() if re.match(r"\d+\. ", ln)]
    assert items and all(re.search(r"[\u4e00-\u9fff]", ln.split("](")[0]) for ln in items), items


@pytest.mark.parametrize("lang", LANGS)
def test_an_ascend_plan_never_calls_its_hardware_a_gpu(lang):
    r = scenario_plan(SCEN / "q08_ascend_fleet_internal.json")
    assert r.hardware.gpu == "ascend-910b"
    text = prose(render_memo_markdown(r, lang), lang)
    assert not re.findall(r"GPU", text), [ln for ln in text.splitlines() if "GPU" in ln][:5]
    assert ("加速卡" if lang == "zh_CN" else "accelerator") in text
    from advisor.plan.charts import memo_charts

    labels = [x for c in memo_charts(r, lang).values() for x in (c.title, c.y_label, *(s.label for s in c.series))]
    assert labels and not [x for x in labels if "GPU" in x], labels
    # an NVIDIA plan keeps its GPUs
    assert "GPU" in prose(memo("q11_paid_api_b25", lang), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_paid_api_memo_quotes_cost_per_million_input_and_output_tokens_apart(lang):
    r = scenario_plan(SCEN / "q11_paid_api_b25.json")
    c = r.costs
    assert c.prefill_gpu_share is not None and 0.05 < c.prefill_gpu_share < 0.95
    (in_lo, in_hi), (out_lo, out_hi) = per_million_split(c)
    # the two parts add back up to the whole GPU cost a month (nothing counted twice, nothing lost)
    whole = c.cost_per_million_output_tokens.low * c.output_tokens_per_month / 1e6
    assert in_lo * c.input_tokens_per_month / 1e6 + out_lo * c.output_tokens_per_month / 1e6 == pytest.approx(whole)
    assert in_lo < out_lo and in_hi < out_hi  # a prompt token costs less GPU time than an answer token
    text = render_memo_markdown(r, lang)
    label = translate(lang, "memo.text15.cost.per_million")
    [row] = [ln for ln in text.splitlines() if ln.startswith(f"| {label} |")]
    assert ("输入" in row and "输出" in row) if lang == "zh_CN" else ("input" in row and "output" in row)
    assert f"{c.prefill_gpu_share * 100:.0f} %" in row  # the method's figure: prefill's share of the GPU time
    old = translate(lang, "memo4.cost.per_million")
    assert not [ln for ln in text.splitlines() if ln.startswith(f"| {old} |")]  # no "output only" / "combined" row


@pytest.mark.parametrize("stem", ["q01_office_lan_capex_contracts", "q33_office_4090d_fleet"])
@pytest.mark.parametrize("lang", LANGS)
def test_an_office_lan_tool_gets_no_carrier_line_or_b25_boilerplate(stem, lang):
    r = scenario_plan(SCEN / f"{stem}.json")
    text = render_memo_markdown(r, lang)
    carriers = ("电信", "联通", "移动") if lang == "zh_CN" else ("Telecom", "Unicom", "Mobile")
    assert not [w for w in carriers if w in text], stem
    assert "B25" not in text
    assert translate(lang, "memo.text15.line.lan") in text.split("\n## ")[1]  # the headline: no line needed
    site = "办公室" if lang == "zh_CN" else "office"
    assert site in text.split("\n## ")[1]
    assert "自有机房" not in text and "own server room" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_fleet_cost_text_and_the_cost_table_agree_on_staff(lang):
    r = scenario_plan(SCEN / "q33_office_4090d_fleet.json")
    assert r.costs.owned is not None and not r.costs.owned.staff_counted
    [fleet] = [f for f in r.findings if f.id == "cost.fleet"]
    detail = fleet.detail_in(lang)
    assert translate(lang, "plan.text15.fleet.staff_not_counted") in detail
    assert translate(lang, "plan.text15.fleet.staff_counted") not in detail
    # the table says who looks after them as the answers do (s16-consistency: "your ops staff" only for strong ops)
    assert translate(lang, "memo.forms.cost.staff_none_fleet") in render_memo_markdown(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_b25_is_stated_without_a_hedge_and_the_filing_becomes_the_operating_licence(lang):
    r = scenario_plan(SCEN / "q11_paid_api_b25.json")
    [b25] = [f for f in r.findings if f.id == "icp.licence_b25"]
    head = render_memo_markdown(r, lang).split("\n## ")[1]
    assert b25.title_in(lang) in head
    assert not re.search(r"可能需要|may be needed|might", b25.title_in(lang))
    detail = b25.detail_in(lang)
    assert ("经营性 ICP 许可证" in detail and "ICP备" in detail) if lang == "zh_CN" else \
        ("经营性ICP许可证" in detail and "non-operating" in detail)
    # the filing is done, but the paid service's launch waits on the licence: never "the launch does not wait"
    [filed] = [f for f in r.findings if f.id == "icp.required"]
    assert filed.title_key == "plan.rule.icp.required.filed_paid.title"
    # not filed yet: the general text, also unhedged
    unfiled = make_plan(answers_from_dict({**json.loads((SCEN / "q11_paid_api_b25.json").read_text())["answers"],
                                           "icp_status": "none"}))
    [x] = [f for f in unfiled.findings if f.id == "icp.licence_b25"]
    assert x.title_key == "plan.rule.icp.licence_b25.title"
    assert not re.search(r"可能需要|may be needed", x.title_in(lang))


def test_hosted_api_and_colocation_are_two_words_in_chinese():
    """托管 alone is ambiguous (a hosted API or colocation): the model API is 模型 API 服务, colocation is 机柜托管 /
    IDC 机房托管 (GLOSSARY addition proposed by s15-text)."""
    zh = catalog("zh_CN")
    assert [k for k, v in zh.items() if "托管 API" in v or "托管的模型" in v] == []
    loose = [k for k, v in zh.items() if re.search(r"托管", re.sub(r"机柜托管|机房托管|托管机房|托管在中国内地", "", v))]
    assert loose == [], loose


@pytest.mark.parametrize("lang", LANGS)
def test_the_cli_summary_quotes_the_same_input_and_output_costs(tmp_path, capsys, lang):
    from advisor.cli import main

    answers = tmp_path / "q11.json"
    answers.write_text(json.dumps(json.loads((SCEN / "q11_paid_api_b25.json").read_text())["answers"]))
    assert main(["plan", "--answers", str(answers), "--lang", lang]) == 0
    out = capsys.readouterr().out
    (in_lo, _), (out_lo, _) = per_million_split(scenario_plan(SCEN / "q11_paid_api_b25.json").costs)
    assert f"{in_lo:,.2f}" in out and f"{out_lo:,.2f}" in out
    pm = scenario_plan(SCEN / "q11_paid_api_b25.json").costs.cost_per_million_tokens
    together = translate(lang, "plan.cli.per_million_all", low=f"{pm.low:,.2f}", high=f"{pm.high:,.2f}", currency="CNY")
    assert together not in out  # no "input and output together" beside the split
