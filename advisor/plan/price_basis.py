"""Which price rows a plan is costed on, said in the memo (issue 25, fifth blind review: a Hong Kong bank and a
Singapore fintech costed on RunPod marketplace GPUs; a Hong Kong node on a CN2 GIA line costed on US rows with an
uplift as if that were what a Hong Kong host with that line charges).

The rows are chosen by ``advisor.plan.price_rows``; this module holds only the record and its words, so that
``result.py`` can carry it without importing the planning core.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.i18n import translate


class NotOffered(BaseModel):
    """A provider's GPU instance not sold in the plan's region, whose row elsewhere stands in there (s24-prices24)."""

    model_config = ConfigDict(extra="forbid")

    provider: str
    instance: str
    gpu_name: str
    region: str
    url: str = ""
    date: str = ""
    grade: str = "U"


class PriceBasis(BaseModel):
    model_config = ConfigDict(extra="forbid")

    marketplace_left_out: list[str] = Field(
        default_factory=list, description="ids of GPU-marketplace rows (hosts of many owners) not used for this plan")
    offers: dict[str, list[str]] = Field(default_factory=dict, description="those offers' short names, by language")
    why: Literal["sector", "sensitive", "personal"] | None = Field(
        None, description="sector: a regulated sector (finance, health); sensitive: the data is marked high or holds "
        "sensitive personal information; personal: the prompts carry personal information (s18-rows)")
    sector: str = ""
    proxy_line: str | None = Field(None, description="cn2_gia | three_network: the GPU rows stand in for a host that "
                                   "sells that line in the region (no sourced row of such a host)")
    proxy_region: str | None = None
    # s18-rows: a node in a region with no sourced row of its own, priced from another region's rows (named by offer)
    # times the region's uplift: the figure is a stand-in, and a data centre's quote there comes first
    stand_in_region: str | None = Field(None, description="the region whose GPU price is another region's rows "
                                        "times its uplift (no sourced row of a data centre there)")
    stand_in_offers: dict[str, list[str]] = Field(default_factory=dict, description="the offers standing in, by "
                                                  "language")
    stand_in_marketplace: bool = Field(False, description="the rows standing in are a GPU marketplace's")
    # s20-consist20: a row that is a per-GPU share of an instance sold only whole (AWS's 8 × H200/A100 in Tokyo and
    # Singapore) while the plan rents fewer of that GPU: the 1-GPU VMs it prices are not on sale from that provider
    share_offers: dict[str, list[str]] = Field(default_factory=dict, description="offers sold only as a whole "
                                               "instance whose per-GPU share prices fewer GPUs, by language")
    share_instance_gpus: int | None = Field(None, description="GPUs of that whole instance")
    share_gpus: int | None = Field(None, description="GPUs of that part the plan rents (fewer than the instance)")
    # s22-premium22: the line bought apart has a sourced price and page 1's total includes it
    line_in_total: bool = Field(False, description="the premium line is priced and in the monthly total")
    # s24-prices24 (round 13, q25/q37): the stand-in row's provider sells no such instance in the region (AWS g6e is
    # not offered in Hong Kong or Singapore): the figure is no price of that provider there
    not_offered: list[NotOffered] = Field(default_factory=list, description="stand-in rows whose provider sells no "
                                          "such instance in the plan's region")

    @property
    def stand_in(self) -> bool:
        """The GPU price is no price of a host in the node's region (a premium line's host, or any data centre)."""
        return self.proxy_line is not None or self.stand_in_region is not None

    @property
    def stand_in_where(self) -> str | None:
        """The region whose price the stand-in takes the place of."""
        return self.proxy_region if self.proxy_line is not None else self.stand_in_region

    def text_in(self, lang: str, *, quote_asked: bool = False) -> str:
        """``quote_asked``: the memo's next steps already ask the region's hosts for a quote (``price_rows
        .quote_steps``), so the stand-in is named without asking again (s22-pages22: q13 asked three times)."""
        out = []
        asked = "pages22.basis." if quote_asked else "rows18.basis."
        if self.marketplace_left_out:
            offers = self.offers.get(lang) or self.offers.get("en") or self.marketplace_left_out
            why = translate(lang, f"prices16.basis.why.{self.why or 'sensitive'}")
            out.append(translate(lang, "prices16.basis.no_marketplace", why=why,
                                 offers=translate(lang, "memo.list_sep").join(offers)))
        names = self.stand_in_offers.get(lang) or self.stand_in_offers.get("en") or []
        kind = translate(lang, "rows18.basis.kind." + ("marketplace" if self.stand_in_marketplace else "cloud"))
        stand_in = {"offers": translate(lang, "memo.list_sep").join(names), "kind": kind}
        if self.proxy_line and self.proxy_region:
            where = {"region": translate(lang, f"plan.region.{self.proxy_region}"),
                     "line": translate(lang, f"prices16.line.{self.proxy_line}")}
            # the offers standing in are named where they are another region's (a local row stands in for the line)
            # the short form leaves the quote to the next step that asks it (issue #25: q13's fallback on
            # Singapore's own L4 rows asked it here and in a next step)
            out.append(translate(lang, asked + "proxy", **where, **stand_in) if names
                       else translate(lang, "sgp41.basis.proxy_local" if quote_asked else "prices16.basis.proxy",
                                      **where))
            if not names:
                # the region's own cloud GPUs can serve the plan with the line bought apart (s20-gpu20, ninth blind
                # review q13: "GCP Singapore prices stand in although GCP cannot deliver a CN2 GIA/9929/CMIN2 line");
                # another region's rows times an uplift are no GPUs to rent there, so not said for them
                out.append(translate(lang, "premium22.basis.line_apart_priced" if self.line_in_total
                                     else "gpu20.basis.line_apart", **where))
        elif self.stand_in_region and names:
            out.append(translate(lang, asked + "stand_in", **stand_in,
                                 region=translate(lang, f"plan.region.{self.stand_in_region}")))
        for n in self.not_offered:
            out.append(translate(lang, "prices24.basis.not_offered", provider=n.provider, instance=n.instance,
                                 gpu=n.gpu_name, region=translate(lang, f"plan.region.{n.region}"), date=n.date,
                                 grade=n.grade))  # fmt: skip
        if self.share_instance_gpus and self.share_gpus:
            offers = self.share_offers.get(lang) or self.share_offers.get("en") or []
            out.append(translate(lang, "consist20.basis.per_gpu_share", offers=translate(lang, "memo.list_sep").join(
                offers), whole=self.share_instance_gpus, n=self.share_gpus))
        # Chinese sentences end on "。" and run on without a space (q34's row read "…价格。 AWS 在…")
        return ("" if lang == "zh_CN" else " ").join(out)


__all__ = ["NotOffered", "PriceBasis"]
