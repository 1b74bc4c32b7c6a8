"""A per-token API sold to businesses in the mainland: planned as likely offered to the public (issue 25, twelfth
blind review q11, s22-duties22c).

The Interim Measures cover generative-AI services offered to the public in the mainland (Art. 2) and exclude
enterprise use not offered to the public. s18-genai3 kept a business service's answer "not public" and asked
whether any business can sign up (``open_signup``). The twelfth review (q11, en) read that as a footnote where the
facts already answer it: "a per-token API sold to any business is very likely 'offered to the public': the
generative-AI filing/registration should be a planned step, not a conditional footnote". A metered API the
company charges for on the internet is sold to whoever buys tokens, so the filing is planned while the sign-up is
unanswered; answered "customers under a contract you name" (``open_signup`` false) the plan keeps "not public".

Read from the answers alone (no rule facts), so ``unknowns`` can say what the plan rests on meanwhile.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.answers import OWN_NETWORK_REACH

PRIVATE_REACH = OWN_NETWORK_REACH


def per_token_sold(answers: Any) -> bool:
    """A paid API (``use_case`` api, ``charges_users`` true) for businesses outside the team, on the internet (not a
    LAN or private network), whose sign-up is not answered."""
    return (answers.open_signup is None and answers.charges_users is True and answers.use_case == "api"
            and answers.audience == "business" and answers.reach not in PRIVATE_REACH)
