"""Whose address a connection counts against: the peer's, or behind a trusted load
balancer the client's it forwards in ``X-Forwarded-For``.

Only a peer in ``--trusted-proxies`` is believed (by default none: the operator names
the balancer, as deploy/ does), and only as far as its own entries go:
a proxy appends the address it got the request from to whatever the header held, so
the header is read from the right, past the trusted proxies, and the first address
that is not one of them is the client (what a client wrote into the header itself
sits further left and is never reached). deploy/haproxy.cfg (``option forwardfor``) and
deploy/nginx.conf (``$proxy_add_x_forwarded_for``) send it. Pure: tested without a
socket.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: the length of an IPv6 prefix counted as one address: a host is usually handed a
#: whole /64, and would otherwise have 2^64 addresses to spread requests over
IPV6_PREFIX = 64
#: what every loopback address counts as: 127.0.0.0/8 (and ::1) is one machine, which
#: could otherwise spread its requests over 16 million addresses of its own
LOOPBACK = "127.0.0.0/8"


def parse_networks(spec: str) -> tuple[Network, ...]:
    """``"127.0.0.1,::1,10.0.0.0/8"`` as networks (``""`` or ``"none"``: none);
    ``ValueError`` names a bad entry."""
    words = [w.strip() for w in spec.split(",") if w.strip()]
    if words == ["none"]:
        return ()
    return tuple(ipaddress.ip_network(w, strict=False) for w in words)


def _address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, proxies: Sequence[Network]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def client_address(peer: str | None, forwarded: Iterable[str], proxies: Sequence[Network]) -> str:
    """The address a connection counts against: ``peer`` (the socket's), or when
    ``peer`` is a trusted proxy the rightmost untrusted address of the
    ``X-Forwarded-For`` headers ``forwarded`` (all of them, in order). An entry
    that is no address ends the walk (the last good one stands). IPv6 addresses
    count by their /64 (``2001:db8::/64``), every loopback address as one
    (:data:`LOOPBACK`)."""
    found = _address(peer or "")
    if found is None:
        return peer or "unknown"
    if _trusted(found, proxies):
        hops = [hop for header in forwarded for hop in header.split(",")]
        for hop in reversed(hops):
            address = _address(hop)
            if address is None:
                break
            found = address
            if not _trusted(address, proxies):
                break
    if found.is_loopback:
        return LOOPBACK
    if isinstance(found, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{found}/{IPV6_PREFIX}", strict=False))
    return str(found)
