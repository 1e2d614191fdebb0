# SPDX-License-Identifier: MIT
"""Tools that rewrite committed files from the reference: the vectors' annotations, the time-limit table."""
