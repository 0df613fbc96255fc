"""What :mod:`bummerl.search.core` needs of the ``cython`` module when Cython is not installed.

>>> compiled
False
>>> with nogil:
...     pass
"""

from __future__ import annotations

import contextlib

__all__ = ["compiled", "gil", "nogil"]

#: The module runs as plain Python.
compiled = False
#: Releasing and taking the GIL mean nothing in plain Python.
nogil = gil = contextlib.nullcontext()
