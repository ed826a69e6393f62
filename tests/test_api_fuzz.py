"""Every public function under wrong arguments (issue 20): for each parameter of each function of
``ds.__all__``, wrong types, out-of-range values, NaN and huge integers give a correct result or a
one-line ``ValueError``/``TypeError`` that names what is wrong, never another exception."""

from __future__ import annotations

import re

import pytest
from api_fuzz_cases import BAD_VALUES, call_with, cases, parameters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominosim as ds

RECORDS = {"BestResponse", "GameValue", "CheckReport", "Comparison", "Tournament", "HandLog",
           "MatchLog", "Move", "Position", "Solution", "SeatView", "Summary", "IllegalMoveError",
           "Tuning", "Learning"}
"""Classes of ``ds.__all__`` that hold results: built by the library (their constructors take
what it computed); their public constructors are fuzzed as ``HandLog.from_json``,
``Position.from_deal`` and ``Summary.empty``."""
NAMED = re.compile(r"`[\w.\[\]-]+`|^Strategy '|^The compiled strategy ")
"""A message names what is wrong: a parameter or field in backticks, or the strategy."""


@pytest.fixture(autouse=True, scope="module")
def _in_a_scratch_folder(tmp_path_factory):
    """Run the fuzz in an empty folder: a bad value that is a valid path (``save="x"``) writes
    its file there, not into the checkout (commit 490f7c2 once committed such a file)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("fuzz"))
        yield


def test_every_public_function_has_a_fuzz_case():
    public = {name for name in ds.__all__ if callable(getattr(ds, name))
              and not isinstance(getattr(ds, name), type(ds))}
    covered = {name.split(".")[0] for name in cases()}
    assert public - RECORDS <= covered, sorted(public - RECORDS - covered)
    for name, (func, args, kwargs) in cases().items():  # each case works as written
        assert func(*args, **kwargs) is not None or name == "play", name


def check_call(name: str, parameter: str, value) -> None:
    try:
        call_with(name, parameter, value, cases())
    except (ValueError, TypeError) as error:
        message = str(error).strip()
        assert "\n" not in message, (name, parameter, value, message)
        assert NAMED.search(message), (name, parameter, value, message)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_public_function_gives_a_result_or_a_one_line_error(data):
    name = data.draw(st.sampled_from(sorted(cases())), label="function")
    func = cases()[name][0]
    parameter = data.draw(st.sampled_from(parameters(func)), label="parameter")
    value = data.draw(st.sampled_from(BAD_VALUES), label="value")
    check_call(name, parameter, value)


@pytest.mark.parametrize("name, parameter, value", [
    ("analyze", "seed", 2**64), ("analyze", "seat", 2.0), ("analyze", "seed", 1.5),
    ("review", "seed", "x"), ("exact", "max_states", "abc"), ("exact", "max_states", float("nan")),
    ("solve", "max_nodes", 2**63), ("Position.from_deal", "hands", None),
    ("check_strategy", "rules", "draw"), ("check_strategy", "n_hands", 0),
    ("check_strategy", "rules", []), ("replay", "hand", 2**64), ("play", "hand", 2**64),
    ("play", "seed", -1), ("play", "budget", 0), ("decisions", "n_hands", 2**64),
    ("decisions", "start", 2**63),
])
def test_the_cases_of_the_issue_are_one_line_errors(name, parameter, value):
    with pytest.raises(ValueError, match=rf"^The value for `{re.escape(parameter)}` must be "):
        call_with(name, parameter, value, cases())


@pytest.mark.parametrize("parameter", parameters(ds.warm))
def test_warm_refuses_every_bad_value_before_compiling_anything(parameter, monkeypatch):
    """Every bad value of every parameter of ``ds.warm``: a one-line error naming what is wrong,
    or (for the values that are valid) the case's kernel found in this process; no worker process
    is ever started to compile."""
    from dominosim.simulation import warm

    def no_worker() -> None:
        raise AssertionError("a worker process was started to compile")

    monkeypatch.setattr(warm, "_Worker", no_worker)
    for value in BAD_VALUES:
        try:
            table = call_with("warm", parameter, value, cases())
        except (ValueError, TypeError) as error:
            message = str(error).strip()
            assert "\n" not in message and NAMED.search(message), (parameter, value, message)
        else:
            assert list(table["status"]) == ["on disk"], (parameter, value, table)
