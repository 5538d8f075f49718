"""An option written in several forms, one a line, is one term of the description after it (task X26): the readers
write several ``dt`` over one ``dd`` so (mandoc's ``.It Xo ... .Xc`` items, man(7)'s ``.TP``/``.TQ``, Texinfo's
``@itemx``), one line each, and name the section by all of them joined with ", "."""

from __future__ import annotations

from clew.agent.declarations import option_term
from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units

SSH_L = """-L [bind_address:]port:host:hostport
-L [bind_address:]port:remote_socket
-L local_socket:host:hostport
-L local_socket:remote_socket

Specifies that connections to the given TCP port or Unix socket on the local (client) host are to be forwarded to \
the given host and port, or Unix socket, on the remote side. This works by allocating a socket to listen to either a \
TCP port on the local side, optionally bound to the specified bind_address, or to a Unix socket.

Port forwardings can also be specified in the configuration file. Only the superuser can forward privileged ports."""
"""ssh(1)'s ``-L`` as the man page reader writes it (OpenSSH 9.2's ssh.1: four ``.It Fl L Xo ... .Xc`` items over
one description; X24's man corpus, the pack passage of U37's M3)."""

SSH_L_TERM = ("-L [bind_address:]port:host:hostport, -L [bind_address:]port:remote_socket, "
              "-L local_socket:host:hostport, -L local_socket:remote_socket")


def test_an_options_forms_on_several_lines_are_the_term_of_its_description() -> None:
    # the four lines (8 words, more than a label's 6) were one sentence, and the description under no term
    units = passage_units(SSH_L, "ev1:c:95:1:23", 0)
    assert [unit.own for unit in units][:2] == [
        "Specifies that connections to the given TCP port or Unix socket on the local (client) host are to be "
        "forwarded to the given host and port, or Unix socket, on the remote side.",
        "This works by allocating a socket to listen to either a TCP port on the local side, optionally bound to the "
        "specified bind_address, or to a Unix socket."]
    assert [unit.header for unit in units] == [SSH_L_TERM, SSH_L_TERM, "", ""]


def test_the_description_of_stacked_forms_is_quoted_for_the_option() -> None:
    # no unit of the passage shares a question term of its own: with no term over it, nothing was quoted
    generation = extractive_answer("What does ssh -L do?", [("ev1:c:95:1:23", SSH_L)])
    assert generation is not None
    assert generation.answer.startswith(f"{SSH_L_TERM}\nSpecifies that connections to the given TCP port")


def test_a_short_and_a_long_name_on_two_lines_are_one_term() -> None:
    # man(7)'s .TP/.TQ, as GNU pages stack an option's names: joined as the reader names the section
    units = passage_units("-r\n--recursive\n\nRead all files under each directory, recursively.", "e", 0)
    assert [(unit.header, unit.own) for unit in units] == [
        ("-r, --recursive", "Read all files under each directory, recursively.")]


def test_lines_of_prose_opening_with_an_option_are_not_a_term() -> None:
    units = passage_units("-v prints each name.\n-q prints none.\n\nBoth can be given.", "e", 0)
    assert [(unit.header, unit.own) for unit in units] == [
        ("", "-v prints each name. -q prints none."), ("", "Both can be given.")]


def test_an_option_term_of_many_forms_is_read_form_by_form() -> None:
    # ssh's five -R forms are 10 words, more than one option's term (OPTION_WORDS): each form is one
    term = ("-R [bind_address:]port:host:hostport, -R [bind_address:]port:local_socket, "
            "-R remote_socket:host:hostport, -R remote_socket:local_socket, -R [bind_address:]port")
    assert option_term(term)[1] == {"-r"}
    assert option_term("-R sets the port on the remote side, and so does every form written after it here") == (
        frozenset(), frozenset())
