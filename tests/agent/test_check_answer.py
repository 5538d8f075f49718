"""A model's answer is checked against the evidence it was given (clew.agent.generate.check_answer):
a citation is read by the one id parser, a sentence goes with its removed citation, every kept
sentence cites evidence holding its terms, and a reply that repeats itself is cut."""

from clew.agent.generate import check_answer


def test_a_citation_is_read_by_the_one_id_parser_and_a_non_canonical_one_is_removed_as_malformed() -> None:
    arabic_one = "\u0661"
    answer = f"Kept [ev1:c:1:1:0]. Padded [ev1:c:0001:1:0]. Arabic-Indic [ev1:c:{arabic_one}:1:0]. Odd [ev1:c:x]."
    checked = check_answer(answer, {"ev1:c:1:1:0": "Kept."}, "m")
    assert [c.evidence_id for c in checked.citations] == ["ev1:c:1:1:0"]
    assert [(c.evidence_id, c.reason) for c in checked.removed_citations] == [
        ("ev1:c:0001:1:0", "malformed evidence id"), (f"ev1:c:{arabic_one}:1:0", "malformed evidence id"),
        ("ev1:c:x", "malformed evidence id")]
    assert checked.answer == "Kept [ev1:c:1:1:0]."  # each sentence stood only on its removed citation


def test_a_sentence_whose_citation_is_removed_goes_with_it() -> None:
    answer = ("Orion Maps ships weekly [ev1:c:1:1:0]. Orion Maps is owned by Daniel Okafor [ev1:c:9:1:9].\n"
              "Both teams agree weekly [ev1:c:1:1:0] [ev1:c:9:1:9].")
    checked = check_answer(answer, {"ev1:c:1:1:0": "Orion Maps ships weekly; both teams agree."}, "m")
    assert checked.answer == ("Orion Maps ships weekly [ev1:c:1:1:0].\n"
                              "Both teams agree weekly [ev1:c:1:1:0].")
    assert [c.evidence_id for c in checked.removed_citations] == ["ev1:c:9:1:9"]
    assert "Okafor" not in checked.answer
    assert checked.unsupported == ["Orion Maps is owned by Daniel Okafor."]


def test_every_kept_sentence_cites_evidence_that_holds_its_terms() -> None:
    evidence = {"ev1:c:1:1:0": "Robot logs are kept for 30 days. Personal data is erased within 10 business days."}
    answer = ("Robot logs are kept for 30 days [ev1:c:1:1:0]. Logs are encrypted with AES-256 at rest [ev1:c:1:1:0]. "
              "Personal data goes within 10 business days.\nAsk the data team [ev1:c:1:1:0].")
    checked = check_answer(answer, evidence, "m")
    assert checked.answer == "Robot logs are kept for 30 days [ev1:c:1:1:0]."
    assert checked.unsupported == ["Logs are encrypted with AES-256 at rest.",  # its terms are not in the evidence
                                   "Personal data goes within 10 business days.",  # no citation
                                   "Ask the data team."]
    assert [c.evidence_id for c in checked.citations] == ["ev1:c:1:1:0"]


def test_a_reply_that_repeats_itself_is_cut_at_the_repetition() -> None:
    evidence = {"ev1:c:2:1:0": "Roll back with deployctl rollback. Confirm the error rate afterwards."}
    loop = "Roll back with deployctl rollback [ev1:c:2:1:0]. Confirm the error rate afterwards [ev1:c:2:1:0]. "
    checked = check_answer(loop * 6, evidence, "m")
    assert checked.repetition_cut and checked.answer == loop.strip()
