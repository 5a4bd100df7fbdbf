"""Where games are kept: the append-only journal of a table's actions (files by
default; the storage interface is what a shared store will implement)."""
