"""Budget arithmetic: what each check refuses, the exact stop reason, and the reserve held for the answer."""

import pytest

from clew.budgets.bounds import Clamp, clamp
from clew.budgets.limits import HARD_MAX_TOOL_CALLS, Budget, Limits, Usage, fit_prefix
from clew.errors import BudgetExhausted


def budget(**limits: int) -> Budget:
    return Budget(Limits(**limits), Usage())


def test_tool_calls_are_charged_before_they_run_and_refused_at_the_cap() -> None:
    b = budget(max_tool_calls=2)
    b.spend_tool_call()
    b.spend_tool_call()
    with pytest.raises(BudgetExhausted) as refused:
        b.spend_tool_call()
    assert refused.value.reason == "max_tool_calls"
    assert str(refused.value) == "the next tool call would exceed max_tool_calls=2"
    assert b.usage.tool_calls == 2  # the refused call was never counted


def test_iterations_stop_at_their_limit() -> None:
    b = budget(max_internal_iterations=1)
    b.check_before_iteration()
    b.usage.iterations = 1
    with pytest.raises(BudgetExhausted) as refused:
        b.check_before_iteration()
    assert refused.value.reason == "max_internal_iterations"


def test_context_spending_counts_the_reserve_and_names_it() -> None:
    b = budget(context_budget_tokens=100)
    b.spend_context(60)
    b.reserve(30)
    assert b.tokens_left == 10
    b.spend_context(10)
    with pytest.raises(BudgetExhausted) as refused:
        b.spend_context(1)
    assert refused.value.reason == "context_budget"
    assert "(70 used, 30 kept for the answer)" in str(refused.value)
    b.release()
    assert b.tokens_left == 30
    b.spend_context(30)
    assert (b.usage.context_tokens, b.tokens_left) == (100, 0)


def test_a_negative_reserve_holds_nothing_back() -> None:
    b = budget(context_budget_tokens=10)
    b.reserve(-5)
    assert b.reserved == 0 and b.tokens_left == 10


def test_limits_are_frozen_and_default_to_the_hard_cap() -> None:
    limits = Limits()
    assert limits.max_tool_calls == HARD_MAX_TOOL_CALLS == 20
    with pytest.raises(Exception, match="frozen"):
        limits.max_tool_calls = 99  # type: ignore[misc]


def test_cost_adds_up_and_unpriced_calls_leave_it_unknown() -> None:
    usage = Usage()
    usage.add_cost(None)
    assert usage.model_cost_usd is None
    usage.add_cost(0.25)
    usage.add_cost(0.5)
    assert usage.model_cost_usd == pytest.approx(0.75)


def test_fit_prefix_takes_the_longest_prefix_that_fits() -> None:
    words = ["aa", "bbb", "c", "dddd"]
    assert fit_prefix(words, len, 6) == ["aa", "bbb", "c"]
    assert fit_prefix(words, len, 1) == []
    assert fit_prefix(words, len, 100) == words


@pytest.mark.parametrize(("value", "applied"), [(-3, 1), (1, 1), (7, 7), (50, 50), (51, 50)])
def test_clamp_never_refuses_a_bound(value: int, applied: int) -> None:
    assert clamp(value, 1, 50) == applied
    assert Clamp(1, 50)(value) == applied
    assert str(Clamp(1, 50)) == "1-50; clamped"
