# SPDX-License-Identifier: MIT
# mk/export.mk -- the figures of tracedump's exports at 10 million events
# (issue 17; reference/dump/EXPORT.md).  The exports' tests run with the other
# pytest files ('make check-pytest': harness/tests/test_export_*.py,
# test_report_timeline.py); this one takes a minute and 330 MB of disk, so it
# is run by hand:
#
#   make export-measure   the trace of 'make ksp-acceptance' (KSP_ACCEPT_FLAGS),
#                         drawn by tracedump --svg: the SVG's size, the time to
#                         write it, the time rsvg-convert takes to render it;
#                         the picture in reports/export/timeline-10M.png

EXPORT_MEASURE_DIR = build/export-measure

.PHONY: export-measure

export-measure: $(KSP_TRACESIM) $(KSP_TRACEDUMP)
	@mkdir -p $(EXPORT_MEASURE_DIR) reports/export
	$(KSP_TRACESIM) $(KSP_ACCEPT_FLAGS) -q -o $(EXPORT_MEASURE_DIR)/10M.kev
	@$(KSP_TRACEDUMP) --summary $(EXPORT_MEASURE_DIR)/10M.kev | grep '^#   slots'
	time $(KSP_TRACEDUMP) --svg $(EXPORT_MEASURE_DIR)/10M.kev > $(EXPORT_MEASURE_DIR)/10M.svg
	@ls -l $(EXPORT_MEASURE_DIR)/10M.svg
	time rsvg-convert -o reports/export/timeline-10M.png $(EXPORT_MEASURE_DIR)/10M.svg
	@rm -f $(EXPORT_MEASURE_DIR)/10M.kev
