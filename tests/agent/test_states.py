from pathlib import Path

import pytest

from clew.agent.states import TRANSITIONS, IllegalTransition, State, check_transition, mermaid

SNAPSHOT = Path(__file__).parent / "snapshots" / "transitions.mmd"


def test_transition_table_matches_the_snapshot() -> None:
    assert mermaid() + "\n" == SNAPSHOT.read_text()


def test_every_non_terminal_state_can_end_incomplete_or_failed() -> None:
    for state, targets in TRANSITIONS.items():
        if targets:
            assert State.FAILED in targets, state
    assert not TRANSITIONS[State.DONE] and not TRANSITIONS[State.INCOMPLETE]


def test_illegal_transitions_are_refused() -> None:
    with pytest.raises(IllegalTransition, match="illegal transition validate -> visit"):
        check_transition(State.VALIDATE, State.VISIT)
    with pytest.raises(IllegalTransition):
        check_transition(State.DONE, State.SEED)
    check_transition(State.OFFER, State.SELECT)


def test_the_table_is_what_the_handlers_return_plus_the_controllers_exits() -> None:
    """Every edge of the table is one a handler returns (its return type) or one the controller
    makes for it (a budget running out, a failure); no edge is missing and none is unused."""
    from typing import get_args, get_type_hints

    from clew.agent.controller import exits
    from clew.agent.handlers import HANDLERS

    assert set(HANDLERS) == {s for s, targets in TRANSITIONS.items() if targets}
    for state, handler in HANDLERS.items():
        returned = set(get_args(get_type_hints(handler)["return"]))
        assert returned, state
        assert returned | exits(state) == TRANSITIONS[state], state
