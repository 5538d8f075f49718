"""The page a question names (task X28, rules N2 and N3): ``clew ask "what does ssh -L do"`` on openssh-client's
ssh.1 and ssh-keygen.1 (OpenSSH 9.2p1, Debian 12) quoted ssh-keygen(1)'s ``-L`` and no word of ssh(1)'s ``-L``."""

from clew.agent.generate import extractive_answer
from clew.agent.named_pages import named_pages

L_FORMS = ("-L [bind_address:]port:host:hostport, -L [bind_address:]port:remote_socket, -L local_socket:host:hostport, "
           "-L local_socket:remote_socket")

PACK = [
    ('ev1:c:1:1:25', 'ssh-keygen(1)', ['DESCRIPTION', '-L'],
     '-L\n\nPrints the contents of one or more certificates.\n\n'),
    ('ev1:c:2:1:23', 'ssh(1)', ['DESCRIPTION', L_FORMS],
     '-L [bind_address:]port:host:hostport\n-L [bind_address:]port:remote_socket\n-L local_socket:host:'
     'hostport\n-L local_socket:remote_socket\n\nSpecifies that connections to the given TCP port or Uni'
     'x socket on the local (client) host are to be forwarded to the given host and port, or Unix soc'
     'ket, on the remote side. This works by allocating a socket to listen to either a TCP port on th'
     'e local side, optionally bound to the specified bind_address, or to a Unix socket. Whenever a c'
     'onnection is made to the local port or socket, the connection is forwarded over the secure chan'
     'nel, and a connection is made to either host port hostport, or the Unix socket remote_socket, f'
     'rom the remote machine.\n\nPort forwardings can also be specified in the configuration file. Only'
     ' the superuser can forward privileged ports. IPv6 addresses can be specified by enclosing the a'
     'ddress in square brackets.\n\n'),
    ('ev1:c:2:1:24', 'ssh(1)', ['DESCRIPTION', L_FORMS],
     'By default, the local port is bound in accordance with the GatewayPorts setting. However, an ex'
     'plicit bind_address may be used to bind the connection to a specific address. The bind_address '
     'of “localhost” indicates that the listening port be bound for local use only, while an empty ad'
     'dress or ‘*’ indicates that the port should be available from all interfaces.\n\n'),
    ('ev1:c:2:1:25', 'ssh(1)', ['DESCRIPTION', '-l login_name'],
     '-l login_name\n\nSpecifies the user to log in as on the remote machine. This also may be specifie'
     'd on a per-host basis in the configuration file.\n\n'),
    ('ev1:c:1:1:26', 'ssh-keygen(1)', ['DESCRIPTION', '-l'],
     '-l\n\nShow fingerprint of specified public key file. For RSA and DSA keys ssh-keygen tries to fin'
     'd the matching public key file and prints its fingerprint. If combined with -v, a visual ASCII '
     'art representation of the key is supplied with the fingerprint.\n\n'),
    ('ev1:c:1:1:36', 'ssh-keygen(1)', ['DESCRIPTION', '-Q'],
     '-Q\n\nTest whether keys have been revoked in a KRL. If the -l option is also specified then the c'
     'ontents of the KRL will be printed.\n\n'),
    ('ev1:c:2:1:1', 'ssh(1)', ['SYNOPSIS'],
     '## SYNOPSIS\n\nssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address] [-c cipher_sp'
     'ec] [-D [bind_address:]port] [-E log_file] [-e escape_char] [-F configfile] [-I pkcs11] [-i ide'
     'ntity_file] [-J destination] [-L address] [-l login_name] [-m mac_spec] [-O ctl_cmd] [-o option'
     '] [-p port] [-Q query_option] [-R address] [-S ctl_path] [-W host:port] [-w local_tun[:remote_t'
     'un]] destination [command [argument ...]]\n\n'),
    ('ev1:c:2:1:63', 'ssh(1)', ['TCP FORWARDING'],
     "```\n$ ssh -f -L 6667:localhost:6667 server.example.com sleep 10\n$ irc -c '#users' pinky IRC/127"
     '.0.0.1\n```\n\nThe -f option backgrounds ssh and the remote command “sleep 10” is specified to all'
     'ow an amount of time (10 seconds, in the example) to start the program which is going to use th'
     'e tunnel. If no connections are made within the time specified, ssh will exit.\n\n'),
]
"""The walk's first eight passages for the question on the two pages (evidence id, title, heading path, text)."""


def test_the_option_asked_is_quoted_from_the_page_the_question_names() -> None:
    evidence = [(e, text) for e, _, _, text in PACK]
    generation = extractive_answer("what does ssh -L do", evidence, paths={e: path for e, _, path, _ in PACK},
                                   titles={e: title for e, title, _, _ in PACK})
    assert generation is not None
    assert f"{L_FORMS}\nSpecifies that connections to the given TCP port or Unix socket on the local" in (
        generation.answer)  # before: ssh-keygen's -L, its -l and its synopsis, none of ssh(1)'s -L


def test_the_longest_name_the_question_writes_names_the_page() -> None:
    titles = {"a": "git(1)", "b": "git-status(1)", "c": "git-diff(1)"}
    assert named_pages("What does git status -s show?", titles) == {"b"}
    assert named_pages("what does ssh -L do", {"k": "ssh-keygen(1)", "s": "ssh(1)"}) == {"s"}
    assert named_pages("what does ssh -L do", {"k": "ssh-keygen(1)", "s": None}) == frozenset()


def test_a_question_that_writes_no_option_names_no_page() -> None:
    # N1 (any question) lost answers on npm, postgresql and Bootstrap: "Modal", "Tooltips", "npm" name pages
    # whose words many questions write; search orders the page named first only for an option, and so does this
    titles = {"q": "queue \u2014 A synchronized queue class", "h": "heapq \u2014 Heap queue algorithm"}
    assert named_pages("How does heapq order entries with equal priority?", titles) == frozenset()
    assert named_pages("Which heapq function takes a -key option?", titles) == {"h"}
