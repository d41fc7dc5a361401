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
import re
import sys
import tempfile
from pathlib import Path

from rulelang import ast, cache
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.files import read_rules

__all__ = ["COMMAND_LINE", "read_source", "decode_source", "normalize", "parse_cached",
           "parse_cached_lenient",
           "AST_CACHE_FILES", "AST_CACHE_CHARS"]

COMMAND_LINE = "<command line>"  # the file name of a --set override's spans


def read_source(path: str, shown: str | None = None) -> str:
    """The text of a rules file; a file `files.read_rules` refuses and non-UTF-8 bytes
    become RuleError. `shown` is the path to name in messages and spans (default: path)."""
    shown = str(path) if shown is None else shown
    return decode_source(read_rules(str(path), shown), shown)


# The first bytes (a pattern) of the binary formats a rules file is most often mistaken for:
# what each is called in a message, and what to do instead.
_SIGNATURES: tuple[tuple[bytes, str, str], ...] = (
    (rb"\x1f\x8b", "gzip data", "decompress it first (gunzip FILE)"),
    (rb"PK\x03\x04", "a zip archive", "extract the rules file from the archive first"),
    (rb"PK\x05\x06", "a zip archive", "extract the rules file from the archive first"),
    (rb"BZh[1-9]1AY&SY", "bzip2 data", "decompress it first (bunzip2 FILE)"),
    (rb"\xfd7zXZ\x00", "xz data", "decompress it first (unxz FILE)"),
    (rb"\x28\xb5\x2f\xfd", "zstd data", "decompress it first (unzstd FILE)"),
    (rb"%PDF-", "a PDF document", "copy the rules out of the document into a text file"),
    (rb"\x89PNG\r\n\x1a\n", "a PNG image", "name the rules file itself, not a picture"),
    (rb"\xff\xd8\xff", "a JPEG image", "name the rules file itself, not a picture"),
    (rb"GIF8[79]a", "a GIF image", "name the rules file itself, not a picture"),
    (rb"\x7fELF", "a program (ELF)", "name the rules file itself, not a program"),
    (rb"SQLite format 3\x00", "an SQLite database", "name the rules file itself"),
    (rb"\xff\xfe|\xfe\xff", "", ""),  # UTF-16 text, with its byte-order mark
)
_UTF16 = ("this looks like UTF-16 text: a rules file is UTF-8",
          "save the file as UTF-8 (your editor's encoding menu), or convert it: iconv -f "
          "utf-16 -t utf-8")


def _binary_kind(data: bytes) -> tuple[str, str] | None:
    """The message and hint for data that is not text (what it looks like and what to do),
    or None if it may be text."""
    for magic, kind, hint in _SIGNATURES:
        if re.match(magic, data):
            return (f"this looks like {kind}, not a rules file", hint) if kind else _UTF16
    nuls = data.count(0)
    if not nuls:
        return None
    head = data[:4096]
    # UTF-16 without a byte-order mark: Latin letters leave every other byte NUL.
    even, odd = head[0::2].count(0), head[1::2].count(0)
    if max(even, odd) > len(head) // 4 and min(even, odd) == 0:
        return _UTF16
    # A stray NUL in a text (a name, a path) is that text's mistake, reported where it is;
    # NULs in a row, many of them, or among bytes that are not UTF-8 are binary data.
    if b"\x00\x00" in data or nuls * 32 > len(data) or not _is_utf8(data):
        return ("this looks like binary data (it holds NUL bytes), not a rules file",
                "a rules file is UTF-8 text: check that this is the file meant")
    return None


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode_source(data: bytes, shown: str) -> str:
    """The text of the bytes of a rules file named `shown`; E011 for data that looks binary
    (a compressed file, an archive, a document, an image, NULs: the file as a whole,
    none of its bytes shown) or at the first byte that is not UTF-8."""
    binary = _binary_kind(data)
    if binary is not None:
        message, hint = binary
        raise RuleError("E011", message, ast.Span(shown, 0, 0, 0, 0), hint=hint)
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
    return _parse_cached(text, path, lenient=False)[0]


def parse_cached_lenient(text: str, path: str) -> tuple[ast.File, list[Diagnostic]]:
    """`parse_cached`, but a text whose only errors are those found while
    building the AST (`rulelang.parse.LENIENT_CODES`) gives its AST, placeholders where the
    mistakes are, with those errors: the checker can look at the rest of the file. Any
    other error raises, as parse_cached."""
    return _parse_cached(text, path, lenient=True)


def _parse_cached(text: str, path: str, lenient: bool) -> tuple[ast.File, list[Diagnostic]]:
    text = _normalize(text)
    key = _ast_key(text, path) if len(text) <= AST_CACHE_CHARS else None
    if key is not None:
        stored = _load_ast(key)
        if stored is not None:
            return stored, []
    from rulelang.parse import _parse_text_lenient

    result, errors = _parse_text_lenient(text, path, lenient)
    if key is not None and not errors:
        _save_ast(key, result)
    return result, errors


# Checking a house rule parses the files it extends too, unchanged from one check to the
# next: their ASTs are pickled in the private cache directory, named after a digest of the
# text, the name it is shown by, and the code that builds an AST (so that a change of the
# grammar, of the builder or of a node class never loads an AST built by other code).

AST_CACHE_FILES = 200  # the ASTs kept; the least recently written go first
_AST_FILES = re.compile(r"ast-[0-9a-f]{32}\.pickle")  # the names `_ast_key` gives
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
    cache.prune(folder, _AST_FILES, AST_CACHE_FILES)
