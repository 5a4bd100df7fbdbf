"""The cluster's channel (a part of `Cluster`): what the owners of remote tables send
this server's players, published on `server:ID:out` (net/cluster.py says why pub/sub)."""

from __future__ import annotations

import asyncio
import contextlib

from .cluster_base import TICK


class ClusterRelay:
    """Mixed into `Cluster`: its state lives in `Cluster.cluster_init`."""

    async def subscribe(self):
        """Our channel, subscribed (its confirmation read: nothing published after this
        returns is missed), and watched for the Redis client subscribing again."""
        pubsub = self.aredis.pubsub()
        try:
            await pubsub.subscribe(self.store.key("server", self.server_id, "out"))
            while (await pubsub.get_message(timeout=5.0) or {}).get("type") != "subscribe":
                pass
            pubsub.connection.register_connect_callback(self.reconnected.connected)
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        return pubsub

    async def _relay_loop(self, pubsub=None) -> None:
        """What the owners of remote tables send this server's players (our channel;
        first subscribed as the server starts). Subscribed again after a dropped link
        (the Redis client does it by itself, or this loop), our players at remote tables
        ask for their seats again: what was published meanwhile is gone, and whole
        views replace it."""
        while not self.cluster_closing:
            try:
                if pubsub is None:
                    pubsub = await self.subscribe()
                    self._ask_again()
                while not self.cluster_closing:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
                    if message is not None and message.get("type") == "message":
                        conn_id, _, line = message["data"].partition(b" ")
                        self._deliver(conn_id.decode(), line)
            except Exception:  # noqa: BLE001 - Redis away: subscribe again in a moment
                await asyncio.sleep(TICK)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                pubsub = None

    def _ask_again(self) -> None:
        """Every seat our players hold at remote tables, asked of its owner again."""
        for name in list(self.forwarded):
            entry = self.remote.get(name)
            if entry is not None and entry["owner"]:
                self._owner_changed(name, entry)


class Reconnected:
    """Told by the Redis client each time the subscription's connection is made again
    (the client keeps callbacks as weak references to methods: hence an object)."""

    def __init__(self, then):
        self.then = then

    def connected(self, _connection) -> None:
        self.then()
