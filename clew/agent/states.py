"""The controller's states and the one table of legal transitions."""

from __future__ import annotations

from enum import Enum

from clew.errors import IllegalTransition


class State(str, Enum):
    VALIDATE = "validate"
    SEED = "seed"
    OFFER = "offer"
    SELECT = "select"
    VISIT = "visit"
    ACT = "act"
    GENERATE = "generate"
    DONE = "done"
    INCOMPLETE = "incomplete"
    FAILED = "failed"


TERMINAL = frozenset({State.DONE, State.INCOMPLETE, State.FAILED})

TRANSITIONS: dict[State, frozenset[State]] = {
    # each state's handler returns some of its targets; the controller adds the others (a budget
    # that runs out: GENERATE with what was found, else INCOMPLETE; a store or model failure:
    # FAILED). A test derives the table from the handlers' return types and checks it equals this.
    State.VALIDATE: frozenset({State.SEED, State.ACT, State.FAILED}),
    State.SEED: frozenset({State.OFFER, State.GENERATE, State.INCOMPLETE, State.FAILED}),
    State.OFFER: frozenset({State.SELECT, State.GENERATE, State.INCOMPLETE, State.FAILED}),
    State.SELECT: frozenset({State.VISIT, State.SELECT, State.GENERATE, State.INCOMPLETE, State.FAILED}),
    State.VISIT: frozenset({State.OFFER, State.GENERATE, State.INCOMPLETE, State.FAILED}),
    # free mode: the model calls tools (ACT) until it answers
    State.ACT: frozenset({State.ACT, State.GENERATE, State.INCOMPLETE, State.FAILED}),
    State.GENERATE: frozenset({State.DONE, State.INCOMPLETE, State.FAILED}),
    State.DONE: frozenset(),
    State.INCOMPLETE: frozenset(),
    State.FAILED: frozenset(),
}


def check_transition(source: State, target: State) -> None:
    if target not in TRANSITIONS[source]:
        raise IllegalTransition(source, target)


def mermaid() -> str:
    """The transition table as a mermaid state diagram (a test pins it)."""
    lines = ["stateDiagram-v2", f"    [*] --> {State.VALIDATE.value}"]
    for source, targets in TRANSITIONS.items():
        for target in sorted(targets, key=lambda s: list(State).index(s)):
            lines.append(f"    {source.value} --> {target.value}")
    lines.extend(f"    {state.value} --> [*]" for state in State if state in TERMINAL)
    return "\n".join(lines)
