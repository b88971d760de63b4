"""Settings shared by every test folder.

Hypothesis runs a fixed, derandomised set of examples under CI (``CI`` set, as ``.ci/run``
is called), so a red CI always means a reproducible failure; on a developer's machine it
explores new examples each run and keeps failures in ``.hypothesis/``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
