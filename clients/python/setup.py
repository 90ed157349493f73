"""Build hook for pyproject.toml: put the protocol modules generated from the
repository's proto/ (berthier.v1.berthier_pb2, duel.v1.duel_pb2, n20.v1.n20_pb2)
into the package as berthier/_generated/, where berthier/__init__.py finds them.

The in-process game library (berthier.local) is copied into the package too,
from $BERTHIER_LOCAL_LIB or a build in the tree (../../build/lib), when there.

They are made with protoc when it and the proto directory are there (a clone:
../../proto, or $BERTHIER_PROTO_DIR), else copied from $BERTHIER_PYTHON_GEN (a
build's <build>/python). Without either the package installs without them: the
verifier needs none, and berthier.proto says what is missing when imported.
"""

import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _proto_dir():
    d = os.environ.get("BERTHIER_PROTO_DIR") or os.path.join(HERE, "..", "..", "proto")
    return os.path.abspath(d) if glob.glob(os.path.join(d, "*", "v1", "*.proto")) else None


class BuildWithProto(build_py):
    def run(self):
        super().run()
        out = os.path.join(self.build_lib, "berthier", "_generated")
        proto = _proto_dir()
        protoc = shutil.which("protoc")
        gen = os.environ.get("BERTHIER_PYTHON_GEN")
        if proto and protoc:
            os.makedirs(out, exist_ok=True)
            rels = sorted(os.path.relpath(p, proto) for p in glob.glob(os.path.join(proto, "*", "v1", "*.proto")))
            subprocess.check_call([protoc, "--python_out=" + out, "-I", proto] + rels)
        elif gen and os.path.isdir(os.path.join(gen, "berthier")):
            shutil.copytree(gen, out, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            self.announce("berthier: no protoc and proto/ (or BERTHIER_PYTHON_GEN): the protocol "
                          "modules are not installed", level=3)
        lib = os.environ.get("BERTHIER_LOCAL_LIB") or os.path.join(HERE, "..", "..", "build", "lib",
                                                                   "libberthier_local.so")
        if os.path.isfile(lib):
            shutil.copy(lib, os.path.join(self.build_lib, "berthier", "libberthier_local.so"))
        else:
            self.announce("berthier: no libberthier_local.so (BERTHIER_LOCAL_LIB or build/lib): "
                          "berthier.local will look for it at run time", level=3)


setup(cmdclass={"build_py": BuildWithProto})
