"""A public service's month of tokens from the people the answers count, when no requests a day are given (issue
25, s20-fleet20).

The peak-based month (``public_volume``) reads the peak as requests in flight all day at the load's peak-to-average
ratio. Where the answers also count the people — its ``users``, else the people a year whose personal data it
handles — that reading can be checked, and blind reviewers did: q14's patient follow-up bot for 50,000 patients a
year read as about 81,000 requests a day, "about 590 per patient per year … implausible for a follow-up bot"
(ninth review, both languages). People have conversations with a service; the month is then the people × the
conversations each has × the requests of a conversation ÷ 12.

- **Conversations a person has a year**: 2 low, 6 middle, 24 high (twice a month); **requests a conversation**
  (turns): 3, 6, 12. No public figure for these services is on file: an assumption (grade U), said as one with its
  range, and replaced by the answers' requests a day. The middle, 36 requests a person a year, is a few follow-ups
  or support chats of a few turns each; the high end, 288, a person who uses it every other week at length.
- **People**: for a service not counted at staff rates (``staff_usage.counted_by_people``), the answers' ``users``,
  else the people a year whose personal data it handles, taken as its users
  (said so: it may handle the data of people who never chat with it, or the reverse). A node of a two-node plan
  counts its share of them, as it serves its share of the peak.
- **The peak's reading is the high end**: the peak read as requests in flight, its day's average the peak ÷ the
  load's ratio (``public_volume``'s middle), with its implied requests a person a year beside it, so the range spans
  both readings. The people's figures are held to it: a service cannot be used more than its peak carries.

- **Daily use** (s37-usage39, blind review 28: q07's paid homework app and q05's consumer chat app costed at "36
  requests a person a year", which made the hosted API look 20–50× cheaper): a public chat app for general
  consumers or for study is counted per day, not per year: the share of the counted people who use it on a given
  day × the requests each of them sends that day. A paid study subscription (``charges_users``, sector education:
  homework comes every school day) 20 % / 30 % / 50 % of its yearly subscribers a day; a free one 5 % / 10 % / 20 %
  of its yearly users ("a year's users" counts anyone who used it once); 3 / 6 / 12 requests an active day. A paid
  service outside study keeps the yearly reading: it may be paid by the use, its people coming when they need it. No public figure on file either: grade U, said with its range and replaced
  by the answers' requests a day. A service people come to with a need now and then (a
  patient's follow-up, a bank's or a budgeting assistant: health, finance, other sectors) keeps the yearly reading.
  Where the daily reading passes the peak's, the peak's stands and the memo says so: the peak, or how many use it a
  day, is then worth checking.

Not where the answers count no people (the peak-based month stands), nor for a staff tool (``people_volume``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from advisor.plan.staff_usage import counted_by_people

if TYPE_CHECKING:  # the answers' resolution (context) reads the constants: no import back at run time
    from advisor.plan.context import Ctx

CONVERSATIONS_A_YEAR = (2, 6, 24)  # conversations one person has with the service a year: low, middle, high
REQUESTS_A_CONVERSATION = (3, 6, 12)  # requests (turns) in one conversation: low, middle, high
MONTHS_A_YEAR = 12
DAYS_A_YEAR = 365
# daily use (s37-usage39): the share of the counted people who use it on a given day, low / middle / high
ACTIVE_A_DAY = {"study_paid": (0.2, 0.3, 0.5), "consumer": (0.05, 0.1, 0.2)}
REQUESTS_AN_ACTIVE_DAY = (3, 6, 12)  # requests one active person sends in a day: low, middle, high
DAILY_SECTORS = frozenset({"", "general", "education", "consumer"})  # sectors whose public chat app is used daily


def daily_kind_of(audience: str, use_case: str, charges_users: bool | None, sector: str | None) -> str | None:
    """"study_paid" (a paid study subscription: pupils' homework comes every school day) or "consumer" (a free public
    chat app for general consumers or study) where the public uses it day to day; None where people come to it with a
    need now and then (health, finance, other sectors), it is no chat app, or a service outside study is paid for
    (it may be paid by the use, like q09's paid voice customer-service line: its callers call when they need to)."""
    field = (sector or "").strip().lower()
    if audience != "public" or use_case != "interactive" or field not in DAILY_SECTORS:
        return None
    if charges_users:
        return "study_paid" if field == "education" else None
    return "consumer"


def daily_kind(c: Ctx) -> str | None:
    """This plan's daily-use kind (``daily_kind_of``) from its answers."""
    ds = c.answers.data_sensitivity
    return daily_kind_of(c.audience, c.use_case, c.answers.charges_users, ds.sector if ds else None)


def per_day_ends(kind: str) -> tuple[float, float, float]:
    """(low, middle, high) requests a counted person sends a day: the share active × the requests an active day."""
    lo, mid, hi = (s * r for s, r in zip(ACTIVE_A_DAY[kind], REQUESTS_AN_ACTIVE_DAY, strict=True))
    return lo, mid, hi


def daily_params(kind: str) -> dict[str, Any]:
    """The daily assumption's figures, as the phrases say them (percent, requests)."""
    lo_s, mid_s, hi_s = (round(x * 100) for x in ACTIVE_A_DAY[kind])
    lo_r, mid_r, hi_r = REQUESTS_AN_ACTIVE_DAY
    return {"share": mid_s, "share_lo": lo_s, "share_hi": hi_s, "per_day": mid_r, "day_lo": lo_r, "day_hi": hi_r,
            "why": {"tr": f"usage39.why.{kind}"}}


def per_day_text(x: float) -> str:
    """Requests a person a day as a reader takes them: two significant figures (0.27, 1.8, 12)."""
    return f"{x:.2g}" if x < 10 else f"{x:,.0f}"


def requests_a_year(kind: str | None = None) -> tuple[float, float, float]:
    """(low, middle, high) requests one person sends a year: conversations × requests each, end by end; for daily
    use (``kind``), the requests a day × 365."""
    if kind is not None:
        lo_d, mid_d, hi_d = per_day_ends(kind)
        return lo_d * DAYS_A_YEAR, mid_d * DAYS_A_YEAR, hi_d * DAYS_A_YEAR
    lo, mid, hi = (n * r for n, r in zip(CONVERSATIONS_A_YEAR, REQUESTS_A_CONVERSATION, strict=True))
    return lo, mid, hi


def counted(c: Ctx) -> int | None:
    """The people the answers count (users, else the people a year whose personal data it handles), None if
    neither is given. Unknown stays unknown: no count is assumed here."""
    return c.answers.users or c.pi_subjects or None


def people(c: Ctx) -> int | None:
    """This plan's (or node's) people: the count, times the node's share of the answered peak on a two-node plan."""
    n = counted(c)
    if n is None or counted_by_people(c.audience, c.reach, c.use_case):  # staff rates count those (people_volume);
        # where their month passes the peak's, the peak's reading stands, not a member of the public's rate
        return None
    whole = c.answers.peak_concurrency
    share = min(1.0, c.peak / whole) if whole else 1.0
    return max(1, round(n * share))


def who(c: Ctx, n: int) -> dict[str, Any]:
    """Who the people are, as the phrase names them."""
    key = "fleet20.public.who.users" if c.answers.users else "fleet20.public.who.subjects"
    return {"tr": key, "people": f"{n:,}"}


def output_tokens(c: Ctx, persons: int, per_year: float) -> float:
    """Output tokens a month: people × requests each a year ÷ 12 × the average answer."""
    return persons * per_year / MONTHS_A_YEAR * c.output_avg


__all__ = ["ACTIVE_A_DAY", "CONVERSATIONS_A_YEAR", "DAYS_A_YEAR", "MONTHS_A_YEAR", "REQUESTS_AN_ACTIVE_DAY",
           "REQUESTS_A_CONVERSATION", "counted", "daily_kind", "daily_kind_of", "daily_params", "output_tokens",
           "people", "per_day_ends", "per_day_text", "requests_a_year", "who"]
