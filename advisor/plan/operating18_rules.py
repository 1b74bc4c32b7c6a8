"""The operating duties of a generative-AI service open to the mainland public (issue #25, q32: the memo "omits the
public-chatbot operating duties: moderation, real-name checks, a complaint channel, log retention"). The filings and
the labels had rules; what the provider must run every day once the service is live did not.

Registered in ``advisor.plan.rules``' registry (imported at its end, listed in ``RULE_MODULES``); its sources are in
``resources/plan/operating18.json``, its texts in ``resources/i18n/*/operating18.json``. An obligation that holds
whatever is decided: listed after the deciding reasons (``reasons.CAVEAT_RULES``), never a page-1 reason.
"""

from __future__ import annotations

from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule


@rule("genai.operating_duties", "constraint")
def genai_operating_duties(f: Facts) -> Finding | None:
    """A generative-AI service offered to the mainland public (the case the Interim Measures cover, Art. 2): content
    review that stops, removes and reports illegal output (Art. 14), a complaint and reporting channel with a
    published process and response time (Art. 15), users' inputs and usage records protected and not kept beyond
    need (Art. 11); the Cybersecurity Law's real-identity check for services where users publish information
    (Art. 24) and network logs kept at least six months (Art. 21). Hosted abroad or not: the Measures follow the
    users (the offshore rule says so for the filing). A staff or business-only service is not concerned."""
    return finding("genai.operating_duties") if f.ctx.public_genai else None


__all__ = ["genai_operating_duties"]
