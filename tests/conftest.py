"""Shared test configuration.

Property tests explore new random examples on every local run; under CI (``CI`` set, as the
CI runner does) they use a fixed derandomized seed, so a landing never depends on luck. A
failure found locally is kept as a regression test next to the module's other tests.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
