"""The fewest-presses proof of a puzzle, cut into parts that run as Ray tasks.

`fewest(puzzle, shards=N)` runs the N parts of the walk (the work of `modsolve FILE --shard
K/N --json`) as Ray tasks of one CPU each, a batch of consecutive parts a task, with the GIL
released. Each worker process solves the puzzle once (`modsolve.Prover`, kept for the run) and
walks every part it is given with it; each batch starts with the best score found so far as
a cutoff (`below`: a part looks only for plans scoring at most the best known, so later parts
prune more, and its report says so). A task whose worker died is run again (`max_retries`).
Progress is reported per part (the parts done, the best plan so far), and the reports are
combined (`modsolve.combine`: one puzzle, one objective, every part once, every plan
simulated, every cutoff backed by a plan). With `address=None` it starts Ray on this machine
(or uses the Ray already started); on a cluster, `address="auto"`. Ray is an optional
dependency: `pip install modsolve[ray]`.

Resuming: pass the reports of an earlier run as `done`; only the parts missing from them run.

Auditing: every report is checked by `combine` against the puzzle and its run (its run's
identity, the shared starting plan, its plan simulated and placed in its own part), but that a
finished part was walked to its end is its worker's word. So `audit` finished parts (2 by
default), chosen at random by `seed` (printed with the progress), are walked again as Ray
tasks of their own (`Prover.audit`); a part whose report disagrees is walked once more and the
new report, when it agrees with the audit, takes its place (else RuntimeError). The result's
`audited` and `seed` say which parts were walked again.
"""

import json
import random
import sys
import time
import uuid

# This worker process's Prover for the run it works for: (run, Prover). One run at a time is
# kept, so that a long-lived worker does not collect the puzzles of past runs.
_PROVER = [None, None]


def _walk_parts(puzzle, run, first, last, parts, minimize, budget, nodes, below):
    """Parts `first..last` of `parts`, one after another on one core (a Ray task is given one
    CPU), each with the best score known as its cutoff (the batch's own plans included)."""
    prover = _prover(puzzle, run, minimize)
    reports = []
    for k in range(first, last):
        report = prover.walk(k, parts, below=below, budget=budget, nodes=nodes)
        below = _cutoff(below, report)
        # The driver needs the score; combine reads the JSON text, written here on the
        # workers' cores rather than by the driver at the end.
        reports.append((report["score"], json.dumps(report)))
    return reports


def _prover(puzzle, run, minimize):
    """This worker process's Prover for `run`, made once."""
    import modsolve

    if _PROVER[0] != run:
        _PROVER[0], _PROVER[1] = None, None
        _PROVER[1] = modsolve.Prover(puzzle, minimize=minimize, threads=1)
        _PROVER[0] = run
    return _PROVER[1]


def _audit_part(puzzle, run, minimize, text):
    """A finished part's report (JSON text) walked again to its end: (agrees, the report
    walked again as JSON text)."""
    result = _prover(puzzle, run, minimize).audit(text)
    return result["agrees"], json.dumps(result["report"])


def _cutoff(below, report):
    """The cutoff after `report`: one more than the best score known, so that a part still
    finds plans that tie the best (the plan combined is then the one of a run without
    cutoffs, whatever order the parts ran in)."""
    return _lower(below, report["score"])


def _lower(below, score):
    if score is None:
        return below
    return score + 1 if below is None else min(below, score + 1)


def _floor(modsolve, puzzle, minimize):
    """A proven lower bound on the fewest total presses, from the analysis with no search (the
    relaxations' bound): cheap next to the walk. None for the other objectives."""
    if minimize != "total":
        return None
    bound = modsolve.solve(puzzle, nodes=0)["fewest"] or {}
    bound = bound.get("lower_bound")
    return None if bound is None else int(bound)


def _print_progress(state):
    if "audited" in state:
        again = "" if not state["rerun"] else f"; walked again after disagreeing: {state['rerun']}"
        print(
            f"modsolve: audited parts {state['audited']} (seed {state['seed']}){again}",
            file=sys.stderr,
            flush=True,
        )
        return
    best = state["best"]
    shown = "none yet" if best is None else f"{best} (part {state['from_part']})"
    floor = "" if state.get("bound") is None else f", at least {state['bound']}"
    print(
        f"modsolve: {state['done']}/{state['parts']} parts done, best so far {shown}{floor}, "
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
    batch=None,
    audit=2,
    seed=None,
):
    """The proven best plan of `puzzle` (RON text or a dict) for `minimize`, its walk cut into
    `shards` parts run as Ray tasks: the document of `modsolve combine --json`, as a dict
    (`proven`, `score`, `presses`, `missing`, `unfinished`, ...).

    `budget` (seconds) or `nodes` bound each part (None: every part walks to its end; a part
    cut short is `unfinished` and the answer is not proven). `max_retries`: how many times Ray
    runs a task again whose worker died. `progress`: True prints a line on standard error as
    parts finish, a callable is called with a dict (`done`, `parts`, `best`, `from_part`,
    `bound`: a proven floor for `total` from the analysis with no search, `elapsed`, and
    `reports`: the JSON lines of the parts just finished, to keep for resuming),
    False says nothing. `done`: part reports (dicts or JSON lines) of an earlier run of the
    same puzzle, objective and `shards`; only the other parts run. `batch`: parts a task walks one after
    another (None: about eight tasks a CPU, at most 64 parts a task). `audit`: how many finished
    parts to walk again, chosen at random by `seed` (None: a random seed), each as a task of its
    own; a part that disagrees with its audit is walked again and its new report used (progress
    then gets `rerun`, the parts walked again). The result's `audited` and `seed` say which
    parts were audited.
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
    if not isinstance(audit, int) or audit < 0:
        raise ValueError(f"audit is {audit!r}; it must be a whole number from 0")
    if seed is None:
        seed = random.randrange(1_000_000_000)
    if batch is not None and (not isinstance(batch, int) or batch < 1):
        raise ValueError(f"batch is {batch!r}; it must be a whole number from 1 (None: chosen)")
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    started = time.monotonic()
    report = progress if callable(progress) else (_print_progress if progress else None)
    floor = _floor(modsolve, puzzle, minimize) if report is not None else None
    earlier = [json.loads(r) if isinstance(r, str) else dict(r) for r in done]
    reports = list(earlier)
    have = {r["part"] for r in earlier}
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    if batch is None:
        batch = min(64, max(1, shards // (8 * cpus)))
    # Runs of consecutive parts still to walk, at most `batch` long.
    runs = []
    k = 0
    while k < shards:
        if k in have:
            k += 1
            continue
        end = k
        while end < shards and end < k + batch and end not in have:
            end += 1
        runs.append((k, end))
        k = end
    runs.reverse()
    task = ray.remote(num_cpus=1, max_retries=max_retries, retry_exceptions=False)(_walk_parts)
    text = ray.put(puzzle)
    run = uuid.uuid4().hex
    best = None
    below = None
    for r in earlier:
        below = _cutoff(below, r)
        if r["score"] is not None and (best is None or (r["score"], r["part"]) < best):
            best = (r["score"], r["part"])

    submitted = {}

    def submit():
        first, last = runs.pop()
        ref = task.remote(text, run, first, last, shards, minimize, budget, nodes, below)
        submitted[ref] = first
        return ref

    # One task a CPU and one waiting: a task starts with the best score of every task that
    # finished before it was submitted.
    pending = [submit() for _ in range(min(len(runs), cpus + 1))]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        first = ready[0]
        finished = []
        for k, (score, text) in enumerate(ray.get(first), start=submitted.pop(first)):
            finished.append(text)
            reports.append(text)
            below = _lower(below, score)
            if score is not None and (best is None or (score, k) < best):
                best = (score, k)
        if runs:
            pending.append(submit())
        if report is not None:
            report(
                {
                    "done": len(reports),
                    "parts": shards,
                    "best": None if best is None else best[0],
                    "from_part": None if best is None else best[1],
                    "bound": floor,
                    "elapsed": time.monotonic() - started,
                    "reports": finished,
                }
            )
    audited, rerun = _audit(ray, text, run, minimize, reports, audit, seed, task, shards)
    if report is not None and audited:
        report(
            {
                "done": len(reports),
                "parts": shards,
                "best": None if best is None else best[0],
                "from_part": None if best is None else best[1],
                "bound": floor,
                "elapsed": time.monotonic() - started,
                "reports": [],
                "audited": audited,
                "seed": seed,
                "rerun": rerun,
            }
        )
    combined = modsolve.combine(puzzle, reports)
    combined["audited"], combined["seed"] = audited, seed
    return combined


def _audit(ray, text, run, minimize, reports, audit, seed, walk_task, shards):
    """Walks `audit` finished reports again (chosen by `seed`), one Ray task each; a part
    that disagrees is walked once more and its new report put in `reports` in its place.
    Returns the parts audited and the parts walked again, in order."""
    parsed = [json.loads(r) if isinstance(r, str) else dict(r) for r in reports]
    finished = [i for i, r in enumerate(parsed) if r["finished"]]
    chosen = sorted(random.Random(seed).sample(finished, min(audit, len(finished))), key=lambda i: parsed[i]["part"])
    if not chosen:
        return [], []
    task = ray.remote(num_cpus=1, retry_exceptions=False)(_audit_part)
    results = ray.get([task.remote(text, run, minimize, json.dumps(parsed[i])) for i in chosen])
    rerun = []
    for i, (agrees, again) in zip(chosen, results):
        if agrees:
            continue
        k = parsed[i]["part"]
        # The part walked once more, to its end, with its cutoff: its report must agree with
        # the audit's before it replaces the one that disagreed.
        [(score, walked)] = ray.get(walk_task.remote(text, run, k, k + 1, shards, minimize, None, None, parsed[i].get("below")))
        if score != json.loads(again)["score"]:
            raise RuntimeError(
                f"part {k}/{shards} disagreed with its audit, and walked again it disagrees with the audit too "
                f"(scores {parsed[i]['score']}, {json.loads(again)['score']}, {score}): a worker is faulty"
            )
        reports[i] = walked
        rerun.append(k)
    return [parsed[i]["part"] for i in chosen], rerun
