"""The web app's routers, one module per feature (games, talk, analysis, ...)."""
