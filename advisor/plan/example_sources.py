"""Sources whose subject is one GPU (public 8 × H100 break-even, TCO and node-power figures) cited as what they are
on a plan of another GPU (issue 25, fourteenth blind review; s25-dates25).

The cost findings cite the break-even method with its worked 8 × H100 figures ("8×H100 ≈ $2.14/GPU-h owned … u* ≈
53–80 %") and the 8 × H100 three-year TCO. On an L20 or A10 plan a reader took those figures for the plan's own
("the 8 × H100 break-even source cited for L20/A10 plans"). The method is general and the plan computes its own
break-even from its own prices, so the source stays, titled as a public H100 example, not the reader's GPU; on an
H100 plan it is cited as it is. The example titles and their Chinese forms are in ``source_titles_zh.json``
(tests/core/test_dates25.py checks each has one).
"""

from __future__ import annotations

from advisor.plan.result import Finding, Source

SUBJECT_GPU = "h100"  # the catalog ids' family the titles below are about (h100-sxm-80g, h100-pcie-80g, …)
# titles whose figures are of 8 × H100 alone (the purchase source names the other GPUs' rows itself: not listed)
H100_TITLES = (
    "Break-even: owned cost per GPU-hour ÷ cloud price; 8×H100 ≈ $2.14/GPU-h owned at 100% use → u* ≈ 53–80% vs "
    "$4.0–2.69 (derived from public purchase, power and colocation prices: v2-pseo-ai TCO tool, technolynx)",
    "3-year TCO 8×H100 $450k–$650k; break-even 14–18 months at high utilisation (v2-pseo-ai, technolynx)",
    "Node power 10.2 kW per 8×H100 node (server factor 1.6–1.9 × GPU TDP); power $0.06–0.12/kWh (v2-pseo-ai TCO tool)",
)
PREFIX = "A public 8×H100 example, not your GPU: "
# s33-rows34 (blind review 23, q01/q02/q17: "sources about 8×H100 power and prices have nothing to do with this plan"):
# of a source that mixes 8 × H100 figures with ones every plan uses, a plan of another GPU cites only the part whose
# figures it uses, titled by that use: the power price per kWh and the server factor over the GPUs' TDP (the power
# row's inputs), the purchase price rows (the purchase's). The break-even and TCO sources stay labelled examples.
PURCHASE_TITLE = ("Purchase: 8×H100 SXM node ~$300k–$400k; China anchors A100 card ~¥100k, H100 > ¥150k; technolynx "
                  "2026-05, kufanyun.com; other GPUs: the built-in purchase price rows listed under prices, most of "
                  "them placeholders")
PLAN_USE = {
    H100_TITLES[2]: "Power inputs the power row uses: $0.06–0.12/kWh and a server's draw at 1.6–1.9 × its GPUs' TDP "
                    "(v2-pseo-ai TCO tool, worked there on an 8×H100 node)",
    PURCHASE_TITLE: "Purchase prices the plan uses: the built-in purchase price rows listed under prices, most of them "
                    "placeholders (technolynx 2026-05, kufanyun.com)",
}


def example_title(title: str) -> str:
    """``title`` on a plan of another GPU: the part it uses where the source mixes in 8 × H100 figures, prefixed as an
    example where its figures are all 8 × H100's, else unchanged."""
    if title in PLAN_USE:
        return PLAN_USE[title]
    return PREFIX + title if title in H100_TITLES else title


def as_examples(findings: list[Finding], gpu_id: str | None) -> list[Finding]:
    """``findings`` with each H100 source retitled as an example where the plan's GPU is not an H100 (or it has none:
    a hosted API's); unchanged on an H100 plan."""
    if gpu_id is not None and gpu_id.lower().startswith(SUBJECT_GPU):
        return findings
    out = []
    for x in findings:
        if not any(s.title in H100_TITLES or s.title in PLAN_USE for s in x.sources):
            out.append(x)
            continue
        sources = [Source(title=example_title(s.title), url=s.url, date=s.date, grade=s.grade) for s in x.sources]
        out.append(x.model_copy(update={"sources": sources}))
    return out
