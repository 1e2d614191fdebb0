# SPDX-License-Identifier: MIT
"""Rule results and the reports: the document, text, JUnit, HTML; earlier reports, --compare, shards and --merge."""
