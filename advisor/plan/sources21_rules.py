"""Duties the eleventh blind review found missing (s21-sources21b), each from a public source graded in
``resources/plan/sources21.json``:

- a Hong Kong bank's assistant for its customers: the HKMA's circular of 19 August 2024 on generative AI in
  customer-facing applications (q25: "an expert would want ... the HKMA's 2024 guidance on GenAI in customer-facing
  applications (disclosure, human oversight, opt-out), which is missing for a retail-bank chatbot");
- a public financial assistant in Singapore: advice on investment products is a financial advisory service under the
  Financial Advisers Act (q37: "a public 'wealth/理财' assistant may be regulated financial advice under Singapore's
  Financial Advisers Act; the memo does not raise it");
- a service offered to others on a Llama model: the Llama Community License's "Built with Llama", its
  Acceptable Use Policy and its 700-million-user clause (q09, q10, q18: "Llama licence/AUP obligations for a
  commercial API are not mentioned"); s22-duties22: each version's own licence (Llama 3, 3.1, 3.2, 3.3, 4:
  ``advisor.plan.llama_licences``), with Llama 3's ban on improving other models and the EU clause of the
  multimodal models' Acceptable Use Policies; s23-duties23: Llama 2's own licence, and a later version whose licence
  was not read said as not known here (a warning: read it before launch).

Elsewhere in this change: the MAS outsourcing guidelines in force since 11 December 2024 (q37), PDPA breach
notification in the Singapore personal-data finding (q37), and the health sector's pre-ICP approval said as what the
sources support (q14). Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in
``resources/i18n/*/obligations21_sources21b.json``.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import rule_meta
from advisor.plan.llama_licences import LLAMA2_TERMS, llama_licence_of
from advisor.plan.result import Finding, Source
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_finance
from advisor.plan.sectors17_rules import EU_MEMBERS


@rule("fin.hk_genai_consumer", "constraint")
def hk_genai_consumer(f: Facts) -> Finding | None:
    """A financial firm's assistant for its customers (public or business, not a staff tool, not a batch) on a Hong
    Kong node: the HKMA extends its 2019 consumer-protection principles for big data and AI to generative AI in
    customer-facing applications (circular of 19 August 2024): tell customers they deal with an AI, a human in the
    loop at first, a way to opt out to a person, the model's answers validated. Said for a bank ("if the firm is an
    authorized institution"): the circular binds AIs only."""
    c = f.ctx
    if f.region != "hong_kong" or not is_finance(c.sector) or c.internal_only or c.is_batch:
        return None
    return finding("fin.hk_genai_consumer")


@rule("fin.sg_financial_advice", "constraint")
def sg_financial_advice(f: Facts) -> Finding | None:
    """A financial firm's assistant for the public or business clients on a Singapore node: if it recommends
    investment products, that is a financial advisory service under the Financial Advisers Act (MAS FAA-G17, 2019),
    which needs a licence or an exemption, digital advisers included. Budgeting help with no product advice is
    outside it: the line is the firm's to draw in the prompt and to test. Said as a question to settle, not a
    ruling: the answers do not say what the assistant advises on."""
    c = f.ctx
    if f.region != "singapore" or not is_finance(c.sector) or c.internal_only or c.is_batch:
        return None
    return finding("fin.sg_financial_advice")


@rule("model.llama_licence", "constraint")
def llama_licence(f: Facts) -> Finding | None:
    """A service made available to others (not a staff tool or a LAN) on a Llama model (``llama_licences``): the
    version's Community License asks such a service to show its "Built with …" line and to
    follow Meta's Acceptable Use Policy; a model fine-tuned from it and made available is named as the licence says;
    over 700 million monthly active users on the release date needs Meta's own licence (s. 1.b.i, 1.b.iv, 2). Llama 3
    also bars improving any other large language model with it (1.b.v); the multimodal models' Acceptable Use Policy
    (Llama 3.2 Vision, Llama 4) grants no rights to a company based in the EU: said as a condition (the answers do
    not say where the company is), a warning where people in the EU are among the users. Llama 2 has its own text
    (no display, no naming clause; its 1.b.v ban as Llama 3's), and Code Llama, released under it, the same by its own
    name; a version whose licence was not read here is a
    warning to read it before launch, with no terms said. A hosted API of the model is the provider's distribution:
    not said there."""
    c = f.ctx
    licence = llama_licence_of(c.model)
    if licence is None or c.internal_only or f.form == "hosted_api":
        return None
    extra: Any = ""
    if licence.no_other_llm and licence.key not in LLAMA2_TERMS:  # Llama 2's own text says its 1.b.v
        extra = {"tr": "duties22.llama.no_other_llm"}
    elif licence.multimodal:
        extra = {"tr": "duties22.llama.eu_multimodal", "version": licence.version}
    naming: Any = {"tr": "duties22.llama.naming", "prefix": licence.name_prefix} if c.fine_tuned else ""
    eu_users = licence.multimodal and any(m in EU_MEMBERS for m in c.overseas_markets)
    # Llama 2: its own text (no "Built with", no naming clause); a version not read here: said so, a warning, never
    # another version's terms (s23-duties23); Code Llama: Llama 2's text, by its own name (s24-models24)
    variant = "eu" if eu_users else licence.key if licence.key in LLAMA2_TERMS else None if licence.known else "unknown"
    out = finding("model.llama_licence", variant=variant, severity="warning" if variant in ("eu", "unknown") else None,
                  version=licence.version, built=licence.built_with, naming=naming, extra=extra)
    # each version's own licence text is the source (sources21.json ``sources_by_licence``), not the 3.1/3.3 one
    key = licence.key + ("_vision" if licence.multimodal and licence.key == "llama3_2" else "")
    sources = [Source.model_validate(s) for s in rule_meta("model.llama_licence")["sources_by_licence"][key]]
    return out.model_copy(update={"sources": sources, "verify": any(s.needs_verify for s in sources)})
