"""The compiled core: Cython compiles some of morphchess's own modules, unchanged, into C extensions.

The modules stay ordinary Python (Cython's pure-Python mode, with ``.pxd`` files beside
some of them), so a machine without a C compiler, or a module that fails to compile, still
installs morphchess and runs the same source uncompiled.  Everything else about the
package is in ``pyproject.toml``; ``docs/install.md`` says how to tell which path runs.
"""

import os
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules Cython compiles: the core (rules) and the engine's search.
COMPILED = ["morphchess.pieces", "morphchess.move", "morphchess.tables", "morphchess.position",
            "morphchess.engine.tt", "morphchess.engine.see", "morphchess.engine.movepick",
            "morphchess.engine.evaluate", "morphchess.engine.search"]


class OptionalBuildExt(build_ext):
    """Cythonizes and compiles :data:`COMPILED`, each module on its own: a module that Cython or the
    C compiler cannot build (or every one, without Cython or a compiler) stays Python source, and
    one line says so; the package installs all the same."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = self.cythonized(self.distribution.ext_modules or [])
        super().finalize_options()

    def cythonized(self, extensions: list[Extension]) -> list[Extension]:
        try:
            from Cython.Build import cythonize
        except ImportError:
            self.pure_path(extensions, "Cython is not installed")
            return []
        out = []
        for ext in extensions:
            try:
                out += cythonize([ext], build_dir="build/cython", quiet=True,
                                 compiler_directives={"language_level": "3", "annotation_typing": False})
            except Exception:  # Cython refuses the module (its errors are printed above)
                self.pure_path([ext], "Cython cannot compile it")
        for ext in out:
            ext.optional = True  # setuptools then copies only the extensions that were built
        return out

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # no compiler, or a compile error
            self.pure_path([ext], (str(e).strip().splitlines() or [type(e).__name__])[-1])

    def pure_path(self, extensions: list[Extension], reason: str) -> None:
        """Say in one line which modules stay Python source and why, and take away what an earlier
        build left of them in the source tree (it would run instead of the source)."""
        if len(reason) > 100:
            reason = reason[:100] + "..."
        names = ", ".join(ext.name for ext in extensions)
        print(f"morphchess: {names} not compiled ({reason}): the Python source runs instead (the pure-Python "
              "path)", file=sys.stderr)
        for ext in extensions:
            in_tree = os.path.join("src", *ext.name.split(".")) + sysconfig.get_config_var("EXT_SUFFIX")
            for built in (in_tree, self.get_ext_fullpath(ext.name)):
                if os.path.exists(built):
                    os.remove(built)


def extension(module: str) -> Extension:
    return Extension(module, ["src/" + module.replace(".", "/") + ".py"])


setup(ext_modules=[extension(m) for m in COMPILED], cmdclass={"build_ext": OptionalBuildExt})
