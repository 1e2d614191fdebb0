# SPDX-License-Identifier: MIT
"""Reading an earlier report (reports/conformance.json) back: for --compare,
--rerun-failed and --merge."""

import json


class ReportError(Exception):
    """The file is not there, not JSON, or not a conformance report."""


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise ReportError("cannot read the report %s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise ReportError("%s is not a JSON report: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list) \
            or not isinstance(doc.get("tests"), list):
        raise ReportError("%s is not a conformance report (no rules and tests)" % path)
    return doc
