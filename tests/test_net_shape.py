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
