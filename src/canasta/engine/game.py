"""Legality: the one place that decides which moves are legal and what they do.

:func:`legal_moves` lists candidate moves and keeps those that :func:`step`
accepts; :func:`apply` runs the same :func:`step`, so the two never disagree.
Where a whole group of candidates turns on the same facts, ``legal_moves``
asks the steps' own tests once instead (the draw alone when no way of taking
the pile is a candidate; the turn's rules for every plain discard; the meld's
shape for the adds and new melds of an opened side).
:func:`compile_rules` and :func:`new_game` start a game; :data:`ENGINE` is the
table of entry points that states call through.
"""

from __future__ import annotations

import operator
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, SupportsIndex

from canasta.engine.candidates import candidate_moves
from canasta.engine.constructors import new_turn, store_counts, store_ctx, store_infos
from canasta.engine.deal import deal_hand
from canasta.engine.draw import draw_moves, draw_step, pass_step
from canasta.engine.facts import (
    Ctx,
    carry_infos,
    context_of,
    must_walk,
    pile_frozen,
    pile_frozen_for_all,
    rebuild,
)
from canasta.engine.going_out import (
    ask_step,
    discard_bar,
    discard_dead,
    discard_step,
    foot_step,
    plain_discard_error,
)
from canasta.engine.integrity import SEED_LIMIT
from canasta.engine.melding import (
    add_fits,
    add_sequence_step,
    add_step,
    back_step,
    combine_step,
    join_step,
    meld_fits,
    meld_sequence_step,
    meld_step,
    quick_play,
)
from canasta.engine.move_fields import malformed
from canasta.engine.moves import (
    Add,
    AddToSequence,
    Answer,
    Ask,
    Combine,
    Discard,
    Draw,
    Foot,
    JoinSequences,
    LaySpecial,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    NextHand,
    Pass,
    TakeBack,
    TakePile,
    TakeSequence,
    TakeTopCard,
    field_text,
    parse_move,
)
from canasta.engine.quick import quick_moves
from canasta.engine.refusals import unplayable
from canasta.engine.special import special_moves, special_step
from canasta.engine.state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    HAND_OVER,
    NO_COUNTS,
    PLAY,
    TOLD_NO,
    TOLD_YES,
    Engine,
    GameState,
)
from canasta.engine.tables import Rules
from canasta.engine.taking import take_sequence_step, take_step, take_top_step
from canasta.engine.threes import kept_bar, lay_three_moves, lay_three_step
from canasta.engine.view import make_view, stand_in
from canasta.errors import CanastaError, IllegalMoveError, VariantError
from canasta.limits import shown
from canasta.variant.model import Variant, validate_variant


def step(s: GameState, m: Move, build: bool = True) -> GameState | str | None:
    """The state after ``m`` (None when legal and ``build`` is false), or why it is illegal."""
    if s.rules.keep_three:
        # threes.keep_one: a player keeping a 3 does little else until it is laid
        why = kept_bar(s, m)
        if why is not None:
            return why
    if s.phase == PLAY:
        handler = PLAY_STEPS.get(type(m))
        if handler is not None:
            return handler(s, context_of(s), m, build)
    if s.phase == GAME_OVER:
        return "the game is over"
    if isinstance(m, NextHand):
        if s.phase != HAND_OVER:
            return "the hand is not over yet"
        if not build:
            return None
        r = s.rules
        return deal_hand(r, s.seed, s.hand_number + 1, (s.dealer + 1) % r.n, s.scores, s.history)
    if s.phase == HAND_OVER:
        return "the hand is over: the only move is 'next'"
    if s.phase == ANSWER:
        return _answer_step(s, m, build)
    if s.phase == DRAW:
        return _draw_phase_step(s, m, build)
    # PLAY, a move that is not a play-phase step
    if isinstance(m, (Draw, TakePile, TakeSequence, TakeTopCard, Pass)):
        return "you have already drawn this turn"
    if isinstance(m, Answer):
        return "nobody has asked to go out"
    return f"'{m}' is not a move of the play phase"


def _answer_step(s: GameState, m: Move, build: bool) -> GameState | str | None:
    """:func:`step` when the partner of the player who asked to go out answers."""
    if not isinstance(m, Answer):
        return "your partner asked to go out: answer 'yes' or 'no'"
    if m.yes is not True and m.yes is not False:
        return f"Answer.yes must be True or False, got {m.yes!r}"
    if not build:
        return None
    t = s.turn
    if s.rules.ask_advice:
        # advice binds nothing (going_out.ask_advice): the turn goes on as it stood
        turn = t
    else:
        turn = new_turn(t.took_pile, t.melded, t.points, t.pending,
                        TOLD_YES if m.yes else TOLD_NO, t.asker, t.drawn, t.played, (), t.backs)
    return rebuild(s, phase=PLAY, current=t.asker, turn=turn)


def _draw_phase_step(s: GameState, m: Move, build: bool) -> GameState | str | None:
    """:func:`step` in the draw phase: a draw, a way of taking the pile, a pass, a 3 laid."""
    if s.rules.foot_walk and must_walk(s):
        # the player discarded their last hand card to walk to the foot (foot.walk)
        if isinstance(m, Foot):
            return foot_step(s, context_of(s), build)
        return "your hand is empty and your foot is down: pick up your foot first ('foot')"
    if isinstance(m, Draw):
        return draw_step(s, build)
    if isinstance(m, TakePile):
        return take_step(s, context_of(s), m, build)
    if isinstance(m, TakeSequence):
        return take_sequence_step(s, context_of(s), m, build)
    if isinstance(m, TakeTopCard):
        return take_top_step(s, context_of(s), m, build)
    if isinstance(m, Pass):
        return pass_step(s, build)
    if isinstance(m, LayThree):
        return lay_three_step(s, context_of(s), m, build)
    return f"first draw from the stock or take the pile ('{m}' comes later)"


PLAY_STEPS: Final[dict[type, Callable[[GameState, Ctx, Any, bool], GameState | str | None]]] = {
    Discard: discard_step,
    Add: add_step,
    Meld: meld_step,
    MeldSequence: meld_sequence_step,
    AddToSequence: add_sequence_step,
    TakeBack: back_step,
    Foot: lambda s, c, m, build: foot_step(s, c, build),
    Ask: lambda s, c, m, build: ask_step(s, c, build),
    LaySpecial: special_step,
    LayThree: lay_three_step,
    Combine: combine_step,
    JoinSequences: join_step,
}


def _play_listing(s: GameState, c: Ctx) -> list[Move]:
    """The legal moves of a play-phase position that :func:`quick_moves` does not list,
    where the variant's fast paths include ``quick_discards``: every candidate asked
    its step in :data:`PLAY_STEPS` directly, as :func:`step` would."""
    out: list[Move] = []
    steps = PLAY_STEPS
    # the discards that do not go out share the turn's rules: asked
    # once (plain_discard_error), then only each card's bars
    plain: str | None = ""
    bars = c.r.bars_discards
    empty, dead = False, 0
    # where quick_play holds, candidate adds and new melds are decided by
    # their shape (add_fits, meld_fits; None: ask the step)
    quick = quick_play(c)
    for m in candidate_moves(s, c):
        if isinstance(m, Discard) and m.out is False:
            if plain == "":
                plain = plain_discard_error(s, c)
                if plain is None and bars:
                    empty, dead = not s.pile_, discard_dead(s, c)
            if plain is None and (not bars or discard_bar(c.r, empty, c.counts, m.kind, dead) is None):
                out.append(m)
            continue
        if quick and isinstance(m, (Add, Meld)):
            fits = add_fits(c, m) if isinstance(m, Add) else meld_fits(c, m)
            if fits is not None:
                if fits:
                    out.append(m)
                continue
        if steps[type(m)](s, c, m, False) is None:
            out.append(m)
    if c.r.special_sizes:
        out.extend(special_moves(s, c))
    return out


def legal_moves(s: GameState) -> list[Move]:
    """Every distinct legal move in ``s``, each once.

    The one gate of the listing's fast paths: the variant's flags
    (``s.rules.fast``, :class:`~canasta.engine.fastpaths.FastPaths`) and the
    position choose between the draw listed without the steps
    (:func:`~canasta.engine.draw.draw_moves`), the play phase listed from the
    hand's counts (:func:`~canasta.engine.quick.quick_moves`) or by the candidate
    loop that decides discards together (:func:`_play_listing`), and the plain
    rule path (:func:`plain_listing`), which decides everything else.
    """
    phase = s.phase  # read once: an attribute of a Python object, a lookup each time when compiled
    fast = s.rules.fast
    if phase == DRAW and fast.draw_listing and s.stock_ and not (s.rules.foot_walk and must_walk(s)):
        # most draw-phase positions, as candidate_moves and the steps would list
        # them; without the state's Ctx, which neither this nor the draw's apply needs
        drawn = draw_moves(s)
        if drawn is not None:
            return drawn
    # typed here: GameState declares the slot untyped, and the compiled engine
    # reads a Ctx's fields natively only where it knows the type
    c: Ctx | None = s._ctx
    if c is None:
        # context_of's miss, inline (a listing after a draw or a meld is of a new
        # state; a call is a hundredth of a cheap listing)
        c = Ctx(s)
        store_ctx(s, c)
    legal = c.legal
    if legal is None:
        out: list[Move] | None = None
        if phase == PLAY and fast.quick_discards:
            if fast.quick_listing:
                # the common position, listed straight from the hand's counts
                out = quick_moves(s, c)
                if out is not None and c.r.special_sizes:
                    out.extend(special_moves(s, c))
            if out is None:
                out = _play_listing(s, c)
        else:
            out = plain_listing(s, c)
        c.legal = tuple(out)
        return out
    return list(legal)


def plain_listing(s: GameState, c: Ctx) -> list[Move]:
    """The legal moves of ``s`` by the plain rule path: every candidate asked its step.

    What ``legal_moves`` lists where no fast path applies
    (:mod:`canasta.engine.fastpaths`), and the listing its shortcuts must
    reproduce, move for move and in order.
    """
    out = [m for m in candidate_moves(s, c) if step(s, m, False) is None]
    if c.r.keep_three:
        out.extend(lay_three_moves(s))
    if s.phase == PLAY and c.r.special_sizes:
        out.extend(special_moves(s, c))
    return out


# What a move with a field of the wrong type makes the steps raise. The steps
# do not check field types (they run for every candidate of legal_moves); a
# failure is explained by malformed() instead, and anything else is a bug.
_MOVE_FIELD_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError)


#: The moves whose fields are checked before any rule: junk in some of their
#: fields (an empty string for the suits, a wild kind on a pair, 5 for "yes")
#: would pass the steps as the default it resembles, and a field of a million
#: cards or characters would cost the steps (and the message) time; the check
#: reads its length first. Junk in any other move's fields (single numbers)
#: makes its step fail, and malformed() then names the field (a check of every
#: move would cost a call per apply; these are a frozenset lookup for the others).
_FIELDS_FIRST: Final = frozenset({Meld, MeldSequence, TakePile, LaySpecial, Answer, LayThree})


def check(s: GameState, m: Move) -> str | None:
    """The reason ``m`` is illegal in ``s``, or ``None`` when it is legal."""
    if not isinstance(m, Move):
        return f"{shown(m)} is not a move"
    if m.__class__ in _FIELDS_FIRST:
        reason = malformed(m)
        if reason is not None:
            return reason
    try:
        result = step(s, m, False)
    except _MOVE_FIELD_ERRORS:
        reason = malformed(m)
        if reason is None:
            raise
        return reason
    return result if isinstance(result, str) else None


def apply(s: GameState, m: Move | str) -> GameState:
    """The state after ``m``; see :meth:`GameState.apply`."""
    move = parse_move(m, s.rules.suited_ranks) if isinstance(m, str) else m
    if not isinstance(move, Move):
        hint = (
            " (an action id? turn it into a move with canasta.ActionSpace(variant).decode(state, action))"
            if isinstance(m, int) and not isinstance(m, bool) else ""
        )
        raise IllegalMoveError(shown(m), "not a move" + hint)
    if move.__class__ in _FIELDS_FIRST:
        reason = malformed(move)
        if reason is not None:
            raise IllegalMoveError(field_text(move), reason)
    try:
        result = step(s, move, True)
    except _MOVE_FIELD_ERRORS:
        reason = malformed(move)
        if reason is None:
            raise
        raise IllegalMoveError(field_text(move), reason) from None
    if isinstance(result, str):
        raise IllegalMoveError(str(move), result)
    assert result is not None
    # the facts of the sides' melds travel on to the state after the move
    carry_infos(s, result)
    # A state moved from is rarely asked again, but programs keep them (game
    # records, search trees): drop what was worked out about it, so that a
    # kept state costs no more than its own fields.
    store_ctx(s, None)
    if s._infos:
        store_infos(s, ())
    if s._counts[1]:  # counts carried (a meld or add built it): a store only then
        # (by value, not `is not NO_COUNTS`: the compiled engine holds its own copy)
        store_counts(s, NO_COUNTS)
    return result




#: The most variants whose entries the engine's memos keep: a variant compiled past them
#: empties the memos first (see :func:`_forget_memos`).
MEMO_VARIANTS: Final = 16
#: Variants compiled since the memos were last emptied.
_compiled = [0]


def _forget_memos() -> None:
    """Empty the memos (``functools.lru_cache``) of the engine's modules, but the compiled
    tables' own (:func:`compile_rules`).

    Most memos are keyed by a variant's compiled tables, so an entry serves that variant
    only, and each keeps its tables alive. A process that plays many variants (a rule
    campaign, a server of house rules) would otherwise hold thousands of them, and the
    garbage collector would walk them all at each full collection: pauses of seconds in
    a call. Emptied every :data:`MEMO_VARIANTS` new variants, the memos hold the entries
    of the variants in play; a memo only saves work, so no answer changes."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("canasta.engine.") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if clear is not None and value is not compile_rules and hasattr(value, "cache_info"):
                clear()


@lru_cache(maxsize=64)
def compile_rules(variant: Variant) -> Rules:
    """Return the compiled tables of ``variant`` (cached).

    A variant checks its own values when it is built (``attrs.evolve``
    included); it is checked again here, once per variant, for one that was
    made some other way (unpickled, say), so that a value no profile may hold
    is refused with the option and what it expects instead of dealing a game
    that can stall.

    Raises:
        VariantError: a value of ``variant`` is out of its option's range.
    """
    try:
        validate_variant(variant)
    except VariantError as exc:
        raise VariantError(f"variant {variant.name!r}: {exc}") from None
    _compiled[0] += 1
    if _compiled[0] > MEMO_VARIANTS:
        _forget_memos()
        _compiled[0] = 1
    return Rules(variant, ENGINE)


def playable_rules(variant: Variant) -> Rules:
    """The compiled tables of ``variant`` (:func:`compile_rules`), where the engine plays it.

    Raises:
        VariantError: :func:`unplayable` names a combination of options the engine does not play.
    """
    r = compile_rules(variant)
    why = unplayable(r)
    if why is not None:
        raise VariantError(f"variant {variant.name!r}: {why}")
    return r


def new_game(variant: Variant, seed: SupportsIndex | None = None) -> GameState:
    """Deal the first hand of a game of ``variant``.

    Args:
        variant: the rules (see :func:`canasta.load_variant`).
        seed: any integer (or integer-like value, such as a NumPy integer); the
            same seed deals the same cards on every machine. ``None`` picks a
            random seed (kept in ``state.seed``).

    Raises:
        CanastaError: ``variant`` is not a Variant, ``seed`` is not an integer,
            or the decks cannot serve the deal.
    """
    if not isinstance(variant, Variant):
        hint = (
            f"; load it first: canasta.new_game(canasta.load_variant({variant!r}))"
            if isinstance(variant, str) and len(variant) < 200 else ""
        )
        raise CanastaError(f"new_game expects a Variant, got {type(variant).__name__}{hint}")
    if seed is None:
        number = int.from_bytes(os.urandom(8), "little")
    elif isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        # checked here, not by the annotation: a compiled engine would refuse
        # a wrong type with a bare TypeError
        raise CanastaError(f"seed must be an integer, got {shown(seed)}")
    else:
        number = operator.index(seed)
        if not -SEED_LIMIT < number < SEED_LIMIT:
            raise CanastaError(f"seed must be a 64-bit integer, got {shown(number)}")
    r = playable_rules(variant)
    n_sides = len(r.sides)
    return deal_hand(r, number, 0, r.n - 1, (0,) * n_sides, ())


_DRAW: Final = Draw()


ENGINE = Engine(
    legal_moves=legal_moves,
    check=check,
    apply=apply,
    pile_frozen=pile_frozen,
    pile_frozen_for_all=pile_frozen_for_all,
    view=make_view,
    compile_rules=compile_rules,
    stand_in=stand_in,
)
