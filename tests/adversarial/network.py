"""Attempt: reach the network: a TCP connection to 1.1.1.1:53, a DNS query over UDP to it,
a name lookup, and a connection to the localhost port the test opens (``CONFIG``), which
it would use to send out what it found.

At ``namespace`` every attempt must fail (no network at all, the test's listener sees no
connection). At ``user`` and ``process`` there is no network isolation (not protected)."""

import json
import os
import socket
import sys

CONFIG = {}  # the test writes its settings here
TOKEN = CONFIG.get("token", "adversary-network")


def attempt(action):
    try:
        return "ok:" + str(action())[:40]
    except Exception as err:
        return "denied:" + type(err).__name__


def connect(host, port):
    with socket.create_connection((host, port), timeout=1) as connection:
        connection.sendall(f"hello from {TOKEN}\n".encode())
        return "connected"


def dns_over_udp():
    header = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
    query = header + b"\x07example\x03com\x00\x00\x01\x00\x01"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.settimeout(1)
        udp.sendto(query, ("1.1.1.1", 53))
        return len(udp.recv(512))


found = {"uid": os.getuid()}
if CONFIG.get("outside", True):
    found["tcp-1.1.1.1"] = attempt(lambda: connect("1.1.1.1", 53))
    found["udp-dns"] = attempt(dns_over_udp)
    found["lookup"] = attempt(lambda: socket.getaddrinfo("example.com", 443)[0][4])
if "port" in CONFIG:
    found["localhost"] = attempt(lambda: connect("127.0.0.1", CONFIG["port"]))
sys.stderr.write("ADVERSARY " + json.dumps(found) + "\n")
