"""``python -m companion.cli`` runs the ``crib`` command."""

import sys

from companion.cli import main

sys.exit(main())
