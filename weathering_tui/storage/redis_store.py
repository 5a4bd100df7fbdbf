"""Tables kept in Redis (`weathering serve --store redis://HOST:PORT/N`).

A table's game is two keys, under a prefix (`weathering:` by default), and the set of
names:

- `table:NAME:save` — the table's TOML save (the game compacted: setup, actions, state,
  and the table's seats in [meta.table]), the same text a `tables/NAME.toml` holds;
- `table:NAME:journal` — a Redis Stream, one entry per action beyond the save
  (fields `n`: the action's index, `action`: its JSON), appended before any view that
  shows its result leaves the server (`RedisJournal`);
- `tables` — the set of table names.

The servers sharing a store keep more beside them (net/cluster.py: each table's lease
`table:NAME:owner`, its lobby `summary`, a table not started yet as `waiting`, read
here too, the commands relayed to its owner, each server's liveness): this module only
reads and writes the games.

Compaction (a new save, then an empty journal) is atomic, so a reader never sees the
save without its journal or an action twice: a MULTI/EXEC transaction, or, while a
server holds the table's lease, a Lua script that first checks the lease is still its
own (`FENCED_SAVE`; appends likewise, `FENCED_APPEND`). `export_table` writes a table
out as a TOML save.

Durability is Redis's: run it with `appendonly yes` and `appendfsync always` (the
README's "Many machines" section) so that an acknowledged append survives a Redis
restart. Every call here blocks on the network: the server makes them off its event
loop (in a thread: a table's writes in storage/writer.py's), as it does for file writes.
"""

from __future__ import annotations

import json
from urllib.parse import urlparse

from .journal import action_to_data

PREFIX = "weathering:"


class StoreError(OSError):
    """The store cannot be reached or refused: the message says which, plainly. An
    OSError, as a failing disk is: the server handles both the same way (nothing is
    shown until it is written; the table waits and tries again)."""


def _guarded(method):
    """Redis's errors as StoreError, naming the store."""

    def call(self, *args, **kwargs):
        store = self if isinstance(self, RedisStore) else self.store
        try:
            return method(self, *args, **kwargs)
        except store.errors as exc:
            raise StoreError(f"Redis at {store.shown}: {exc}") from None

    call.__name__, call.__doc__ = method.__name__, method.__doc__
    return call


def parse_url(url: str) -> dict:
    """`redis://HOST:PORT/N` → the client's keyword arguments; StoreError if not one."""
    parsed = urlparse(url)
    if parsed.scheme != "redis" or not parsed.hostname:
        raise StoreError(f"not a Redis URL (redis://HOST:PORT/N): {url}")
    try:
        db = int(parsed.path.lstrip("/") or 0)
        port = parsed.port or 6379
    except ValueError:
        raise StoreError(f"not a Redis URL (redis://HOST:PORT/N): {url}") from None
    return {"host": parsed.hostname, "port": port, "db": db, "password": parsed.password}


def _bytes(reply: object) -> bytes | None:
    """A reply of this client (decode_responses=False): bytes or nothing. Redis' own types
    cannot tell, and say `bytes | str` for every client."""
    assert reply is None or isinstance(reply, bytes), reply
    return reply


class RedisStore:
    """The tables of every server that shares this Redis database."""

    def __init__(self, url: str, prefix: str = PREFIX, timeout: float = 2.0):
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.url = url
        self.prefix = prefix
        self.errors = (redis.RedisError, OSError)
        self.redis = redis.Redis(
            **parse_url(url),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            decode_responses=False,
            # Fail fast: the server's own loop retries every second, and tells the
            # table's players it is paused meanwhile.
            retry=Retry(NoBackoff(), 1),
        )

    @property
    def shown(self) -> str:
        """The store's address, without its password (for messages)."""
        where = parse_url(self.url)
        return f"redis://{where['host']}:{where['port']}/{where['db']}"

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    @_guarded
    def ping(self) -> None:
        """StoreError unless Redis answers."""
        self.redis.ping()

    @_guarded
    def names(self) -> list[str]:
        members = self.redis.smembers(self.key("tables"))
        return sorted(name.decode() for name in map(_bytes, members) if name is not None)

    @_guarded
    def summary(self, name: str) -> dict | None:
        """The table's lobby summary as its owner last wrote it."""
        raw = self.redis.get(self.key("table", name, "summary"))
        return json.loads(raw) if raw else None

    @_guarded
    def read_waiting(self, name: str) -> dict | None:
        """A table not started yet, as its owner made it (`TableSaves.waiting_record`)."""
        raw = self.redis.get(self.key("table", name, "waiting"))
        return json.loads(raw) if raw else None

    @_guarded
    def read_save(self, name: str) -> bytes | None:
        return _bytes(self.redis.get(self.key("table", name, "save")))

    @_guarded
    def write_save(self, name: str, text: bytes, fence: tuple[str, str] | None = None) -> None:
        """The compacted save, with an empty journal: one transaction (fenced by the
        table's lease when there is one)."""
        if fence is not None:
            keys = [fence[0], self.key("table", name, "save")]
            keys += [self.key("table", name, "journal"), self.key("tables")]
            self.redis.eval(FENCED_SAVE, 4, *keys, fence[1], name, text)
            return
        pipe = self.redis.pipeline(transaction=True)
        pipe.sadd(self.key("tables"), name)
        pipe.set(self.key("table", name, "save"), text)
        pipe.delete(self.key("table", name, "journal"))
        pipe.execute()

    def journal(self, name: str, fresh: bool = False) -> RedisJournal:
        """The table's journal (`fresh`: a table just made, known to be empty)."""
        return RedisJournal(self, name, fresh)


FENCED_APPEND = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('LEASE this server no longer owns the table')
end
for i = 2, #ARGV, 2 do
  redis.call('XADD', KEYS[2], '*', 'n', ARGV[i], 'action', ARGV[i + 1])
end
return 1
"""
FENCED_SAVE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('LEASE this server no longer owns the table')
end
redis.call('SADD', KEYS[4], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('DEL', KEYS[3])
return 1
"""


class RedisJournal:
    """A table's journal as a Redis Stream (the `Journal` interface of journal.py).
    With a `fence` (the lease's key, the server's id), an append or a compaction
    happens only while the lease is this server's: one writer, always."""

    def __init__(self, store: RedisStore, name: str, fresh: bool = False):
        self.store = store
        self.name = name
        self.stream = store.key("table", name, "journal")
        self.fence: tuple[str, str] | None = None
        self.length = 0 if fresh else self._length()

    @_guarded
    def _length(self) -> int:
        return self.store.redis.xlen(self.stream)

    @_guarded
    def append(self, start: int, actions: list) -> None:
        pairs: list[int | str] = []
        for i, action in enumerate(actions):
            pairs += [start + i, json.dumps(action_to_data(action), separators=(",", ":"))]
        if self.fence is not None:
            owner, me = self.fence
            self.store.redis.eval(FENCED_APPEND, 2, owner, self.stream, me, *pairs)
        else:
            pipe = self.store.redis.pipeline(transaction=True)
            for n, data in zip(pairs[::2], pairs[1::2], strict=True):
                pipe.xadd(self.stream, {"n": n, "action": data})
            pipe.execute()
        self.length += len(actions)

    @_guarded
    def entries(self) -> list[tuple[int, dict]]:
        found = []
        stream = self.store.redis.xrange(self.stream)
        assert stream is not None  # XRANGE answers a list, empty for no stream
        for _, fields in stream:
            assert fields is not None  # only a trimmed entry has none: these streams are not
            found.append((int(fields[b"n"]), json.loads(fields[b"action"])))
        return found


def export_table(url: str, table: str, path) -> str:
    """`weathering export --store URL TABLE FILE`: a table kept in Redis (running or
    finished: its save and its journal) written as the usual TOML save. Returns what
    to print; StoreError or SaveError (both plain) when it cannot."""
    from pathlib import Path

    from .journal import read_table
    from .savefile import SaveError, write_save

    store = RedisStore(url)
    keys = store.names()
    key = table if table in keys else None
    if key is None:  # the table's shown name, as the lobby lists it
        for candidate in keys:
            summary = store.summary(candidate)
            if summary and summary.get("name", "").casefold() == table.casefold():
                key = candidate
                break
    if key is None:
        raise StoreError(f"no table {table!r} in {store.shown}")
    raw = store.read_save(key)
    if raw is None:
        raise SaveError(Path(f"{key}.toml"), "not_in_the_store")
    game = read_table(Path(f"{store.shown}/{key}"), raw=raw, journal=store.journal(key))
    written = write_save(Path(path), game)
    state = "finished" if game.state.over else "running"
    return f"exported {key} ({state}, {len(game.actions)} actions) to {written}"
