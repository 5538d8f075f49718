"""An example the chunker cut between its code blocks (task X14, U16's G2): Gutenprint's PDF manual says "Change
the following line from:" ``LogLevel Info`` "to" ``LogLevel Debug``, and the cut fell before "to". The word "to" was
too short to be a unit and was lost; the second block, with no lead-in, was never quoted."""

from __future__ import annotations

from clew.agent.generate import extractive_answer
from clew.agent.lead_ins import continue_lead_ins
from clew.agent.units import passage_units

BEFORE = """6. In the event of any difficulty, we ask that you take the following actions:

- If you are using CUPS, search /var/log/cups/error_log for lines starting with "E" (these lines indicate errors).
- If you are using CUPS, enable debugging output. This can be done by editing /etc/cups/cupsd.conf (which must be \
done as the superuser, or "root"). Change the following line from:

```
LogLevel Info
```
"""
AFTER = """to

```
LogLevel Debug
```

This will allow CUPS to produce extensive debugging output. You will need to restart CUPS (the exact procedure is \
system-dependent) after doing this. If you report a problem to the Gutenprint team, you will be asked for this \
information.
"""
QUESTION = "How do I turn on debug logging in CUPS to report a Gutenprint problem?"


def test_a_short_word_before_a_code_block_is_quoted_above_it() -> None:
    code = [u for u in passage_units(AFTER, "ev1:c:2:1:99", 0) if u.kind == "code"]
    assert [u.text for u in code] == ["to\n```\nLogLevel Debug\n```"]
    between = "```\npip install clew\n```\n\nor\n\n```\nuv add clew\n```\n"
    assert [u.text for u in passage_units(between, "e", 0)] == [
        "```\npip install clew\n```", "or\n```\nuv add clew\n```"]


def test_the_code_opening_the_next_passage_goes_on_with_the_lead_in_of_the_code_ending_the_one_before() -> None:
    result = extractive_answer(QUESTION, [("ev1:c:2:1:98", BEFORE), ("ev1:c:2:1:99", AFTER)])
    assert result is not None
    assert "Change the following line from:\n```\nLogLevel Info\n```" in result.answer
    assert "LogLevel Info\n``` [ev1:c:2:1:98]\nto\n```\nLogLevel Debug\n``` [ev1:c:2:1:99]" in result.answer


def test_code_opening_a_passage_is_not_taken_by_a_block_of_the_passage_before_with_no_lead_in() -> None:
    before = "Some settings of the daemon's file are shown here as an example of its form.\n\n```\nLogLevel Info\n```\n"
    result = extractive_answer("Which LogLevel shows the daemon's settings?", [("d:1", before), ("d:2", AFTER)])
    assert result is not None
    assert "LogLevel Info\n``` [d:1]\nto" not in result.answer


STEPS = """## Method 1: Using Git

1. Check if Git is installed:
   Open a terminal and run the following command:

```bash
git --version
```

2. Create a 'github' directory: Choose a location on your drive that will hold your toolboxes.
3. Clone the repository with submodules:
   Run the following command to clone the repository and its submodules:
"""
CLONE = """```bash
git clone --recurse-submodules https://example.org/lab/Toolkit.git
```

   This will clone the repository and its submodules into the 'github' directory.
4. Clone other toolkits: you may need several other toolkits.
"""
"""A numbered step of a Quarto book's install chapter (SignalFlow EEG's, task U33's B3) whose command the chunker cut
into the next passage."""

RESTRICTIONS = """There are two restrictions on when this method can be used:

- The index type must support index-only scans.
- The query must reference only columns stored in the index. Given an index on x and y, these queries could use it:
"""


def test_a_step_ending_its_passage_is_quoted_with_the_command_opening_the_next() -> None:
    """B3 (task X22, rule C1b): "Clone the repository with submodules: Run the following command ...:" was quoted
    alone and the ``git clone`` command never; an item in a lead-in's list stays under its lead-in."""
    evidence = [("ev1:c:5:1:1", STEPS), ("ev1:c:5:1:2", CLONE)]
    generation = extractive_answer("What command clones the repository with its submodules?", evidence)
    assert generation is not None
    assert (
        "Run the following command to clone the repository and its submodules: [ev1:c:5:1:1]\n```bash\n"
        "git clone --recurse-submodules https://example.org/lab/Toolkit.git\n```" in generation.answer
    )
    parsed = {"ev1:c:25:1:1": passage_units(RESTRICTIONS, "ev1:c:25:1:1", 0), "ev1:c:25:1:2": []}
    parsed["ev1:c:25:1:2"] = passage_units(CLONE, "ev1:c:25:1:2", 1)
    continue_lead_ins(parsed)
    assert not parsed["ev1:c:25:1:1"][-1].follow  # the second restriction, quoted with the first under their lead-in
