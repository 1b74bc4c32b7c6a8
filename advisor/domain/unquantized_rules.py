"""The keep-in-16-bit rules a checkpoint's quantization_config declares, as strings a ModelSpec can carry.

``"re:<regex>"`` for each GPTQModel ``dynamic`` key that starts with ``-:`` (vLLM's gptq_utils.get_dynamic_override:
a module whose name the regex matches is not quantized; ``+:`` and bare keys only override bits or group size), and
``"in:<name>"`` for each ``modules_to_not_convert`` entry (vLLM's is_layer_skipped_awq: a substring of the module's
name). advisor/sizing/unquantized.py applies them.
"""

from __future__ import annotations

from typing import Any


def rules_from_config(q: dict[str, Any]) -> tuple[str, ...]:
    """The per-module rules a quantization_config declares, in its order: each GPTQModel ``dynamic`` key as
    ``re:<regex>`` (a ``-:`` key: not quantized) or ``q<bits>:<regex>`` (any other key: quantized, at ``bits`` when it
    overrides them, else ``q:``), then each ``modules_to_not_convert`` entry as ``in:<name>``."""
    rules: list[str] = []
    dynamic = q.get("dynamic")
    if isinstance(dynamic, dict):
        for key, override in dynamic.items():
            if not isinstance(key, str):
                continue
            if key.startswith("-:"):
                rules.append(f"re:{key.removeprefix('-:')}")
                continue
            bits = override.get("bits") if isinstance(override, dict) else None
            rules.append(
                f"q{bits if isinstance(bits, int) and not isinstance(bits, bool) else ''}:{key.removeprefix('+:')}"
            )
    skipped = q.get("modules_to_not_convert")
    if isinstance(skipped, list):
        rules += [f"in:{name}" for name in skipped if isinstance(name, str) and name]
    return tuple(rules)
