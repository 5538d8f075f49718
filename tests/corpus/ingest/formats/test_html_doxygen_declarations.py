"""Doxygen 1.9.4's member declarations as Debian bookworm ships them (libsdl2-doc 2.26.5): the table above each
member's description (``div.memproto > table.memname``) is a line of code, not a table (task U14)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

HEAD = '<head><meta name="generator" content="Doxygen 1.9.4"/><title>SDL2: SDL_video.h File Reference</title></head>'
TITLE = '<div class="header"><div class="headertitle"><div class="title">SDL_video.h File Reference</div></div></div>'


def member(name: str, rows: str, doc: str) -> str:
    return (f'<h2 class="memtitle"><span class="permalink"><a href="#a5b">&#9670;&nbsp;</a></span>{name}</h2>\n'
            f'<div class="memitem">\n<div class="memproto">\n      <table class="memname">\n{rows}      </table>\n'
            f'</div><div class="memdoc">\n<p>{doc}</p>\n</div>\n</div>\n')


FUNCTION = member("SDL_SetWindowTitle()", '''        <tr>
          <td class="memname">void SDL_SetWindowTitle </td>
          <td>(</td>
          <td class="paramtype"><a class="el" href="../../dc/d64/_s_d_l__video_8h.html#a8a">SDL_Window</a> *&#160;</td>
          <td class="paramname"><em>window</em>, </td>
        </tr>
        <tr>
          <td class="paramkey"></td>
          <td></td>
          <td class="paramtype">const char *&#160;</td>
          <td class="paramname"><em>title</em>&#160;</td>
        </tr>
        <tr>
          <td></td>
          <td>)</td>
          <td></td><td></td>
        </tr>
''', "Set the title of a window.")
MACRO = member("SDL_WINDOWPOS_CENTERED_DISPLAY", '''        <tr>
          <td class="memname">#define SDL_WINDOWPOS_CENTERED_DISPLAY</td>
          <td>(</td>
          <td class="paramtype">&#160;</td>
          <td class="paramname">X</td>
          <td>)</td>
          <td>&#160;&#160;&#160;(SDL_WINDOWPOS_CENTERED_MASK|(X))</td>
        </tr>
''', "Used to indicate that the window position should be centered.")
DEFINE = member("AUDIO_F32", '''        <tr>
          <td class="memname">#define AUDIO_F32&#160;&#160;&#160;<a class="el" href="#afa">AUDIO_F32LSB</a></td>
        </tr>
''', "Samples in 32-bit floating point.")


def blocks(body: str) -> list[tuple[str, str]]:
    document = parse_html(f"{HEAD}<body>{TITLE}<div class=\"contents\">"
                          f'<h2 class="groupheader">Function Documentation</h2>{body}</div></body>')
    return [(b.kind, document.text[b.start:b.end]) for b in document.blocks]


def test_a_doxygen_function_declaration_is_one_line_of_code() -> None:
    """A function's declaration was a table of one-word and empty cells (``| void SDL_SetWindowTitle | ( |
    SDL_Window * | window, |``, one row a parameter), and the extract quoted its cells; it is one line of code,
    its links kept."""
    assert blocks(FUNCTION)[2:] == [
        ("heading", "### SDL_SetWindowTitle()"),
        ("code", "```\nvoid SDL_SetWindowTitle(SDL_Window * window, const char * title)\n```"),
        ("paragraph", "Set the title of a window.")]
    document = parse_html(f"{HEAD}<body>{FUNCTION}</body>")
    assert [link.href for link in document.links] == ["../../dc/d64/_s_d_l__video_8h.html#a8a"]


def test_a_doxygen_macro_declaration_keeps_its_parenthesis_and_body_apart() -> None:
    """A macro's name meets its parenthesis (``NAME(X)``), its body stands after a space; a one-cell
    declaration (``#define AUDIO_F32 AUDIO_F32LSB``) is code too, its blanks one space."""
    assert blocks(MACRO)[3] == (
        "code", "```\n#define SDL_WINDOWPOS_CENTERED_DISPLAY(X) (SDL_WINDOWPOS_CENTERED_MASK|(X))\n```")
    assert blocks(DEFINE)[3] == ("code", "```\n#define AUDIO_F32 AUDIO_F32LSB\n```")


def test_a_table_of_another_class_is_still_a_table() -> None:
    """Only ``table.memname`` is a declaration: a table of the same cells without the class is read as before."""
    plain = FUNCTION.replace('class="memname"', 'class="other"')
    assert [kind for kind, _ in blocks(plain)][3:4] == ["table_row"]


SECTIONS = ('<dl class="params"><dt>Parameters</dt><dd><table class="params">\n<tr><td class="paramname">id</td>'
            '<td>the ID of the timer to remove </td></tr>\n</table></dd></dl>\n'
            '<dl class="section return"><dt>Returns</dt><dd>SDL_TRUE if the timer is removed or SDL_FALSE if the timer'
            " wasn't found.</dd></dl>\n"
            '<dl class="section since"><dt>Since</dt><dd>This function is available since SDL 2.0.0.</dd></dl>\n'
            '<dl class="section see"><dt>See also</dt><dd><a class="el" href="#a82">SDL_AddTimer</a> </dd></dl>\n')


def test_a_doxygen_members_returns_since_and_see_also_are_fields() -> None:
    """A member's labelled paragraphs (``dl.section``) read each label as a line over its text ('Returns' over
    'SDL_TRUE if ...'), and question 7's extract quoted 'Returns' and 'Since' alone; they are fields, as
    docutils' 'Returns:' is. The parameters' table stays a table under its label."""
    body = member("SDL_RemoveTimer()", '<tr><td class="memname">SDL_bool SDL_RemoveTimer </td><td>(</td>'
                  '<td class="paramtype">SDL_TimerID&#160;</td><td class="paramname"><em>id</em></td><td>)</td></tr>',
                  "Remove a timer created with SDL_AddTimer().").replace("</p>\n</div>", "</p>\n" + SECTIONS + "</div>")
    assert blocks(body)[5:] == [
        ("paragraph", "Parameters"), ("table_row", "| id | the ID of the timer to remove |"),
        ("paragraph", "Returns: SDL_TRUE if the timer is removed or SDL_FALSE if the timer wasn't found."),
        ("paragraph", "Since: This function is available since SDL 2.0.0."),
        ("paragraph", "See also: SDL_AddTimer")]
    other = parse_html(f"<body><p>Remove a timer.</p>{SECTIONS}</body>")  # no generator named: as before
    assert "Returns\n\nSDL_TRUE if" in other.text


NAV_PATH = ('<div id="nav-path" class="navpath"><!-- id is needed for treeview function! -->\n  <ul>\n'
            '    <li class="navelem"><a class="el" href="../../dir_d44c.html">include</a></li>'
            '<li class="navelem"><a class="el" href="../../de/d46/_s_d_l__timer_8h.html">SDL_timer.h</a></li>\n'
            '    <li class="footer">Generated by <a href="https://www.doxygen.org/index.html"><img class="footer" '
            'src="../../doxygen.svg" width="104" height="31" alt="doxygen"/></a> 1.9.4 </li>\n  </ul>\n</div>')


def test_the_doxygen_tree_views_breadcrumbs_are_chrome() -> None:
    """With the tree view, Doxygen writes the page's path at its end (``div.navpath``): its folder and file were
    every page's last passage ('- include', '- SDL_timer.h', on all 469 of SDL2's pages)."""
    assert blocks(SECTIONS + NAV_PATH)[-1] == ("paragraph", "See also: SDL_AddTimer")
    assert "SDL_timer.h" in parse_html(f"<body>{NAV_PATH}</body>").text  # a page that names no generator keeps it


SOURCE = "../../dc/d64/_s_d_l__video_8h_source.html"
DEFINITION = (f'<p class="definition">Definition at line <a class="el" href="{SOURCE}#l00095">95</a> of file '
              f'<a class="el" href="{SOURCE}">SDL_video.h</a>.</p>\n')


def test_a_doxygen_members_definition_line_is_a_field_naming_its_header() -> None:
    """'Definition at line 95 of file SDL_video.h.' ended every member's passage (where its source is, not what it
    does, task R11); the header that declares the member is kept, as a field, its link to the source file kept."""
    body = member("SDL_SetWindowTitle()", "", "Set the title of a window.").replace("</p>\n</div>",
                                                                                   "</p>\n" + DEFINITION + "</div>")
    assert blocks(body)[-2:] == [("paragraph", "Set the title of a window."), ("paragraph", "Defined in: SDL_video.h")]
    document = parse_html(f"{HEAD}<body>{body}</body>")
    assert "Definition at line" not in document.text
    assert [link.href for link in document.links] == [SOURCE]
    other = '<p class="definition">A definition: a statement of meaning.</p>'  # the class alone: read as it is
    assert blocks(other)[-1] == ("paragraph", "A definition: a statement of meaning.")


LABELLED = member("lh_entry_k()", '''        <tr>
          <td class="memname">static void * lh_entry_k </td>
          <td>(</td>
          <td class="paramtype">const struct <a class="el" href="structlh__entry.html">lh_entry</a> *&#160;</td>
          <td class="paramname"><em>e</em></td><td>)</td>
          <td></td>
        </tr>
''', "Return a non-const version of lh_entry.k.").replace(
    '<table class="memname">', '<table class="mlabels">\n  <tr>\n  <td class="mlabels-left">\n'
    '      <table class="memname">').replace(
    '      </table>\n</div>', '      </table>\n  </td>\n  <td class="mlabels-right">\n<span class="mlabels">'
    '<span class="mlabel">inline</span><span class="mlabel">static</span></span>  </td>\n  </tr>\n</table>\n</div>')


def test_a_doxygen_declaration_with_labels_is_one_line_of_code_with_them() -> None:
    """A member with labels beside its declaration (``table.mlabels``: json-c's ``lh_entry_k``, "inline" and
    "static") was a table of the declaration's cells and the labels; it is the declaration's line with its labels
    after it, as ``table.memname`` alone is (task R11)."""
    assert "mlabels" in LABELLED
    assert blocks(LABELLED)[3:] == [
        ("code", "```\nstatic void * lh_entry_k(const struct lh_entry * e) [inline] [static]\n```"),
        ("paragraph", "Return a non-const version of lh_entry.k.")]
