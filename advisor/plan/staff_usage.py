"""How much a staff tool's people use it, when the answers give no requests a day (s18-volume): assumptions, not
counts, said as such with their ranges wherever the month's tokens rest on them; the answers' requests a day
replace them. Its own module so the answers' resolution (``context``) and the volume (``people_volume``) read the
same figures without importing each other.

- **Requests a person sends a working day** (office staff): no public figure for a staff tool is on file, so an
  assumption: 10 low, 20 expected, 40 high.
- **A contact centre's agents** (s19-volume19, q41: "a call centre's agents use the tool all day"): one request a
  contact handled (a drafted reply), so an agent's requests are the contacts of a shift — shift minutes × occupancy
  ÷ average handle time. Six minutes is "long considered the industry standard" for handle time
  (invoca.com/uk/blog/aht-contact-center-impact), 4–8 minutes for an insurer's service calls
  (agenttech.io/glossary/average-handle-time); occupancy averages 70.6 %, 48–87 % over 494 centres
  (opsdog.com/products/occupancy-rate); all grade C. An 8-hour shift gives 29 (48 %, 8 min), 56 (70.6 %, 6 min) and
  104 (87 %, 4 min) a working day — more where agents ask for several drafts a contact.
- **People from the peak** (s19-volume19, q38: "15 concurrent read as 15 people"): with no head count the people
  are the peak ÷ the share of them using it at once. Performance-testing field notes put the people working in a
  system at once at 15–25 % of those who use it (25 % in one time zone, 15 % across time zones; a performance
  engineer's field notes on IBM's lifecycle tools, ratlperfland.com/field-notes-measuring-capacity-users-and-rates,
  grade C): the peak × 4 to × 6.7. Read as requests in flight (the glossary's concurrency), the peak means more
  people still. No answer tells the two readings apart, so with no head count the month's range spans both
  (s19-volume19b): its low end and middle from these people, its high end the peak in flight through the working
  hours (``people_volume.in_flight``); the memo says so and asks for the people (``users``), which narrow it.
"""

from __future__ import annotations

WORKING_DAYS = 22  # working days a month, as volume_range.OFFICE_HOURS counts them
# every day of a month (volume_range.HOURS_PER_MONTH / 24 = 30.42), as the busiest-hour floor counts a steady load's
# days (``volume_peak.run_days``), to the tenth the memo prints so that its product multiplies out as printed
EVERY_DAY = 30.4


def days_a_month(load: str) -> float:
    """Days a month the people send their requests: every day where the answers say the load is steady around the
    clock, else the working days (blind review 22, q08: "monthly usage is estimated on 22 working days although the
    load is '全天稳定'")."""
    return EVERY_DAY if load == "stable" else float(WORKING_DAYS)


def day_words(load: str) -> dict[str, str]:
    """The per-person rate's day as the memo says it: "a day" for a steady load, else "a working day"."""
    return {"tr": "fleetword33.day.every" if load == "stable" else "fleetword33.day.working"}


def days_unit(load: str) -> dict[str, str]:
    """The month's days as the memo counts them: "days" for a steady load, else "working days"."""
    return {"tr": "fleetword33.days_unit.every" if load == "stable" else "fleetword33.days_unit.working"}


def days_text(load: str) -> str:
    """``days_a_month`` as printed: 22, 30.4."""
    return f"{days_a_month(load):.1f}".rstrip("0").rstrip(".")
# requests one person sends the tool a working day: low, expected (costed), high
REQUESTS_PER_PERSON = (10, 20, 40)

# a contact centre (usage_kind "contact_centre"): one request a contact, an 8-hour shift
SHIFT_MINUTES = 8 * 60
HANDLE_MINUTES = (8.0, 6.0, 4.0)  # average handle time: long (few contacts), typical, short (many)
OCCUPANCY = (0.48, 0.706, 0.87)  # share of a logged-in agent's time on contacts: low, average, high


def _per_shift(occupancy: float, handle_minutes: float) -> int:
    return round(SHIFT_MINUTES * occupancy / handle_minutes)


REQUESTS_PER_AGENT = tuple(_per_shift(o, m) for o, m in zip(OCCUPANCY, HANDLE_MINUTES, strict=True))

# the share of a staff tool's people using it at once at the peak: low, middle, high (people = peak ÷ share)
ACTIVE_AT_ONCE = (0.15, 0.20, 0.25)


def requests_per_person(usage_kind: str | None) -> tuple[int, int, int]:
    """(low, expected, high) requests a person sends a working day for the answers' kind of use."""
    return REQUESTS_PER_AGENT if usage_kind == "contact_centre" else REQUESTS_PER_PERSON  # type: ignore[return-value]


def counted_by_people(audience: str, reach: str, use_case: str) -> bool:
    """A service whose month is its people's requests: staff (or anything reached only on a LAN or private
    network), or business customers' staff at an interactive tool (s19-volume19, q10: eight people at once at a
    consultancy's document assistant read as a public service busy around the clock, 18.6 billion input tokens a
    month). An API for business callers (machines, not people) is counted from its peak like a public service."""
    if audience == "internal" or reach in ("lan", "private_network"):
        return True
    return audience == "business" and use_case == "interactive"


def people_from_peak(peak: int) -> tuple[int, int, int]:
    """(fewest, middle, most) people behind a peak of ``peak`` at once: the peak ÷ the share at once."""
    most, middle, fewest = (max(peak, round(peak / s)) for s in ACTIVE_AT_ONCE)
    return fewest, middle, most


__all__ = ["ACTIVE_AT_ONCE", "EVERY_DAY", "day_words", "days_a_month", "days_text", "days_unit", "HANDLE_MINUTES", "OCCUPANCY", "REQUESTS_PER_AGENT", "REQUESTS_PER_PERSON",
           "SHIFT_MINUTES", "WORKING_DAYS", "counted_by_people", "people_from_peak", "requests_per_person"]
