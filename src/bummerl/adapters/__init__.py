"""Optional bridges to research tools: PettingZoo, Gymnasium and OpenSpiel (``pip install 'bummerl[rl]'``).

Importing this package imports none of them; each module imports its library when it is imported itself:

- :mod:`bummerl.adapters.encoding`: a seat's :class:`~bummerl.view.View` as a fixed-size vector (numpy),
  and the fixed index space of the 32 actions;
- :mod:`bummerl.adapters.pettingzoo`: AEC environments for a deal and for a whole Bummerl;
- :mod:`bummerl.adapters.gymnasium`: ``BummerlVsBot-v0``, one learner against any bummerl bot;
- :mod:`bummerl.adapters.openspiel`: the game ``python_schnapsen`` registered with ``pyspiel``.
"""

from __future__ import annotations

from bummerl.errors import install_hint


def rl_missing(err: ImportError) -> ImportError:
    """The one-line error for an adapter whose library is not installed (the ``rl`` extra).

    >>> str(rl_missing(ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")))[:66]
    'pyspiel is not installed: the research adapters need the rl extra:'
    """
    return ImportError(f"{err.name or err} is not installed: the research adapters need the rl extra: "
                       f"{install_hint('rl')}")

