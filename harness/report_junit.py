"""reports/junit.xml: one testcase per test, for CI systems.

FAIL is a <failure>, UNRESOLVED an <error>, UNSUPPORTED and UNTESTED are
<skipped>; the test's output goes in <system-out>.  Test suites are the test
executables; a testcase's classname is its executable.
"""

import re
import xml.etree.ElementTree as ET

from results import spec_note

# Characters XML 1.0 cannot hold, even escaped.
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text):
    return _BAD_XML.sub("?", text or "")


def write(doc, path):
    suites = {}
    for t in doc["tests"]:
        suites.setdefault(t["executable"], []).append(t)
    root = ET.Element("testsuites", {
        "name": "posixtrace conformance: " + _clean(doc["implementation"]["name"]),
        "tests": str(len(doc["tests"])),
        "failures": str(sum(t["result"] == "FAIL" for t in doc["tests"])),
        "errors": str(sum(t["result"] == "UNRESOLVED" for t in doc["tests"])),
        "skipped": str(sum(t["result"] in ("UNSUPPORTED", "UNTESTED") for t in doc["tests"])),
        "time": "%.3f" % doc["summary"]["duration_s"],
    })
    for name in sorted(suites):
        tests = suites[name]
        suite = ET.SubElement(root, "testsuite", {
            "name": _clean(name), "tests": str(len(tests)),
            "failures": str(sum(t["result"] == "FAIL" for t in tests)),
            "errors": str(sum(t["result"] == "UNRESOLVED" for t in tests)),
            "skipped": str(sum(t["result"] in ("UNSUPPORTED", "UNTESTED") for t in tests)),
            "time": "%.3f" % (sum(t["duration_ms"] for t in tests) / 1000.0),
        })
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", {"name": "specification",
                                          "value": _clean(spec_note(doc))})
        # The run's warnings (a program or the profile that did not build, ...).
        for w in doc["summary"].get("warnings", []):
            ET.SubElement(props, "property", {"name": "warning", "value": _clean(w)})
        for t in tests:
            case = ET.SubElement(suite, "testcase", {
                "name": _clean(t["id"]), "classname": _clean(name),
                "time": "%.3f" % (t["duration_ms"] / 1000.0),
            })
            ET.SubElement(case, "properties")
            props = case.find("properties")
            for r in t["rules"]:
                ET.SubElement(props, "property", {"name": "rule", "value": _clean(r)})
            msg = _clean("%s: %s" % (t["result"], t["message"]))
            if t["result"] == "FAIL":
                el = ET.SubElement(case, "failure", {"message": msg, "type": "FAIL"})
                el.text = _clean(t["message"])
            elif t["result"] == "UNRESOLVED":
                el = ET.SubElement(case, "error", {"message": msg, "type": "UNRESOLVED"})
                el.text = _clean(t["message"])
            elif t["result"] in ("UNSUPPORTED", "UNTESTED"):
                ET.SubElement(case, "skipped", {"message": msg})
            if t.get("output"):
                out = ET.SubElement(case, "system-out")
                out.text = _clean(t["output"])
    tree = ET.ElementTree(root)
    if hasattr(ET, "indent"):
        ET.indent(tree)
    with open(path, "wb") as f:
        tree.write(f, encoding="utf-8", xml_declaration=True)
