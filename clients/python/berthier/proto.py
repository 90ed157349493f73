"""The generated protocol module, with a clear message when the build has not
made it yet."""

try:
    from berthier.v1 import berthier_pb2 as pb  # noqa: F401
except ImportError as e:  # pragma: no cover
    raise ImportError(
        "berthier.v1.berthier_pb2 not found: build the project (make build) and put "
        "<build>/python on PYTHONPATH, or set BERTHIER_PYTHON_GEN (clients/python/README.md)") from e


def ruleset_module(ruleset):
    """The generated module of a ruleset's messages (e.g. duel -> duel.v1.duel_pb2), or None."""
    import importlib
    try:
        return importlib.import_module("%s.v1.%s_pb2" % (ruleset, ruleset))
    except ImportError:
        return None
