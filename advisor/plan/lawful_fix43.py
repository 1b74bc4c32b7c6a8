"""The fix of a mainland plan asked on a part under the US export rules for China (blind review 34, q19).

"Allow other GPUs" ("放开 GPU 限制") read as a way around the export restriction: the fix is to use a part that
mainland clouds lawfully offer (L20, H20, …), the one the fix re-plans on named with its setup. Elsewhere (a
China-market part asked for offshore, or a GPU limit of the user's own) the fix keeps its general words.
"""

from __future__ import annotations

from collections.abc import Collection

GENERAL = "plan.fix.other_gpus"
LAWFUL = "np43.fix.lawful_gpus"
SETUP = {GENERAL: "plan.fix.other_gpus_setup", LAWFUL: "np43.fix.lawful_gpus_setup"}
SETUP_KEYS = frozenset(SETUP.values())


def key(finding_ids: Collection[str]) -> str:
    """The fix's key: the lawful-part words where the asked-for part is not offered on the mainland (export rules)."""
    return LAWFUL if "gpu.not_in_region" in finding_ids else GENERAL


def setup_key(fix_key: str) -> str:
    """The key of the same fix once its re-planned setup is known."""
    return SETUP.get(fix_key, SETUP[GENERAL])


__all__ = ["GENERAL", "LAWFUL", "SETUP_KEYS", "key", "setup_key"]
