"""The one status vocabulary of the compiled engine: what a kernel, a search or the sampler reports
instead of raising (compiled code raises nothing).

A hand kernel returns a status, :data:`OK` or one of the ``ERR_*`` codes, an index into
:data:`STATUSES`. A search or the consistent-deal sampler returns an index or a count, which is
never negative, or the status of what stopped it, negated: :data:`TOO_MANY_STATES`,
:data:`NO_DEAL` or :data:`SOLVER_LIMIT`. A plug-in's fault carries, above the code, the seat and
the value the plug-in returned (:func:`plugin_fault`, read back by :func:`code_of`,
:func:`fault_seat` and :func:`fault_value`).

Examples
--------
>>> STATUSES[ERR_SEARCH_DEAL], -NO_DEAL == ERR_SEARCH_DEAL
('search_deal', True)
>>> status = plugin_fault(2, -7)
>>> STATUSES[code_of(status)], fault_seat(status), fault_value(status)
('plugin', 2, -7)
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

STATUSES = ("ok", "redeals", "log_full", "plugin", "search_states", "search_deal", "search_solver",
            "rule", "method")
"""The statuses by code: no redeal had a double, the event log was too short, a plug-in returned
no index of its moves, a search's table of consistent deals was too large, no deal agrees with the
public log (a bug), a sampled world passed the solver's node limit, a rule code has no decider in
the compiled engine, a search method has none."""
(OK, ERR_REDEALS, ERR_LOG_FULL, ERR_PLUGIN, ERR_SEARCH_STATES, ERR_SEARCH_DEAL, ERR_SEARCH_SOLVER,
 ERR_RULE, ERR_METHOD) = range(len(STATUSES))

TOO_MANY_STATES = -ERR_SEARCH_STATES
"""Returned by a search or the sampler: more consistent-deal states than its table holds."""
NO_DEAL = -ERR_SEARCH_DEAL
"""Returned by a search or the sampler: no hidden history agrees with the public log."""
SOLVER_LIMIT = -ERR_SEARCH_SOLVER
"""Returned by a search: a sampled world passed the solver's node limit."""
NO_RULE = -ERR_RULE
"""Returned by a search: a rule code of the position has no decider."""
NO_METHOD = -ERR_METHOD
"""Returned by a search: its method has no search."""

CODE_BITS = 8
"""Bits of a status's code (its low byte)."""
SEAT_BITS = 8
"""Bits of a plug-in fault's seat, above the code."""
VALUE_SHIFT = CODE_BITS + SEAT_BITS
"""Where a plug-in fault keeps the low 32 bits of the value the plug-in returned."""
_CODE_MASK = (1 << CODE_BITS) - 1
_SEAT_MASK = (1 << SEAT_BITS) - 1
_VALUE_MASK = 0xFFFFFFFF


@register_jitable
def plugin_fault(seat, value):
    """The status of a plug-in at ``seat`` that returned ``value``, not an index of its moves."""
    return ERR_PLUGIN | (seat << CODE_BITS) | ((value & _VALUE_MASK) << VALUE_SHIFT)


def code_of(status: int) -> int:
    """The code of a status (an index into :data:`STATUSES`)."""
    return int(status) & _CODE_MASK


def fault_seat(status: int) -> int:
    """The seat of a plug-in's fault (see :func:`plugin_fault`)."""
    return (int(status) >> CODE_BITS) & _SEAT_MASK


def fault_value(status: int) -> int:
    """The value a faulty plug-in returned, as the 32-bit integer it was cut to."""
    return int(np.int64(int(status) >> VALUE_SHIFT).astype(np.int32))
