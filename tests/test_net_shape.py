"""The table server is made of objects that each own their fields, not of classes
stacked from mixins (issue 30): no class of `weathering_tui.net` has more than one base
of the project's own."""

import importlib
import inspect
import pkgutil

import weathering_tui.net as net


def test_no_class_of_the_table_server_stacks_two_bases_of_the_project():
    stacked = []
    for info in pkgutil.iter_modules(net.__path__):
        module = importlib.import_module(f"{net.__name__}.{info.name}")
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            own = [b for b in cls.__bases__ if b.__module__.startswith("weathering_tui.")]
            if len(own) > 1:
                stacked.append(f"{cls.__qualname__}{tuple(b.__name__ for b in own)}")
    assert not stacked, stacked


def test_a_table_owns_its_saves_rather_than_inheriting_them():
    """The authority of a game is one object with no base of the project's: its save and
    journal are an object it holds (`table.saves`), which writes only its own fields."""
    from weathering_tui.net.table import Table
    from weathering_tui.net.table_saves import TableSaves

    assert Table.__bases__ == (object,)
    table = Table("t", "1v1", [0])
    assert isinstance(table.saves, TableSaves) and table.saves.table is table
    before = dict(vars(table))
    table.saves.durable, table.saves.paused = 3, True
    table.saves.want_compact()
    assert {k: v for k, v in vars(table).items() if k != "saves"} == {
        k: v for k, v in before.items() if k != "saves"
    }
