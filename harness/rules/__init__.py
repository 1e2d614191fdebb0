# SPDX-License-Identifier: MIT
"""The rules: the catalogue (conformance/catalogue.tsv), the rulebook the runner checks tests against, the spec text."""
