# SPDX-License-Identifier: MIT
"""The runner's base: the test protocol, the target (test wrapper), the time limits."""
