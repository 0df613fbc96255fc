"""The one hardened reader of JSON and text input: every loader of the package reads through it.

:func:`loads` is ``json.loads`` that refuses, with an :class:`InputError` (a
:class:`~bummerl.errors.BummerlError`) and a one-line message, what the standard reader lets through or
turns into a bare ``ValueError`` or ``RecursionError``: a key twice in one object; a number longer than
:data:`MOST_NUMBER_CHARS` characters (Python refuses integers over 4,300 digits with a bare
ValueError, and no count or point value of a deal needs more than a few digits); ``NaN``,
``Infinity`` and ``1e999`` (which Python reads as infinity); nesting deeper than :data:`MOST_DEPTH`;
bytes that are not UTF-8. :func:`decode` and :func:`open_text` read bytes, files and standard input as
strict UTF-8.

>>> loads('{"dealer": 1, "actions": ["play QH"]}')
{'dealer': 1, 'actions': ['play QH']}
>>> loads('{"dealer": 1, "dealer": 0}')
Traceback (most recent call last):
...
bummerl.jsonio.InputError: bad JSON: the key 'dealer' appears twice in one object
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
bummerl.jsonio.InputError: bad JSON: nested too deeply (more than 32 levels)
>>> loads("7" * 5000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.jsonio.InputError: bad JSON: a number of 5000 characters is far too long (77777...)
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO, Protocol, TextIO

from bummerl.errors import BummerlError, quote

__all__ = ["MOST_DEPTH", "MOST_LINE_CHARS", "MOST_NUMBER_CHARS", "BadUtf8", "InputError", "Text",
           "Utf8Reader", "decode", "lines", "loads", "not_utf8", "open_text", "read_text"]

#: The deepest nesting of lists and objects accepted (a game record nests 4 deep).
MOST_DEPTH = 32
#: The longest number accepted, in characters (seeds and counts fit in far fewer).
MOST_NUMBER_CHARS = 40
#: The longest line of input read, and the most text read whole, in characters: a record of a whole
#: Bummerl on one line is a few tens of thousands; ``/dev/zero`` would never end.
MOST_LINE_CHARS = 1 << 20


class InputError(BummerlError):
    """Input that cannot be read as text or JSON; the message is one line.

    ``lineno`` and ``colno`` locate a JSON syntax error (None for the other refusals).
    """

    def __init__(
        self, message: str, lineno: int | None = None, colno: int | None = None, msg: str = ""
    ) -> None:
        super().__init__(message)
        self.lineno = lineno
        self.colno = colno
        #: The syntax error alone (``Expecting value``), empty for the other refusals.
        self.msg = msg


def loads(text: str | bytes) -> Any:
    """Parse JSON text (or UTF-8 bytes) into Python values; refuse what the module docstring lists."""
    if isinstance(text, bytes | bytearray):
        text = decode(bytes(text))
    _check_depth(text)
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as err:
        why = err.msg.removesuffix(" at")  # "Invalid control character at": the position comes after
        raise InputError(
            f"bad JSON at line {err.lineno} column {err.colno}: {why}", err.lineno, err.colno, why
        ) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise InputError("bad JSON: nested too deeply") from None


def decode(data: bytes, source: str = "") -> str:
    """Bytes as strict UTF-8 text; ``source`` (a file name) starts the message of the error.

    >>> decode(b"QH \\xe2\\x99\\xa5")
    'QH ♥'
    >>> decode(b"\\xff QH", "deal.json")
    Traceback (most recent call last):
    ...
    bummerl.jsonio.InputError: cannot read deal.json: not UTF-8 text (invalid start byte at byte 0)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(_not_utf8(err, source)) from None


class Text(Protocol):
    """What :func:`lines` and :func:`read_text` read: a text stream, or :class:`Utf8Reader`."""

    def readline(self, size: int = -1, /) -> str: ...

    def read(self, size: int = -1, /) -> str: ...


class BadUtf8(UnicodeDecodeError):
    """Bytes that are not UTF-8, where they are in the whole input: ``at`` (a byte offset) and ``line``."""

    def __init__(self, err: UnicodeDecodeError, offset: int, line: int | None) -> None:
        super().__init__(err.encoding, err.object, err.start, err.end, err.reason)
        self.at = offset + err.start
        self.line = line


class Utf8Reader:
    """A binary stream read as strict UTF-8 text, each line (or read) decoded on its own: a bad byte raises
    :class:`BadUtf8` with its offset in the whole input and its line, once every line before it was read
    (a text wrapper decodes blocks of 8 KiB ahead: it lost the good lines before a bad one, and counted
    the offset from the block's start).

    >>> import io
    >>> reader = Utf8Reader(io.BytesIO(b"QH\\n\\xe2\\x99\\xa5\\n\\xff"))
    >>> reader.readline(), reader.readline()
    ('QH\\n', '♥\\n')
    >>> reader.readline()
    Traceback (most recent call last):
    ...
    bummerl.jsonio.BadUtf8: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.offset = 0
        self.line = 1

    def _decode(self, data: bytes, line: int | None) -> str:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise BadUtf8(err, self.offset, line) from None
        self.offset += len(data)
        return text

    def readline(self, size: int = -1, /) -> str:
        """One line; at most ``size`` characters are asked for (a longer line is cut, as text streams do)."""
        if size < 0:
            data = self.raw.readline()
        else:
            data = self.raw.readline(4 * size)  # a character is at most 4 bytes
            if len(data) == 4 * size and not data.endswith(b"\n"):  # at least ``size`` characters: cut
                return data.decode("utf-8", errors="replace")[:size]
        text = self._decode(data, self.line)
        self.line += text.endswith("\n")
        return text

    def read(self, size: int = -1, /) -> str:
        """The rest (at most ``size`` characters)."""
        if size < 0:
            return self._decode(self.raw.read(), None)
        data = self.raw.read(4 * size)
        if len(data) == 4 * size:  # at least ``size`` characters
            return data.decode("utf-8", errors="replace")[:size]
        return self._decode(data, None)

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> Utf8Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_text(file: str) -> Utf8Reader | TextIO:
    """A file (``-``: standard input) to read as strict UTF-8 text (:class:`Utf8Reader`); reading bad bytes
    raises ``UnicodeDecodeError`` (say it with :func:`not_utf8`). Raises ``OSError`` if it cannot be
    opened."""
    if file != "-":
        return Utf8Reader(open(file, "rb"))
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a test harness's text stream: already text
        return sys.stdin
    return Utf8Reader(buffer)


def lines(stream: Text, source: str = "") -> Iterator[str]:
    """The lines of a text stream, each read with a bound: one longer than :data:`MOST_LINE_CHARS` raises
    :class:`InputError` naming it (``source``, a file name, starts the message) instead of filling memory.

    >>> import io
    >>> list(lines(io.StringIO("a\\nb")))
    ['a\\n', 'b']
    >>> list(lines(io.StringIO("x" * (MOST_LINE_CHARS + 1)), "zero: "))
    Traceback (most recent call last):
    ...
    bummerl.jsonio.InputError: zero: line 1 is longer than 1048576 characters
    """
    number = 0
    while line := stream.readline(MOST_LINE_CHARS + 1):
        number += 1
        if len(line) > MOST_LINE_CHARS:
            raise InputError(f"{source}line {number} is longer than {MOST_LINE_CHARS} characters")
        yield line


def read_text(stream: Text, source: str = "") -> str:
    """A whole text stream of at most :data:`MOST_LINE_CHARS` characters (else :class:`InputError`)."""
    text = stream.read(MOST_LINE_CHARS + 1)
    if len(text) > MOST_LINE_CHARS:
        raise InputError(f"{source}the input is longer than {MOST_LINE_CHARS} characters")
    return text


def not_utf8(err: UnicodeDecodeError, source: str = "") -> InputError:
    """The one-line error for bytes that are not UTF-8, naming the file (and the line, when known)."""
    return InputError(_not_utf8(err, source))


def _not_utf8(err: UnicodeDecodeError, source: str) -> str:
    where = f"cannot read {source}: " if source else ""
    if isinstance(err, BadUtf8):
        line = f"line {err.line}: " if err.line is not None else ""
        return f"{where}{line}not UTF-8 text ({err.reason} at byte {err.at})"
    return f"{where}not UTF-8 text ({err.reason} at byte {err.start})"


# ------------------------------------------------------------------------------------------- the hooks


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(f"bad JSON: the key {quote(key)} appears twice in one object")
        out[key] = value
    return out


def _number_text(text: str) -> str:
    if len(text) > MOST_NUMBER_CHARS:
        raise InputError(f"bad JSON: a number of {len(text)} characters is far too long ({text[:5]}...)")
    return text


def _int(text: str) -> int:
    return int(_number_text(text))


def _float(text: str) -> float:
    value = float(_number_text(text))
    if value in (math.inf, -math.inf):
        raise InputError(f"bad JSON: the number {text} is out of range")
    return value


def _constant(text: str) -> Any:
    raise InputError(f"bad JSON: {text} is not a JSON value")


# ------------------------------------------------------------------------------------------- nesting

#: A JSON string (its brackets do not nest; one never closed runs to the end of the text), or a bracket.
#: Linear: the string's closing quote is optional, so a string that is never closed is one match instead
#: of a failed match from every quote in it (quadratic: 64 KB of ``\\"`` took 17 s).
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than :data:`MOST_DEPTH` before the recursive parser sees it.

    >>> _check_depth('{"a": "' + "[" * 40 + '"}')  # brackets in a string do not nest
    >>> _check_depth("[" * 33)
    Traceback (most recent call last):
    ...
    bummerl.jsonio.InputError: bad JSON: nested too deeply (more than 32 levels)
    """
    if text.count("[") + text.count("{") <= MOST_DEPTH:
        return
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MOST_DEPTH:
                raise InputError(f"bad JSON: nested too deeply (more than {MOST_DEPTH} levels)")
        elif token in ("]", "}"):
            depth -= 1
