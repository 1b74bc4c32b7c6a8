"""The MIIT's filing of mobile apps beside a public consumer service's ICP filing (blind review 16, q05: "a consumer
app also needs APP filing (App 备案, 2023) beyond the domain ICP filing"), s26-privacy26.

Since the MIIT's 2023 notice, an app or mini program offered in the mainland is filed by its provider through its
access provider or the app store, before it operates; a provider whose site is ICP-filed only adds the app's details;
app stores may not distribute an unfiled app (``resources/plan/privacy26.json``: the notice, 工信部信管〔2023〕105号, and
the MIIT's interpretation of it, both read in full-text copies and graded B, s27-duties27). The
answers do not say whether the service ships as an app, so it is said as a condition, in the ICP finding it belongs
to (no finding of its own: page 1 does not grow), and only for a service open to the public: a business tool or a
staff tool on a private network is no consumer app in the stores.
"""

from __future__ import annotations

from functools import cache

from advisor.plan.result import Finding, Source
from advisor.plan.rule_base import Facts
from advisor.resources import load_json

KEY = "privacy26.app_filing"


@cache
def _sources() -> tuple[Source, ...]:
    """The filing's sources: a clause of the ICP finding, not a rule of its own (the rule registry lists rules)."""
    return tuple(Source.model_validate(x) for x in load_json("plan", "privacy26.json")["sources"])


def applies(f: Facts) -> bool:
    """A service open to the public in the mainland, whose ICP finding fired (a mainland node serving mainland
    users, not a LAN, a batch job or a hosted API the provider runs)."""
    return f.ctx.audience == "public"


def with_app_filing(f: Facts, got: Finding) -> Finding:
    """``got`` (the ICP finding) followed by the app's filing, with its sources, for a public service; else as is."""
    if not applies(f):
        return got
    params = {**got.params, "base": {"tr": got.detail_key, **got.params}}
    extra = [s for s in _sources() if s.title not in {x.title for x in got.sources}]
    return got.model_copy(update={"detail_key": f"{KEY}.with", "params": params, "sources": [*got.sources, *extra],
                                  "verify": got.verify or any(s.needs_verify for s in extra)})


__all__ = ["applies", "with_app_filing"]
