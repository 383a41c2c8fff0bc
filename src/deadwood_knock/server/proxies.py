"""Who the client is, behind trusted reverse proxies (what rate limits key on).

Only a peer listed in ``trusted_proxies`` may speak for the client through
``X-Forwarded-For``; the header is read from the right (the hop nearest us), skipping
addresses that are themselves trusted proxies, and the first other address is the
client. Anything unparsable stops the walk, so a client cannot forge its way past a
proxy that appends to the header.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from functools import lru_cache

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=32)
def networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in trusted)


def _trusted(address: str, nets: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in nets)


def client_address(peer: str | None, forwarded_for: Iterable[str], trusted: tuple[str, ...]) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy that names another."""
    client = peer or "unknown"
    nets = networks(trusted)
    if not nets or not _trusted(client, nets):
        return client
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break
        client = hop
        if not _trusted(hop, nets):
            break
    return client
