"""What marks a mail in a logbook, for the segmenter and for the unfolding of printed text."""

from __future__ import annotations

import re

# a mail header's fields (a handover template's "Summary:", "Action:" are its body)
MAIL_FIELDS = frozenset({"from", "to", "cc", "bcc", "date", "sent", "subject", "reply-to",
                         "message-id", "in-reply-to", "references", "list-id", "organization"})
# an mbox's line over each mail's header block: its sender (or "-") and a ctime stamp ("From
# jdoe@example.org Thu Mar 14 09:12:00 2024"; a body's ">From" is quoted, "From: ..." a field)
MBOX_SEPARATOR = re.compile(r"From \S+\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b.*\d:[0-5]\d:[0-5]\d\b")
