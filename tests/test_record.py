"""Tests of canasta.io.record: game records, their replay and ``canasta replay``."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import CanastaError, Draw, GameRecorder, IllegalMoveError, RecordedGame, Variant
from canasta.cli import main
from canasta.io.record import (
    RecordError,
    parse_record,
    read_record,
    replay_file,
    replay_text,
    score_report,
    write_record,
)
from random_games import PROFILES, SEEDS, played
from strategies import variants

VARIANTS = canasta.variant_names()
_VARIANT = {name: canasta.load_variant(name) for name in VARIANTS}
SETTINGS = settings(
    max_examples=4, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def random_game(v: Variant, seed: int, max_moves: int = 5000) -> GameRecorder:
    """A recorder that has played a random game of ``v`` (to its end, as far as moves allow)."""
    rng = random.Random(seed)
    rec = GameRecorder(v, seed)
    for _ in range(max_moves):
        moves = rec.state.legal_moves()
        if not moves:
            break
        rec.apply(rng.choice(moves))
    return rec


def move_lines(text: str) -> list[int]:
    """The (0-based) indices of the move lines of a record's text."""
    lines = text.splitlines()
    start = lines.index("---") + 1
    return [i for i in range(start, len(lines)) if lines[i].split("#")[0].strip()]


class TestRoundTrip:
    """A recorded game is written, read back and replayed to the same state."""

    @pytest.mark.parametrize("name", PROFILES)
    def test_random_games(self, name: str) -> None:
        """Written and read back, a random game's record replays to the same scores."""
        # four of the random whole games other suites check too (tests/random_games.py:
        # playing them is what costs, so they are played once per process)
        for seed in SEEDS[:4]:
            game = played(name, seed)
            rec = GameRecorder(_VARIANT[name], seed)
            for move in game.moves:
                rec.apply(move)
            assert rec.state == game.states[-1]
            text = rec.record.to_text(annotate=True)
            back = parse_record(text, "game.rec")
            assert back == rec.record
            final = back.replay()
            assert final == rec.state
            assert final.scores == rec.state.scores
            assert final.history == rec.state.history
            assert replay_text(text) == rec.state

    def test_file(self, tmp_path: Path) -> None:
        """write_record and read_record go through a UTF-8 file; replay_file replays it."""
        rec = random_game(_VARIANT["classic-2p"], 5)
        path = tmp_path / "game.rec"
        write_record(path, rec.record)
        assert read_record(path) == rec.record
        assert read_record(str(path)).lines[0] == 6
        assert replay_file(path).scores == rec.state.scores

    def test_custom_variant(self, tmp_path: Path) -> None:
        """A changed variant is embedded as YAML under variant: and comes back equal."""
        base = _VARIANT["classic"]
        v = attrs.evolve(base, name="house", title="Kitchen \"rules\"\n---",
                         going_out=attrs.evolve(base.going_out, canastas=2))
        rec = random_game(v, 9)
        text = rec.record.to_text()
        assert "variant:\n  name: house\n" in text
        assert parse_record(text).variant == v
        assert parse_record(text).replay() == rec.state

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(v=variants(), seed=st.integers(-(2**70), 2**70))
    def test_any_variant_header(self, v: Variant, seed: int) -> None:
        """The header of any variant within the schema and any seed reads back equal."""
        record = RecordedGame(v, seed, ())
        assert parse_record(record.to_text()) == record

    def test_bundled_by_name(self) -> None:
        """A bundled profile, unchanged, is named in the header."""
        text = RecordedGame(_VARIANT["draw-two"], 3, ("draw",)).to_text()
        assert text.splitlines()[1:6] == ["format: 1", "seed: 3", "variant: draw-two", "---", "draw"]

    def test_comments_and_blank_lines(self) -> None:
        """# comments, blank lines and a byte-order mark are skipped."""
        text = "\ufeff# a game\nformat: 1  # the format\n\nseed: 4\nvariant: classic\n---\n\n" \
               "# first move\ndraw   # from the stock\n\n"
        rec = parse_record(text)
        assert rec.moves == (Draw(),)
        assert rec.lines == (9,)

    def test_extends_bundled(self) -> None:
        """A hand-written record may extend a bundled profile."""
        text = "format: 1\nseed: 1\nvariant:\n  extends: classic\n  name: two\n" \
               "  draw: {count: 2}\n---\ndraw\n"
        rec = parse_record(text)
        assert rec.variant.draw.count == 2
        assert len(rec.replay().hands_[rec.replay().current]) == 13


class TestCorrupted:
    """A bad record fails at the right line, with the reason."""

    @pytest.mark.parametrize("name", VARIANTS)
    @SETTINGS
    @given(seed=st.integers(0, 2**63 - 1), data=st.data())
    def test_illegal_move_line(self, name: str, seed: int, data: st.DataObject) -> None:
        """An illegal move put in place of a recorded one is reported at its line."""
        rec = random_game(_VARIANT[name], seed, max_moves=300)
        text = rec.record.to_text()
        indices = move_lines(text)
        k = data.draw(st.integers(0, len(indices) - 1))
        states = list(rec.record.states())
        bad = next(m for m in ["next", "ask", "yes", "draw", "foot", "pass", "discard 3"]
                   if not states[k].is_legal(canasta.parse_move(m)))
        lines = text.splitlines()
        lines[indices[k]] = bad
        with pytest.raises(RecordError) as info:
            replay_text("\n".join(lines), "game.rec")
        assert info.value.line == indices[k] + 1
        assert str(info.value).startswith(f"game.rec:{indices[k] + 1}: illegal move '{bad}': ")
        with pytest.raises(RecordError, match=f"^game.rec:{indices[k] + 1}: illegal move"):
            parse_record("\n".join(lines), "game.rec").replay()

    def test_malformed_move_line(self) -> None:
        """A line that is not a move is reported at its line, by reading and by replaying."""
        text = RecordedGame(_VARIANT["classic"], 1, ["draw"]).to_text() + "discard\n"
        n = len(text.splitlines())
        for call in (lambda: parse_record(text, "g.rec"), lambda: replay_text(text, "g.rec")):
            with pytest.raises(RecordError, match=f"^g.rec:{n}: 'discard': expected"):
                call()

    def test_first_error_wins(self) -> None:
        """Replaying reports an illegal move before a later line that does not parse."""
        text = "format: 1\nseed: 1\nvariant: classic\n---\nnext\nnonsense\n"
        with pytest.raises(RecordError, match=r"^r:5: illegal move 'next'"):
            replay_text(text, "r")

    @pytest.mark.parametrize(
        ("text", "pattern"),
        [
            ("format: 1\nseed: 1\nvariant: classic\ndraw\n", r"^r:4: no line '---' ends the header"),
            ("format: 2\nseed: 1\nvariant: classic\n---\n", r"^r:1: record format 2 is not supported"),
            ("format: 1\nseed: x\nvariant: classic\n---\n", r"^r:2: seed: expected an integer"),
            ("format: 1\nseed: true\nvariant: classic\n---\n", r"^r:2: seed: expected an integer"),
            ("format: 1\nseed: 1\nvariant: klassic\n---\n", r"^r:3: variant: unknown bundled variant"),
            ("format: 1\nseed: 1\nvariant: ../x.yaml\n---\n", r"^r:3: variant: unknown bundled"),
            ("format: 1\nseed: 1\n---\n", r"^r:3: the header lacks variant"),
            ("format: 1\nseed: 1\nvariant: classic\nmoves: 3\n---\n", r"^r:4: unknown header key 'moves'"),
            ("format: 1\nseed: 1\nseed: 2\nvariant: classic\n---\n", r"^r:3: header key 'seed' given twice"),
            ("- 1\n---\n", r"^r:1: the header must be a mapping"),
            ("format: [1\n---\n", r"^r:1: the header is not valid YAML"),
            ("format: 1\nseed: &s 1\nvariant: classic\n---\n", r"^r:2: anchors and aliases are not allowed in the header"),
            ("format: 1\nseed: 1\nvariant:\n  extends: /etc/passwd\n---\n",
             r"^r:3: variant.extends: only a bundled variant may be extended"),
            ("format: 1\nseed: 1\nvariant:\n  deal: {hand_size: 0}\n---\n",
             r"^r:3: variant.deal.hand_size: expected an integer from 1 to 30"),
        ],
    )
    def test_bad_header(self, text: str, pattern: str) -> None:
        """Each header mistake is refused with its line."""
        with pytest.raises(RecordError, match=pattern):
            parse_record(text, "r")

    def test_missing_file(self, tmp_path: Path) -> None:
        """A file that cannot be read is a RecordError naming it."""
        with pytest.raises(RecordError, match=r"nope\.rec"):
            read_record(tmp_path / "nope.rec")
        (tmp_path / "bin.rec").write_bytes(b"\xff\xfe")
        with pytest.raises(RecordError, match="not UTF-8"):
            replay_file(tmp_path / "bin.rec")


class TestRecordedGame:
    """RecordedGame and GameRecorder."""

    def test_moves_as_notation(self) -> None:
        """Moves may be given as notation; a bad one is refused at once."""
        rec = RecordedGame(_VARIANT["classic"], 2, ["draw", Draw()])
        assert rec.moves == (Draw(), Draw())
        with pytest.raises(CanastaError):
            RecordedGame(_VARIANT["classic"], 2, ["drow"])
        with pytest.raises(CanastaError, match="seed"):
            RecordedGame(_VARIANT["classic"], True)  # type: ignore[arg-type]

    def test_illegal_move_without_lines(self) -> None:
        """A record built in code names the move number of an illegal move."""
        with pytest.raises(RecordError, match="move 2: illegal move 'draw'"):
            RecordedGame(_VARIANT["classic"], 2, ["draw", "draw"]).replay()

    def test_recorder_refuses_illegal_moves(self) -> None:
        """An illegal move raises and is not recorded; the seed of a random game is kept."""
        rec = GameRecorder(_VARIANT["classic"])
        with pytest.raises(IllegalMoveError):
            rec.apply("discard 9")
        rec.apply("draw")
        assert rec.record.moves == (Draw(),)
        assert rec.record.seed == rec.state.seed
        assert rec.record.replay() == rec.state

    def test_annotations(self) -> None:
        """An annotated record notes each hand's scores and the final scores in comments."""
        rec = random_game(_VARIANT["classic"], 4)
        text = rec.record.to_text(annotate=True)
        assert text.count("# hand ") == len(rec.state.history)
        assert text.rstrip().endswith("(game over)")

    def test_score_report(self) -> None:
        """The report has a row per hand, the totals and the outcome."""
        rec = random_game(_VARIANT["classic-3p"], 8)
        report = score_report(rec.state).splitlines()
        assert report[0].split() == ["hand", "seat", "0", "seat", "1", "seat", "2"]
        assert len(report) == len(rec.state.history) + 3
        assert report[-2].split() == ["total", *(str(x) for x in rec.state.scores)]
        assert report[-1].startswith("game over:")


class TestReplayCommand:
    """canasta replay FILE."""

    def test_replays_and_prints_scores(self, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
        """A good record: exit 0, each hand's totals and the game totals."""
        rec = random_game(_VARIANT["classic"], 6)
        path = tmp_path / "game.rec"
        write_record(path, rec.record)
        assert main(["replay", str(path)]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        assert out == score_report(rec.state)
        assert out.splitlines()[-2].split()[1:] == [str(x) for x in rec.state.scores]

    def test_corrupted_record(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """An illegal move: exit 1 and FILE:LINE: illegal move '...': reason."""
        rec = random_game(_VARIANT["classic"], 6)
        text = rec.record.to_text().splitlines()
        text[40] = "discard 9" if not text[39].startswith("draw") else "next"
        path = tmp_path / "game.rec"
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        assert main(["replay", str(path)]) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"canasta: error: {path}:41: illegal move ")

    def test_missing_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A missing file: exit 1 with its name."""
        assert main(["replay", str(tmp_path / "none.rec")]) == 1
        assert "none.rec" in capsys.readouterr().err


class TestSimulateRecords:
    """simulate(record_dir=...) and canasta simulate --record DIR write records that replay."""

    @pytest.mark.parametrize("name", VARIANTS)
    def test_records_replay_to_the_same_scores(self, name: str, tmp_path: Path) -> None:
        """Each simulated game's record replays to that game's final scores."""
        from canasta.play.simulate import simulate

        summary = simulate(name, 2, seed=3, record_dir=tmp_path / "recs", keep_records=True)
        for game in summary.records:
            path = tmp_path / "recs" / f"game-{game.index:05d}.rec"
            record = read_record(path)
            assert record.seed == game.seed
            final = replay_file(path)
            assert final.scores == game.scores
            assert final.is_game_over == game.finished

    def test_command(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """canasta simulate --record DIR, then canasta replay of each file: exit 0."""
        out_dir = tmp_path / "out"
        assert main(["simulate", "classic-2p", "--games", "2", "--record", str(out_dir)]) == 0
        capsys.readouterr()
        files = sorted(out_dir.glob("*.rec"))
        assert [f.name for f in files] == ["game-00000.rec", "game-00001.rec"]
        for f in files:
            assert main(["replay", str(f)]) == 0
            assert "total" in capsys.readouterr().out
