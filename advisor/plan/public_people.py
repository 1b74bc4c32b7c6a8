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


def requests_a_year() -> tuple[int, int, int]:
    """(low, middle, high) requests one person sends a year: conversations × requests each, end by end."""
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


__all__ = ["CONVERSATIONS_A_YEAR", "MONTHS_A_YEAR", "REQUESTS_A_CONVERSATION", "counted", "output_tokens",
           "people", "requests_a_year", "who"]
