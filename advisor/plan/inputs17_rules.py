"""Answers a reviewer would question (issue 25, sixth blind review, s17-ui).

q22: a meeting-minutes assistant answered "no personal information", served from Hong Kong to mainland users.
Minutes, call transcripts, HR files and support tickets usually name people, and whether they do decides the
cross-border analysis; the plan takes the answer as given and says so, with what changes if names are present.

Registered in ``advisor.plan.rules``' registry (imported at its end); texts in ``resources/i18n/*/inputs17.json``;
sources in ``resources/plan/duties.json``.
"""

from __future__ import annotations

from advisor.plan.pi_exporter import customers_export
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule


@rule("pi.none_as_answered", "constraint")
def none_as_answered(f: Facts) -> Finding | None:
    """Mainland users' prompts processed on a node outside the mainland, with personal information answered "no"
    (not left unanswered: that is an open question already): the answer is taken as given, and the finding says what
    a name in the prompts would change (notice and separate consent; the cross-border tiers by people a year). For a
    company with no mainland entity serving business customers it says who would do what: the customers export,
    PIPL reaches the company through Art. 3(2) and asks it for a representative (Art. 53)."""
    c = f.ctx
    ds = c.answers.data_sensitivity
    if not (f.offshore and c.has_mainland_users) or ds is None or ds.personal_info is not False:
        return None
    # no mainland entity: a name in the prompts would also call for a representative there (PIPL Art. 53; s18-duties, q22)
    no_entity = c.answers.mainland_entity is False
    rep = {"tr": "plan.duties18.representative"} if no_entity else ""
    # business customers sending their own people's data from the mainland: they are the handlers that export it,
    # and PIPL reaches the offshore company through Art. 3(2) (s19-duties19; the eighth review read "processing them
    # in Hong Kong is a cross-border transfer: tell the people…" as the Hong Kong company's own export, q22)
    customers = customers_export(c)
    return finding("pi.none_as_answered", variant="customers" if customers else None,
                   region={"tr": f"plan.region.{f.region}"}, representative=rep)
