"""The scripted fakes in clew.testing: usage filled in unless the script gives it."""

import asyncio

from clew.budgets.tokens import count_tokens
from clew.testing import FunctionModel, ScriptedModel, reply_text

MESSAGES = [{"role": "user", "content": "How many replicas does the primary stream to?"}]


def test_usage_is_counted_when_the_script_does_not_give_it() -> None:
    reply = asyncio.run(ScriptedModel([reply_text("Two.")]).complete(MESSAGES))
    assert reply.input_tokens > count_tokens(MESSAGES[0]["content"]) and reply.output_tokens > 0


def test_usage_given_by_the_script_is_kept() -> None:
    model = FunctionModel(lambda messages, tools: {**reply_text("Two."), "input_tokens": 7, "output_tokens": 1})
    reply = asyncio.run(model.complete(MESSAGES))
    assert (reply.content, reply.input_tokens, reply.output_tokens) == ("Two.", 7, 1)
