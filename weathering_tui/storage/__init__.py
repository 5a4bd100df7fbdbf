"""Where games are kept: save files (`savefile.py`, their metadata and where they live
in `savemeta.py`), atomic writes (`atomicfile.py`), a table's append-only journal of
actions (`journal.py`, written off the event loop by `writer.py`) and tables on Redis
(`redis_store.py`, its server found by `redis_server.py`)."""
