"""The time of loading a hand record typed in (``ds.HandLog.from_json``) and of its part that asks
whether some deal of the hidden tiles agrees with the whole history (``can_be_dealt``, issue 20),
beside the exact count of those deals (``count_dealt``).

Random hands are played, then written as a player would type them in: seat 0's hand known and the
rest hidden, or nothing known, the others' draws unnamed. Each is timed in CPU seconds, best of
three; ``can_be_dealt`` and ``count_dealt`` alone on the loaded deal and events.

    python benchmarks/bench_records.py --hands 30
"""

from __future__ import annotations

import argparse
import json
import time

import dominosim as ds
from dominosim.strategies.sampler import can_be_dealt, count_dealt

CASES = [("block", 2), ("block", 4), ("draw", 2), ("draw", 4), ("cross", 4),
         ("double_nine_cross", 4), ("ivory", 3)]


def typed_in(log: ds.HandLog, known: set[int]) -> str:
    """``log`` as a player types it in: only the hands of ``known`` seats, no boneyard, the
    others' draws unnamed."""
    data = json.loads(log.to_json())
    data["deal"]["hands"] = [h if s in known else None for s, h in enumerate(data["deal"]["hands"])]
    data["deal"]["boneyard"] = None
    data.pop("redeals", None)
    data["moves"] = [m if " draw" not in m or int(m.split(":")[0]) in known
                     else m.split(" draw")[0] + " draw" for m in data["moves"]]
    return json.dumps(data)


def best(call, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    print("| rule set | known | records | moves (mean) | load ms (mean, max) | "
          "can_be_dealt ms (mean, max) | count_dealt ms (mean, max) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for preset, players in CASES:
        rules = ds.Rules.preset(preset, players=players)
        logs = [ds.replay(rules, "random", seed=args.seed, hand=h) for h in range(args.hands)]
        for known in ({0}, set()):
            times: dict[str, list[float]] = {"load": [], "exists": [], "count": []}
            moves = []
            for log in logs:
                text = typed_in(log, known)
                times["load"].append(best(lambda text=text: ds.HandLog.from_json(text)))
                t = ds.HandLog.from_json(text)
                times["exists"].append(best(lambda t=t: can_be_dealt(t.rules, *t.deals[-1],
                                                                     t.events)))
                times["count"].append(best(lambda t=t: count_dealt(t.rules, *t.deals[-1],
                                                                   t.events)))
                moves.append(len(json.loads(text)["moves"]))
            cells = " | ".join(f"{1e3 * sum(v) / len(v):.2f}, {1e3 * max(v):.1f}"
                               for v in times.values())
            print(f"| {preset} {players}p | {'seat 0' if known else 'none'} | {len(logs)} | "
                  f"{sum(moves) / len(moves):.0f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
