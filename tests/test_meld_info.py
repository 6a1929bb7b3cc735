"""A side's meld facts (``canasta.engine.melds.MeldInfo``) worked out from the previous melds'.

A step that lays or grows one meld starts the new melds' info from the old
one's (``MeldInfo(..., like=..., changed=...)``) instead of walking every meld
again. Over random playouts of every bundled profile, every info made that way
is compared, field by field (and by the add rows and loose ranks it carried over), with the
info the full walk makes of the same melds; and the cases the shortcut must leave to the full walk are checked to
be left to it.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta.engine.game import compile_rules
from canasta.engine.melds import MeldInfo, add_rows, make_meld, one_change
from canasta.engine.oracle import _stranded

FIELDS = ("index", "more", "open_ranks", "present", "sequences", "closed_sequences", "grown")


def _loose(info: MeldInfo) -> tuple[int, ...] | None:
    """The loose ranks of ``info`` as the going-out test makes them on first use."""
    _stranded(info.rules, (0,) * 16, info, False, ())
    return info.loose


def _same(a: MeldInfo, b: MeldInfo) -> None:
    for name in FIELDS:
        assert getattr(a, name) == getattr(b, name), name
    assert a.canasta_counts() == b.canasta_counts()


@pytest.mark.parametrize("name", canasta.variant_names())
def test_infos_started_from_the_old_melds_match_the_full_walk(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    derived: list[MeldInfo] = []
    carried_canastas: list[tuple[MeldInfo, tuple[int, ...]]] = []
    declined = 0
    original = MeldInfo._derive

    def watched(self: MeldInfo, like: MeldInfo, changed: int) -> bool:
        nonlocal declined
        ok = original(self, like, changed)
        if ok:
            derived.append(self)
            if self._canastas is not None:
                # carried over from the old info, not yet asked of this one
                carried_canastas.append((self, self._canastas))
        else:
            declined += 1
        return ok

    monkeypatch.setattr(MeldInfo, "_derive", watched)
    variant = canasta.load_variant(name)
    rng = random.Random(name)
    for hand in range(12):
        s = canasta.new_game(variant, seed=rng.randrange(10**6) + hand)
        while not s.is_hand_over:
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
    monkeypatch.setattr(MeldInfo, "_derive", original)
    assert derived, "no meld was laid or grown in twelve hands"
    carried = 0
    loose = 0
    for info in derived:
        fresh = MeldInfo(info.rules, info.melds)
        _same(info, fresh)
        if info.loose is not None:
            # carried over from the old info, or made since by the going-out test
            loose += 1
            assert info.loose == _loose(fresh)
        if info.adds is not None:
            # the add rows carried over from the old info (quick listing's)
            carried += 1
            assert info.adds == add_rows(fresh)
    for info, counts in carried_canastas:
        assert counts == MeldInfo(info.rules, info.melds).canasta_counts()
    if name == "classic":
        assert carried, "no info carried its add rows over"
        assert carried_canastas, "no info carried its canasta counts over"
        assert loose, "no info held its loose ranks"


def test_what_the_shortcut_leaves_to_the_full_walk() -> None:
    r = compile_rules(canasta.load_variant("classic"))
    kings = make_meld(r, 13, [52, 53, 54])
    fives = make_meld(r, 5, [20, 21, 22])
    base = MeldInfo(r, (kings,))
    assert _loose(base) == tuple(k for k in r.natural_kinds if k != 13)
    # a meld grown: shared facts, the new melds
    grown = (make_meld(r, 13, [52, 53, 54, 55]),)
    info = MeldInfo(r, grown, base, 0)
    assert info.index is base.index and info.melds is grown
    _same(info, MeldInfo(r, grown))
    # a meld added at the end: the index grows by its rank
    added = (kings, fives)
    info = MeldInfo(r, added, base, 1)
    assert info.index == {13: 0, 5: 1} and base.index == {13: 0}
    # the loose ranks carried over, less the new meld's
    assert info.loose == tuple(k for k in r.natural_kinds if k not in (5, 13)) == _loose(MeldInfo(r, added))
    _same(info, MeldInfo(r, added))
    # a second meld of a rank the side has, a change named at no meld, another
    # variant's facts: the full walk, with the same answer
    twice = (kings, make_meld(r, 13, [56, 57, 58]))
    for melds, like, changed in ((twice, base, 1), (added, base, 5), (added, base, -1)):
        _same(MeldInfo(r, melds, like, changed), MeldInfo(r, melds))
    other = compile_rules(canasta.load_variant("hand-and-foot"))
    _same(MeldInfo(r, added, MeldInfo(other, (kings,)), 1), MeldInfo(r, added))


def test_one_change_names_the_one_meld_grown_or_added() -> None:
    r = compile_rules(canasta.load_variant("classic"))
    a, b, c = make_meld(r, 13, [52, 53, 54]), make_meld(r, 5, [20, 21, 22]), make_meld(r, 9, [36, 37, 38])
    grown = make_meld(r, 5, [20, 21, 22, 23])
    assert one_change((a, b), (a, grown)) == 1
    assert one_change((a, b), (a, b, c)) == 2
    assert one_change((), (c,)) == 0
    # nothing changed, two changed, one replaced and one added, one removed
    assert one_change((a, b), (a, b)) == -1
    assert one_change((a, b), (grown, c)) == -1
    assert one_change((a, b), (a, grown, c)) == -1
    assert one_change((a, b), (a,)) == -1
