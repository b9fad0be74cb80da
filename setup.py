"""The compiled core: Cython compiles some of morphchess's own modules, unchanged, into C extensions.

The modules stay ordinary Python (Cython's pure-Python mode, with ``.pxd`` files beside
some of them), so a machine without a C compiler, or a build where compiling fails, still
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
    """Cythonizes and compiles :data:`COMPILED`; when Cython, the compiler or the compile
    fails, the package still installs and one line says it runs on the pure-Python path."""

    def finalize_options(self) -> None:
        try:
            from Cython.Build import cythonize

            self.distribution.ext_modules = cythonize(self.distribution.ext_modules, build_dir="build/cython",
                                                      quiet=True, compiler_directives={"language_level": "3"})
        except Exception as e:  # no Cython, or Cython refuses a module
            self.distribution.ext_modules = []
            self.pure_path(e)
        super().finalize_options()

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, or a compile error
            self.pure_path(e)

    def pure_path(self, error: Exception) -> None:
        """Say in one line why the compiled core was not built, and take away the modules an
        earlier build left in the source tree (they would run instead of the source)."""
        reason = (str(error).strip().splitlines() or [type(error).__name__])[-1]
        if len(reason) > 100:
            reason = reason[:100] + "..."
        print(f"morphchess: the compiled core was not built ({reason}); morphchess runs on the pure-Python "
              "path", file=sys.stderr)
        for module in COMPILED:
            built = os.path.join("src", *module.split(".")) + sysconfig.get_config_var("EXT_SUFFIX")
            if os.path.exists(built):
                os.remove(built)

def extension(module: str) -> Extension:
    return Extension(module, ["src/" + module.replace(".", "/") + ".py"])


setup(ext_modules=[extension(m) for m in COMPILED], cmdclass={"build_ext": OptionalBuildExt})
