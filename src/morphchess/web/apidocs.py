"""The API's documentation page, ``/docs``: Swagger UI 5 (it reads the OpenAPI 3.1 document FastAPI
writes), served from this server's own files (the swagger-ui-bundle-v2 package), so that it works
offline and under the page's Content-Security-Policy (no inline script: ``static/js/docs.js`` starts it).
"""

from __future__ import annotations

from importlib import resources

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["install"]


def install(app: FastAPI) -> None:
    """Serve ``/docs`` and the Swagger UI files under ``/docs-assets``."""
    import swagger_ui_bundle

    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_bundle.swagger_ui_path)), name="docs-assets")
    page = str(resources.files(__package__).joinpath("static", "docs.html"))

    @app.get("/docs", include_in_schema=False)
    def docs():
        return FileResponse(page)
