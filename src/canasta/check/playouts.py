"""The dynamic check: play seeded hands with the engine and report what went wrong or never happened.

:func:`run_playouts` plays hands with a simple greedy player, with random legal
moves, and with a player that seeks a rule not yet seen
(:class:`~canasta.check.policies.Seeker`), and reports engine failures (C040),
hands that never end (C041), positions with no legal move (C042), nobody ever
going out (C043) and rules that never came into play (C044). Importing the
module registers those kinds in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

from canasta.check.pile import pile_taken_sometimes
from canasta.check.policies import GOALS, Seeker, greedy_move
from canasta.check.registry import Diagnostic, declare, facts_of, make_diagnostic, plural
from canasta.engine import BLACK_THREE, GameState, compile_rules, new_game
from canasta.engine.moves import Ask, Discard, Foot, Meld, Move, TakePile, TakeSequence
from canasta.errors import CanastaError
from canasta.play.playout import play_hand
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

__all__ = ["MAX_MOVES_PER_HAND", "run_playouts"]

#: Moves after which a simulated hand counts as never ending (``C041``).
MAX_MOVES_PER_HAND = 5000

# --------------------------------------------------------------------------- playout kinds

_PLAYOUT_EXAMPLE = "extends: classic\n"

declare(
    "C040", "error", "the engine failed during play",
    """
    A simulated hand (``--playouts N``) raised an exception in the engine:
    the rules as written reach a state the engine cannot handle. The message
    names the deal seed, the move and the exception, so the hand can be
    replayed with ``canasta.new_game(variant, seed=S)``. Where the engine
    refuses to deal the profile's hands at all, the message says so and the
    profile is to be changed; when a static check has already reported an
    error, such hands are not reported again.
    """,
    _PLAYOUT_EXAMPLE,
    "playout",
)
declare(
    "C041", "error", "a hand that never ends",
    f"""
    A simulated hand was still going after {MAX_MOVES_PER_HAND} moves. Some
    combination of rules lets players go round forever (for instance taking
    and discarding the pile with an empty stock).
    """,
    _PLAYOUT_EXAMPLE,
    "playout",
)
declare(
    "C042", "error", "a position with no legal move",
    """
    A simulated hand reached a position, not at the end of the hand, in which
    the player to move has no legal move at all.
    """,
    _PLAYOUT_EXAMPLE,
    "playout",
)
declare(
    "C043", "warning", "nobody went out in any simulated hand",
    """
    In all the simulated hands every hand ended with the stock, never with a
    player going out. Going out is possible in principle (the static checks
    found no contradiction) but so hard that it may as well not be a rule.
    The playouts mix random play with simple greedy players; a real table
    plays better, so treat this as a strong hint rather than a proof.
    """,
    """
    extends: draw-two
    going_out:
      canastas: 8
    """,
    "playout",
)
declare(
    "C044", "info", "a rule that never came into play",
    """
    An option that can take effect never did in any simulated hand: the pile
    was never taken in some way, the foot never picked up, nobody asked to go
    out, nobody went out concealed, no black-3 out, no canasta of some kind.
    Worth a look when the option matters to the table; with few playouts it
    is expected.

    The rule was looked for, not only missed: one simulated hand in four is
    played by a player that seeks a rule not seen so far (it holds its hand
    back to go out concealed, keeps its black 3s, takes the pile in the way
    not yet seen, keeps wild cards out of melds of a rank), and the message
    says how many hands sought the rule. A rule that even a seeking player
    never reached may be out of reach, or so rare that the table will not
    miss it.
    """,
    """
    extends: classic
    threes:
      black_out_cards: 3
    """,
    "playout",
)


# --------------------------------------------------------------------------- playouts


@attrs.define
class _Tally:
    """What happened over all simulated hands."""

    hands: int = 0
    outs: int = 0
    events: set[str] = attrs.field(factory=set)
    sought: dict[str, int] = attrs.field(factory=dict)  # hands played by a seeker, by goal
    failures: dict[str, list[str]] = attrs.field(factory=dict)
    undealt: list[str] = attrs.field(factory=list)  # hands the profile's rules refused to deal

    def fail(self, code: str, text: str) -> None:
        self.failures.setdefault(code, []).append(text)


def _note(tally: _Tally, s: GameState, m: Move, after: GameState) -> None:
    if isinstance(m, TakePile):
        tally.events.add(f"take:{m.way}")
    elif isinstance(m, TakeSequence):
        # the top card laid off on a sequence: a way of taking by lay-off
        tally.events.add("take:layoff")
    elif isinstance(m, Foot):
        tally.events.add("foot")
    elif isinstance(m, Ask):
        tally.events.add("ask")
    elif isinstance(m, Meld) and m.kinds and all(k == BLACK_THREE for k in m.kinds):
        tally.events.add("black_meld")
    elif (
        isinstance(m, Discard) and not m.out and not after.is_hand_over
        and not after.hands_[s.current]
    ):
        tally.events.add("out_but_not_out")
    if (
        s.rules.talons and isinstance(m, Discard) and not m.out and not after.is_hand_over
        and len(after.hands_[s.current]) >= len(s.hands_[s.current])
    ):
        # the hand grew at a discard: a talon was given (opening.talons)
        tally.events.add("talon")


def _play_hand(
    v: Variant, deal_seed: int, rng: random.Random, greedy: bool, tally: _Tally,
    seeker: Seeker | None = None,
) -> None:
    r = compile_rules(v)
    policy = (
        f"seat {seeker.seat} seeking {seeker.goal}" if seeker is not None
        else "greedy" if greedy else "random"
    )
    where = f"hand dealt with seed {deal_seed} ({policy} play)"
    # the move being played and the last one played, for the reports below
    chosen: list[Move | None] = [None, None]

    def choose(s: GameState, rng: random.Random) -> Move:
        moves = s.legal_moves()
        if not moves:
            raise CanastaError("no legal move")  # play_hand reports the dead end
        if seeker is not None:
            move = seeker.move(s, moves, rng, r)
        elif greedy:
            move = greedy_move(moves, rng, r)
        else:
            move = moves[rng.randrange(len(moves))]
        chosen[0] = move
        return move

    played = [0]

    def on_move(before: GameState, move: Move, after: GameState) -> None:
        _note(tally, before, move, after)
        chosen[1] = move
        played[0] += 1

    count = 0
    try:
        s = new_game(v, seed=deal_seed)
    except CanastaError as exc:  # the profile's mistake (the deal does not fit), not the engine's
        tally.undealt.append(f"{where}: {exc}")
        return
    except Exception as exc:  # the point is to report any engine failure
        tally.fail("C040", f"{where}, the deal: {type(exc).__name__}: {exc}")
        return
    try:
        s, count, stopped = play_hand(s, [choose] * r.n, rng, MAX_MOVES_PER_HAND, on_move)
    except Exception as exc:  # the point is to report any engine failure
        move = chosen[0]
        what = f"move {played[0] + 1} '{move}'" if move is not None else "the deal"
        tally.fail("C040", f"{where}, {what}: {type(exc).__name__}: {exc}")
        return
    if stopped is not None:
        if count >= MAX_MOVES_PER_HAND:
            tally.fail("C041", f"{where} did not end after {count} moves")
        else:
            last = f" '{chosen[1]}'" if chosen[1] is not None else ""
            tally.fail(
                "C042",
                f"{where}: seat {s.current_player} has no legal move after move {count}"
                f"{last} ({s!r})",
            )
        return
    end = s.end
    if end is not None and end.reason in ("out", "special"):  # a special hand ends it as going out does
        tally.outs += 1
        if end.concealed:
            tally.events.add("concealed")
        if end.black_three_out:
            tally.events.add("black_out")
    for side_melds in s.melds_:
        for meld in side_melds:
            kind = r.canasta_kind(meld)
            if kind is not None:
                tally.events.add(f"canasta:{kind}")


def run_playouts(
    v: Variant, n: int, seed: int, *, static_errors: bool = False
) -> list[Diagnostic]:
    """Play ``n`` hands of ``v``, hand ``i`` dealt with seed ``seed + i``; return what they showed.

    Engine failures (C040 to C042) come first and, when there are any, alone;
    otherwise C043 when nobody ever went out, then a C044 per rule that never
    came into play. Hands the profile's rules refuse to deal (more cards than
    the decks hold, say) are the profile's mistake: with ``static_errors``
    (the static checks found an error, which says why) they add nothing;
    otherwise a C040 names the first, as the profile's mistake. Either way
    nothing else is reported then: the hands that were played say little.
    """
    tally = _Tally()
    sought = [event for possible, event, _path, _text in _candidates(v) if possible and event in GOALS]
    for i in range(n):
        deal_seed = seed + i
        rng = random.Random(seed * 1_000_003 + i)
        # Even hands greedy, then odd hands alternately random and seeking: the
        # seekers go after the rules not yet seen, the rarest first to be left.
        seeker = None
        if i % 4 == 3:
            missing = [e for e in sought if e not in tally.events]
            if missing:
                goal = missing[(i // 4) % len(missing)]
                seeker = Seeker(goal, (i // 4) % v.players.count)
                tally.sought[goal] = tally.sought.get(goal, 0) + 1
        _play_hand(v, deal_seed, rng, greedy=(i % 2 == 0), tally=tally, seeker=seeker)
        tally.hands += 1
    out: list[Diagnostic] = []
    for code in ("C040", "C041", "C042"):
        texts = tally.failures.get(code)
        if texts:
            more = f" ({len(texts)} of {n} hands; the first shown)" if len(texts) > 1 else ""
            out.append(make_diagnostic(code, (), texts[0] + more, "please report this with the profile"))
    if tally.undealt and not static_errors:
        more = f" ({len(tally.undealt)} of {n} hands)" if len(tally.undealt) > 1 else ""
        out.append(make_diagnostic(
            "C040", (), f"no hand could be dealt: {tally.undealt[0]}{more}",
            "the profile's rules refuse the deal: change what the message names",
        ))
    if tally.failures or tally.undealt:
        return out
    if n > 0 and tally.outs == 0:
        out.append(make_diagnostic(
            "C043", ("going_out.canastas",),
            f"nobody went out in {plural(n, 'simulated hand')}: every hand ended with the "
            "stock",
            "make going out easier (fewer canastas required), or check more hands",
        ))
    out.extend(_unused_rules(v, tally, n))
    return out


#: Why a rule that no simulated player seeks was still looked for: the greedy player
#: takes these whenever it may, so their absence says as much as a seeker's would.
_ALWAYS_TAKEN = {
    "foot": "; the simulated players pick up their foot whenever they may",
    "ask": "; the simulated players ask whenever they may go out",
    "out_but_not_out": "; the simulated players meld all they can, down to their last card",
    "canasta:mixed": "; the simulated players add wild cards to melds of a rank",
    "talon": "; a talon comes with every side's first opening from the hand",
}


def _candidates(v: Variant) -> list[tuple[bool, str, str, str]]:
    """The rules the playouts look for: (whether it can happen at all, event, option, what was never seen)."""
    f = facts_of(v)
    p = v.pile
    candidates: list[tuple[bool, str, str, str]] = []
    if pile_taken_sometimes(f):
        candidates += [
            (p.take_natural_pair, "take:pair", "pile.take_natural_pair",
             "the pile was never taken with a natural pair"),
            (p.take_lay_off, "take:layoff", "pile.take_lay_off",
             "the pile was never taken by laying its top card off"),
            (p.take_natural_and_wild and f.wild_cards > 0, "take:wild",
             "pile.take_natural_and_wild", "the pile was never taken with a natural and a wild"),
            (p.blocked_by_meld_size is not None and p.blocked_exception, "take:finish",
             "pile.blocked_exception", "the pile block's exception was never used"),
        ]
    partners = meanings(v).partnerships
    candidates += [
        (meanings(v).has_foot, "foot", "deal.foot_size", "no foot was ever picked up"),
        # advice (going_out.ask_advice) changes no move: the simulated players go out without it
        (v.going_out.ask_partner and partners and not v.going_out.ask_advice, "ask", "going_out.ask_partner",
         "nobody ever asked the partner to go out"),
        (v.going_out.concealed, "concealed", "going_out.concealed", "nobody ever went out concealed"),
        (v.threes.black_out_cards is not None and not f.threes_wild, "black_out",
         "threes.black_out_cards", "nobody ever went out with black 3s"),
        (v.threes.black_meld != "never" and not f.threes_wild, "black_meld",
         "threes.black_meld", "black 3s were never melded"),
        (v.going_out.out_but_not_out, "out_but_not_out", "going_out.out_but_not_out",
         "nobody ever played on with no cards ('out, but not out')"),
        (f.natural_canasta, "canasta:natural", "canastas.natural_bonus",
         "no natural canasta was ever made"),
        (f.mixed_canasta, "canasta:mixed", "canastas.mixed_bonus",
         "no mixed canasta was ever made"),
        (f.wild_canasta, "canasta:wild", "canastas.wild_bonus", "no wild canasta was ever made"),
        (f.sequence_canasta, "canasta:sequence", "sequences.bonus", "no sequence canasta was ever made"),
        (any(v.opening.talons), "talon", "opening.talons", "no talon was ever given"),
    ]
    return candidates


def _unused_rules(v: Variant, tally: _Tally, n: int) -> Iterator[Diagnostic]:
    for possible, event, path, text in _candidates(v):
        if not possible or event in tally.events:
            continue
        sought = tally.sought.get(event, 0)
        if event in GOALS:
            why = (
                f", {sought} of them with a player who {GOALS[event]}"
                if sought else ", none of them with a player seeking it"
            )
        else:
            why = _ALWAYS_TAKEN.get(event, "")
        yield make_diagnostic(
            "C044", (path,), f"{text} in {plural(n, 'simulated hand')}{why}",
            "check more hands, or ask whether the rule is needed",
        )
