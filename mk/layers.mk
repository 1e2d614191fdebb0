# SPDX-License-Identifier: MIT
# mk/layers.mk -- the include layering of the C code (maint/README.md):
# maint/layers.py checks every #include against maint/layers.tsv, the table of
# which folder may include which, and finds include cycles between units.
#
#   make check-layers        the check and the tests of the checker (make check)
#   make layers-stats        the figures: files per folder, arrows, cycles

.PHONY: check-layers layers-stats
check-layers:
	$(PYTHON) maint/layers.py
	$(PYTHON) -m pytest -q maint/tests
layers-stats:
	$(PYTHON) maint/layers.py --stats

CHECK_EXTRA += check-layers
