"""How much a staff tool's people use it, when the answers give no requests a day (s18-volume): an assumption, not
a sourced figure, said as one with its range wherever the month's tokens rest on it; the answers' requests a day
replace it. Its own module so the answers' resolution (``context``) and the volume (``people_volume``) read the
same figures without importing each other.
"""

from __future__ import annotations

WORKING_DAYS = 22  # working days a month, as volume_range.OFFICE_HOURS counts them
# requests one person sends the tool a working day: low, expected (costed), high
REQUESTS_PER_PERSON = (10, 20, 40)

__all__ = ["REQUESTS_PER_PERSON", "WORKING_DAYS"]
