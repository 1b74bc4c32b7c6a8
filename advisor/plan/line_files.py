"""Whole documents uploaded as files: the line finding says what sizes its upload (s31-bigctx32; blind review 20,
q10 zh: "the 2 Mbps BGP line is sized from token rates; uploading whole contracts or reports as PDFs would need
more, 10+ Mbps").

``line_cost`` sizes a long-prompt load's upload on the file's bytes a token (``bytes_per_document_token``: a text
PDF's 30–100 KB a page over about 667 tokens a page, grade C, each request at the peak assumed to bring its file).
The finding keeps its text and adds one sentence with that figure, the bytes a token against the text's and the
assumption, and cites the figure's source.
"""

from __future__ import annotations

from advisor.plan.data import gpu_choice_facts
from advisor.plan.result import Finding, LineCost, Source

KEY = "bigctx32.line.files"


def said(found: Finding, lc: LineCost) -> Finding:
    """``found`` (the line finding) with the files sentence after its own detail, and the figure's source."""
    facts = gpu_choice_facts()["line_bandwidth"]
    doc, text = facts["bytes_per_document_token"], facts["bytes_per_prompt_token"]
    params = {**found.params,
              "base": {"tr": found.detail_key, **found.params},
              "files": f"{lc.in_file_mbps:.2g}", "doc_low": doc["low"], "doc_high": doc["high"],
              "text_low": text["low"], "text_high": text["high"]}
    source = Source.model_validate(doc["source"])
    return found.model_copy(update={"detail_key": KEY, "params": params, "sources": [*found.sources, source],
                                    "verify": found.verify or source.needs_verify})


__all__ = ["KEY", "said"]
