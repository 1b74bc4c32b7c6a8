"""Which Llama Community License a model is under, and what that licence asks of a service built on it (s22-duties22).

Each row was read from the licence text itself (sources in ``resources/plan/sources21.json``, ``sources_by_licence``):

- Llama 3 (meta-llama/llama3, LICENSE with its Acceptable Use Policy): "Built with Meta Llama 3"; a model made with
  it and made available is named "Llama 3…" (s. 1.b.i); and, alone among these, no use of the model or its outputs
  to improve any other large language model than Llama 3 and its derivatives (s. 1.b.v);
- Llama 3.1, 3.2 and 3.3 (meta-llama/llama-models, models/llama3_*/LICENSE): "Built with Llama", a derived model's
  name starts with "Llama" (s. 1.b.i);
- Llama 4 (models/llama4/LICENSE): as 3.1–3.3;
- Llama 2 (s23-duties23; Llama 2 Community License, Meta, 18 July 2023, grade B): no attribution to display and no
  naming clause; a copy of the agreement and its notice ("Llama 2 is licensed under the LLAMA 2 Community
  License…") with any copy passed on (1.b.i, 1.b.iii); like Llama 3, no use to improve any other large language
  model than Llama 2 and its derivatives (1.b.v);
- Code Llama (s24-models24, issue #28): released under the Llama 2 Community License (meta-llama/codellama's
  LICENSE points to Llama 2's; its model cards tag ``license: llama2``), so Llama 2's terms by its own name:
  ``codellama-…`` / ``code-llama-…`` ids and ``codellama/CodeLlama-…`` repositories;
- all of them: the licence passed on with the weights (1.b.i), the Acceptable Use Policy (1.b.iv), Meta's own licence
  over 700 million monthly active users on the version's release date (s. 2);
- the multimodal models of Llama 3.2 (the Vision models) and of Llama 4 (Scout and Maverick take text and images:
  its model card): their Acceptable Use Policies grant no rights under s. 1(a) to a person domiciled in, or a company
  with its principal place of business in, the EU; end users of a product built on them are not affected.

The licence is read from the model's id or its Hugging Face repository name (``meta-llama/Meta-Llama-3-8B-Instruct``,
``meta-llama/Llama-3.2-11B-Vision-Instruct``): the presets' ``license`` tags (llama3, llama3.1, …) match these rows.
A Llama version not listed here (a later one: ``llama-5-…``, ``llama-4.1-…``) is said as a licence not known here,
to read before launch (``known`` False), never with another version's terms: each version so far has had its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from advisor.domain.model import ModelSpec


@dataclass(frozen=True)
class LlamaLicence:
    key: str  # the row's sources in sources21.json's ``sources_by_licence`` (and the presets' ``license`` tag)
    version: str  # the licence's own name of the version, said in the text
    built_with: str  # the attribution the licence asks to display (s. 1.b.i), verbatim
    name_prefix: str  # how a derived model made available must begin its name (s. 1.b.i), verbatim
    multimodal: bool  # a multimodal model: its Acceptable Use Policy's EU clause applies
    no_other_llm: bool  # Llama 2's and 3's s. 1.b.v: no improving another family's large language model with it
    known: bool = True  # False: a version whose licence was not read here (its terms are not said)


def _row(key: str, version: str, *, multimodal: bool = False) -> LlamaLicence:
    return LlamaLicence(key, version, "Built with Llama", "Llama", multimodal, no_other_llm=False)


# the licence by the name's version prefix ("llama-3-" never matches "llama-3.1-": the dash follows the major version)
_BY_PREFIX: tuple[tuple[str, LlamaLicence], ...] = (
    ("llama-4-", _row("llama4", "Llama 4", multimodal=True)),  # Scout and Maverick: text and image input
    ("llama-3.3-", _row("llama3_3", "Llama 3.3")),
    ("llama-3.2-", _row("llama3_2", "Llama 3.2")),
    ("llama-3.1-", _row("llama3_1", "Llama 3.1")),
    ("llama-3-", LlamaLicence("llama3", "Llama 3", "Built with Meta Llama 3", "Llama 3", False, no_other_llm=True)),
    # Llama 2 asks for no attribution display and no name for a derived model: empty, its own texts say so
    ("llama-2-", LlamaLicence("llama2", "Llama 2", "", "", False, no_other_llm=True)),
    # Code Llama: Llama 2's licence and terms, said by its own name (its repository's LICENSE is Llama 2's)
    ("codellama-", LlamaLicence("codellama", "Code Llama", "", "", False, no_other_llm=True)),
    ("code-llama-", LlamaLicence("codellama", "Code Llama", "", "", False, no_other_llm=True)),
)
# the rows under Llama 2's own text (no "Built with" display, no naming clause, its 1.b.v said in its own detail)
LLAMA2_TERMS = ("llama2", "codellama")
# any other "llama-<major>[.<minor>]-" name: a Llama version, but not one whose licence was read here
_ANY_VERSION = re.compile(r"llama-(\d+(?:\.\d+)?)-")


def _names(model: ModelSpec) -> list[str]:
    """The model's id and its repository's name, lower case, without Meta's older "Meta-" prefix."""
    names = [model.id or ""]
    if model.hf_repo:
        names.append(model.hf_repo.rsplit("/", 1)[-1])
    return [n.lower().removeprefix("meta-") for n in names if n]


def llama_licence_of(model: ModelSpec) -> LlamaLicence | None:
    """The Llama licence the model is under, or None (not a Llama model); a Llama version whose licence was not read
    here is a row with ``known`` False, named by its version ("Llama 5"). Llama 3.2's multimodal models are its
    Vision ones; its 1B and 3B are text only (their model card)."""
    names = _names(model)
    for name in names:
        for prefix, row in _BY_PREFIX:
            if name.startswith(prefix):
                if row.key == "llama3_2" and "vision" in name:
                    return replace(row, multimodal=True)
                return row
    for name in names:
        found = _ANY_VERSION.match(name)
        if found:
            return LlamaLicence("llama_unknown", f"Llama {found.group(1)}", "", "", False, no_other_llm=False,
                                known=False)  # fmt: skip
    return None


__all__ = ["LLAMA2_TERMS", "LlamaLicence", "llama_licence_of"]
