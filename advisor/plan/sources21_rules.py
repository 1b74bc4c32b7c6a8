"""Duties the eleventh blind review found missing (s21-sources21b), each from a public source graded in
``resources/plan/sources21.json``:

- a Hong Kong bank's assistant for its customers: the HKMA's circular of 19 August 2024 on generative AI in
  customer-facing applications (q25: "an expert would want ... the HKMA's 2024 guidance on GenAI in customer-facing
  applications (disclosure, human oversight, opt-out), which is missing for a retail-bank chatbot");
- a public financial assistant in Singapore: advice on investment products is a financial advisory service under the
  Financial Advisers Act (q37: "a public 'wealth/理财' assistant may be regulated financial advice under Singapore's
  Financial Advisers Act; the memo does not raise it");
- a service offered to others on a Llama 3.1 or 3.3 model: the Llama Community License's "Built with Llama", its
  Acceptable Use Policy and its 700-million-user clause (q09, q10, q18: "Llama licence/AUP obligations for a
  commercial API are not mentioned").

Elsewhere in this change: the MAS outsourcing guidelines in force since 11 December 2024 (q37), PDPA breach
notification in the Singapore personal-data finding (q37), and the health sector's pre-ICP approval said as what the
sources support (q14). Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in
``resources/i18n/*/obligations21_sources21b.json``.
"""

from __future__ import annotations

from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_finance

# the Llama versions whose licence text was read (meta-llama/llama-models, models/llama3_1 and llama3_3/LICENSE);
# Llama 3, 3.2 and 4 have licences of their own, not read here, so they are not named by this rule
LLAMA_LICENSED = ("llama-3.1-", "llama-3.3-")


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
    """A service made available to others (not a staff tool or a LAN) on Llama 3.1 or 3.3: the Community License
    asks such a service to show "Built with Llama" and to follow Meta's Acceptable Use Policy; a model fine-tuned from
    it and made available is named "Llama…"; over 700 million monthly active users on the release date needs Meta's
    own licence (s. 1.b.i, 1.b.iv, 2). A hosted API of the model is the provider's distribution: not said there."""
    c = f.ctx
    model_id = getattr(c.model, "id", "") or ""
    if not model_id.startswith(LLAMA_LICENSED) or c.internal_only or f.form == "hosted_api":
        return None
    return finding("model.llama_licence", variant="tuned" if c.fine_tuned else None)
