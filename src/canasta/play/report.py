"""The report of an experiment: plots (matplotlib) and a static HTML page.

:func:`write_report` writes, into one directory, ``index.html`` (the table of
measures, the method, the plots), the plots as PNG files and
``experiment.json`` (:meth:`~canasta.play.experiment.Experiment.to_dict`). The
page needs no server and no script: open it in a browser.

Plotting needs the optional ``canasta[plot]`` extra (matplotlib). It draws on
matplotlib's :class:`~matplotlib.figure.Figure` directly, without ``pyplot``,
so it needs no display and changes no global state of a program that imports it.
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from canasta.errors import CanastaError
from canasta.play.experiment import Experiment, Measure, number_text
from canasta.play.simulate import output_dir, wilson

__all__ = [
    "NEAR_ZERO",
    "NO_PLOTS",
    "PLOTS",
    "plot_differences",
    "plot_hand_lengths",
    "plot_hand_scores",
    "plot_win_rates",
    "plots_available",
    "split_differences",
    "write_report",
]

#: The plot files :func:`write_report` writes, with their captions.
PLOTS: dict[str, str] = {
    "hand-length.png": "Distribution of hand length in turns, per variant",
    "hand-score.png": "Distribution of a side's score per hand, per variant",
    "differences.png": "Each measure's paired difference with the baseline, with its 95% "
                       "interval: counts and points in % of the baseline's value (those whose "
                       "baseline value is near zero are in the table only), shares and win "
                       "rates in percentage points",
    "win-rate.png": "Side 0's cumulative win rate as games accrue, with its 95% Wilson band",
}


def _figure(width: float = 7.0, height: float = 4.0) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CanastaError("plots need matplotlib: pip install 'canasta[plot]'") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _histogram(path: Path, data: Sequence[Sequence[int]], labels: Sequence[str], xlabel: str) -> Path:
    fig = _figure()
    ax = fig.add_subplot()
    values = [x for d in data for x in d]
    if values:
        low, high = min(values), max(values)
        # bins of a whole number of units, at most 60: integer data in bins of
        # uneven width would draw a comb
        width = max(1, math.ceil((high - low + 1) / 60))
        edges = list(range(low, high + width + 1, width))
        for d, label in zip(data, labels, strict=True):
            ax.hist(d, bins=edges, histtype="step", linewidth=1.6, density=True,
                    label=f"{label} (mean over hands {sum(d) / max(1, len(d)):.1f})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of hands per unit")
    ax.legend()
    fig.savefig(path)
    return path


def plot_hand_lengths(e: Experiment, path: str | os.PathLike[str]) -> Path:
    """Plot each variant's distribution of hand length in turns to ``path`` (PNG or SVG)."""
    return _histogram(Path(path), e.hand_turns, e.variants, "hand length (turns)")


def plot_hand_scores(e: Experiment, path: str | os.PathLike[str]) -> Path:
    """Plot each variant's distribution of a side's score per hand to ``path``."""
    return _histogram(Path(path), e.hand_scores, e.variants, "a side's score in a hand")


#: A baseline value under this share of the largest variant's value (in size)
#: counts as near zero: a difference in % of it would dwarf every other one.
NEAR_ZERO = 0.25


def split_differences(e: Experiment) -> tuple[list[Measure], list[Measure], list[Measure]]:
    """The measures of :func:`plot_differences`' two panels, and those it leaves out.

    Returns:
        ``(points, relative, left_out)``: the shares and win rates, whose
        differences are in percentage points; the other measures whose
        baseline value is not near zero, in % of it; and the other measures
        whose baseline is near zero (0, or under :data:`NEAR_ZERO` of the
        largest variant's value), which only the table shows.
    """
    points = [m for m in e.measures if m.percent]
    relative: list[Measure] = []
    left_out: list[Measure] = []
    for m in e.measures:
        if m.percent:
            continue
        base, largest = abs(m.values[0].mean), max(abs(v.mean) for v in m.values)
        (relative if base > 0 and base >= NEAR_ZERO * largest else left_out).append(m)
    return points, relative, left_out


def _difference_panel(ax: Any, e: Experiment, rows: Sequence[Measure], relative: bool) -> None:
    """Draw ``rows``' differences on ``ax``: in % of the baseline or in percentage points."""
    others = len(e.variants) - 1
    step = 0.8 / max(1, others)
    for j in range(others):
        ys, xs, lo, hi = [], [], [], []
        for i, m in enumerate(rows):
            scale = 100 / abs(m.values[0].mean) if relative else 100
            d = m.differences[j]
            ys.append(i + (j - (others - 1) / 2) * step)
            xs.append(scale * d.mean)
            lo.append(scale * (d.mean - d.low))
            hi.append(scale * (d.high - d.mean))
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=3,
                    label=f"{e.variants[j + 1]} - {e.variants[0]}")
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(rows)), [m.name for m in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"difference, % of {e.variants[0]}'s value" if relative
                  else "difference, percentage points")
    ax.legend(fontsize=8)


def plot_differences(e: Experiment, path: str | os.PathLike[str]) -> Path:
    """Plot each measure's paired difference with the baseline, with its 95% interval.

    Two panels (see :func:`split_differences`): counts and points in % of the
    baseline's value, and shares and win rates in percentage points. A count
    whose baseline value is near zero has no useful relative difference (a
    rule the baseline hardly uses would show as +200% [-50%, +470%] and
    squash every other effect): it is left out, named under the plot, and
    shown in the table.
    """
    points, relative, left_out = split_differences(e)
    panels = [(rows, rel) for rows, rel in ((relative, True), (points, False)) if rows]
    per_row = 0.28 * max(1, len(e.variants) - 1)
    heights = [max(1, len(rows)) for rows, _ in panels] or [1]
    fig = _figure(7.5, 1.6 + per_row * sum(heights) + 0.6 * len(panels))
    axes = fig.subplots(len(panels) or 1, 1, squeeze=False, height_ratios=heights)[:, 0]
    for ax, (rows, rel) in zip(axes, panels, strict=False):
        _difference_panel(ax, e, rows, rel)
    if left_out:
        names = ", ".join(m.name for m in left_out)
        fig.supxlabel(f"not shown, the baseline's value near zero (see the table): {names}",
                      fontsize=7, wrap=True)
    fig.savefig(path)
    return Path(path)


def plot_win_rates(e: Experiment, path: str | os.PathLike[str], side: int = 0) -> Path:
    """Plot ``side``'s cumulative win rate under each variant as games accrue."""
    fig = _figure()
    ax = fig.add_subplot()
    for name, winners in zip(e.variants, e.side_wins, strict=True):
        wins = 0
        xs, ys, lows, highs = [], [], [], []
        for n, w in enumerate(winners, 1):
            wins += w == side
            low, high = wilson(wins, n)
            xs.append(n)
            ys.append(wins / n)
            lows.append(low)
            highs.append(high)
        (line,) = ax.plot(xs, ys, label=name)
        ax.fill_between(xs, lows, highs, alpha=0.2, color=line.get_color())
    ax.set_xscale("log" if e.games >= 100 else "linear")
    ax.set_ylim(0, 1)
    ax.set_xlabel("games played")
    ax.set_ylabel(f"side {side} ({e.side_bots(side)}) win rate")
    ax.legend()
    fig.savefig(path)
    return Path(path)


def _cell(x: float, percent: bool, signed: bool = False) -> str:
    if math.isnan(x):
        return ""
    return number_text(100 * x if percent else x, signed)


def _table(e: Experiment) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(v)}</th>" for v in e.variants)
    head += "".join(f"<th>{esc(v)} &minus; {esc(e.variants[0])} [95% CI]</th>" for v in e.variants[1:])
    rows = []
    for m in e.measures:
        cells = "".join(
            f"<td>{_cell(v.mean, m.percent)}{'%' if m.percent else ''}</td>" for v in m.values
        )
        for d in m.differences:
            mark = ' class="sig"' if d.significant else ""
            cells += (f"<td{mark}>{_cell(d.mean, m.percent, True)} "
                      f"[{_cell(d.low, m.percent, True)}, {_cell(d.high, m.percent, True)}]</td>")
        rows.append(f"<tr><th>{esc(m.name)}</th>{cells}</tr>")
    return f"<table>\n<tr><th>measure</th>{head}</tr>\n" + "\n".join(rows) + "\n</table>"


_STYLE = """body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}
th:first-child{text-align:left}.sig{font-weight:bold;background:#eef}
figure{margin:1.5em 0}img{max-width:100%}"""


def plots_available() -> bool:
    """Whether plots can be drawn: matplotlib (the ``canasta[plot]`` extra) imports."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        return False
    return True


#: What the page says in place of the plots when they are not drawn.
NO_PLOTS = "No plots: they need matplotlib (pip install 'canasta[plot]')."


def write_report(e: Experiment, directory: str | os.PathLike[str], plots: bool = True) -> Path:
    """Write the report of ``e`` into ``directory`` (made if missing).

    Args:
        e: the experiment.
        directory: where ``index.html``, the plots and ``experiment.json`` go.
        plots: draw the plots (they need matplotlib); ``False`` writes the
            page and the numbers without them, saying so (see ``plots_available``).

    Returns:
        The path of ``index.html``.

    Raises:
        CanastaError: ``plots`` is true and matplotlib is not installed (nothing
            is written then), or ``directory`` is not a directory and cannot be made.
    """
    if plots and not plots_available():
        raise CanastaError("plots need matplotlib: pip install 'canasta[plot]', or write the report with plots=False")
    out = output_dir(directory, "the report")
    drawn = plots and e.games > 0  # an experiment stopped before its first game has nothing to plot
    if drawn:
        plot_hand_lengths(e, out / "hand-length.png")
        plot_hand_scores(e, out / "hand-score.png")
        plot_differences(e, out / "differences.png")
        plot_win_rates(e, out / "win-rate.png")
    (out / "experiment.json").write_text(e.to_json() + "\n", encoding="utf-8")
    esc = html.escape
    title = f"{' vs '.join(e.variants)}: {e.games} games each"
    seats = ", ".join(f"{i} {b}" for i, b in enumerate(e.seats))
    note = (f"<p><strong>Interrupted</strong> after {e.games} of {e.requested} games.</p>"
            if e.interrupted else "")
    figures = "\n".join(
        f'<figure><img src="{name}" alt="{esc(caption)}"><figcaption>{esc(caption)}</figcaption></figure>'
        for name, caption in PLOTS.items()
    ) if drawn else f"<p>{esc(NO_PLOTS if not plots else 'No plots: no game was played.')}</p>"
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>{_STYLE}</style></head><body>
<h1>{esc(title)}</h1>
<p>Seed {e.seed}; seats: {esc(seats)}; the same deals (the same seeds) under every variant.
{'' if e.max_hands is None else f'At most {e.max_hands} hands per game.'}</p>
{note}
{_table(e)}
<p>Every measure is a value per game (a mean over its hands for the "per hand" ones, 0 or 1
for a win). A variant's value is the mean over its games; a difference is the mean of the
per-game differences with the baseline, game by game, with its normal 95% interval
(mean &plusmn; 1.96&middot;sd/&radic;n); bold: the interval leaves out 0. Shares and win
rates are in percent, their differences in percentage points.
The raw numbers are in <a href="experiment.json">experiment.json</a>.</p>
{figures}
</body></html>
"""
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
