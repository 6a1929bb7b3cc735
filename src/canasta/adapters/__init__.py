"""Adapters for learning-agent frameworks.

- :mod:`canasta.adapters.pettingzoo`: a PettingZoo AEC environment
  (``pip install 'canasta[pettingzoo]'``);
- :mod:`canasta.adapters.openspiel`: an OpenSpiel Python game
  (``pip install 'canasta[openspiel]'``, Python 3.11 or later);
- :mod:`canasta.adapters.common`: the rewards and bounds both use.

Importing this package imports neither framework (nor NumPy); import the
submodule you need. The observation vectors come from :mod:`canasta.observe`.
"""

from __future__ import annotations

__all__: list[str] = []
