"""Alembic environment: migrations run on the connection the server hands over (see db.Database.migrate)."""

from alembic import context

from morphchess.web.db import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
