import pytest

from clew.corpus import ids
from clew.errors import InputError, MalformedEvidenceId


def test_round_trip_of_each_kind() -> None:
    for value in (ids.chunk_id(7, 2, 31), ids.node_id(7, 2, 0), ids.document_id(7, 2)):
        assert str(ids.decode(value)) == value
    decoded = ids.decode("ev1:c:7:2:31")
    assert (decoded.kind, decoded.document, decoded.version, decoded.ordinal) == ("c", 7, 2, 31)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "blank"),
        ("   ", "blank"),
        ("ev2:c:1:1:1", "expected ev1"),
        ("ev1:x:1:1:1", "expected ev1"),
        ("ev1:c:1:1", "needs an ordinal"),
        ("ev1:d:1:1:3", "takes no ordinal"),
        ("ev1:c:1:0:3", "versions count from 1"),
        ("ev1:c:a:1:3", "expected ev1"),
        (42, "must be a string"),
        (None, "must be a string"),
    ],
)
def test_malformed_ids_say_why(value: object, reason: str) -> None:
    with pytest.raises(MalformedEvidenceId) as caught:
        ids.decode(value)
    assert reason in str(caught.value)
    assert caught.value.field == "evidence_id"
    assert isinstance(caught.value, InputError)
    assert not ids.is_well_formed(value)


def test_well_formed_is_not_existence() -> None:
    assert ids.is_well_formed("ev1:c:999999:5:0")


ARABIC_ONE, FULLWIDTH_ONE = "\u0661", "\uff11"
NOT_CANONICAL = [f"ev1:c:{ARABIC_ONE}:1:0", f"ev1:c:{FULLWIDTH_ONE}:1:0", "ev1:c:0001:1:0", "ev1:c:1:01:0",
                 "ev1:c:1:1:00", f"ev1:s:1:{ARABIC_ONE}:0", f"ev1:d:1:{FULLWIDTH_ONE}", "ev1:c:+1:1:0",
                 "ev1:c:1_0:1:0", "ev1:c:1:1:0:", "ev1:c:1:1:0:0"]
"""Spellings that ``int()`` would read as a number (or that once matched ``\\d``), none of them canonical."""


@pytest.mark.parametrize("value", NOT_CANONICAL)
def test_an_id_has_one_spelling_ascii_digits_without_leading_zeros(value: str) -> None:
    with pytest.raises(MalformedEvidenceId) as caught:
        ids.decode(value)
    assert caught.value.value == value
    assert not ids.is_well_formed(value)


def test_zero_and_the_longest_numbers_are_canonical() -> None:
    assert ids.decode("ev1:c:0:1:0") == ids.EvidenceId("c", 0, 1, 0)
    longest = f"ev1:c:{'9' * 18}:{'9' * 9}:{'9' * 9}"
    assert str(ids.decode(longest)) == longest
    with pytest.raises(MalformedEvidenceId, match="more than 18 digits"):
        ids.decode(f"ev1:c:{'1' * 19}:1:0")


def test_a_non_ascii_digit_is_named_in_the_message() -> None:
    with pytest.raises(MalformedEvidenceId) as caught:
        ids.decode(f"ev1:c:{ARABIC_ONE}:1:0")
    assert f"numbers in ASCII digits 0-9, no leading zeros; the document is '{ARABIC_ONE}'" in caught.value.message
