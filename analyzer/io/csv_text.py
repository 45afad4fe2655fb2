"""What a CSV file's bytes are, before Polars reads them: its text encoding, its header line and separator, what
Polars is given to read, and where a file that cannot be read goes wrong.

* **Encoding**, told from the file's first 64 KiB (:func:`csv_header`): UTF-8 (with or without a byte-order
  mark); UTF-16 (a byte-order mark, or the zero bytes of ASCII text in UTF-16 without one: Excel's "Unicode
  Text"); Shift-JIS (cp932, Japanese Excel's "CSV") where the bytes are not UTF-8, decode as cp932 and read as
  Japanese (:func:`reads_as_japanese`). UTF-16 and Shift-JIS files are read through their UTF-8 text, made in
  memory once per file version (:func:`csv_source`). Any other text is refused, naming the line, the encoding
  it probably is and how to convert it (``iconv``): it is never guessed into wrong names.
* **Not a CSV file**: binary data (zero bytes, control bytes: an image, a zip, an ``.xlsx`` renamed) or text
  whose first line holds control characters is one :class:`InputError` naming the file, none of its bytes.
* **Header**: the separator that splits the header line into the most fields (comma, semicolon or tab), and
  the names.
* **Where a file goes wrong** (:func:`first_problem`, for the error of a read that failed): the first line that
  is not text of its encoding, or the first line with more fields than the header — the line a text editor
  shows (a quoted cell holding a line break takes two).
"""

from __future__ import annotations

import codecs
import csv
import io
import threading
from dataclasses import dataclass
from pathlib import Path

from analyzer.io.errors import InputError

SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
# The header and the encoding are read from the file's first bytes: enough for any real header (a quoted name
# may hold a newline).
HEADER_BYTES = 1 << 16
ENCODING_NAMES = {"utf-8": "UTF-8", "utf-16": "UTF-16", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16",
                  "cp932": "Shift-JIS (cp932)"}
# A file in another encoding than UTF-8 is read through its UTF-8 text, in memory: beyond this, converting it
# first is the way.
MAX_CONVERTED_BYTES = 1 << 30
CONTROL = frozenset(range(0x20)) - {0x09, 0x0A, 0x0D} | {0x7F}
# How a file that is not UTF-8 is converted: iconv's name of the encoding it probably is.
ICONV = {"cp932": "CP932", "cp1252": "CP1252"}
GUESS = {"cp932": "Shift-JIS (cp932)", "cp1252": "Windows-1252"}


@dataclass(frozen=True)
class CsvHeader:
    """A local CSV file's encoding (a Python codec: ``utf-8``, ``utf-16``, ``utf-16-le``, ``utf-16-be``,
    ``cp932``), separator and header names."""

    encoding: str
    separator: str
    names: list[str]


def file_key(path: str | Path) -> tuple | None:
    """A local file's version (path, modification time, size); None where it cannot be opened here (a remote
    file of a cluster run)."""
    try:
        real = Path(path).resolve()
        stat = real.stat()
    except OSError:
        return None
    return str(real), stat.st_mtime_ns, stat.st_size


def not_csv(path: str | Path, why: str) -> InputError:
    return InputError(f"{path} is not a CSV file: {why}")


def _utf16_without_mark(start: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` where ``start`` is the zero bytes of ASCII text in UTF-16 (every other byte
    zero, on one side only); None otherwise."""
    even, odd = start[0::2], start[1::2]
    pairs = len(start) // 2
    if not pairs:
        return None
    for codec, zeros, other in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if b"\x00" not in other and zeros.count(0) >= pairs / 4:
            return codec
    return None


def _decoded(start: bytes, codec: str, whole: bool) -> str:
    """``start`` decoded strictly (an incomplete character at its end set aside unless it is the whole file)."""
    return codecs.getincrementaldecoder(codec)().decode(start, final=whole)


def _is_common_japanese(char: str) -> bool:
    """Kana, CJK punctuation, full-width letters and digits, and the kanji Shift-JIS lists first (JIS level 1
    and the start of level 2): what Japanese names and words are written in."""
    code = ord(char)
    if 0x3000 <= code <= 0x30FF or 0xFF01 <= code <= 0xFF5E:
        return True
    if 0x4E00 <= code <= 0x9FFF:
        return 0x88 <= char.encode("cp932")[0] <= 0x9F
    return False


def reads_as_japanese(text: str) -> bool:
    """Whether ``text`` (bytes decoded as cp932) is Japanese rather than another encoding decoded as cp932: nine in
    ten of its characters beyond ASCII are common Japanese ones (kana, level 1 kanji), and none stands alone
    between two Latin letters, as ``é`` of ``Pétur`` or ``’`` of ``O’Brien`` in Windows-1252 would."""
    beyond = [i for i, c in enumerate(text) if ord(c) > 0x7F]
    if not beyond or sum(_is_common_japanese(text[i]) for i in beyond) < 0.9 * len(beyond):
        return False

    def latin(i: int) -> bool:
        return 0 <= i < len(text) and text[i].isascii() and text[i].isalpha()

    return not any(latin(i - 1) and latin(i + 1) for i in beyond)


def not_utf8(path: str | Path, line: int, byte: int, guess: str) -> InputError:
    """``FILE is not UTF-8 text (line 2, byte 0xe9; Windows-1252?): save it as "CSV UTF-8" or convert it: …``"""
    name = Path(str(path)).name
    return InputError(f"{path} is not UTF-8 text (line {line}, byte 0x{byte:02x}; {GUESS[guess]}?): save it as "
                      f"\"CSV UTF-8\" or convert it: iconv -f {ICONV[guess]} -t UTF-8 {name} > utf8-{name}")


def _guess(data: bytes, whole: bool) -> str:
    """The encoding bytes that are not UTF-8 probably are: Shift-JIS where they read as Japanese, else
    Windows-1252 (Excel's CSV in Western Europe)."""
    try:
        return "cp932" if reads_as_japanese(_decoded(data, "cp932", whole)) else "cp1252"
    except UnicodeDecodeError:
        return "cp1252"


def encoding_of(path: str | Path, start: bytes, whole: bool) -> str:
    """The codec of a CSV file that starts with ``start`` (``whole``: that is all of it); an
    :class:`InputError` where it is binary data, or text in an encoding that is not read."""
    if start.startswith(codecs.BOM_UTF8):
        codec = "utf-8"
    elif start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        codec = "utf-16"
    elif start.startswith(b"PK\x03\x04"):
        raise not_csv(path, "it is a zip archive (an Excel workbook? save it as \"CSV UTF-8\")")
    elif b"\x00" in start:
        codec = _utf16_without_mark(start)
        if codec is None:
            raise not_csv(path, "it holds binary data (control bytes, not text)")
    else:
        codec = "utf-8"
    try:
        text = _decoded(start, codec, whole)
    except UnicodeDecodeError as exc:
        if codec != "utf-8":
            raise not_csv(path, "it holds binary data (control bytes, not text)") from None
        if sum(b in CONTROL for b in start) > len(start) / 100:
            raise not_csv(path, "it holds binary data (control bytes, not text)") from None
        try:
            text = _decoded(start, "cp932", whole)
        except UnicodeDecodeError:
            text = ""
        if not reads_as_japanese(text):
            raise not_utf8(path, start[:exc.start].count(b"\n") + 1, start[exc.start], "cp1252") from None
        codec = "cp932"
    first = text.removeprefix("\ufeff").split("\n", 1)[0]
    if any(ord(c) in CONTROL for c in first):
        raise not_csv(path, "control characters in its first line (a CSV file starts with its header line)")
    return codec


def header_fields(path: str | Path) -> CsvHeader | None:
    """The encoding, separator and names of a local CSV file's header line; None where it cannot be opened here
    (a remote file of a cluster run: Polars reads it, with a comma) or is empty. Binary data, or text in an
    encoding that is not read, is an :class:`InputError` (:func:`encoding_of`)."""
    try:
        with open(path, "rb") as handle:
            start = handle.read(HEADER_BYTES + 1)
    except OSError:
        return None
    whole = len(start) <= HEADER_BYTES
    start = start[:HEADER_BYTES]
    if not start.strip():
        return None
    encoding = encoding_of(path, start, whole)
    text = codecs.getincrementaldecoder(encoding)(errors="replace").decode(start, final=whole).removeprefix("\ufeff")
    if not text.strip():
        return None
    # the separator that splits the header into the most fields; a tie (one column) is a comma
    try:
        best = max(SEPARATORS, key=lambda sep: (len(_first_row(text, sep)), sep == ","))
        return CsvHeader(encoding, best, _first_row(text, best))
    except csv.Error as exc:
        raise InputError(f"cannot read the header line of {path}: {exc}") from None


def _first_row(text: str, separator: str) -> list[str]:
    return next(csv.reader(io.StringIO(text, newline=""), delimiter=separator), [])


_HEADERS: dict[tuple, CsvHeader | None] = {}


def csv_header(path: str | Path) -> CsvHeader | None:
    """:func:`header_fields`, read once per file version (a file read in slices is scanned once per slice)."""
    key = file_key(path)
    if key is None:
        return None
    if key not in _HEADERS:
        if len(_HEADERS) > 1024:
            _HEADERS.clear()
        _HEADERS[key] = header_fields(path)
    return _HEADERS[key]


def csv_separator(path: str | Path) -> str:
    """The separator of a CSV file (``,``, ``;`` or tab), read off its header line."""
    found = csv_header(path)
    return found.separator if found else ","


def csv_encoding(path: str | Path) -> str:
    """The codec a CSV file is read with (:func:`encoding_of`); ``utf-8`` for a file that is not local."""
    found = csv_header(path)
    return found.encoding if found else "utf-8"


def separator_name(separator: str) -> str:
    return f"{SEPARATORS.get(separator, repr(separator))}-separated"


_CONVERTED: dict[tuple, bytes] = {}
_CONVERTING = threading.Lock()  # the parts of a run read on threads convert a file once, not once each


def csv_source(path: str | Path) -> str | Path | bytes:
    """What Polars reads for a CSV file: its path where it is UTF-8, else its text as UTF-8 bytes, converted
    once per file version (kept while the process runs, up to :data:`MAX_CONVERTED_BYTES` in all)."""
    encoding = csv_encoding(path)
    if encoding == "utf-8":
        return path
    key = file_key(path)
    with _CONVERTING:
        if key not in _CONVERTED:
            converted = _converted(path, encoding, key[2])
            if sum(map(len, _CONVERTED.values())) + len(converted) > MAX_CONVERTED_BYTES:
                _CONVERTED.clear()
            _CONVERTED[key] = converted
        return _CONVERTED[key]


def _converted(path: str | Path, encoding: str, size: int) -> bytes:
    """A file's text in ``encoding`` as UTF-8 bytes; an :class:`InputError` where it is too big to hold or is not
    that encoding throughout."""
    name = ENCODING_NAMES[encoding]
    if size > MAX_CONVERTED_BYTES:
        raise InputError(f"{path} is {name} text of more than {MAX_CONVERTED_BYTES >> 30} GiB: convert it to "
                         f"UTF-8 first (iconv -f {encoding.upper()} -t UTF-8)")
    data = Path(path).read_bytes()
    try:
        return data.decode(encoding).removeprefix("\ufeff").encode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].decode(encoding, errors="replace").count("\n") + 1
        raise InputError(f"{path} is not {name} text throughout (line {line}, byte 0x{data[exc.start]:02x}): "
                         "save it as \"CSV UTF-8\" and read that") from None


def _first_undecodable(path: str | Path) -> tuple[int, bytes] | None:
    """(line, the bytes there) of the first bytes of a UTF-8 file that are not UTF-8; None where all are."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(1 << 20)
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                return line + exc.object[:exc.start].count(b"\n"), exc.object[exc.start:]
            if not chunk:
                return None
            line += chunk.count(b"\n")


def _first_ragged_line(path: str | Path, header: CsvHeader) -> str | None:
    """``line 4 has 12 fields, the header 10``: the first record with more fields than the header (the line it
    starts on); None where there is none. Read record by record with Python's csv module: this runs only for
    the error of a read that failed, to say where."""
    source = csv_source(path)
    text = io.StringIO(source.decode("utf-8"), newline="") if isinstance(source, bytes) else None
    with text or open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle, delimiter=header.separator)
        width = len(next(reader, []))
        start = reader.line_num + 1
        for record in reader:
            if len(record) > width:
                return f"line {start} has {len(record)} fields, the header {width}"
            start = reader.line_num + 1
    return None


def first_problem(path: str | Path) -> str | None:
    """Where a local CSV file that Polars could not read goes wrong: its first line with more fields than the
    header (``line 4 has 12 fields, the header 10``); None where none is found (or the file is not local). A
    line that is not UTF-8 is an :class:`InputError` of its own, naming the line, the encoding the file
    probably is and how to convert it."""
    try:
        header = csv_header(path)
        if header is None:
            return None
        if header.encoding == "utf-8":
            bad = _first_undecodable(path)
            if bad is not None:
                line, data = bad
                raise not_utf8(path, line, data[0], _guess(data, False))
        return _first_ragged_line(path, header)
    except (OSError, csv.Error, UnicodeDecodeError):
        return None
