"""The cross-border tier of a plan's mainland personal-information counts (CAC 2024-03-22: exempt below 100k people,
standard contract or certification to 1M or with < 10k sensitive, security assessment above), in a module below the
rule modules that read it (``rules``' export findings, ``duties22c_rules``' impact assessment: issue #27 allows no
import cycle)."""

from __future__ import annotations

from advisor.plan.context import Ctx
from advisor.plan.data import facts


def export_tier(c: Ctx) -> str:
    """exempt | contract | assessment, or unknown when a count the tier depends on was not given (an unknown
    count is never read as 0: that would state an exemption nobody established). Counted on MAINLAND data
    subjects only: the given counts times the mainland share of the users (overseas users' data going to an
    offshore node leaves no mainland border; summing both put a 50/50 service in the wrong tier)."""
    t = facts()["pi_thresholds"]
    pi, sensitive = c.mainland_pi_subjects, c.mainland_sensitive_subjects
    if (sensitive is not None and sensitive >= t["sensitive_assessment_from"]) or (
            pi is not None and pi >= t["assessment_from"]):
        return "assessment"
    if pi is None or sensitive is None:
        return "unknown"
    if sensitive > 0 or pi >= t["exempt_below"]:
        return "contract"
    return "exempt"
