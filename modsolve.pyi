"""Type information of the `modsolve` extension module (python/src/lib.rs)."""

from typing import Any, Dict, List, Optional, Tuple, Union

Puzzle = Union[str, Dict[str, Any]]
Size = Union[int, str, None]

SCHEMA_VERSION: int
__version__: str

class PuzzleError(ValueError):
    kind: str
    message: str
    line: Optional[int]
    column: Optional[int]
    field: Optional[str]
    rendered: Optional[str]

def solve(
    puzzle: Puzzle,
    *,
    minimize: str = "total",
    method: str = "auto",
    budget: Optional[float] = None,
    nodes: Optional[int] = None,
    timeout: Optional[float] = None,
    all: bool = False,
    limit: int = 1000,
    max_memory: Size = None,
) -> Dict[str, Any]: ...
def check(
    puzzle: Puzzle,
    *,
    budget: Optional[float] = None,
    nodes: Optional[int] = None,
    timeout: Optional[float] = None,
    deny_warnings: bool = False,
    max_memory: Size = None,
    file: Optional[str] = None,
) -> Dict[str, Any]: ...
def generate(
    template: Puzzle,
    *,
    count: int = 10,
    seed: int = 1,
    unique: bool = False,
    par: Optional[Tuple[int, int]] = None,
    strategy: Optional[str] = None,
    attempts: Optional[int] = None,
    max_memory: Size = None,
    scramble: Optional[int] = None,
    deny_warnings: bool = False,
    file: Optional[str] = None,
) -> Dict[str, Any]: ...
def hint(
    puzzle: Puzzle,
    *,
    pressed: Optional[List[Union[int, str]]] = None,
    steps: bool = False,
    budget: Optional[float] = None,
    nodes: Optional[int] = None,
    timeout: Optional[float] = None,
    max_memory: Size = None,
) -> Dict[str, Any]: ...
def par_distribution(
    puzzle: Puzzle,
    *,
    budget: Optional[float] = None,
    nodes: Optional[int] = None,
    timeout: Optional[float] = None,
    exact_limit: int = 4294967296,
    samples: int = 1000,
    seed: int = 1,
    confidence: float = 0.95,
    max_memory: Size = None,
    file: Optional[str] = None,
) -> Dict[str, Any]: ...
def to_ron(puzzle: Puzzle, *, comment: str = "") -> str: ...
def new(
    form: str,
    *,
    rows: int = 5,
    cols: int = 5,
    size: int = 3,
    cells: int = 5,
    modulus: Union[int, str, List[int], None] = None,
    press: Optional[Tuple[int, int]] = None,
    start: Optional[int] = None,
) -> str: ...
def shard(
    puzzle: Puzzle,
    part: int,
    parts: int,
    *,
    minimize: str = "total",
    budget: Optional[float] = None,
    nodes: Optional[int] = None,
    threads: Optional[int] = None,
    below: Optional[int] = None,
) -> Dict[str, Any]: ...

class Prover:
    """A puzzle solved once and its walk prepared, to walk many of its parts."""

    def __init__(self, puzzle: Puzzle, *, minimize: str = "total", threads: Optional[int] = None) -> None: ...
    @property
    def puzzle_hash(self) -> str: ...
    @property
    def takes_cutoff(self) -> bool: ...
    def walk(
        self,
        part: int,
        parts: int,
        *,
        below: Optional[int] = None,
        budget: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> Dict[str, Any]: ...
    def audit(self, report: Union[str, Dict[str, Any]]) -> Dict[str, Any]: ...

def combine(
    puzzle: Puzzle,
    reports: List[Union[str, Dict[str, Any]]],
    *,
    audit: int = 0,
    seed: Optional[int] = None,
) -> Dict[str, Any]: ...
