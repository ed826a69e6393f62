"""Inference (``+infer``): the compiled likelihood of a sampled world against an enumeration of
every hidden history of small positions, replayed on the reference game state with the reference
(Python) strategies as the independent judge; the resampled worlds against the exact posterior;
both engines hand for hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scheduling import SOLVER_STACK
from scipy.stats import chisquare
from test_sampler import _hidden, _histories, _replay

import dominosim as ds
from dominosim.fast.core import board as fb
from dominosim.fast.core.params import rule_params
from dominosim.fast.core.shape import Shape
from dominosim.fast.engine import max_events
from dominosim.fast.search import consistent as fc
from dominosim.fast.search import infer as fi
from dominosim.fast.search import worlds as fw
from dominosim.reference.game import Move
from dominosim.reference.hand import play_hand
from dominosim.rng import Stream
from dominosim.rules import Rules
from dominosim.strategies import view_of
from dominosim.strategies.features import FEATURE_NAMES
from dominosim.strategies.lineup import resolve
from dominosim.strategies.search import SearchStrategy, model_arrays, position_board, table_states
from dominosim.strategies.weighted import default_model, move_probability
from dominosim.tiles import tile_id, tile_of


def _soft(rules, seed, temperature):
    """A weighted player of random weights (the features' scales differ: weights of the size
    that makes the scores' differences about 1) at ``temperature``."""
    rng = np.random.default_rng(seed)
    weights = dict(zip(FEATURE_NAMES, rng.normal(0.0, 0.4, len(FEATURE_NAMES)), strict=True))
    return ds.Weighted(rules, weights, temperature=temperature)


BLOCK3 = Rules.preset("block", players=2, max_pip=3, hand_size=3)
DRAW3 = Rules.preset("draw", players=2, max_pip=3, hand_size=3)
CASES = [  # rules, the line-up that plays the hand (seat 0 is the viewer)
    (Rules.preset("block", players=2, max_pip=3, hand_size=3), ["random", "bully"]),
    (Rules.preset("block", players=3, max_pip=3, hand_size=3), ["random", "bully", "doubles"]),
    (Rules.preset("block", players=2, max_pip=4, hand_size=4), ["random", "bully"]),
    (Rules.preset("block", players=2, max_pip=3, hand_size=3, opening="any"), ["bully", "bully"]),
    (Rules.preset("draw", players=2, max_pip=3, hand_size=3), ["random", "bully"]),
    (Rules.preset("block", players=2, max_pip=4, hand_size=4), ["random", "random"]),
    (BLOCK3, ["random", _soft(BLOCK3, 1, 0.7)]),
    (Rules.preset("block", players=3, max_pip=3, hand_size=3),
     ["random", "ismcts:5", _soft(Rules.preset("block", players=3, max_pip=3, hand_size=3), 2,
                                  0.0)]),
    (DRAW3, ["random", _soft(DRAW3, 3, 0.5)]),
]
IDS = ["block2-d3", "block3-d3", "block2-d4", "block2-any", "draw2-d3", "block2-random",
       "block2-softmax", "block3-default-deterministic", "draw2-softmax"]


def _likelihood(rules, lineup, me, hands, boneyard, history):
    """The likelihood of ``history`` from this deal under the line-up's strategies (seat ``me``
    not modelled), replayed on the reference game state (the history agrees with the deal)."""
    weight = Fraction(1)
    for k, ev in enumerate(history):
        state = _replay(rules, hands, boneyard, history[:k])
        if ev.kind == "play" and ev.seat != me and not (
                state.opener < 0 and rules.opening == "highest_double"):
            moves = state.legal_moves(ev.seat)
            player = _weighted_model(rules, lineup[ev.seat])
            if lineup[ev.seat] == "random":
                weight /= len(moves)
            elif len(moves) > 1 and player is not None:
                k = [Move(*m) for m in moves].index(Move(ev.tile, ev.suit))
                weight *= Fraction(move_probability(player.weights_for(rules),
                                                    view_of(state, ev.seat), moves, k,
                                                    player.temperature))
            elif len(moves) > 1:
                chosen = resolve(lineup[ev.seat]).choose(view_of(state, ev.seat), moves, Stream(0))
                if Move(*chosen) != Move(ev.tile, ev.suit):
                    return Fraction(0)
    return weight


def _weighted_model(rules, entry):
    """The weighted player a seat is modelled by (itself, or the default softmax model of a
    search), or None for ``random`` and the styles: written apart from ``model_of``."""
    if isinstance(entry, str) and entry in ("random", "bully", "doubles", "accompanied",
                                             "stitcher", "counter", "partner"):
        return None
    return entry if isinstance(entry, ds.Weighted) else default_model(rules)


def _posterior(view, dealt_mine, lineup):
    """{allocation: total likelihood of its histories} by enumeration."""
    history = [e for e in view.history if e.kind != "end"]
    found: Counter = Counter()
    for state, hands, order in _histories(view, dealt_mine):
        found[_hidden(view, state)] += _likelihood(view.rules, lineup, view.seat, hands, order,
                                                   history)
    return found


def _positions(rules, lineup, seeds):
    """The viewer's (seat 0) positions along hands played by ``lineup``, after some play of
    another seat."""
    for seed in seeds:
        log = play_hand(rules, lineup, seed=seed)
        hands, boneyard = log.deals[-1]
        events = [e for e in log.events if e.kind != "end"]
        for k in range(2, len(events) + 1):
            state = _replay(rules, hands, boneyard, events[:k])
            if not state.over and events[k - 1].seat != 0:
                yield view_of(state, 0), hands[0]


def _scratch(view, lineup, candidates):
    rules = view.rules
    models, rows = model_arrays(rules, lineup)
    ss = fw.make_search_scratch(rules.n_tiles, rules.players, max_events(rules), 1,
                                table_states(rules), weighted=fi.M_WEIGHTED in models)
    pub = np.zeros((max_events(rules), fb.PUB_COLS), dtype=np.int64)
    board, n_pub = position_board(view, pub)
    fi.set_models(models, rows, view.seat, candidates, ss.infer)
    rp = rule_params(rules)
    moves = np.zeros((2, 2 * rules.n_tiles), dtype=np.int64)
    dec = fw.Decision(view.seat, 0, moves, board, pub, n_pub)
    assert fw.set_root(rp, dec, False, ss, np.uint64(7)) > 0
    return Shape.searching(rules), rp, board, ss


def _allocation(rules, me, hands):
    return tuple(tuple(sorted((tile_of(x) for x in range(rules.n_tiles)
                               if fb.holds(hands, s, x)), key=tile_id))
                 for s in range(rules.players) if s != me)


@pytest.mark.parametrize("rules,lineup", CASES, ids=IDS)
def test_world_weights_equal_the_enumerated_likelihood(rules, lineup):
    """Every sampled world's weight is the likelihood of the public history in it, computed by
    replaying it with the reference strategies; in Block a world is one history, so the weight
    is exact world by world (1 exactly when ``bully`` would have made every play it made)."""
    checked = zeroed = exact = 0
    for view, mine in itertools.islice(_positions(rules, lineup, range(6)), 0, None, 2):
        post = _posterior(view, mine, lineup)
        histories = Counter(_hidden(view, s) for s, _, _ in _histories(view, mine))
        core, rp, board, ss = _scratch(view, lineup, 1)
        seen = set()
        for _ in range(300):
            fc.draw_deal(rp, 0, board.hands, ss.sampler, ss.infer.cand, ss.rng, rules.players)
            w = fi.world_weight(core, rp, 0, ss)
            alloc = _allocation(rules, 0, ss.infer.cand.hands)
            seen.add(alloc)
            if rules.draw == "none" or histories[alloc] == 1:
                assert w == pytest.approx(float(post[alloc]), rel=1e-12, abs=0)
                exact += 1
            elif post[alloc] == 0:  # none of its histories agrees with the model
                assert w == 0.0
            elif post[alloc] == histories[alloc]:  # all of them do
                assert w == 1.0
            zeroed += w == 0.0
        assert seen == set(histories)
        checked += 1
    assert checked >= 4 and exact >= 100
    if "bully" in lineup or any(getattr(s, "temperature", 1) == 0 for s in lineup):
        assert zeroed > 0  # the model ruled some worlds out


def _follows_the_posterior(view, lineup, post, candidates, n):
    """Draw ``n`` worlds with ``candidates`` a world and assert that they are the posterior's
    support and follow it (chi-square, fixed seed); returns the search's scratch and the count
    of each allocation drawn."""
    core, rp, board, ss = _scratch(view, lineup, candidates)
    seen = Counter()
    for _ in range(n):
        fw.determinize(core, rp, 0, False, board, ss)
        seen[_allocation(view.rules, 0, ss.dealt.hands)] += 1
    support = sorted(a for a, v in post.items() if v > 0)
    assert sorted(seen) == support
    total = sum(post.values())
    expected = [n * float(post[a] / total) for a in support]
    assert chisquare([seen[a] for a in support], expected).pvalue > 0.001
    return ss, seen


@pytest.mark.parametrize("rules,lineup", [CASES[0], CASES[1], CASES[4]],
                         ids=["block2-d3", "block3-d3", "draw2-d3"])
def test_inferred_worlds_follow_the_exact_posterior(rules, lineup):
    """The resampled worlds of a deterministic model are exactly the consistent deals in which the
    style would have made every play, each in proportion to its histories (chi-square, fixed
    seed, on the first position where the model rules out some deals)."""
    for view, mine in _positions(rules, lineup, range(40)):
        post = _posterior(view, mine, lineup)
        if sum(v == 0 for v in post.values()) >= 2 and sum(v > 0 for v in post.values()) >= 3:
            break
    else:
        raise AssertionError("no position where the model rules deals out")
    ss, _ = _follows_the_posterior(view, lineup, post, 4, 2000)
    assert ss.infer.info[fi.INF_MISSES] == 0


def test_softmax_worlds_follow_the_posterior_in_draw():
    """A softmax model in Draw (a world is many histories, each of its own likelihood): the
    resampled worlds follow the exact posterior (chi-square, fixed seed; 64 candidates a world,
    whose resampling bias is far below what 1,500 draws can see), on a position after a draw
    where the posterior is far from the uniform worlds' (total variation 0.15 or more)."""
    rules, lineup = CASES[8]
    for view, mine in _positions(rules, lineup, range(40)):
        if not any(e.kind == "draw" for e in view.history):
            continue
        post = _posterior(view, mine, lineup)
        prior = Counter(_hidden(view, s) for s, _, _ in _histories(view, mine))
        p_total, q_total = sum(post.values()), sum(prior.values())
        distance = sum(abs(float(post[a] / p_total) - prior[a] / q_total) for a in prior) / 2
        if distance >= 0.15 and sum(v > 0 for v in post.values()) >= 4:
            break
    else:
        raise AssertionError("no position after a draw where the model moves the posterior")
    _, seen = _follows_the_posterior(view, lineup, post, 64, 1500)
    support = sorted(seen)
    uniform = [1500 * prior[a] / q_total for a in support]
    assert chisquare([seen[a] for a in support], uniform).pvalue < 0.001  # not the prior


def test_infer_names_parse_and_refuse():
    assert SearchStrategy.from_name("pimc:50+infer").name == "pimc:50+infer"
    assert SearchStrategy.from_name("ismcts+infer:8").name == "ismcts:1000+infer:8"
    assert SearchStrategy.from_name("mc:5").infer == 0
    with pytest.raises(ValueError, match="strategies"):
        SearchStrategy.from_name("pimc:50+inferr")
    with pytest.raises(ValueError, match="infer"):
        SearchStrategy("ismcts", 100, omniscient=True, infer=4)


@pytest.mark.parametrize("preset,players,lineup", [
    pytest.param("block", 4, ["pimc:3+infer", "bully", "ismcts:40+infer", "random"],
                 marks=SOLVER_STACK),
    ("draw", 2, ["mc:4+infer", "doubles"]),
    ("draw", 3, ["ismcts:40+infer:4", "random", "counter"]),
])
def test_inference_identical_in_both_engines(preset, players, lineup):
    rules = ds.Rules.preset(preset, players=players)
    fast = ds.simulate(rules, lineup, n_hands=6, seed=11)
    ref = ds.simulate(rules, lineup, n_hands=6, seed=11, engine="reference")
    assert fast.equals(ref)
    plain = ds.simulate(rules, [s.replace("+infer:4", "").replace("+infer", "") for s in lineup],
                        n_hands=6, seed=11)
    assert not plain.equals(fast)  # the inference changed some decision


def test_analyze_with_inference_weights_its_worlds():
    """``ds.analyze(inference=...)`` draws its worlds from the model: against ``bully`` the
    values differ from the uniform worlds' in some position, and so do they under the default
    model, which ``method='best'`` uses when no strategy is given; bad values are refused."""
    from dominosim.solver.position import Position

    rules, lineup = CASES[2]
    differ = differ_default = checked = 0
    for seed in range(3):
        log = play_hand(rules, lineup, seed=seed)
        hands, boneyard = log.deals[-1]
        events = [e for e in log.events if e.kind != "end"]
        for k in range(2, len(events)):
            state = _replay(rules, hands, boneyard, events[:k])
            if events[k].kind != "play" or events[k].seat != 0 or \
                    len(state.legal_moves(0)) < 2:
                continue
            plain = ds.analyze(Position(state), budget=200, seed=1, n_jobs=1)
            inferred = ds.analyze(Position(state), budget=200, seed=1, n_jobs=1,
                                  inference=[None, "bully"])
            differ += not np.allclose(plain["win"], inferred["win"])
            modelled = ds.analyze(Position(state), budget=200, seed=1, n_jobs=1,
                                  inference="ismcts:1000")  # every seat: the learned softmax
            best = ds.analyze(Position(state), budget=200, seed=1, n_jobs=1, method="best")
            assert best.equals(modelled)
            differ_default += not np.allclose(plain["win"], modelled["win"])
            checked += 1
            decision, moves = Position(state), list(plain["move"])
    assert checked >= 3 and differ > 0 and differ_default > 0
    searching = ds.analyze(decision, budget=50, seed=1, n_jobs=1,
                           inference=[None, "ismcts:1000"])  # modelled by the learned softmax
    assert list(searching["move"]) == moves
    with pytest.raises(ValueError, match="inference"):
        ds.analyze(Position(state), budget=10, inference=["bully"])
    with pytest.raises(ValueError, match="inference.*'bullly'"):
        ds.analyze(Position(state), budget=10, inference=[None, "bullly"])
    with pytest.raises(ValueError, match="inference"):
        ds.analyze(Position(state), budget=10, method="playout", inference="bully")
