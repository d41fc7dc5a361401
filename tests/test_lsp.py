"""The language server end to end: `python -m rulelang.lsp` started as a process and driven over
standard input and output by pygls's own client, on a house rule that extends the 1961
rulebook; and the positions, hovers, definitions and completions it is built on."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from rulelang import complete, hover, navigate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"

# A house rule as an author writes it: a rule replaced, one of its own, a space, a deck.
HOUSE = '''rulebook "1961 rules, a richer GO"
extends "classic_1961.rules"

replace rule salary:
  cite "house", "GO pays more"
  when a player passes "GO": collect $300

rule baltic_bonus:
  cite "house", "Baltic"
  when a player passes "Baltic Avenue": draw from "Chance"
  set jail_fine = $60
'''
MISTAKE = HOUSE.replace('"Baltic Avenue"', '"Baltic Avenu"')  # E104, at line 10


@pytest.fixture
def house(tmp_path):
    """The house rule beside copies of the files it extends (so that they are its
    parents by path, not the installed ones)."""
    for name in ("classic_1961.rules", "classic_board.rules"):
        shutil.copy(RULESETS / name, tmp_path / name)
    path = tmp_path / "richer_go.rules"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def _change(uri: str, version: int, text: str) -> lsp.DidChangeTextDocumentParams:
    return lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)])


def _at(text: str, line: int, word: str, offset: int = 1) -> lsp.Position:
    """The protocol position inside `word` on 1-based `line` (UTF-16 = characters here)."""
    return lsp.Position(line=line - 1,
                        character=text.split("\n")[line - 1].index(word) + offset)


async def _session(path: Path) -> dict:
    """One editing session: open with a mistake, fix it, then ask; everything answered."""
    uri = path.as_uri()
    client = LanguageClient("rulelang-test", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    async def next_diagnostics() -> lsp.PublishDiagnosticsParams:
        return await asyncio.wait_for(published.get(), 20)

    await client.start_io(sys.executable, "-m", "rulelang.lsp", cwd=str(ROOT))
    out: dict = {}
    try:
        init = await asyncio.wait_for(client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=path.parent.as_uri())), 20)
        out["capabilities"] = init.capabilities
        client.initialized(lsp.InitializedParams())
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=(
            lsp.TextDocumentItem(uri=uri, language_id="rules", version=1, text=MISTAKE))))
        out["mistake"] = await next_diagnostics()
        # the fix typed as an editor sends it: one letter inserted
        where = _at(MISTAKE, 10, 'Avenu"', 5)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=where, end=where), text="e")]))
        out["fixed"] = await next_diagnostics()
        doc = lsp.TextDocumentIdentifier(uri=uri)
        asks = {
            "hover_space": client.text_document_hover_async(lsp.HoverParams(
                text_document=doc, position=_at(HOUSE, 10, "Baltic"))),
            "hover_rule": client.text_document_hover_async(lsp.HoverParams(
                text_document=doc, position=_at(HOUSE, 4, "salary"))),
            "hover_keyword": client.text_document_hover_async(lsp.HoverParams(
                text_document=doc, position=_at(HOUSE, 10, "passes"))),
            "hover_setting": client.text_document_hover_async(lsp.HoverParams(
                text_document=doc, position=_at(HOUSE, 11, "jail_fine"))),
            "def_rule": client.text_document_definition_async(lsp.DefinitionParams(
                text_document=doc, position=_at(HOUSE, 4, "salary"))),
            "def_space": client.text_document_definition_async(lsp.DefinitionParams(
                text_document=doc, position=_at(HOUSE, 10, "Baltic"))),
            "def_deck": client.text_document_definition_async(lsp.DefinitionParams(
                text_document=doc, position=_at(HOUSE, 10, "Chance"))),
            "def_file": client.text_document_definition_async(lsp.DefinitionParams(
                text_document=doc, position=_at(HOUSE, 2, "classic"))),
            "complete_space": client.text_document_completion_async(lsp.CompletionParams(
                text_document=doc, position=_at(HOUSE, 10, "Baltic", 3))),
            "complete_rule": client.text_document_completion_async(lsp.CompletionParams(
                text_document=doc, position=_at(HOUSE, 4, "salary", 2))),
            "symbols": client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=doc)),
        }
        for name, asked in asks.items():
            out[name] = await asyncio.wait_for(asked, 20)
        # the parent saved without the rule the house rule replaces: the child checked again
        parent = path.parent / "classic_1961.rules"
        parent.write_text(parent.read_text(encoding="utf-8").replace(
            "rule salary:", "rule wages:"), encoding="utf-8")
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri=parent.as_uri())))
        out["parent_saved"] = await next_diagnostics()
        # a text that does not even parse: diagnostics, and the server still answers
        client.text_document_did_change(_change(uri, 3, HOUSE + "rule broken\n\x00\""))
        out["broken"] = await next_diagnostics()
        out["hover_broken"] = await asyncio.wait_for(client.text_document_hover_async(
            lsp.HoverParams(text_document=doc, position=_at(HOUSE, 10, "Baltic"))), 20)
        await asyncio.wait_for(client.shutdown_async(None), 20)
        client.exit(None)
        out["exited"] = await asyncio.wait_for(client._server.wait(), 20)
    finally:
        server = client._server  # the process: ended if the session broke off
        if server is not None and server.returncode is None and "exited" not in out:
            server.kill()
        await client.stop()
    return out


def test_an_editing_session_over_stdio(house):
    """Open a file with a mistake: its diagnostic; fix it: none; then hover, definition,
    completion and symbols answer on a house rule extending the 1961 rulebook."""
    out = asyncio.run(asyncio.wait_for(_session(house), 120))
    assert out["exited"] == 0
    (d,) = out["mistake"].diagnostics
    assert (d.code, d.source, d.severity) == ("E104", "rulelang", lsp.DiagnosticSeverity.Error)
    assert d.message.startswith("unknown space 'Baltic Avenu'")
    assert "hint: did you mean 'Baltic Avenue'?" in d.message
    start = MISTAKE.split("\n")[9].index('"Baltic')
    assert d.range == lsp.Range(start=lsp.Position(line=9, character=start),
                                end=lsp.Position(line=9, character=start + 14))
    assert not out["fixed"].diagnostics and out["fixed"].version == 2

    space = out["hover_space"].contents.value
    assert '"Baltic Avenue"' in space and "price $60" in space and "$450" in space
    rule = out["hover_rule"].contents.value
    assert "SALAIRE (ESPACE GO)" in rule  # the citation of the rule replaced
    assert "a player passes TARGET" in out["hover_keyword"].contents.value
    setting = out["hover_setting"].contents.value
    assert "the fine that frees a player from jail" in setting and "$60" in setting

    parent = house.parent / "classic_1961.rules"
    board = house.parent / "classic_board.rules"
    (loc,) = out["def_rule"]
    line = parent.read_text(encoding="utf-8").split("\n").index("rule wages:")  # as saved
    assert (loc.uri, loc.range.start.line) == (parent.as_uri(), line)
    (loc,) = out["def_space"]
    board_lines = board.read_text(encoding="utf-8").split("\n")
    assert loc.uri == board.as_uri()
    assert board_lines[loc.range.start.line].lstrip().startswith('"Baltic Avenue":')
    (loc,) = out["def_deck"]
    assert board_lines[loc.range.start.line] == 'deck "Chance":'
    (loc,) = out["def_file"]
    assert (loc.uri, loc.range.start.line) == (parent.as_uri(), 0)

    labels = {i.label for i in out["complete_space"].items}
    assert {"Baltic Avenue", "Boardwalk", "Chance"} <= labels
    rules = {i.label: i for i in out["complete_rule"].items}
    assert {"salary", "rent", "houses"} <= set(rules) and "baltic_bonus" not in rules
    assert rules["salary"].text_edit.range.start == _at(HOUSE, 4, "salary", 0)

    symbols = {s.name: s for s in out["symbols"]}
    assert set(symbols) == {"salary", "baltic_bonus"}
    assert [c.name for c in symbols["baltic_bonus"].children] == ["jail_fine"]

    (d,) = out["parent_saved"].diagnostics
    assert out["parent_saved"].uri == house.as_uri() and "'salary'" in d.message
    assert d.range.start.line == 3  # `replace rule salary:`

    assert out["broken"].diagnostics and all(d.source == "rulelang"
                                             for d in out["broken"].diagnostics)
    assert "Baltic Avenue" in out["hover_broken"].contents.value  # the last names known


# ---------------------------------------------------------------- without a server


def _analysis(tmp_path, text: str, name: str = "house.rules") -> navigate.Analysis:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return navigate.analyse(str(path), text)


def test_the_buffer_is_checked_not_the_file(tmp_path):
    """The text given is checked, whatever the file on disk holds; its extends are found
    from the file's directory."""
    path = tmp_path / "house.rules"
    path.write_text(HOUSE, encoding="utf-8")
    (d,) = navigate.analyse(str(path), MISTAKE).diagnostics
    assert (d.code, d.span.file, d.span.line) == ("E104", str(path), 10)
    assert navigate.analyse(str(path), HOUSE).diagnostics == ()


def test_a_parent_s_diagnostic_is_not_published_on_the_child(tmp_path):
    """A diagnostic in a parent file stays there unless a note places it in the child."""
    from rulelang import lsp as server

    parent = tmp_path / "parent.rules"
    parent.write_text((RULESETS / "classic_1961.rules").read_text(encoding="utf-8")
                      .replace('extends "classic_board.rules"',
                               'extends "classic_board.rules"\nset jail_fine = -5'),
                      encoding="utf-8")
    shutil.copy(RULESETS / "classic_board.rules", tmp_path / "classic_board.rules")
    analysis = _analysis(tmp_path, HOUSE.replace("classic_1961.rules", "parent.rules"))
    assert any(d.span.file == str(parent) for d in analysis.diagnostics)

    class Units:
        units = staticmethod(len)

    assert server._diagnostics(Units(), analysis) == []


def test_columns_are_utf16_code_units():
    """A column after a character outside the Basic Multilingual Plane counts it twice."""
    from rulelang import ast
    from rulelang import lsp as server

    class Utf16:
        @staticmethod
        def units(text: str) -> int:
            return len(text.encode("utf-16-le")) // 2

    lines = ['  when a player lands on "🎲 Go": collect $1']
    span = ast.Span("x.rules", 1, 26, 1, 32)  # "🎲 Go" in characters
    r = server._range(Utf16(), lines, span)
    assert (r.start.character, r.end.character) == (25, 32)
    assert server._column(Utf16(), lines, lsp.Position(line=0, character=29)) == (1, 29)


def test_hover_and_definition_of_a_house_rule(tmp_path):
    """Names read from the AST: a space's data, an inherited rule's citation, a keyword."""
    analysis = _analysis(tmp_path, HOUSE)  # the installed 1961 rulebook extended
    lines = analysis.text.split("\n")
    ref = navigate.reference_at(analysis, 10, lines[9].index("Baltic") + 1)
    assert (ref.kind, ref.name) == ("space", "Baltic Avenue")
    assert "rent $4 unimproved" in hover.hover(analysis, ref)
    ref = navigate.reference_at(analysis, 4, lines[3].index("salary") + 1)
    assert (ref.kind, ref.inherited) == ("rule", True)
    (span,) = navigate.definition(analysis, ref)
    assert span.file.endswith("classic_1961.rules")
    ref = navigate.reference_at(analysis, 1, 2)
    assert (ref.kind, ref.name) == ("keyword", "rulebook")


def _at_end(analysis, line_text: str):
    """The analysis of the text with `line_text` added, and the position at its end."""
    text = analysis.text + line_text
    return navigate.analyse(analysis.path, text, analysis), text.count("\n") + 1, \
        len(line_text) + 1


def test_completion_follows_the_words_before(tmp_path):
    """After `draw from "` the decks; after `set ` the settings; at a `when` the events."""
    analysis = _analysis(tmp_path, HOUSE)

    def labels(line_text: str) -> set[str]:
        text = analysis.text + line_text
        again = navigate.analyse(analysis.path, text, analysis)
        line = text.count("\n") + 1
        return {c.label for c in complete.completions(again, line, len(line_text) + 1)}

    assert labels('  when a player lands on "GO": draw from "') == {"Chance",
                                                                    "Community Chest"}
    assert "starting_cash" in labels("  set star")
    assert "a player lands on TARGET" in labels("  when a pl")
    assert "go to jail" in labels('  when a player lands on "GO": ')
    spaces = [c.label for c in complete.completions(*_at_end(analysis, '  when a player lands on "'))]
    # the names of the 40 spaces, once each (three spaces are "Chance"), and no deck's name
    assert len(spaces) == len(set(spaces)) == 36 and "Boardwalk" in spaces
    assert labels("  # set ") == set()


async def _hello(*command: str) -> lsp.InitializeResult:
    """Start a server, initialize it, and shut it down as an editor does."""
    client = LanguageClient("rulelang-test", "1")
    await client.start_io(*command, cwd=str(ROOT))
    try:
        init = await asyncio.wait_for(client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities())), 20)
        await asyncio.wait_for(client.shutdown_async(None), 20)
        client.exit(None)
        await asyncio.wait_for(client._server.wait(), 20)
    finally:
        if client._server.returncode is None:
            client._server.kill()
        await client.stop()
    return init


def test_the_rulelang_lsp_command_serves():
    """`rulelang lsp --stdio`, as editors start it, answers initialize with what it can do."""
    init = asyncio.run(asyncio.wait_for(
        _hello(sys.executable, "-m", "rulelang_cli.main", "lsp", "--stdio"), 60))
    assert init.server_info.name == "rulelang"
    caps = init.capabilities
    assert caps.hover_provider and caps.definition_provider and caps.document_symbol_provider
    assert list(caps.completion_provider.trigger_characters) == ['"']
    assert caps.position_encoding == lsp.PositionEncodingKind.Utf16


# Texts no rules file should be: each gets diagnostics, and every question an answer.
HOSTILE = [
    "", "\x00\x01\x02", "rulebook", 'rulebook "x"\nextends "', 'rulebook "x"\nextends "/etc"\n',
    'rulebook "x"\nextends "nowhere.rules"\n', "\ufeff" + HOUSE, HOUSE.replace("\n", "\r\n"),
    HOUSE.replace("  ", "\t"), HOUSE + "\r\n\r", HOUSE.replace('"', ""), HOUSE + '"' * 7,
    HOUSE + "rule r:\n" + "  " * 60 + "x\n", HOUSE + "\ud800", "x" * 5000, HOUSE[:100],
    'rulebook "x"\nextends "richer_go.rules"\n',  # itself: a cycle
]


@pytest.mark.parametrize("text", HOSTILE)
def test_no_text_breaks_the_server(house, text):
    """Diagnostics for any text, and hover, definition, completion and symbols at every
    position of its first lines answer without raising."""
    from rulelang import lsp as server

    analysis = navigate.analyse(str(house), text)
    if text.removeprefix("\ufeff").replace("\r\n", "\n") != HOUSE and "\t" not in text:
        assert analysis.diagnostics

    class Units:
        units = staticmethod(lambda s: len(s.encode("utf-16-le", "surrogatepass")) // 2)

    server._diagnostics(Units(), analysis)
    if analysis.file is not None:
        complete.symbols(analysis.file)
    lines = text.split("\n")[:12]
    for line, src in enumerate(lines, 1):
        for column in range(1, min(len(src), 120) + 2):
            ref = navigate.reference_at(analysis, line, column)
            if ref is not None:
                hover.hover(analysis, ref)
                navigate.definition(analysis, ref)
            complete.completions(analysis, line, column)


def test_a_failing_request_is_answered_with_nothing():
    """A request whose handler fails is logged to the client and answered with None."""
    from rulelang import lsp as server

    logged = []

    class Client:
        def window_log_message(self, params):
            logged.append(params.message)

    def broken(ls, params):
        raise RecursionError("too deep")

    assert server._safe(broken)(Client(), None) is None
    assert logged == ["rulelang: broken failed: RecursionError: too deep"]


def _message(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.mark.parametrize("command", [("rulelang.lsp",), ("rulelang_cli.main", "lsp")])
def test_malformed_messages_print_no_traceback(command):
    """A message that is not JSON, or not what its method takes, is logged on one line; the
    server answers the next ones and exits cleanly (status 0), started as a module or as the
    `rulelang lsp` command editors run."""
    import json
    import subprocess

    def request(**fields) -> bytes:
        return _message(json.dumps({"jsonrpc": "2.0", **fields}).encode())

    hover = {"textDocument": {"uri": "file:///nowhere/x.rules"},
             "position": {"line": 0, "character": 0}}
    data = (_message(b"{not json") + request(id=1, method="initialize",
                                             params={"capabilities": {}})
            + request(id=2, method="textDocument/hover", params={"bogus": 1})
            + request(id=3, method="textDocument/hover", params=hover)
            + request(id=4, method="shutdown") + request(method="exit"))
    done = subprocess.run([sys.executable, "-m", *command], input=data,
                          capture_output=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0
    assert b'"serverInfo": {"name": "rulelang"' in done.stdout
    assert b'{"id": 3, "jsonrpc": "2.0", "result": null}' in done.stdout
    assert b'{"id": 4, "jsonrpc": "2.0", "result": null}' in done.stdout
    assert b"Traceback" not in done.stderr and b"Traceback" not in done.stdout
    assert done.stderr.decode().startswith("rulelang lsp: ERROR: ")


def test_the_outline_of_a_board_file():
    """Document symbols: the board and its spaces, the decks and their cards, the dice; each
    name's range inside its item's."""
    from rulelang import lsp as server

    path = RULESETS / "classic_board.rules"
    text = path.read_text(encoding="utf-8")
    analysis = navigate.analyse(str(path), text)
    outline = complete.symbols(analysis.file)
    assert [(s.name, s.kind) for s in outline if s.kind != "die"] == [
        ("board", "board"), ("Chance", "deck"), ("Community Chest", "deck")]
    board = outline[0]
    assert len(board.children) == 40 and board.children[39].name == "Boardwalk"
    chance = next(s for s in outline if s.name == "Chance")
    assert [c.name for c in chance.children][:2] == ["CH01", "CH02"]

    class Units:
        units = staticmethod(len)

    lines = text.split("\n")
    for s in outline:
        shown = server._symbol(Units(), lines, s)
        for item in [shown, *(shown.children or ())]:
            r, name = item.range, item.selection_range
            assert (r.start.line, r.start.character) <= (name.start.line, name.start.character)
            assert (name.end.line, name.end.character) <= (r.end.line, r.end.character)


OPTIONS = '''rulebook "x"
extends "classic_1961.rules"

remove rule luxury_tax
after salary rule bonus:
  cite "a", "b"
  when a player passes "GO" if option fast: collect $10

option fast "Fast":
  set starting_cash = $2000
'''


@pytest.mark.parametrize("line, word, kind, shown, declared", [
    (4, "remove", "keyword", "Drops the inherited rule NAME", None),
    (4, "luxury_tax", "rule", "QUAND LE JETON ATTEINT UN ESPACE", "classic_1961.rules"),
    (5, "salary", "rule", "SALAIRE", "classic_1961.rules"),
    (5, "after", "keyword", "placed just after", None),
    (7, "fast", "option", '**option fast** "Fast"', "x.rules"),
    (7, "when", "keyword", "What happens on an event", None),
    (10, "starting_cash", "setting", "In force: `$1500`", "classic_1961.rules"),  # option off
])
def test_what_a_word_names(tmp_path, line, word, kind, shown, declared):
    """Keywords, inherited rules, options and settings: their hover and declaration."""
    analysis = _analysis(tmp_path, OPTIONS, "x.rules")
    ref = navigate.reference_at(analysis, line, OPTIONS.split("\n")[line - 1].index(word) + 2)
    assert (ref.kind, ref.name) == (kind, word)
    assert shown in hover.hover(analysis, ref)
    spans = navigate.definition(analysis, ref)
    assert [s.file.endswith(declared) for s in spans] == ([True] if declared else [])


def test_a_wrong_unit_keeps_the_names(tmp_path):
    """A mistake of units (E205) is reported and the text's own AST still answers: the
    parser's lenient errors do not make the analysis stale."""
    analysis = _analysis(tmp_path, HOUSE.replace("collect $300", "collect 300"))
    assert [(d.code, d.span.line) for d in analysis.diagnostics] == [("E205", 6)]
    assert not analysis.stale
    ref = navigate.reference_at(analysis, 8, 8)
    assert (ref.kind, ref.name) == ("rule", "baltic_bonus")


def test_a_syntax_error_hides_no_other_mistake(tmp_path):
    """The diagnostics published for a text with a syntax error hold the other rules'
    mistakes too: the rule that does not parse is left out, the rest is checked."""
    analysis = _analysis(tmp_path, MISTAKE.replace('passes "GO": collect', 'passes "GO" collect'))
    assert [(d.code, d.span.line) for d in analysis.diagnostics] == [("E005", 6), ("E104", 10)]
    ref = navigate.reference_at(analysis, 8, 8)
    assert (ref.kind, ref.name) == ("rule", "baltic_bonus")
