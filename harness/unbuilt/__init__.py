# SPDX-License-Identifier: MIT
"""What the runner reads from the sources when a program did not build: tests, vectors, options."""
