"""The fewest-presses proof of a puzzle, cut into parts that run as Ray tasks.

`fewest(puzzle, shards=N)` submits the N parts of the walk (`modsolve.shard`, the work of
`modsolve FILE --shard K/N --json`, run with the GIL released) as Ray tasks of one CPU each,
retries a task whose worker died (`max_retries`), reports progress as parts finish (the parts
done, the best plan so far: the bound every later part must beat), and combines the reports
(`modsolve.combine`: one puzzle, one objective, every part once, every plan simulated). With
`address=None` it starts Ray on this machine (or uses the Ray already started); on a cluster,
`address="auto"`. Ray is an optional dependency: `pip install modsolve[ray]`.

Resuming: pass the reports of an earlier run as `done`; only the parts missing from them run.
"""

import sys
import time


def _walk_part(puzzle, part, parts, minimize, budget, nodes):
    """One part, on one core (a Ray task is given one CPU)."""
    import modsolve

    return modsolve.shard(puzzle, part, parts, minimize=minimize, budget=budget, nodes=nodes, threads=1)


def _print_progress(state):
    best = state["best"]
    shown = "none yet" if best is None else f"{best} (part {state['from_part']})"
    print(
        f"modsolve: {state['done']}/{state['parts']} parts done, best so far {shown}, "
        f"{state['elapsed']:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def fewest(
    puzzle,
    shards=64,
    address=None,
    *,
    minimize="total",
    budget=None,
    nodes=None,
    max_retries=3,
    progress=True,
    done=(),
):
    """The proven best plan of `puzzle` (RON text or a dict) for `minimize`, its walk cut into
    `shards` parts run as Ray tasks: the document of `modsolve combine --json`, as a dict
    (`proven`, `score`, `presses`, `missing`, `unfinished`, ...).

    `budget` (seconds) or `nodes` bound each part (None: every part walks to its end; a part
    cut short is `unfinished` and the answer is not proven). `max_retries`: how many times Ray
    runs a task again whose worker died. `progress`: True prints a line on standard error as
    each part finishes, a callable is called with a dict (`done`, `parts`, `best`,
    `from_part`, `elapsed`), False says nothing. `done`: part reports of an earlier run of the
    same puzzle, objective and `shards`; only the other parts run.
    """
    import modsolve

    try:
        import ray
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("modsolve.distributed needs Ray: pip install modsolve[ray]") from e
    if not isinstance(puzzle, str):
        puzzle = modsolve.to_ron(puzzle)
    if not isinstance(shards, int) or not 1 <= shards <= 1 << 20:
        raise ValueError(f"shards is {shards!r}; it must be a whole number from 1 to 2^20")
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    report = progress if callable(progress) else (_print_progress if progress else None)
    reports = [dict(r) for r in done]
    have = {r["part"] for r in reports}
    task = ray.remote(num_cpus=1, max_retries=max_retries, retry_exceptions=False)(_walk_part)
    text = ray.put(puzzle)
    pending = {
        task.remote(text, k, shards, minimize, budget, nodes): k for k in range(shards) if k not in have
    }
    started = time.monotonic()
    best = None
    for r in reports:
        if r["score"] is not None and (best is None or (r["score"], r["part"]) < best):
            best = (r["score"], r["part"])
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=min(len(pending), 16), timeout=1.0)
        for ref in ready:
            pending.pop(ref)
            r = ray.get(ref)
            reports.append(r)
            if r["score"] is not None and (best is None or (r["score"], r["part"]) < best):
                best = (r["score"], r["part"])
        if ready and report is not None:
            report(
                {
                    "done": len(reports),
                    "parts": shards,
                    "best": None if best is None else best[0],
                    "from_part": None if best is None else best[1],
                    "elapsed": time.monotonic() - started,
                }
            )
    return modsolve.combine(puzzle, reports)
