"""The peg board's serial protocol: packets with a length, a sequence number and a CRC.

Written in the Python that MicroPython and CPython share: this file runs on the Pico as
``frames.py`` and in the tests as ``firmware.pico.frames``.

A packet (all integers little-endian)::

    A5 5A | kind (1) | seq (2) | length (2) | payload (length) | CRC-32 (4)

The CRC-32 (zlib's, polynomial 0xEDB88320) covers kind, seq, length and payload. Kinds:

* ``F`` (0x46) host → Pico: a frame, 3 bytes per LED in R, G, B order;
* ``P`` (0x50) host → Pico: ping; the Pico answers ``V`` and restarts its sequence check. Its
  payload, when 2 bytes, is the host's LED count (u16): the Pico then takes no packet longer than
  the host's frame;
* ``V`` (0x56) Pico → host: ``b"cribpeg 1.0 leds=N good=.. crc=.. trunc=.. stale=.. len=.."``;
* ``Q`` (0x51) host → Pico: leave the loop and give the REPL back (to update the firmware).

:class:`Parser` takes bytes as they come and returns whole packets whose CRC matches. A bad CRC
drops only the first sync byte and searches again from there, so a truncated packet followed by
a good one loses only the truncated one. A partial packet left waiting longer than
``stale_ms`` is dropped as truncated (see :meth:`Parser.expire`).

:meth:`Parser.wanted` says how many bytes to read next without waiting for more than a valid
packet can carry: a header whose length is over ``max_payload`` (the host's frame, once its ping
said how long that is) is dropped at once, and a frame whose length is not the ``expected`` one
(the last good frame's) is read one byte at a time, so a damaged length byte never makes the
reader wait for the packet after next; it goes stale and the good frame behind it is found.

>>> p = Parser()
>>> p.feed(encode(KIND_FRAME, 7, bytes([1, 2, 3])))
[(70, 7, b'\\x01\\x02\\x03')]
>>> bad = bytearray(encode(KIND_FRAME, 8, bytes([1, 2, 3]))); bad[8] ^= 0xFF
>>> p.feed(bytes(bad)), p.crc_errors
([], 1)
"""

import struct

try:
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - a MicroPython build without binascii.crc32
    _crc32 = None

SYNC = b"\xa5\x5a"
HEADER = 7  # sync (2) + kind (1) + seq (2) + length (2)
TRAILER = 4  # CRC-32
MAX_PAYLOAD = 3 * 1024  # 1024 LEDs
KIND_FRAME = 0x46  # "F"
KIND_PING = 0x50  # "P"
KIND_QUIT = 0x51  # "Q"
KIND_VERSION = 0x56  # "V"
KINDS = (KIND_FRAME, KIND_PING, KIND_QUIT, KIND_VERSION)

_TABLE = None


def crc32_py(data, crc=0):
    """CRC-32 in plain Python, equal to ``zlib.crc32`` (for boards without ``binascii.crc32``).

    >>> hex(crc32_py(b"123456789"))
    '0xcbf43926'
    """
    global _TABLE
    if _TABLE is None:
        table = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            table.append(c)
        _TABLE = table
    table = _TABLE
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data):
    """The packet checksum (the C one when the board has it)."""
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    return crc32_py(data)  # pragma: no cover


def encode(kind, seq, payload):
    """One packet of ``kind`` with sequence number ``seq`` (mod 65536) around ``payload``."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = struct.pack("<BHH", kind, seq & 0xFFFF, len(payload)) + bytes(payload)
    return SYNC + body + struct.pack("<I", crc32(body))


def seq_newer(seq, last):
    """True when ``seq`` comes after ``last`` (16-bit, wrapping; half the range counts ahead).

    >>> seq_newer(5, 4), seq_newer(4, 5), seq_newer(0, 65535), seq_newer(9, 9)
    (True, False, True, False)
    """
    diff = (seq - last) & 0xFFFF
    return 0 < diff < 0x8000


class Parser:
    """Cuts a byte stream into checked packets, counting what it had to drop."""

    def __init__(self, max_payload=MAX_PAYLOAD, stale_ms=200):
        self.buf = b""
        self.max_payload = max_payload
        self.limit = max_payload  # the most the strip can show; max_payload may be lower
        self.expected = None  # the length of a good frame (the host's), once known
        self.stale_ms = stale_ms
        self.last_rx = 0
        self.crc_errors = 0
        self.truncated = 0
        self.bad_headers = 0
        self.skipped = 0  # bytes thrown away while looking for a sync

    def wanted(self):
        """How many more bytes the packet being read needs (at least 1); the Pico reads exactly
        this many, because its USB stdin cannot tell how many bytes are waiting."""
        n = len(self.buf)
        if n < HEADER:
            return max(1, HEADER - n) if n and self.buf[0] == 0xA5 else 1
        length = self.buf[5] | (self.buf[6] << 8)
        if length > self.max_payload:
            return 1
        if self.buf[2] == KIND_FRAME and self.expected is not None and length != self.expected:
            return 1  # a doubtful length: only what has arrived, so it can go stale
        return max(1, HEADER + length + TRAILER - n)

    def host_frame(self, length):
        """The host's frames are ``length`` bytes (its ping said so; 0: unknown): longer
        packets are refused at the header, and that length is the one expected."""
        if 0 < length <= self.limit:
            self.max_payload = length
            self.expected = length
        else:
            self.max_payload = self.limit
            self.expected = None

    def expire(self, now_ms):
        """The host stopped mid-packet: when a partial packet has waited more than
        ``stale_ms``, drop its first byte and search the rest again (a false header from line
        noise may be hiding good packets behind its length). Returns the packets found."""
        out = []
        if self.buf and _diff(now_ms, self.last_rx) > self.stale_ms:
            self.truncated += 1
            while self.buf:
                self.buf = self.buf[1:]
                self.skipped += 1
                out.extend(self.feed(b"", now_ms))
        return out

    def feed(self, data, now_ms=0):
        """Add ``data``; return the list of whole, checked packets as (kind, seq, payload)."""
        if data:
            self.buf = self.buf + bytes(data)
            self.last_rx = now_ms
        out = []
        buf = self.buf
        while True:
            start = buf.find(SYNC)
            if start < 0:
                # keep a trailing first sync byte, drop the rest
                keep = 1 if buf[-1:] == SYNC[:1] else 0
                self.skipped += len(buf) - keep
                buf = buf[len(buf) - keep:]
                break
            if start:
                self.skipped += start
                buf = buf[start:]
            if len(buf) < HEADER:
                break
            kind = buf[2]
            length = buf[5] | (buf[6] << 8)
            if kind not in KINDS or length > self.max_payload:
                self.bad_headers += 1
                buf = buf[1:]
                continue
            end = HEADER + length + TRAILER
            if len(buf) < end:
                break
            body = buf[2:HEADER + length]
            (want,) = struct.unpack("<I", buf[HEADER + length:end])
            if crc32(body) != want:
                self.crc_errors += 1
                buf = buf[1:]  # resync from the next byte: a good packet may start inside
                continue
            seq = buf[3] | (buf[4] << 8)
            out.append((kind, seq, bytes(buf[HEADER:HEADER + length])))
            buf = buf[end:]
        self.buf = buf
        return out


def _diff(a, b):
    try:
        from time import ticks_diff
    except ImportError:
        return a - b
    return ticks_diff(a, b)  # pragma: no cover - MicroPython's wrapping millisecond clock
