"""Experiments run by the server: games of house rules against their base, in the background.

Each runs :func:`canasta.play.experiment.experiment` in a thread of its own;
its progress is read as games finish. At most ``max_running`` run at once and
each plays at most ``max_games`` games per variant. Results are kept in memory
(the most recent ``keep``); plots are drawn when matplotlib is installed.
"""

from __future__ import annotations

import secrets
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta import CanastaError, Variant
from canasta.play.experiment import Experiment, experiment
from canasta.play.report import plots_available
from canasta.web.tables import ApiError

__all__ = ["Experiments", "Run", "plots_available"]


@dataclass
class Run:
    """One experiment: what was asked and how far it got.

    Attributes:
        id: its id.
        names: the variants' names, the base first.
        games: games asked for per variant.
        done: games played so far.
        status: ``"running"``, ``"done"`` or ``"failed"``.
        error: why it failed.
        result: the experiment, once done.
        plots: plot file name -> PNG bytes, once done (empty without matplotlib).
    """

    id: str
    names: tuple[str, ...]
    games: int
    done: int = 0
    status: str = "running"
    error: str = ""
    result: Experiment | None = None
    plots: dict[str, bytes] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """As the API answers it: progress, and the result once done."""
        out: dict[str, Any] = {
            "id": self.id, "variants": list(self.names), "games": self.games, "done": self.done,
            "status": self.status, "error": self.error or None,
            "plots": sorted(self.plots), "plots_available": plots_available(),
        }
        if self.result is not None:
            out["result"] = self.result.to_dict()
            out["table"] = str(self.result)
        return out


class Experiments:
    """The server's experiments.

    Args:
        scratch: a folder for the plots while they are drawn (in the data folder).
        max_running: most experiments running at once.
        max_games: most games per variant.
        keep: results kept (the oldest finished ones are forgotten).
    """

    def __init__(self, scratch: Path, max_running: int = 2, max_games: int = 200, keep: int = 20) -> None:
        self.scratch = scratch
        self.max_running = max_running
        self.max_games = max_games
        self.keep = keep
        self._runs: dict[str, Run] = {}
        self._lock = threading.Lock()

    def start(self, variants: list[Variant], games: int, seed: int = 0) -> Run:
        """Start playing ``games`` games of each variant (the first is the base).

        Raises:
            ApiError: a bad number of games, or too many experiments running.
        """
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= self.max_games:
            raise ApiError(400, f"games: expected a whole number from 1 to {self.max_games}")
        with self._lock:
            if sum(r.status == "running" for r in self._runs.values()) >= self.max_running:
                raise ApiError(429, f"{self.max_running} experiments are running, the most this server runs at once")
            run = Run(secrets.token_hex(8), tuple(v.name for v in variants), games)
            self._runs[run.id] = run
            finished = [k for k, r in self._runs.items() if r.status != "running"]
            for k in finished[: max(0, len(self._runs) - self.keep)]:
                del self._runs[k]
        thread = threading.Thread(target=self._play, args=(run, variants, seed), daemon=True,
                                  name=f"experiment-{run.id}")
        thread.start()
        return run

    def get(self, run_id: str) -> Run | None:
        """The experiment with this id, if kept."""
        with self._lock:
            return self._runs.get(run_id)

    def _play(self, run: Run, variants: list[Variant], seed: int) -> None:
        def progress(done: int, games: int) -> None:
            run.done = done

        try:
            result = experiment(variants, run.games, ("greedy", "greedy"), seed=seed, progress=progress)
            run.plots = _plots(result, self.scratch / run.id)
            run.result = result
            run.status = "done"
        except CanastaError as exc:
            run.error, run.status = str(exc), "failed"
        except Exception as exc:  # a bug must not kill the server quietly: the client is told
            run.error, run.status = f"internal error: {type(exc).__name__}: {exc}", "failed"


def _plots(result: Experiment, folder: Path) -> dict[str, bytes]:
    """The report's plots as PNG bytes, or none without matplotlib (drawn in ``folder``,
    which is removed after)."""
    if not plots_available():
        return {}
    from canasta.play.report import PLOTS, write_report

    try:
        write_report(result, folder)
        return {name: (folder / name).read_bytes() for name in PLOTS if (folder / name).is_file()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
