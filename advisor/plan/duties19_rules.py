"""Obligations the eighth blind review found missing or misread (issue 25, s19-duties19), each from a public source
graded in ``resources/plan/duties19.json``:

- a Hong Kong node holding personal data: the company's own duties under Hong Kong's Personal Data (Privacy)
  Ordinance — a data user (who controls the data) takes practicable steps to protect it (DPP4) and answers for its
  processors; data held solely on a customer's behalf, for no purpose of one's own, does not make one its data user
  (s. 2(12)) (q22: "HK PDPO is not mentioned");
- advanced GPUs placed in Hong Kong: the US export rules have treated Hong Kong as China since 2020, and the Oct-2022
  / Oct-2023 advanced-computing rules need a licence for parts at or above the threshold (total processing
  performance 4,800; NVIDIA's filing names the L40S among them), so supply there is the provider's to confirm (q22:
  "the L40S is under US export controls that treat Hong Kong as China");
- an EU staff tool holding employees' data: the AI Act's AI-literacy duty (Art. 4, applicable since 2 February 2025)
  and the high-risk listing a use for employment decisions would bring (Annex III point 4) (q38).

Who exports when mainland customers send their people's data to an offshore node is said in the "as answered"
finding (``pi.none_as_answered``, its ``customers`` case) and in ``pi.mainland_representative``.

Registered in ``advisor.plan.rules``' registry (imported at its end); texts in ``resources/i18n/*/duties19.json``.
"""

from __future__ import annotations

from typing import Any

from advisor.catalog import get_gpu
from advisor.plan.data import facts
from advisor.plan.duties15_rules import _eu_staff
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _gpu_names, finding, rule

# Oct-2023 rule (ECCN 3A090.a): total processing performance (TPP) of 4,800 or more, with no interconnect condition
# (deployment-facts §1 "US export thresholds"; NVIDIA's 8-K of 2023-10-17 names A100, A800, H100, H800, L40, L40S
# and RTX 4090). The parts between 1,600 and 4,800 are caught or not by their performance density (die area), which
# the catalogue does not hold: they are left unsaid, never said to be free of the rules.
TPP_THRESHOLD = 4800
US_DESIGNED = ("NVIDIA", "AMD")  # the rules reach US-origin parts; a domestic accelerator is another question


def tpp(gpu_id: str) -> float:
    """Total processing performance as the rule defines it (2 × MAC TOPS × bit length, i.e. dense TOPS × bits), at
    the precision that gives the highest, from the catalogue's dense figures (its BF16 is with FP32 accumulate, so
    a card whose FP16-accumulate rate is double — L40 — reads low here: a lower bound, never a higher one)."""
    g = get_gpu(gpu_id)
    rates = ((g.bf16_tflops_dense, 16), (g.fp16_tflops_dense, 16), (g.fp8_tflops_dense, 8),
             (g.int8_tops_dense, 8), (g.int4_tops_dense, 4))  # fmt: skip
    return max((rate or 0.0) * bits for rate, bits in rates)


def _hong_kong_gpus(f: Facts) -> list[str]:
    """The GPUs the plan places in Hong Kong: the plan's own on a Hong Kong node, or the overseas node's of a
    mainland + overseas plan whose overseas node is there (its setup as laid out)."""
    if f.region == "hong_kong":
        return [f.chosen.gpu.id] if f.chosen is not None else list(f.gpu_ids)
    on = f.overseas_node
    if f.region == "mainland_plus_overseas" and on is not None and on.region == "hong_kong" and on.node is not None:
        return [on.node.cand.gpu.id]
    return []


def export_controlled(gpu_id: str) -> bool:
    """At or above the Oct-2023 rule's TPP threshold, on a US-designed part."""
    return get_gpu(gpu_id).vendor in US_DESIGNED and tpp(gpu_id) >= TPP_THRESHOLD


@rule("pi.hk_pdpo", "constraint")
def hk_pdpo(f: Facts) -> Finding | None:
    """Mainland users served from a Hong Kong node the plan runs (not a hosted API), with personal information
    answered: the company's own duties under the PDPO for what it holds there. "No personal information" answered
    reads as a condition (names in the prompts, users' accounts). Without mainland users the data-residency finding
    (``pi.region_residency``, its Hong Kong case) says it; an unanswered question says nothing here. The answers
    do not say where the company is based: a company elsewhere keeping data on the node is asked to confirm the
    Ordinance's reach with counsel (no source read here states its territorial reach)."""
    c = f.ctx
    ds = c.answers.data_sensitivity
    if f.region != "hong_kong" or not c.has_mainland_users or f.form == "hosted_api":
        return None
    if ds is None or ds.personal_info is None:
        return None
    return finding("pi.hk_pdpo", variant=None if ds.personal_info else "as_answered")


@rule("gpu.hk_export_rules", "constraint")
def hk_export_rules(f: Facts) -> Finding | None:
    """A Hong Kong node on a US-designed GPU at or above the Oct-2023 threshold (L40S, A100, H100, H200, B200…):
    the US rules treat Hong Kong as China, so the cards there come from stock or licensed supply; the provider
    confirms it can supply them before the plan rests on them. Rented or bought alike, and for the Hong Kong node
    of a mainland + overseas plan too; a hosted API runs on the provider's cards (not the plan's)."""
    hit = hk_export_gpus(f)
    return finding("gpu.hk_export_rules", gpus=_gpu_names(hit), compliant=_licence_free(f)) if hit else None


def _licence_free(f: Facts) -> dict[str, Any] | str:
    """The China-market parts made to stay under the thresholds and still sold new (H20, L20; the RTX 4090 D where
    the plan may use a consumer card), named as the licence-free part to ask the Hong Kong hosts for (blind review 29,
    q43: "export-compliant China-market parts (L20) sold in Hong Kong deserve a line as a licence-free
    alternative"). The plan is not sized on them: no cloud outside the mainland lists them (facts.json,
    ``china_market_only``), so only the question is said."""
    from advisor.plan.gpu_choice import not_sold_new

    c = f.ctx
    consumer_ok = c.audience == "internal" or c.is_batch
    ids = [g for g in facts()["gpu_availability"]["china_market_only"]["gpus"] if not not_sold_new(g)
           and (consumer_ok or get_gpu(g).market != "consumer")]
    return {"tr": "misc40_export.licence_free", "parts": [get_gpu(g).name for g in ids]} if ids else ""


def hk_export_gpus(f: Facts) -> list[str]:
    """The GPUs ``gpu.hk_export_rules`` flags: the plan's own in Hong Kong at or above the threshold (none for a
    hosted API). Read by the rule and by the Hong Kong quote step, which asks the data centres to confirm supply
    (s19-duties19b), so the two never disagree."""
    if f.form == "hosted_api":
        return []
    return [g for g in _hong_kong_gpus(f) if export_controlled(g)]


@rule("eu.ai_act_staff", "constraint")
def ai_act_staff(f: Facts) -> Finding | None:
    """A staff tool in the EU that holds employees' personal data (an HR or policy assistant): the AI Act's
    AI-literacy duty for the staff who use it (Art. 4), and the employment uses that would make it high-risk
    (Annex III point 4: recruitment and selection; decisions on terms, promotion or termination, task allocation,
    monitoring or evaluation), said as a condition."""
    if not (_eu_staff(f) and f.ctx.personal_info) or f.ctx.is_batch:
        return None
    return finding("eu.ai_act_staff")
