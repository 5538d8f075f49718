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
