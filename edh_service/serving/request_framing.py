"""Where an HTTP/1.x request ends, judged from its bytes as they arrive (RFC 9112 section
6): the scan the buffering worker (gunicorn_worker.py) runs on each request it receives."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

HEAD_LIMIT = 64 * 1024  # request line and header fields together (gunicorn's own line limit is 4094)
CHUNK_LINE_LIMIT = 1024  # a chunk-size line with extensions
CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}\Z")
LENGTH = re.compile(rb"[0-9]{1,18}\Z")


class Verdict(Enum):
    """What the bytes received so far say about one request."""

    WAIT = "wait"  # more is to come
    COMPLETE = "complete"  # head and body are all there
    HAND_OVER = "hand over"  # not for the scan to judge: gunicorn or the app answers from the head
    HEAD_TOO_LARGE = "head too large"


@dataclass
class Framing:
    """Where one HTTP/1.x request ends (RFC 9112 section 6), scanned as its bytes arrive:
    each call looks only at what it has not looked at yet."""

    body_limit: int
    head_end: int | None = None  # offset just past the empty line ending the head
    length: int = 0  # Content-Length (0: no body)
    chunked: bool = False
    expects_continue: bool = False
    _searched: int = 0
    _chunk_at: int = 0  # offset of the next chunk-size line
    _body: int = 0  # chunk bytes seen so far

    def scan(self, data: bytes | bytearray) -> Verdict:
        """The verdict on `data`, the request's bytes from its first one."""
        if self.head_end is None:
            end = data.find(b"\r\n\r\n", max(0, self._searched - 3))
            if end < 0:
                if data.find(b"\n\n", max(0, self._searched - 1)) >= 0:  # bare LF line ends:
                    return Verdict.HAND_OVER  # gunicorn's parser refuses them
                self._searched = len(data)
                return Verdict.HEAD_TOO_LARGE if len(data) > HEAD_LIMIT else Verdict.WAIT
            if end > HEAD_LIMIT:
                return Verdict.HEAD_TOO_LARGE
            self.head_end = end + 4
            verdict = self._read_head(bytes(data[:end]))
            if verdict is not None:
                return verdict
            self._chunk_at = self.head_end
        if self.chunked:
            return self._scan_chunks(data)
        return Verdict.COMPLETE if len(data) >= self.head_end + self.length else Verdict.WAIT

    def _read_head(self, head: bytes) -> Verdict | None:
        """Read the framing fields; a verdict when the head alone decides."""
        lines = head.split(b"\r\n")
        if lines[0] == b"":  # RFC 9112 section 2.2: one empty line may come first
            lines = lines[1:]
        if not lines:
            return Verdict.HAND_OVER
        http11 = lines[0].endswith(b"HTTP/1.1")
        lengths, codings = set(), []
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon:
                return Verdict.HAND_OVER  # a malformed field: gunicorn's 400
            name, value = name.strip().lower(), value.strip()
            if name == b"content-length":
                lengths.add(value)
            elif name == b"transfer-encoding":
                codings += [coding.strip().lower() for coding in value.split(b",")]
            elif name == b"expect":
                self.expects_continue = http11 and value.lower() == b"100-continue"
        if codings:
            if codings[-1] != b"chunked":
                return Verdict.HAND_OVER  # gunicorn answers 400/501 from the head
            self.chunked = True
            return None
        if len(lengths) > 1 or (lengths and not LENGTH.match(next(iter(lengths)))):
            return Verdict.HAND_OVER
        self.length = int(lengths.pop()) if lengths else 0
        return Verdict.HAND_OVER if self.length > self.body_limit else None

    def _scan_chunks(self, data: bytes | bytearray) -> Verdict:
        """Follow the chunk sizes from the last whole chunk to the last-chunk and trailers."""
        while True:
            at = self._chunk_at
            line_end = data.find(b"\r\n", at, at + CHUNK_LINE_LIMIT + 2)
            if line_end < 0:
                return Verdict.HAND_OVER if len(data) - at > CHUNK_LINE_LIMIT else Verdict.WAIT
            digits = bytes(data[at:line_end]).split(b";", 1)[0].strip()
            if not CHUNK_SIZE.match(digits):
                return Verdict.HAND_OVER  # gunicorn answers the malformed chunk
            size = int(digits, 16)
            if size == 0:  # the last chunk, then trailer fields up to an empty line
                end = data.find(b"\r\n\r\n", line_end)
                if end >= 0:
                    return Verdict.COMPLETE
                return Verdict.HAND_OVER if len(data) - line_end > HEAD_LIMIT else Verdict.WAIT
            if self._body + size > self.body_limit:
                return Verdict.HAND_OVER
            following = line_end + 2 + size + 2
            if len(data) < following:
                return Verdict.WAIT
            if data[following - 2:following] != b"\r\n":
                return Verdict.HAND_OVER
            self._body += size
            self._chunk_at = following
