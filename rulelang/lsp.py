"""The language server (`rulelang lsp`, or `python -m rulelang.lsp`): the Language Server
Protocol over standard input and output, on pygls.

It publishes the checker's diagnostics of a file as it changes (the text in the editor, saved
or not), and answers hover, go to definition, completion and document symbols from
rulelang.navigate, rulelang.hover and rulelang.complete. Positions are converted here:
rulelang counts lines from 1 and columns in characters, the protocol lines from 0 and columns
in the encoding agreed with the client (UTF-16 code units unless the client offers another).
No request ever ends the server: a failure is logged to the client and answered with nothing.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from rulelang import ast
from rulelang.complete import Completion, Symbol, completions, symbols
from rulelang.diagnostics import Diagnostic
from rulelang.files import source_text
from rulelang.hover import hover
from rulelang.navigate import Analysis, analyse, definition, reference_at

__all__ = ["server", "main"]

DELAY = 0.2  # seconds of quiet after a change before the text is checked again


class RulesServer(LanguageServer):
    """The server and, for each open file, the analysis of its latest text."""

    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            shown = version("rulelang")
        except PackageNotFoundError:
            shown = "0"
        super().__init__("rulelang", shown)
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task] = {}

    def analysis(self, uri: str, again: bool = False) -> Analysis:
        """The analysis of the editor's current text of `uri` (made now if it is older, or
        `again`: the files it extends may have changed)."""
        doc = self.workspace.get_text_document(uri)
        text = doc.source
        found = self.analyses.get(uri)
        if found is None or found.text != text or again:
            found = analyse(_path(doc.path or uri), text, found)
            self.analyses[uri] = found
        return found

    def units(self, text: str) -> int:
        """The length of `text` in the code units of the agreed position encoding."""
        return self.workspace.position_codec.client_num_units(text)


server = RulesServer()


def _path(path: str) -> str:
    return os.path.abspath(path)


def _safe(handler):
    """A handler whose failure is logged to the client and answered with None."""

    @functools.wraps(handler)
    def run(ls: RulesServer, params):
        try:
            return handler(ls, params)
        except Exception as e:  # noqa: BLE001 - the server outlives any one request
            ls.window_log_message(lsp.LogMessageParams(
                type=lsp.MessageType.Error, message=f"rulelang: {handler.__name__} failed: "
                f"{type(e).__name__}: {e}"))
            return None

    return run


# ---------------------------------------------------------------- positions


def _lines_of(text: str | None) -> list[str]:
    if text is None:
        return []
    return text.split("\n")


def _position(ls: RulesServer, lines: list[str], line: int, column: int) -> lsp.Position:
    """A 1-based line and character column as a protocol position."""
    if line <= 0 or not lines:
        return lsp.Position(line=0, character=0)
    if line > len(lines):
        return lsp.Position(line=len(lines) - 1, character=ls.units(lines[-1]))
    text = lines[line - 1].removesuffix("\r")
    if line == 1 and text.startswith("\ufeff"):
        column += 1  # columns are counted after a byte-order mark
    return lsp.Position(line=line - 1, character=ls.units(text[:max(column - 1, 0)]))


def _range(ls: RulesServer, lines: list[str], span: ast.Span) -> lsp.Range:
    start = _position(ls, lines, span.line, span.column)
    end = _position(ls, lines, span.end_line, span.end_column)
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return lsp.Range(start=start, end=end)


def _column(ls: RulesServer, lines: list[str], position: lsp.Position) -> tuple[int, int]:
    """A protocol position as a 1-based line and character column."""
    line = position.line + 1
    if not 0 < line <= len(lines):
        return line, 1
    text = lines[line - 1]
    bom = 1 if line == 1 and text.startswith("\ufeff") else 0
    units = 0
    for i, c in enumerate(text):
        if units >= position.character:
            return line, max(i + 1 - bom, 1)
        units += ls.units(c)
    return line, len(text) + 1 - bom


def _uri(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()


def _location(ls: RulesServer, analysis: Analysis, span: ast.Span) -> lsp.Location:
    text = analysis.text if span.file == analysis.path else source_text(span.file)
    return lsp.Location(uri=_uri(span.file), range=_range(ls, _lines_of(text), span))


# ---------------------------------------------------------------- diagnostics


def _diagnostics(ls: RulesServer, analysis: Analysis) -> list[lsp.Diagnostic]:
    """The diagnostics of the analysed file: its own, and those of a parent file that a
    note places in it (shown at the note); the others belong to the parent's own file."""
    lines = _lines_of(analysis.text)
    out = []
    for d in analysis.diagnostics:
        span, prefix = d.span, ""
        if span.file != analysis.path:
            here = next((s for _, s in d.notes if s is not None and s.file == analysis.path),
                        None)
            if here is None:
                continue
            span = here
            prefix = f"in {os.path.basename(d.span.file)}:{d.span.line}: "
        out.append(_diagnostic(ls, analysis, lines, d, span, prefix))
    return out


def _diagnostic(ls: RulesServer, analysis: Analysis, lines: list[str], d: Diagnostic,
                span: ast.Span, prefix: str) -> lsp.Diagnostic:
    message = prefix + d.message
    if d.hint:
        message += f"\nhint: {d.hint}"
    related = []
    for note, where in d.notes:
        if where is None or where.line <= 0:
            message += f"\nnote: {note}"
        else:
            related.append(lsp.DiagnosticRelatedInformation(
                location=_location(ls, analysis, where), message=note))
    return lsp.Diagnostic(
        range=_range(ls, lines, span), message=message,
        severity=lsp.DiagnosticSeverity.Error if d.is_error else lsp.DiagnosticSeverity.Warning,
        code=d.code, source="rulelang", related_information=related or None)


def _publish(ls: RulesServer, uri: str, again: bool = False) -> None:
    analysis = ls.analysis(uri, again)
    doc = ls.workspace.get_text_document(uri)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, diagnostics=_diagnostics(ls, analysis), version=doc.version))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@_safe
def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    """Check again once the text has not changed for DELAY seconds."""
    uri = params.text_document.uri
    waiting = ls.pending.pop(uri, None)
    if waiting is not None:
        waiting.cancel()

    async def later() -> None:
        await asyncio.sleep(DELAY)
        ls.pending.pop(uri, None)
        _safe(lambda ls, uri: _publish(ls, uri))(ls, uri)

    try:
        ls.pending[uri] = asyncio.get_running_loop().create_task(later())
    except RuntimeError:  # no loop running: check at once
        _safe(lambda ls, uri: _publish(ls, uri))(ls, uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@_safe
def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    """A saved file may be another open file's parent: every open file is checked again."""
    for uri in list(ls.analyses):
        if uri in ls.workspace.text_documents:
            _publish(ls, uri, again=True)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@_safe
def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    waiting = ls.pending.pop(uri, None)
    if waiting is not None:
        waiting.cancel()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ---------------------------------------------------------------- requests


def _at(ls: RulesServer, params) -> tuple[Analysis, int, int]:
    analysis = ls.analysis(params.text_document.uri)
    line, column = _column(ls, _lines_of(analysis.text), params.position)
    return analysis, line, column


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@_safe
def on_hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    analysis, line, column = _at(ls, params)
    ref = reference_at(analysis, line, column)
    text = hover(analysis, ref) if ref is not None else None
    if not text:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                     range=_range(ls, _lines_of(analysis.text), ref.span))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@_safe
def on_definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    analysis, line, column = _at(ls, params)
    ref = reference_at(analysis, line, column)
    if ref is None:
        return None
    return [_location(ls, analysis, span) for span in definition(analysis, ref)] or None


_COMPLETION_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "space": lsp.CompletionItemKind.Value,
    "deck": lsp.CompletionItemKind.Class, "rule": lsp.CompletionItemKind.Function,
    "setting": lsp.CompletionItemKind.Property, "option": lsp.CompletionItemKind.Module,
    "token": lsp.CompletionItemKind.Variable, "pot": lsp.CompletionItemKind.Variable,
    "die": lsp.CompletionItemKind.Variable, "face": lsp.CompletionItemKind.EnumMember,
    "file": lsp.CompletionItemKind.File, "kind": lsp.CompletionItemKind.TypeParameter,
    "event": lsp.CompletionItemKind.Event, "condition": lsp.CompletionItemKind.Operator,
    "effect": lsp.CompletionItemKind.Method, "action": lsp.CompletionItemKind.Method,
}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"']))
@_safe
def on_completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    analysis, line, column = _at(ls, params)
    lines = _lines_of(analysis.text)
    items = [_item(ls, lines, line, column, c, i)
             for i, c in enumerate(completions(analysis, line, column))]
    return lsp.CompletionList(is_incomplete=False, items=items)


def _item(ls: RulesServer, lines: list[str], line: int, column: int, c: Completion,
          order: int) -> lsp.CompletionItem:
    edit = lsp.TextEdit(range=lsp.Range(start=_position(ls, lines, line, c.start),
                                        end=_position(ls, lines, line, column)),
                        new_text=c.text)
    return lsp.CompletionItem(
        label=c.label, kind=_COMPLETION_KINDS.get(c.kind), detail=c.detail or None,
        documentation=c.doc or None, text_edit=edit, sort_text=f"{order:05d}")


_SYMBOL_KINDS = {
    "rule": lsp.SymbolKind.Function, "removed": lsp.SymbolKind.Null,
    "board": lsp.SymbolKind.Array, "space": lsp.SymbolKind.EnumMember,
    "deck": lsp.SymbolKind.Class, "card": lsp.SymbolKind.Object,
    "option": lsp.SymbolKind.Module, "setting": lsp.SymbolKind.Property,
    "parameter": lsp.SymbolKind.Variable, "die": lsp.SymbolKind.Constant,
    "token": lsp.SymbolKind.Object, "pot": lsp.SymbolKind.Variable,
    "side": lsp.SymbolKind.Namespace,
}


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_safe
def on_symbols(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    analysis = ls.analysis(params.text_document.uri)
    if analysis.file is None:
        return []
    lines = _lines_of(analysis.text)
    return [_symbol(ls, lines, s) for s in symbols(analysis.file)]


def _symbol(ls: RulesServer, lines: list[str], s: Symbol) -> lsp.DocumentSymbol:
    whole = _range(ls, lines, s.span)
    name = _range(ls, lines, s.name_span)
    inside = ((whole.start.line, whole.start.character) <= (name.start.line,
                                                              name.start.character)
              and (name.end.line, name.end.character) <= (whole.end.line,
                                                          whole.end.character))
    return lsp.DocumentSymbol(
        name=s.name or "?", kind=_SYMBOL_KINDS[s.kind], range=whole,
        selection_range=name if inside else whole, detail=s.detail or None,
        children=[_symbol(ls, lines, c) for c in s.children] or None)


class _OneLine(logging.Formatter):
    """A log record as one line: what went wrong, never a traceback (pygls logs one for a
    message it cannot read, and goes on)."""

    def format(self, record: logging.LogRecord) -> str:
        record = logging.makeLogRecord(record.__dict__)
        error = record.exc_info[1] if record.exc_info else None
        record.exc_info = record.exc_text = record.stack_info = None
        record.msg, record.args = record.getMessage().strip().split("\n", 1)[0], None
        line = super().format(record)
        if error is not None:
            line += f" ({type(error).__name__}: {error})"
        return " ".join(line.split())


def main() -> None:
    """Serve over standard input and output until the client says exit."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("rulelang lsp: %(levelname)s: %(message)s"))
    log = logging.getLogger("pygls")
    log.addHandler(handler)
    log.setLevel(logging.WARNING)
    log.propagate = False
    server.start_io()


if __name__ == "__main__":
    main()
