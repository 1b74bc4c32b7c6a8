"""Page 1's "your decision" box: what taking the hosted API changes besides the cost (issue #25, blind review 32, q14).

The box read "a hosted API at about ¥116–¥255 … this plan is kept because the data is highly sensitive", without
saying where the data would go, and on the mainland without the launch-date side of the choice: a service that only
calls an already-filed model's API unchanged takes the registration (登记, provincial review only), while this plan's
self-hosted open-weight model is planned on the filing (备案). Where the answers carry personal information, the box
says the prompts and the personal data in them would go to the provider; where the API's path is the registration
and the plan's is not, it says the two paths' days (``genai_paths.canonical_days``, the figures every sentence uses).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.genai_paths import canonical_days, genai_kind


def note(f: Any) -> dict[str, Any] | str:
    """A ``{"tr": …}`` phrase for after the box's sentence, or "" where the API changes neither."""
    c = f.ctx
    data = {"tr": "cons42.api_note.data." + ("sensitive" if c.level == "high" or c.sensitive_subjects else "pi")} \
        if c.personal_info else None
    path = (c.public_genai and not c.genai_covered and c.genai_filing != "in_progress"
            and genai_kind(c, "hosted_api") == "genai_registration" and genai_kind(c, f.form) != "genai_registration")
    if data is None and not path:
        return ""
    days = canonical_days()
    key = "cons42.api_note." + ("both" if data and path else "data" if data else "path")
    return {"tr": key, "data": data or "", **days}


__all__ = ["note"]
