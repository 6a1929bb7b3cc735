"""CPU time of a block of code, without the collector's pauses over the rest of the test run.

The hostile-input tests bound the CPU time of a refusal (a hang or a blow-up
takes far longer). In one process that has run thousands of tests, the heap
holds millions of objects; a full collection that happens to fall inside the
timed block scans all of them and can take seconds (a newcomer's single-process
run of the whole suite took 2.1 CPU s for a refusal that takes milliseconds).
:func:`cpu_clock` freezes the objects that exist before the block
(:func:`gc.freeze`), so a collection inside it scans only what the code under
test allocates: its own collections still count, the rest of the run's do not.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def cpu_clock() -> Iterator[Callable[[], float]]:
    """Yield a function returning the CPU seconds since the block began (see the module)."""
    gc.freeze()
    start = time.process_time()
    try:
        yield lambda: time.process_time() - start
    finally:
        gc.unfreeze()
