"""The reading half of parsing: a rules file's text (`read_source`, `decode_source`,
`normalize`), and the cache of the syntax trees of files read before (`parse_cached`).

Apart from `rulelang.parse` so that a check whose files are all in the cache never imports
Lark nor builds a parser: `parse_cached` imports `rulelang.parse` only for a text it has not
seen.

Checking a house rule parses the files it extends too, unchanged from one check to the next:
their ASTs are pickled in the private cache directory (`rulelang.cache`), named after a digest
of the text, the name it is shown by, and the code that builds an AST (so that a change of the
grammar, of the builder or of a node class never loads an AST built by other code).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import sys
import tempfile
from pathlib import Path

from rulelang import ast, cache
from rulelang.diagnostics import RuleError
from rulelang.files import read_rules

__all__ = ["COMMAND_LINE", "read_source", "decode_source", "normalize", "parse_cached",
           "AST_CACHE_FILES", "AST_CACHE_CHARS"]

COMMAND_LINE = "<command line>"  # the file name of a --set override's spans


def read_source(path: str, shown: str | None = None) -> str:
    """The text of a rules file; a file `files.read_rules` refuses and non-UTF-8 bytes
    become RuleError. `shown` is the path to name in messages and spans (default: path)."""
    shown = str(path) if shown is None else shown
    return decode_source(read_rules(str(path), shown), shown)


def decode_source(data: bytes, shown: str) -> str:
    """The text of the bytes of a rules file named `shown`; E011 at the first byte that is
    not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise RuleError(
            "E011", f"byte 0x{data[e.start]:02x} is not valid UTF-8",
            ast.Span(shown, line, column, line, column + 1),
            hint="save the file as UTF-8 text") from None


def _normalize(text: str) -> str:
    """The text as the lexer reads it: no byte-order mark, LF line ends, a final LF."""
    # CRLF and a BOM are common in files saved on Windows; neither changes line numbers.
    # A lone CR is not a line break (grep and wc see none): the lexer reports it (E001).
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


normalize = _normalize  # public: token positions are offsets in its result


def parse_cached(text: str, path: str) -> ast.File:
    """`rulelang.parse.parse_text(text, path)`, or the AST it gave for the same text, name
    and code before, from the cache (which keeps the last AST_CACHE_FILES, of texts of at most
    AST_CACHE_CHARS characters: a rulebook is a few thousand). A text with errors is parsed
    every time, so its diagnostics are always the parser's."""
    text = _normalize(text)
    if len(text) > AST_CACHE_CHARS:
        from rulelang.parse import _parse_text

        return _parse_text(text, path)
    key = _ast_key(text, path)
    stored = _load_ast(key)
    if stored is not None:
        return stored
    from rulelang.parse import _parse_text

    result = _parse_text(text, path)
    _save_ast(key, result)
    return result


# Checking a house rule parses the files it extends too, unchanged from one check to the
# next: their ASTs are pickled in the private cache directory, named after a digest of the
# text, the name it is shown by, and the code that builds an AST (so that a change of the
# grammar, of the builder or of a node class never loads an AST built by other code).

AST_CACHE_FILES = 200  # the ASTs kept; the least recently written go first
# the longest text cached: the official rulebooks are under 10,000 characters; a longer file
# is parsed every time (pickling its AST would double its memory at the peak)
AST_CACHE_CHARS = 64_000
# the sources an AST depends on: the grammar, its builder, the node classes, the vocabulary
_AST_SOURCES = ("grammar.lark", "parse.py", "source.py", "ast.py", "nodes.py", "units.py",
                "recover.py", "parse_errors.py", "diagnostics.py", "vocab")
_code_key: str | None = None


def _ast_key(text: str, path: str) -> str:
    global _code_key
    if _code_key is None:
        # Lark's version, read from its package without importing it (a cache hit needs no
        # Lark at all)
        spec = importlib.util.find_spec("lark")
        lark_init = Path(spec.origin).read_bytes() if spec and spec.origin else b""
        digest = hashlib.sha256(repr(sys.version_info).encode() + b"\0" + lark_init)
        here = Path(__file__).parent
        for name in _AST_SOURCES:
            source = here / name
            for part in sorted(source.glob("*.py")) if source.is_dir() else [source]:
                digest.update(part.name.encode() + b"\0" + part.read_bytes() + b"\0")
        _code_key = digest.hexdigest()
    digest = hashlib.sha256(_code_key.encode())
    digest.update(path.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:32]


def _load_ast(key: str) -> ast.File | None:
    """The AST cached under `key`, or None (none, or a file that cannot be trusted or read:
    then it is parsed again)."""
    path = cache.private_file(f"ast-{key}.pickle")
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            file = pickle.load(f)
    except Exception:  # noqa: BLE001 - a missing, damaged or stale file: parse again
        return None
    return file if type(file) is ast.File else None


def _save_ast(key: str, file: ast.File) -> None:
    """Cache an AST, whole or not at all, and forget the oldest beyond AST_CACHE_FILES."""
    path = cache.private_file(f"ast-{key}.pickle")
    if path is None:
        return
    folder, name = os.path.split(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=folder)  # mode 0600
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            pickle.dump(file, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except Exception:  # noqa: BLE001 - an AST that cannot be cached is parsed next time
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    try:
        kept = [e for e in os.scandir(folder) if e.name.startswith("ast-") and e.is_file()]
        if len(kept) > AST_CACHE_FILES:
            kept.sort(key=lambda e: e.stat().st_mtime_ns)
            for e in kept[:len(kept) - AST_CACHE_FILES]:
                os.unlink(e.path)
    except OSError:
        pass
