#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""HTTP/2 edge cases against a TabServer listener, one scenario per run.

    h2_edge_cases.py SCENARIO PORT CA_FILE

Connects to 127.0.0.1:PORT over TLS (ALPN h2, the certificate checked against CA_FILE),
plays the scenario with the `h2` package (raw frames from `hyperframe` where a client
library would refuse to send them), prints one `result: ...` line and exits 0 when the
server behaved as it must, 1 (with the reason) when not.
"""
import socket
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions
from h2.settings import SettingCodes
from hpack import Encoder
from hyperframe.frame import (ContinuationFrame, HeadersFrame, PingFrame, RstStreamFrame, SettingsFrame,
                              WindowUpdateFrame)

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
FLOW_CONTROL_ERROR = 0x3
ENHANCE_YOUR_CALM = 0xB


def connect(port, ca_file, receive_buffer=None):
    context = ssl.create_default_context(cafile=ca_file)
    context.set_alpn_protocols(["h2"])
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.settimeout(10)
    raw.connect(("127.0.0.1", port))
    tls = context.wrap_socket(raw, server_hostname="localhost")
    if tls.selected_alpn_protocol() != "h2":
        fail(f"ALPN chose {tls.selected_alpn_protocol()!r}, not h2")
    return tls


def client(tls, settings=None):
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    if settings:
        conn.update_settings(settings)
    tls.sendall(conn.data_to_send())
    return conn


def request_headers(path, method="GET"):
    return [(":method", method), (":path", path), (":scheme", "https"), (":authority", "127.0.0.1")]


def read_events(tls, conn, seconds, until):
    """Feeds what arrives to `conn` until `until(events)` holds, the peer closes, or
    time is up; returns (events, closed)."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        tls.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            data = tls.recv(65536)
        except socket.timeout:
            break
        except (ConnectionResetError, ssl.SSLError, OSError):
            return seen, True
        if not data:
            return seen, True
        try:
            seen += conn.receive_data(data)
        except h2.exceptions.ProtocolError:
            pass
        out = conn.data_to_send()
        if out:
            try:
                tls.sendall(out)
            except OSError:
                return seen, True
        if until(seen):
            return seen, False
    return seen, False


def wait_closed(tls, seconds):
    """Reads raw bytes until the server closes (True) or time is up (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        tls.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not tls.recv(65536):
                return True
        except socket.timeout:
            return False
        except (ConnectionResetError, ssl.SSLError, OSError):
            return True
    return False


def goaway(events):
    return next((e for e in events if isinstance(e, h2.events.ConnectionTerminated)), None)


def fail(reason):
    print(f"result: FAILED {reason}")
    sys.exit(1)


def passed(detail):
    print(f"result: ok {detail}")
    sys.exit(0)


def bad_preface(port, ca_file):
    tls = connect(port, ca_file)
    tls.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + b"x" * 64)
    received = b""
    deadline = time.monotonic() + 5
    closed = False
    while time.monotonic() < deadline:
        try:
            chunk = tls.recv(65536)
        except socket.timeout:
            break
        except (ConnectionResetError, ssl.SSLError, OSError):
            closed = True
            break
        if not chunk:
            closed = True
            break
        received += chunk
    if not closed:
        fail("the connection stayed open after a bad preface")
    if b"HTTP/1.1" in received:
        fail("an HTTP/1.1 answer on an h2 connection")
    # Frames the server sent: its SETTINGS, then GOAWAY (type 7) with PROTOCOL_ERROR.
    types = []
    index = 0
    while index + 9 <= len(received):
        length = int.from_bytes(received[index:index + 3], "big")
        types.append(received[index + 3])
        index += 9 + length
    passed(f"closed; frame types received {types}")


def window_overflow(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    # A stream kept open (POST, no body yet), then its window pushed past 2^31-1.
    conn.send_headers(1, request_headers("/healthz", "POST"), end_stream=False)
    tls.sendall(conn.data_to_send())
    tls.sendall(WindowUpdateFrame(1, window_increment=2**31 - 1).serialize())
    events, closed = read_events(tls, conn, 5, lambda seen: any(
        isinstance(e, (h2.events.StreamReset, h2.events.ConnectionTerminated)) for e in seen))
    reset = next((e for e in events if isinstance(e, h2.events.StreamReset)), None)
    if reset is None or reset.error_code != FLOW_CONTROL_ERROR:
        fail(f"stream window overflow: wanted RST_STREAM FLOW_CONTROL_ERROR, got {events} closed={closed}")
    # The connection's own window the same way: GOAWAY with FLOW_CONTROL_ERROR.
    tls.sendall(WindowUpdateFrame(0, window_increment=2**31 - 1).serialize())
    events, closed = read_events(tls, conn, 5, goaway)
    terminated = goaway(events)
    if terminated is None or terminated.error_code != FLOW_CONTROL_ERROR:
        fail(f"connection window overflow: wanted GOAWAY FLOW_CONTROL_ERROR, got {events} closed={closed}")
    if not (closed or wait_closed(tls, 5)):
        fail("the connection stayed open after its GOAWAY")
    passed("RST_STREAM FLOW_CONTROL_ERROR for the stream, GOAWAY FLOW_CONTROL_ERROR for the connection")


def rapid_reset(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    sent = 0
    stream_id = 1
    closed = False
    try:
        for _ in range(20):
            for _ in range(50):
                conn.send_headers(stream_id, request_headers("/healthz"), end_stream=True)
                conn.reset_stream(stream_id)
                stream_id += 2
                sent += 1
            tls.sendall(conn.data_to_send())
    except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
        closed = True
    events, closed_later = read_events(tls, conn, 5, goaway) if not closed else ([], True)
    terminated = goaway(events)
    if terminated is None and not (closed or closed_later):
        fail(f"{sent} streams opened and reset, no GOAWAY and the connection is open")
    if terminated is not None and terminated.error_code != ENHANCE_YOUR_CALM:
        fail(f"GOAWAY with {terminated.error_code}, not ENHANCE_YOUR_CALM")
    code = terminated.error_code if terminated else None
    passed(f"after {sent} resets: GOAWAY error_code={code} last_stream_id="
           f"{terminated.last_stream_id if terminated else None}")


def continuation_flood(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    read_events(tls, conn, 1, lambda seen: any(isinstance(e, h2.events.RemoteSettingsChanged) for e in seen))
    block = Encoder().encode(request_headers("/healthz") + [(f"x-filler-{i}", "a" * 40) for i in range(4000)])
    chunks = [block[i:i + 32] for i in range(0, len(block), 32)]
    sent = 0
    events = []
    closed = False
    # A few frames at a time, looking for the server's GOAWAY in between: how many it
    # took before it gave up is the bound.
    try:
        tls.sendall(HeadersFrame(1, chunks[0], flags=["END_STREAM"]).serialize())
        for start in range(1, len(chunks), 4):
            tls.sendall(b"".join(ContinuationFrame(1, chunk).serialize() for chunk in chunks[start:start + 4]))
            sent += len(chunks[start:start + 4])
            more, closed = read_events(tls, conn, 0.02, goaway)
            events += more
            if closed or goaway(events):
                break
    except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
        closed = True
    if not (closed or goaway(events)):
        more, closed = read_events(tls, conn, 5, goaway)
        events += more
    if not (closed or goaway(events)):
        fail(f"{sent} CONTINUATION frames sent without END_HEADERS and the connection is open")
    if sent > 200:
        fail(f"the server took {sent} CONTINUATION frames before it ended the connection")
    if not (closed or wait_closed(tls, 5)):
        fail("a GOAWAY but the connection stayed open")
    terminated = goaway(events)
    passed(f"ended after {sent} of {len(chunks) - 1} CONTINUATION frames; "
           f"GOAWAY error_code={terminated.error_code if terminated else None}")


def flood(port, ca_file, frame, name):
    # A small receive buffer: the server's answers (ACKs) pile up soon.
    tls = connect(port, ca_file, receive_buffer=4096)
    conn = client(tls)
    payload = frame.serialize() * 1000
    sent = 0
    started = time.monotonic()
    closed = False
    try:
        while sent < 2_000_000 and time.monotonic() - started < 30:
            tls.sendall(payload)
            sent += 1000
    except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError, socket.timeout):
        closed = True
    if not closed:
        closed = wait_closed(tls, 5)
    if not closed:
        fail(f"{sent} {name} frames never read back and the connection is open")
    passed(f"closed after about {sent} {name} frames")


def raw_frames(data):
    """(type, flags, stream id, payload) of each whole frame in `data`."""
    frames, index = [], 0
    while index + 9 <= len(data):
        length = int.from_bytes(data[index:index + 3], "big")
        if index + 9 + length > len(data):
            break
        stream = int.from_bytes(data[index + 5:index + 9], "big") & 0x7FFFFFFF
        frames.append((data[index + 3], data[index + 4], stream, data[index + 9:index + 9 + length]))
        index += 9 + length
    return frames


def too_many_streams(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    read_events(tls, conn, 1, lambda seen: any(isinstance(e, h2.events.SettingsAcknowledged) for e in seen))
    # 100 streams kept open (POST heads, no body yet), then one more, past the limit;
    # its HEADERS built with the connection's own HPACK encoder, sent raw.
    for index in range(100):
        conn.send_headers(1 + 2 * index, request_headers("/healthz", "POST"), end_stream=False)
    extra = 1 + 2 * 100
    block = conn.encoder.encode(request_headers("/healthz"))
    tls.sendall(conn.data_to_send() + HeadersFrame(extra, block, flags=["END_HEADERS", "END_STREAM"]).serialize())
    received = b""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        tls.settimeout(0.2)
        try:
            chunk = tls.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            fail("the connection was closed, not just the extra stream")
        received += chunk
        frames = raw_frames(received)
        away = next((f for f in frames if f[0] == 7), None)
        if away:
            # nghttp2 holds a stream past its own advertised limit a connection error
            # (RFC 9113 §5.1.2 allows a stream or a connection error).
            code = int.from_bytes(away[3][4:8], "big")
            if code != 1:
                fail(f"GOAWAY with error code {code}, not PROTOCOL_ERROR")
            if not wait_closed(tls, 5):
                fail("a GOAWAY but the connection stayed open")
            passed(f"the 101st stream: GOAWAY PROTOCOL_ERROR ({away[3][8:].decode(errors='replace')!r}), closed")
        reset = next((f for f in frames if f[0] == 3 and f[2] == extra), None)
        if reset:
            code = int.from_bytes(reset[3][:4], "big")
            passed(f"stream {extra} (the 101st) reset with error code {code}; the connection stays open")
    fail(f"no RST_STREAM for the 101st stream; frames {[(k, s) for k, _, s, _ in raw_frames(received)]}")


def idle(port, ca_file):
    tls = connect(port, ca_file)
    client(tls)
    started = time.monotonic()
    # The preface and SETTINGS, then nothing: no slot is held past the header deadline.
    if not wait_closed(tls, 15):
        fail("a connection that never sends a request stayed open 15 s")
    passed(f"closed after {time.monotonic() - started:.1f} s without a request")


def lower_stream_id(port, ca_file, first_closed):
    """HEADERS on stream 5, then on stream 3 (RFC 9113 §5.1.1: a connection error of type
    PROTOCOL_ERROR), with stream 5 already answered (`first_closed`) or still open (its
    request not ended). Raw frames: the h2 client refuses to open a lower stream itself."""
    PROTOCOL_ERROR = 0x1
    GOAWAY = 0x7
    tls = connect(port, ca_file)
    conn = client(tls)
    read_events(tls, conn, 1, lambda seen: any(isinstance(e, h2.events.RemoteSettingsChanged) for e in seen))
    encoder = Encoder()
    if first_closed:
        tls.sendall(HeadersFrame(5, encoder.encode(request_headers("/healthz")),
                                 flags=["END_STREAM", "END_HEADERS"]).serialize())
        received = b""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(
                kind == 0x0 and stream == 5 and flags & 0x1 for kind, flags, stream, _ in raw_frames(received)):
            tls.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                data = tls.recv(65536)
            except socket.timeout:
                break
            if not data:
                fail("closed before stream 5 was answered")
            received += data
        if not any(kind == 0x0 and stream == 5 for kind, _, stream, _ in raw_frames(received)):
            fail(f"stream 5 was not answered; frames {[(k, s) for k, _, s, _ in raw_frames(received)]}")
    else:
        tls.sendall(HeadersFrame(5, encoder.encode(request_headers("/select", "POST")),
                                 flags=["END_HEADERS"]).serialize())
    tls.sendall(HeadersFrame(3, encoder.encode(request_headers("/healthz")),
                             flags=["END_STREAM", "END_HEADERS"]).serialize())
    received = b""
    closed = False
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        tls.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            data = tls.recv(65536)
        except socket.timeout:
            break
        except (ConnectionResetError, ssl.SSLError, OSError):
            closed = True
            break
        if not data:
            closed = True
            break
        received += data
    frames = raw_frames(received)
    away = next((f for f in frames if f[0] == GOAWAY), None)
    if away is None:
        fail(f"no GOAWAY after HEADERS on stream 3 (closed={closed}); frames {[(k, s) for k, _, s, _ in frames]}")
    last_stream = int.from_bytes(away[3][0:4], "big") & 0x7FFFFFFF
    code = int.from_bytes(away[3][4:8], "big")
    if code != PROTOCOL_ERROR:
        fail(f"GOAWAY with error code {code}, not PROTOCOL_ERROR")
    if last_stream != 5:
        fail(f"GOAWAY names stream {last_stream} as the last processed, not 5")
    if any(kind == 0x1 and stream == 3 for kind, _, stream, _ in frames):
        fail("stream 3 was answered")
    if not closed:
        fail("GOAWAY, but the connection stayed open")
    passed(f"GOAWAY PROTOCOL_ERROR last_stream_id=5 ({away[3][8:].decode(errors='replace')!r}), closed")


def idle_after_request(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    conn.send_headers(1, request_headers("/healthz"), end_stream=True)
    tls.sendall(conn.data_to_send())
    events, closed = read_events(tls, conn, 5, lambda seen: any(
        isinstance(e, h2.events.StreamEnded) for e in seen))
    if closed or not any(isinstance(e, h2.events.StreamEnded) for e in events):
        fail(f"no answer to /healthz (closed={closed})")
    started = time.monotonic()
    # Its stream is over once its last frame is out: the connection is idle from then.
    events, closed = read_events(tls, conn, 15, goaway)
    if not (closed or goaway(events)):
        fail("a connection idle after its request stayed open 15 s")
    passed(f"GOAWAY and close {time.monotonic() - started:.1f} s after the last answer")


def body_too_large(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    # A body past --max-body (64 KiB), sent as the windows allow, never ended.
    conn.send_headers(1, request_headers("/select", "POST") + [("content-length", "100000")], end_stream=False)
    tls.sendall(conn.data_to_send())
    sent, events = 0, []
    deadline = time.monotonic() + 10
    while sent < 70000 and time.monotonic() < deadline:
        room = min(conn.local_flow_control_window(1), 70000 - sent, 16384)
        if room > 0:
            conn.send_data(1, b"x" * room)
            sent += room
            tls.sendall(conn.data_to_send())
        more, closed = read_events(tls, conn, 0.2, lambda seen: any(
            isinstance(e, h2.events.ResponseReceived) for e in seen))
        events += more
        if closed:
            fail(f"closed after {sent} body bytes")
        if any(isinstance(e, h2.events.ResponseReceived) for e in events):
            break
    response = next((e for e in events if isinstance(e, h2.events.ResponseReceived)), None)
    status = dict(response.headers).get(":status") if response else None
    if status != "413":
        fail(f"wanted 413 for a body past the limit, got {status} after {sent} bytes")
    conn.send_headers(3, request_headers("/healthz"), end_stream=True)
    tls.sendall(conn.data_to_send())
    events, closed = read_events(tls, conn, 10, lambda seen: any(
        isinstance(e, h2.events.StreamReset) and e.stream_id == 1 for e in seen))
    if not any(isinstance(e, h2.events.StreamEnded) and e.stream_id == 3 for e in events):
        fail(f"no answer on stream 3 after the 413 (closed={closed})")
    reset = next((e for e in events if isinstance(e, h2.events.StreamReset) and e.stream_id == 1), None)
    if reset is None or reset.error_code != 0 or closed:
        fail(f"wanted the unfinished upload's stream let go (RST_STREAM NO_ERROR), got {reset} closed={closed}")
    passed(f"413 after {sent} bytes; stream 3 answered; the upload's stream reset with NO_ERROR, connection open")


def slow_request(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls)
    # A POST whose body never comes: the stream gets 408, the connection lives on.
    conn.send_headers(1, request_headers("/select", "POST") + [("content-length", "10")], end_stream=False)
    tls.sendall(conn.data_to_send())
    started = time.monotonic()
    events, closed = read_events(tls, conn, 15, lambda seen: any(
        isinstance(e, h2.events.ResponseReceived) for e in seen))
    response = next((e for e in events if isinstance(e, h2.events.ResponseReceived)), None)
    status = dict(response.headers).get(":status") if response else None
    if status != "408":
        fail(f"wanted a 408 for a request that never completes, got {status} (closed={closed})")
    conn.send_headers(3, request_headers("/healthz"), end_stream=True)
    tls.sendall(conn.data_to_send())
    events, closed = read_events(tls, conn, 5, lambda seen: any(
        isinstance(e, h2.events.StreamEnded) and e.stream_id == 3 for e in seen))
    if not any(isinstance(e, h2.events.StreamEnded) and e.stream_id == 3 for e in events):
        fail(f"the connection did not serve another stream after the 408 (closed={closed})")
    passed(f"408 after {time.monotonic() - started:.1f} s; the next stream answered")


def zero_window(port, ca_file):
    tls = connect(port, ca_file)
    conn = client(tls, {SettingCodes.INITIAL_WINDOW_SIZE: 0})
    read_events(tls, conn, 1, lambda seen: any(isinstance(e, h2.events.SettingsAcknowledged) for e in seen))
    conn.send_headers(1, request_headers("/healthz"), end_stream=True)
    tls.sendall(conn.data_to_send())
    started = time.monotonic()
    # Never a WINDOW_UPDATE: the page cannot be sent; the server must cut the connection.
    closed = wait_closed(tls, 20)
    if not closed:
        fail("a client that keeps its window shut kept the connection for 20 s")
    passed(f"cut after {time.monotonic() - started:.1f} s")


def main():
    scenario, port, ca_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    scenarios = {
        "bad-preface": lambda: bad_preface(port, ca_file),
        "window-overflow": lambda: window_overflow(port, ca_file),
        "rapid-reset": lambda: rapid_reset(port, ca_file),
        "continuation-flood": lambda: continuation_flood(port, ca_file),
        "settings-flood": lambda: flood(port, ca_file, SettingsFrame(0), "SETTINGS"),
        "ping-flood": lambda: flood(port, ca_file, PingFrame(0, opaque_data=b"12345678"), "PING"),
        "zero-window": lambda: zero_window(port, ca_file),
        "too-many-streams": lambda: too_many_streams(port, ca_file),
        "idle": lambda: idle(port, ca_file),
        "idle-after-request": lambda: idle_after_request(port, ca_file),
        "slow-request": lambda: slow_request(port, ca_file),
        "body-too-large": lambda: body_too_large(port, ca_file),
        "lower-stream-id-closed": lambda: lower_stream_id(port, ca_file, first_closed=True),
        "lower-stream-id-open": lambda: lower_stream_id(port, ca_file, first_closed=False),
    }
    if scenario not in scenarios:
        fail(f"unknown scenario {scenario!r}; one of {sorted(scenarios)}")
    scenarios[scenario]()


if __name__ == "__main__":
    main()
