"""HTML as Redoc 2 (redoc-cli 0.13.21), Rspress 1 (1.47.2) and Docsy 0.7.2 (Hugo 0.111.3) publish it: excerpts of
task U35's builds, the Dialogporten API's OpenAPI description from the npm package @digdir/dialogporten-schema 1.40.0
(ISC), npm's documentation (the npm-docs dev set) in Rspress' default theme and Docsy's own user guide (Apache-2.0);
class names as built, icons' SVG paths and most operations, rows and menu items left out."""

from __future__ import annotations

import time

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_redoc import redoc_page
from tests.corpus.ingest.formats.documents import block_texts

_MENU = (
    '<div class="sc-eBHhsj dhHelK menu-content" style="top:0px;height:calc(100vh - 0px)">'
    '<div role="search" class="sc-iapWAC cNIbYM"><input type="text" value="" placeholder="Search..."'
    ' aria-label="Search" class="sc-kqGoIF eLSrIr search-input"/></div>'
    '<div class="sc-kOHTFB IVbWU scrollbar-container undefined"><ul class="sc-bpUBKd bpycMf" role="menu">'
    '<li data-item-id="tag/Serviceowner" class="sc-eyvILC fbjDYy"><label type="tag" role="menuitem"'
    ' class="sc-gfoqjT hlXHtc -depth1"><span title="Serviceowner" class="sc-kbousE jSTdPd">Serviceowner</span></label>'
    '<ul class="sc-bpUBKd eXvsLO"><li data-item-id="tag/Serviceowner/operation/V1ServiceOwnerDialogsPurge_PurgeDialog"'
    ' class="sc-eyvILC fbjDYy"><label role="menuitem" class="sc-gfoqjT ioZqbe -depth2"><span type="post"'
    ' class="sc-kYxDKI kjICpR operation-type post">post</span><span width="calc(100% - 38px)" class="sc-kbousE dlJfXA">'
    "Permanently deletes a dialog</span></label></li></ul></li></ul>"
    '<div class="sc-sLsrZ iSibdF"><a target="_blank" rel="noopener noreferrer" href="https://redocly.com/redoc/">API'
    " docs by Redocly</a></div></div></div>"
)
_RESPONSE = (
    '<div><button class="sc-gdyeKB byyrOX" disabled=""><strong class="sc-dSIIpw bpEYcE">{code}<!-- --> </strong>'
    '<span class="sc-fhzFiK gducij"><p>{text}</p>\n</span></button></div>'
)
_OPERATION = (
    '<div id="tag/Serviceowner/operation/V1ServiceOwnerDialogsPurge_PurgeDialog" class="sc-dcJsrY cqVkUp">'
    '<div class="sc-kAyceB hBQWIZ"><div class="sc-fqkvVR oJKYx"><h2 class="sc-jXbUNg fWnwAh">'
    '<a class="sc-jlZhew kbdRLs"'
    ' href="#tag/Serviceowner/operation/V1ServiceOwnerDialogsPurge_PurgeDialog"'
    ' aria-label="tag/Serviceowner/operation/V1ServiceOwnerDialogsPurge_PurgeDialog"></a>Permanently deletes a'
    ' dialog<!-- --> </h2><div class="sc-bVVIoq icSMtY"><div class="sc-eeDRCY sc-dCFHLb gTGgei dJWFsO"><p>Deletes a'
    " given dialog (hard delete).</p>\n</div></div>"
    '<div><h5 class="sc-dAlyuH jbQuod">query<!-- --> Parameters</h5><table class="sc-dAbbOL ccPhmY"><tbody>'
    '<tr class=""><td class="sc-dLMFU sc-eldPxv sc-Nxspf hZbWKe jXkfaY gQgOVd" kind="field" title="continuationToken">'
    '<span class="sc-gFqAkR eRqgPI"></span><button aria-label="expand properties"><span class="property-name">'
    'continuationToken</span><svg class="sc-cwHptR ivsSRP" viewBox="0 0 24 24"></svg></button></td>'
    '<td class="sc-fPXMVe bAXEAa"><div><div><span class="sc-cfxfcM sc-gmPhUn ecSUzn hUewpb">(ContinuationToken (any'
    ' or null))</span></div> <div><div class="sc-eeDRCY sc-dCFHLb gTGgei dwkgVY">'
    "<p>Supply &quot;continuationToken&quot;"
    " for the response to get the next page of results</p>\n</div></div></div></td></tr></tbody></table></div>"
    '<div><h3 class="sc-fMMURN egoxtT">Responses</h3>'
    + _RESPONSE.format(code="204", text="The dialog aggregate was deleted successfully.")
    + _RESPONSE.format(
        code="401",
        text="Missing or invalid authentication token. Requires a Maskinporten-token with"
        " the scope &quot;digdir:dialogporten.serviceprovider&quot;.",
    )
    + '<div><button class="sc-gdyeKB byyrOX" disabled=""><strong class="sc-dSIIpw bpEYcE">410<!-- --> </strong>'
    "</button></div></div></div>"
    '<div class="sc-iGgWBj sc-gsFSXq ibAZSi eDeKjd"><div class="sc-iEXKAA jQGZcv"><button class="sc-eZYNyq jtLmPa">'
    '<span type="post" class="sc-dlWCHZ hJzVsN http-verb post">post</span><span class="sc-EgOXT fVtHyw">'
    '/api/v1/serviceowner/dialogs/{dialogId}/actions/purge</span><svg class="sc-cwHptR" viewBox="0 0 24 24"></svg>'
    '</button></div><div><h3 class="sc-kFWlue gHlWXx">Response samples</h3><div class="sc-kMribo dmSOLx">'
    '<div class="redoc-json"><code><button class="collapser" aria-label="collapse"></button><span class="token'
    ' punctuation">{</span><ul class="obj collapsible"><li><div class="hoverable"><span class="property'
    ' token string">"status"</span>: <span class="token number">400</span></div></li></ul><span class="token'
    ' punctuation">}</span></code></div><div class="sc-jxOSlx ebiVIa"><button><div class="sc-jxOSlx">Copy</div>'
    "</button></div></div></div></div></div></div>"
)
REDOC = (
    '<!DOCTYPE html><html><head><meta charset="utf8" /><title>Dialogporten</title></head><body>'
    '<div id="redoc"><div class="sc-lnPyaJ eJNCiX redoc-wrap">'
    + _MENU
    + '<div class="sc-eulNck iEaKWZ api-content"><div class="sc-dcJsrY bBkGhy"><div class="sc-kAyceB hBQWIZ">'
    '<div class="sc-fqkvVR oJKYx api-info"><h1 class="sc-imWYAI sc-gmgFlS cILgPb crFmld">Dialogporten<!-- -->'
    ' <span>(<!-- -->v1<!-- -->)</span></h1><p>Download OpenAPI specification<!-- -->:<a download="openapi.json"'
    ' target="_blank" class="sc-kMkxaj iQWvAY">Download</a></p></div></div></div>'
    '<div id="tag/Serviceowner" class="sc-dcJsrY bBkGhy"><div class="sc-kAyceB hBQWIZ"><div class="sc-fqkvVR oJKYx">'
    '<h1 class="sc-imWYAI sc-gmgFlS cILgPb crFmld"><a class="sc-jlZhew kbdRLs" href="#tag/Serviceowner"'
    ' aria-label="tag/Serviceowner"></a>Serviceowner</h1></div></div></div>'
    + _OPERATION
    + "</div></div></div></body></html>"
)


def test_a_redoc_page_reads_its_endpoints_responses_and_expandable_names() -> None:
    """Redoc 2 writes an operation's method and path, each response's code and description, and the name of a
    parameter whose schema is an object inside ``<button>`` elements, which the reader drops: no passage named an
    endpoint, "Responses" stood over nothing and the row of ``continuationToken`` had no name. The method and path
    read under the operation's title, each response as a paragraph opening with its code; the menu of operations
    ("postPermanently deletes a dialog", "API docs by Redocly") and the download link are left out, a JSON sample's
    folding toggles and "Copy" too. The sample, nested lists, read as a list ("- "status": 400"): it is JSON code."""
    document = parse_html(REDOC)
    assert document.title == "Dialogporten"
    assert [section.heading for section in document.sections][2:6] == [
        "Serviceowner",
        "Permanently deletes a dialog",
        "query Parameters",
        "Responses",
    ]
    assert block_texts(document, "paragraph")[:5] == [
        "POST /api/v1/serviceowner/dialogs/{dialogId}/actions/purge",
        "Deletes a given dialog (hard delete).",
        "204 The dialog aggregate was deleted successfully.",
        "401 Missing or invalid authentication token. Requires a Maskinporten-token with the scope"
        ' "digdir:dialogporten.serviceprovider".',
        "410",
    ]
    assert '| continuationToken | (ContinuationToken (any or null)). Supply "continuationToken" for' in document.text
    assert block_texts(document, "code") == ['```json\n{\n  "status": 400\n}\n```']
    for chrome in ("postPermanently", "API docs by Redocly", "Download", "Search...", "collapse", "Copy"):
        assert chrome not in document.text, chrome


def test_redoc_2_1_writes_a_response_and_an_expandable_name_its_own_way() -> None:
    """Redoc 2.1.5 (``@redocly/cli`` 1.25.0) writes a response's description in a ``div`` (2.0 a ``span``) and labels
    the toggle by the name ("expand continuationToken"); a JSON sample's folding toggle is ``aria-label="expand"``."""
    page = (
        REDOC.replace('<span class="sc-fhzFiK gducij"><p>', '<div html="&lt;p&gt;x&lt;/p&gt;" class="sc-iJCTme"><p>')
        .replace("</p>\n</span></button>", "</p>\n</div></button>")
        .replace('aria-label="expand properties"', 'aria-label="expand continuationToken"')
        .replace('aria-label="collapse"', 'aria-label="expand"')
    )
    document = parse_html(page)
    assert block_texts(document, "paragraph")[2] == "204 The dialog aggregate was deleted successfully."
    assert '| continuationToken | (ContinuationToken (any or null)). Supply "continuationToken" for' in document.text
    assert "expand" not in document.text


def test_a_page_without_redocs_wrapper_keeps_dropping_its_buttons() -> None:
    """Only Redoc's page (``div.redoc-wrap``) reads its buttons: elsewhere a button is a control, its label chrome."""
    page = (
        "<html><body><main><h2>Install</h2><p>Run it.</p><button><strong>401</strong><span><p>Copy</p></span>"
        "</button></main></body></html>"
    )
    assert parse_html(page).text == "## Install\n\nRun it."


def test_a_redoc_page_without_h2_reads_its_endpoints_in_linear_time() -> None:
    """Each endpoint's button looked back for the last ``</h2>`` before it: on a page with none, each look read the
    page back to its start (20,000 buttons, 2 MB: 5 s, quadratic; 0.06 s now). An endpoint with no heading before it
    is written nowhere, as before."""
    button = '<button><span type="get" class="sc-a http-verb get">get</span><span class="p">/items/{id}</span></button>'
    page = '<div class="redoc-wrap">' + button * 20_000 + "</div>"
    started = time.perf_counter()
    assert redoc_page(page) == page
    assert time.perf_counter() - started < 2
    headed = redoc_page('<div class="redoc-wrap"><h2>A</h2>' + button + "<h2>B</h2>" + button * 2 + "</div>")
    assert headed.count("<h2>A</h2><p><code>GET /items/{id}</code></p><button>") == 1
    assert headed.count("<h2>B</h2><p><code>GET /items/{id}</code></p><p><code>GET /items/{id}</code></p>") == 1


RSPRESS = (
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="generator" content="Rspress v1.47.2">'
    '<title data-rh="true">npm-trust - npm Docs</title></head><body><div id="root">'
    '<div class="navContainer_d18b1 rspress-nav px-6  sticky_ddfa7"><div class="container_e4235 flex"><div'
    ' class="navBarTitle_c5f07"><a href="/index.html" class="link_a7cea flex"><span>npm Docs</span></a></div>'
    '<div class="rspress-nav-menu menu h-14"><a href="/commands/npm.html" class="link_a7cea "><div'
    ' class="rspress-nav-menu-item singleItem_c1154">Docs</div></a></div></div></div>'
    '<section><div class="docLayout_af141 pt-0"><div class="flex-1 relative min-w-0">'
    '<div class="rspress-sidebar-menu-container "><div class="rspress-sidebar-menu"><button type="button"'
    ' class="flex-center ml-auto"><span class="text-sm">ON THIS PAGE</span></button><div'
    ' class="rspress-local-toc-container "><ul><li><a href="#synopsis" class="link_a7cea rspress-toc-link">'
    '<span class="rspress-toc-link-text block">Synopsis</span></a></li><li><a href="#see-also" class="link_a7cea'
    ' rspress-toc-link"><span class="rspress-toc-link-text block">See Also</span></a></li></ul></div></div></div>'
    '<div class="content_ff766 rspress-doc-container flex"><div class="flex-1 overflow-x-auto">'
    '<div class="rspress-doc">'
    '<h1 id="npm-trust" class="rspress-doc-title text-3xl">npm-trust<a class="link_a7cea header-anchor"'
    ' href="#npm-trust" aria-hidden="true">#</a></h1><!--$--><h3 id="synopsis">Synopsis<a class="header-anchor"'
    ' aria-hidden="true" href="#synopsis">#</a></h3><p>Note: This command is unaware of workspaces.</p>'
    '<h3 id="see-also">See Also<a class="header-anchor" aria-hidden="true" href="#see-also">#</a></h3>'
    '<ul class="list-disc pl-5 my-4 leading-7"><li><a href="/commands/npm-publish.html" class="link_a7cea">npm'
    ' publish</a></li></ul><!--/$--></div><div class="rspress-doc-footer"><footer class="mt-8"><div'
    ' class="flex flex-col"><a href="https://example.invalid/edit/commands/npm-trust.md" target="_blank"'
    ' class="editLink_e1cfa">Edit this page</a></div></footer></div></div><div class="aside-container_bc5fa">'
    '<div class="flex flex-col"><div id="aside-container" class="relative text-sm font-medium"><div class="leading-7'
    ' block text-sm font-semibold pl-3">ON THIS PAGE</div><nav class="mt-1"><ul class="relative"><li><a'
    ' href="#synopsis" title="Synopsis" class="aside-link"><span class="aside-link-text block">Synopsis</span></a></li>'
    "</ul></nav></div></div></div></div></div></div></section></div></body></html>"
)


def test_an_rspress_page_reads_without_its_top_bar_and_on_this_page_lists() -> None:
    """Rspress 1 writes no ``main``: its top bar (the site's name, "Docs"), the narrow screens' list of the page's
    headings above the title and the label "ON THIS PAGE" beside it were read as the page's first passage ("npm Docs",
    "Docs", every heading) and the last line of its last section."""
    document = parse_html(RSPRESS)
    assert document.title == "npm-trust"
    assert document.text == (
        "# npm-trust\n\n### Synopsis\n\nNote: This command is unaware of workspaces.\n\n### See Also\n\n- npm publish"
    )


DOCSY = (
    '<!doctype html><html lang="en" class="no-js"><head><meta charset="utf-8"><meta name="generator"'
    ' content="Hugo 0.111.3"><title>Known issues | Docsy</title></head><body class="td-page"><header>'
    '<nav class="td-navbar navbar-dark js-navbar-scroll"><a class="navbar-brand" href="/"><span'
    ' class="navbar-brand__name">Docsy</span></a></nav></header><div class="container-fluid td-outer"><div'
    ' class="td-main"><div class="row flex-xl-nowrap"><main class="col-12 col-md-9 col-xl-8 ps-md-5" role="main">'
    '<div class="td-content"><h1>Known issues</h1><div class="lead">Known issues when installing Docsy theme.</div>'
    '<h3 id="windows-subsystem-for-linux-wsl">Windows Subsystem for Linux (WSL)</h3>\n<p>If you&rsquo;re using WSL,'
    " ensure that you&rsquo;re running <code>hugo</code> on a Linux mount of the filesystem.</p>\n"
    "<style>\n  .feedback--answer {\n    display: inline-block;\n  }\n</style>\n"
    '<div class="d-print-none">\n<h2 class="feedback--title">Feedback</h2>\n<p class="feedback--question">Was this'
    ' page helpful?</p>\n<button class="btn btn-primary mb-4 feedback--answer feedback--answer-yes">Yes</button>\n'
    '<button class="btn btn-primary mb-4 feedback--answer feedback--answer-no">No</button>\n'
    '<p class="feedback--response feedback--response-yes">\n  Glad to hear it! Please'
    ' <a href="https://github.com/google/docsy/issues/new">tell us'
    ' how we can improve</a>.\n</p>\n<p class="feedback--response feedback--response-no">\n  Sorry to hear that.'
    ' Please <a href="https://github.com/google/docsy/issues/new">tell us how we can improve</a>.\n</p>\n</div>\n'
    "<script>\n  const yesButton = document.querySelector('.feedback--answer-yes');\n</script>"
    "</div></main></div></div></div>"
    "</body></html>"
)


def test_a_docsy_page_reads_without_its_feedback_question() -> None:
    """Docsy writes "Was this page helpful?" under every docs page with its heading "Feedback" and both answers'
    replies ("Glad to hear it! ...", "Sorry to hear that. ..."), shown by a script: each page's last section."""
    document = parse_html(DOCSY)
    assert [section.heading for section in document.sections] == [
        "Known issues",
        "Known issues",
        "Windows Subsystem for Linux (WSL)",
    ]
    for chrome in ("Feedback", "helpful", "Glad to hear it", "Sorry to hear that"):
        assert chrome not in document.text, chrome


RSPRESS_2 = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>npm-ci - npm Docs</title>'
    '<meta name="generator" content="Rspress v2.0.22"></head><body><div id="__rspress_root">'
    '<div class="rp-doc-layout__container"><aside class="rp-doc-layout__sidebar rp-scrollbar"></aside>'
    '<div class="rp-doc-layout__doc"><main class="rp-doc-layout__doc-container"><div class="rp-doc rspress-doc">'
    '<h1 class="rp-toc-include" id="npm-ci"><span>npm-ci</span><a href="#npm-ci" class="rp-header-anchor rp-link"'
    ' aria-hidden="true">#</a> </h1><!--$--><h3 class="rp-toc-include" id="synopsis"><a href="#synopsis"'
    ' class="rp-header-anchor rp-link" aria-hidden="true">#</a>Synopsis</h3>\n<p>Install a project with a clean'
    " slate.</p></div></main></div></div></div></body></html>"
)


def test_an_rspress_2_heading_reads_without_its_permalink() -> None:
    """Rspress 2 writes each heading's permalink "#" before its text (``a.rp-header-anchor``): "### #Synopsis"."""
    document = parse_html(RSPRESS_2)
    assert document.title == "npm-ci"
    assert document.text == "# npm-ci\n\n### Synopsis\n\nInstall a project with a clean slate."
